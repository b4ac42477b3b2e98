// Calls a static/js module's exports in node for a Python test (tests/client/node.py): reads
// {module, calls: [[name, ...args], ...]} on stdin and prints the results, in order, as one JSON list.
import { readFileSync } from "node:fs";

const { module, calls } = JSON.parse(readFileSync(0, "utf8"));
const exports = await import(new URL(`../../static/js/${module}`, import.meta.url).href);
const results = [];
for (const [name, ...args] of calls) results.push(await exports[name](...args));
console.log(JSON.stringify(results));
