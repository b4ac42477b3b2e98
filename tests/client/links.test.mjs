// static/js/links.js in node: inline scenarios round-trip through an address, permalinks keep the view, and an
// address too long for a server's request line is told apart.
import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeScenario, encodeScenario, MAX_ADDRESS, permalink, tooLongForAnAddress } from "../../static/js/links.js";

const BASE = { href: "http://127.0.0.1:5000/anything?x=1" };
const scenario = { name: "Été: the marker (fork)", pods: [{ name: "A" }], steps: [{ op: "add", pod: "A" }] };

test("an inline scenario comes back from its address as it went in, accents and all", async () => {
  const text = await encodeScenario(scenario);
  assert.match(text, /^[A-Za-z0-9_-]+$/); // base64url without padding: nothing to escape in a query
  assert.deepEqual(await decodeScenario(text), scenario);
});

test("a scenario object is encoded once", () => {
  assert.equal(encodeScenario(scenario), encodeScenario(scenario));
  assert.notEqual(encodeScenario(scenario), encodeScenario({ ...scenario }));
});

test("a damaged inline value is refused, not read as another scenario", async () => {
  await assert.rejects(decodeScenario("not base64 at all!"));
});

test("a built-in's permalink keeps the view and leaves the defaults out", async () => {
  assert.equal(await permalink("lost-marker", {}, BASE), "http://127.0.0.1:5000/?scenario=lost-marker");
  assert.equal(await permalink("lost-marker", { position: 0, theme: "auto" }, BASE),
    "http://127.0.0.1:5000/?scenario=lost-marker");
  assert.equal(await permalink("lost-marker", { position: 4, versions: ["v1.28.1", "v1.31.0"], theme: "dark",
    presenting: true, predict: true, tables: true }, BASE),
  "http://127.0.0.1:5000/?scenario=lost-marker&position=4&versions=v1.28.1,v1.31.0&theme=dark&presenting=1"
    + "&predict=1&tables=1");
});

test("an inline scenario's permalink carries it and opens it again", async () => {
  const url = new URL(await permalink(scenario, { position: 1 }, BASE));
  assert.equal(url.searchParams.get("position"), "1");
  assert.equal(url.searchParams.has("scenario"), false);
  assert.deepEqual(await decodeScenario(url.searchParams.get("inline")), scenario);
});

test("an address is too long past MAX_ADDRESS characters of path and query, whatever the host", () => {
  const address = (length) => "http://a-very-long-host-name.example:5000/?x=" + "a".repeat(length - "/?x=".length);
  assert.equal(tooLongForAnAddress(address(MAX_ADDRESS)), false);
  assert.equal(tooLongForAnAddress(address(MAX_ADDRESS + 1)), true);
});
