// Text edits the palette makes to a scenario's source, keeping the user's layout and comments: append an item
// to a top-level list (`steps`, `pods`) and read the declared pod names. YAML block lists get one flow-style line
// per item (`  - {op: pop, expect: A}`), a one-line flow list (`pods: [{name: A}]`) gets `, item` before its `]`,
// an empty one (`steps: []`) becomes a block list; JSON text is parsed and written back with two-space indents.
// Whatever cannot be edited this way is an Error whose message says why (the text is left as it was).
// And the whole of a scenario object written as YAML in that same layout (`yamlDocument`: the editor's Format).

const PLAIN = /^[A-Za-z_][A-Za-z0-9_./#-]*$/;
const RESERVED = /^(true|false|yes|no|on|off|null|y|n)$/i; // YAML 1.1 would read these as bools or null

/** @param {string} text */
export function isJson(text) {
  return /^[\ufeff\s]*[{[]/.test(text);
}

// A value as YAML flow text: plain when it cannot be read as anything else, JSON-quoted otherwise (a JSON string
// is a valid YAML double-quoted scalar).
/** @param {unknown} value a JSON value @returns {string} */
export function yamlValue(value) {
  if (value === null) return "null";
  if (typeof value === "boolean") return String(value);
  // YAML 1.1 (PyYAML) reads 1e-07 as a string: a float's exponent needs a dot before it and a sign after it
  if (typeof value === "number") {
    return String(value).replace(/^(-?\d+)(?:\.(\d+))?e([+-]?)/, (_, i, f, sign) => `${i}.${f ?? "0"}e${sign || "+"}`);
  }
  if (Array.isArray(value)) return `[${value.map(yamlValue).join(", ")}]`;
  if (value && typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${yamlValue(k)}: ${yamlValue(v)}`).join(", ")}}`;
  }
  const text = String(value);
  return PLAIN.test(text) && !RESERVED.test(text) ? text : quoted(text);
}

// JSON's quoting is YAML's double-quoted style, but for what YAML takes as a line break (NEL, LS, PS: folded
// inside quotes) or refuses as unprintable: those are escaped.
/** @param {string} text */
function quoted(text) {
  return JSON.stringify(text).replace(/[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// --- a whole scenario as YAML ----------------------------------------------------------------------------------
const WIDTH = 110; // a flow item longer than this is written as a block mapping, one key a line
/** @param {unknown} value @returns {value is Record<string, unknown>} */
const isMap = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
// A string plain after `key: ` (block context, where `,[]{}` need no quotes; here only a few signs, no `: `, no
// ` #`, no space at the end): `name: The lost marker`.
const BLOCK_PLAIN = /^[A-Za-z_][\p{L}\p{N}_ ./,'"()!?&*+=@%$~-]*$/u;
/** @param {unknown} value */
const plainInBlock = (value) =>
  typeof value === "string" && BLOCK_PLAIN.test(value) && !/ $/.test(value) && !RESERVED.test(value);
/** @param {unknown} value */
const blockValue = (value) => (plainInBlock(value) ? value : yamlValue(value));

// A string of several lines as a literal block (`|`), where it reads back as the same string for sure: no carriage
// return, tab, control or YAML line-break character, no space at a line's end, and a first line that does not begin
// with a space (the block's indentation is found from it); any other string is quoted.
const UNWRITABLE_IN_A_BLOCK = /[\r\t\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
/** @param {string} text */
function literal(text) {
  return text.includes("\n") && !UNWRITABLE_IN_A_BLOCK.test(text) && !/ (\n|$)/.test(text) && !/^\n*( |$)/.test(text);
}

/** @param {string} key @param {unknown} value @param {number} indent @returns {string[]} */
function entry(key, value, indent) {
  const pad = " ".repeat(indent);
  const head = `${pad}${yamlValue(key)}:`;
  if (typeof value === "string" && literal(value)) {
    const chomp = !value.endsWith("\n") ? "-" : value.endsWith("\n\n") ? "+" : "";
    const body = chomp === "-" ? value : value.slice(0, -1);
    return [`${head} |${chomp}`, ...body.split("\n").map((line) => (line ? `${pad}  ${line}` : ""))];
  }
  const flow = `${head} ${blockValue(value)}`;
  const nested = Array.isArray(value) && value.some((item) => item && typeof item === "object");
  if (Array.isArray(value) && value.length && (flow.length > WIDTH || nested)) {
    return [head, ...value.flatMap((item) => listItem(item, indent + 2))];
  }
  if (isMap(value) && Object.keys(value).length && flow.length > WIDTH) {
    return [head, ...Object.entries(value).flatMap(([k, v]) => entry(k, v, indent + 2))];
  }
  return [flow];
}

/** @param {unknown} item @param {number} indent @returns {string[]} */
function listItem(item, indent) {
  const pad = " ".repeat(indent);
  const flow = `${pad}- ${yamlValue(item)}`;
  const literals = isMap(item) && Object.values(item).some((v) => typeof v === "string" && literal(v));
  if (!isMap(item) || !Object.keys(item).length || (flow.length <= WIDTH && !literals)) {
    return [flow];
  }
  const lines = Object.entries(item).flatMap(([k, v]) => entry(k, v, indent + 2));
  lines[0] = `${pad}- ${lines[0].slice(indent + 2)}`;
  return lines;
}

// ``scenario`` (a parsed scenario object) as YAML text, in the library's layout: a key a line, a several-line
// string as a literal block, a list of scalars in brackets, a list of mappings one item a line (`  - {op: pop}`,
// what the palette appends to; a long one as a block mapping). Comments are not kept: the object has none.
/** @param {Record<string, unknown>} scenario */
export function yamlDocument(scenario) {
  return `${Object.entries(scenario).flatMap(([key, value]) => entry(key, value, 0)).join("\n")}\n`;
}

/** @param {string} key */
const keyLine = (key) => new RegExp(`^${key}[ \\t]*:(.*)$`);
/** @param {string} rest */
const withoutComment = (rest) => rest.replace(/(^|\s)#.*$/, "").trim();

// [index of the `key:` line, index of the block's last content line] (-1 when the key is absent).
/** @param {string[]} lines @param {string} key */
function block(lines, key) {
  const at = lines.findIndex((line) => keyLine(key).test(line));
  if (at < 0) return [-1, -1];
  let last = at;
  for (let i = at + 1; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*$/.test(line) || /^#/.test(line)) continue; // blank, or a comment at column 0
    if (/^[ \t]/.test(line) || /^-(\s|$)/.test(line)) {
      last = i;
      continue;
    }
    break; // the next top-level key
  }
  return [at, last];
}

/** @param {string[]} lines @param {number} from @param {number} to */
function itemIndent(lines, from, to) {
  for (let i = from; i <= to; i++) {
    const m = /^(\s*)-(\s+)\S/.exec(lines[i]);
    if (m && !/^\s*#/.test(lines[i])) return `${m[1]}-${m[2]}`;
  }
  return "  - ";
}

// {text, line}: ``text`` with ``item`` appended to the top-level list ``key`` (created, before ``before`` when that
// key exists, else at the end), and the 1-based line where the item now is.
/** @param {string} text @param {string} key @param {unknown} item @param {string | null} before */
export function appendItem(text, key, item, before = null) {
  if (isJson(text)) return appendJson(text, key, item);
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  const [at, last] = block(lines, key);
  const flow = yamlValue(item);
  if (at < 0) {
    let where = before ? lines.findIndex((line) => keyLine(before).test(line)) : -1;
    if (where < 0) where = lines.length;
    lines.splice(where, 0, `${key}:`, `  - ${flow}`);
    return { text: `${lines.join("\n")}\n`, line: where + 2 };
  }
  const rest = withoutComment(keyLine(key).exec(lines[at])?.[1] ?? "");
  if (rest === "" || rest === "~" || rest === "null") {
    const indent = itemIndent(lines, at + 1, last);
    if (rest) lines[at] = `${key}:`;
    lines.splice(last + 1, 0, `${indent}${flow}`);
    return { text: `${lines.join("\n")}\n`, line: last + 2 };
  }
  if (/^\[\s*\]$/.test(rest)) {
    lines[at] = `${key}:`;
    lines.splice(at + 1, 0, `  - ${flow}`);
    return { text: `${lines.join("\n")}\n`, line: at + 2 };
  }
  if (rest.startsWith("[") && rest.endsWith("]") && at === last) {
    const close = lines[at].lastIndexOf("]");
    lines[at] = `${lines[at].slice(0, close).trimEnd()}, ${flow}${lines[at].slice(close)}`;
    return { text: `${lines.join("\n")}\n`, line: at + 1 };
  }
  throw new Error(`the palette appends to a list written one item per line; “${key}:” is written another way here`);
}

/** @param {string} text @param {string} key @param {unknown} item */
function appendJson(text, key, item) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`the JSON text does not parse (${err instanceof Error ? err.message : err}); fix it first`);
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) throw new Error("the JSON text is not a scenario object");
  if (doc[key] == null) doc[key] = [];
  if (!Array.isArray(doc[key])) throw new Error(`“${key}” is not a list`);
  doc[key].push(item);
  return { text: `${JSON.stringify(doc, null, 2)}\n`, line: null };
}

// The pod names declared under `pods:` (read from the text, so it works while the text is not valid yet).
/** @param {string} text @returns {string[]} */
export function declaredPods(text) {
  if (isJson(text)) {
    try {
      const pods = JSON.parse(text).pods;
      return Array.isArray(pods) ? pods.map((p) => p?.name).filter((n) => typeof n === "string") : [];
    } catch {
      return [];
    }
  }
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const [at, last] = block(lines, "pods");
  if (at < 0) return [];
  /** @type {string[]} */
  const names = [];
  const name = /(?:^|[\s{,])name\s*:\s*("(?:[^"\\]|\\.)*"|'[^']*'|[^,}\s#]+)/g;
  for (const line of lines.slice(at, last + 1)) {
    for (const m of line.replace(/^pods\s*:/, "").matchAll(name)) {
      const raw = m[1];
      try {
        names.push(raw.startsWith('"') ? JSON.parse(raw) : raw.startsWith("'") ? raw.slice(1, -1) : raw);
      } catch { /* a name that does not parse yet */ }
    }
  }
  return names;
}
