// Permalinks: every view state is a URL. Inline scenarios travel compressed (deflate-raw, base64url); one too
// long for an address is handed over in the tab's sessionStorage instead (as the editor's Run does).
import { $ } from "./dom.js";

// The longest address (path and query) the page writes: gunicorn's default request line is 4,094 bytes
// (eventlet.wsgi's 8,192): a longer address would be refused on a reload.
export const MAX_ADDRESS = 4000;
export const HANDOFF_KEY = "inflight-scope:inline-scenario"; // the scenario handed over, as JSON
export const HANDOFF_ID = "__inline__"; // ?scenario=__inline__ names it
export const DRAFT_KEY = "inflight-scope:editor-draft"; // the editor's local draft {from, text, format, ran}
// the view "Editor" was pressed in: the editor's "Viewer" returns there
export const VIEWER_KEY = "inflight-scope:viewer-place";
const b64url = {
  /** @param {Uint8Array} bytes */
  encode(bytes) {
    let s = "";
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  },
  /** @param {string} text */
  decode(text) {
    const s = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
  },
};

/** @param {Uint8Array<ArrayBuffer>} bytes @param {CompressionStream | DecompressionStream} stream */
async function pipe(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

// A scenario object is encoded once (the address is written again at every step; a long scenario's deflate is
// not free): the page never changes a scenario object, it makes a new one.
/** @type {WeakMap<Source, Promise<string>>} */
const encodings = new WeakMap();
/** @param {Source} obj @returns {Promise<string>} */
export function encodeScenario(obj) {
  if (!encodings.has(obj)) {
    const deflated = pipe(new TextEncoder().encode(JSON.stringify(obj)), new CompressionStream("deflate-raw"));
    encodings.set(obj, deflated.then(b64url.encode));
  }
  return /** @type {Promise<string>} */ (encodings.get(obj));
}

// flow.js hands `q.get("inline")`, typed string | null, after checking it is there: never null.
/** @param {string | null} text @returns {Promise<Source>} the scenario the link holds (the server checks it) */
export async function decodeScenario(text) {
  const bytes = b64url.decode(/** @type {string} */ (text));
  return JSON.parse(new TextDecoder().decode(await pipe(bytes, new DecompressionStream("deflate-raw"))));
}

/**
 * The view a link keeps besides the scenario (viewOf).
 * @typedef {{position?: number, versions?: string[] | null, theme?: string, presenting?: boolean,
 *   predict?: boolean, tables?: boolean}} View
 */

// `source` is a built-in id (string) or a scenario object; the view is `viewOf`'s.
// `versions`: the versions side by side, written as `versions=a,b` (null or absent: the default pair).
/** @param {Source | string} source @param {View} view @param {{href: string}} [base] */
export async function permalink(source, { position, versions, theme, presenting, predict, tables }, base = location) {
  const url = new URL("/", base.href);
  if (typeof source === "string") url.searchParams.set("scenario", source);
  else url.searchParams.set("inline", await encodeScenario(source));
  if (position) url.searchParams.set("position", String(position));
  if (versions?.length) url.searchParams.set("versions", versions.join(","));
  if (theme && theme !== "auto") url.searchParams.set("theme", theme);
  if (presenting) url.searchParams.set("presenting", "1");
  if (predict) url.searchParams.set("predict", "1");
  if (tables) url.searchParams.set("tables", "1");
  return url.href.replaceAll("%2C", ","); // version names need no escaping: a readable list
}

// The view a link keeps besides the scenario, as the page shows it: the position given, the versions side by side
// (`driver.linkVersions()`), the theme, presentation mode (p), Predict and the table view (v).
/** @param {{linkVersions(): string[] | null}} driver @param {number | undefined} position @returns {View} */
export function viewOf(driver, position) {
  return {
    position,
    versions: driver.linkVersions(),
    theme: document.documentElement.dataset.theme,
    presenting: $("app").classList.contains("presenting"),
    predict: Boolean($("predict")?.checked),
    tables: $("tables")?.hidden === false,
  };
}

/** @type {Source | null} */
let handedOff = null; // the scenario last written to the hand-off

// The address of this view in this tab, at `path`: its permalink, or where that is too long the hand-off's
// (the scenario written to sessionStorage, so a reload finds it). {href, handedOff: the scenario or null}.
/** @param {Source | string} source @param {View} view @param {string} [path] */
export async function tabAddress(source, view, path = "/") {
  /** @param {string} link */
  const at = (link) => Object.assign(new URL(link), { pathname: path });
  const url = at(await permalink(source, view));
  if (!source || typeof source !== "object" || !tooLongForAnAddress(url.href)) {
    return { href: url.href, handedOff: null };
  }
  if (handedOff !== source) {
    try {
      sessionStorage.setItem(HANDOFF_KEY, JSON.stringify(source));
      handedOff = source;
    } catch { /* storage full or refused: the address still names the hand-off */ }
  }
  return { href: at(await permalink(HANDOFF_ID, view)).href, handedOff: source };
}

/** @param {string} link */
export function tooLongForAnAddress(link) {
  const url = new URL(link);
  return url.pathname.length + url.search.length > MAX_ADDRESS;
}
