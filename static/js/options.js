// What the page was opened with: the #app data attributes (set by the server from the URL) and the hash.
import { decodeScenario, HANDOFF_ID, HANDOFF_KEY } from "./links.js";

/** @param {HTMLElement} app */
export function readOptions(app) {
  const d = app.dataset;
  const hash = new URLSearchParams(location.hash.slice(1));
  return {
    mode: d.mode || "main",
    scenario: d.scenario,
    defaultScenario: d.defaultScenario, // the built-in opened instead of a link's scenario that cannot be opened
    insteadOfLink: d.insteadOfLink, // the server's sentences for that: "Showing <its name> instead."
    damagedLink: d.damagedLink, // and of an inline scenario that cannot be decoded
    inline: d.inline || null,
    position: Number(d.position) || 0,
    versions: names(d.versions), // the versions side by side; null: the ones the scenario opens on
    maxVersions: Number(d.maxVersions) || Infinity, // an offline file offers only the versions it holds
    room: d.room || hash.get("room"),
    token: hash.get("token"),
    range: d.rangeFrom !== undefined ? [Number(d.rangeFrom), Number(d.rangeTo)] : null,
  };
}

/** @param {string | undefined} text */
const names = (text) => (text ? text.split(",") : null);

// The scenario to load: an inline one from the URL or the editor, else the built-in id. One that cannot be read
// is refused with what was wrong, in the server's words (webapp/web/routes.py DAMAGED, as data-damaged-link).
/** @param {ReturnType<typeof readOptions>} opts @returns {Promise<Source | string | undefined>} */
export async function resolveSource(opts) {
  if (opts.inline) return decodeScenario(opts.inline).catch(() => refuse(opts.damagedLink));
  if (opts.scenario === HANDOFF_ID) { // the editor's Run, or a view too long for its address
    if (history.state?.handedOff) return history.state.handedOff; // this history entry's own (a reload of it)
    const stored = sessionStorage.getItem(HANDOFF_KEY);
    if (!stored) refuse(NOT_HANDED_OVER);
    const source = JSON.parse(stored);
    history.replaceState({ ...history.state, handedOff: source }, ""); // the entry keeps it from the start
    return source;
  }
  return opts.scenario;
}

const NOT_HANDED_OVER = "This link's scenario was handed over in another tab (by the editor, or being too long for " +
  "an address): this tab does not have it.";

/** @param {string | undefined} words @returns {never} */
function refuse(words) {
  throw new Error(words);
}
