// Explore's history, as plain data (explore.js keeps one): the scenarios forked from and to, each where it was
// left, and `at`, the one on screen (-1: no history yet). Every function takes a history and gives a new one; none
// changes what it is given. Node runs it as it is (tests/client).

export const HISTORY = 30; // scenarios kept for undo

/** @type {ExploreHistory} */
export const EMPTY = { entries: [], at: -1 };

/** How a scenario message and a history entry are matched: its id, or its source as JSON.
 * @param {Source | string} source */
export const keyOf = (source) => (typeof source === "string" ? source : JSON.stringify(source));

/** The key of the scenario a `scenario` message shows. @param {{id?: string | null, source?: Source}} msg */
export const keyOfMessage = (msg) => msg.id ?? JSON.stringify(msg.source);

/**
 * The history a first fork starts from: the scenario on screen (`before`, at `here`) as its only entry; a history
 * already begun is kept.
 * @param {ExploreHistory} history @param {Source | string} before @param {number} here @returns {ExploreHistory}
 */
export function begun(history, before, here) {
  return history.entries.length ? history : { entries: [{ source: before, position: here }], at: 0 };
}

/**
 * `source` at `position` opened after the entry on screen (left at `here`): what was after it is dropped, and the
 * oldest entries beyond `limit`.
 * @param {ExploreHistory} history @param {number} here @param {Source | string} source @param {number} position
 * @returns {ExploreHistory}
 */
export function pushed(history, here, source, position, limit = HISTORY) {
  const entries = [...left(history.entries, history.at, here).slice(0, history.at + 1), { source, position }]
    .slice(-limit);
  return { entries, at: entries.length - 1 };
}

/**
 * Undone or redone: entry `to` is on screen, the one at `from` left at `here`.
 * @param {ExploreHistory} history @param {number} from @param {number} here @param {number} to
 * @returns {ExploreHistory}
 */
export function moved(history, from, here, to) {
  return { entries: left(history.entries, from, here), at: to };
}

/**
 * A scenario message no fork, undo or Find asked for: one the history holds (other versions, a reconnection, the
 * browser's Back) is on screen; any other starts over (`cleared`: a history was dropped).
 * @param {ExploreHistory} history @param {string} key @returns {{history: ExploreHistory, cleared: boolean}}
 */
export function heard(history, key) {
  const known = history.entries.findIndex((entry) => keyOf(entry.source) === key);
  if (known >= 0) return { history: { ...history, at: known }, cleared: false };
  return { history: EMPTY, cleared: history.entries.length > 0 };
}

/** @param {ExploreHistory} history */
export const canUndo = (history) => history.at > 0;
/** @param {ExploreHistory} history */
export const canRedo = (history) => history.at >= 0 && history.at < history.entries.length - 1;

/** `entries` with entry `i` left at `position`.
 * @param {HistoryEntry[]} entries @param {number} i @param {number} position */
function left(entries, i, position) {
  return entries.map((entry, j) => (j === i ? { ...entry, position } : entry));
}
