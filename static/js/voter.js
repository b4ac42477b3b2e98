// This tab's voter id in a room's live polls: kept for the tab's life (sessionStorage), so a phone that locks and
// reconnects, or reloads, still answers once, and rejoining is shown its own answer (join_room {voter}).
// (getRandomValues, not randomUUID: an audience on the hall's network reaches the server over plain http.)
const VOTER_KEY = "inflight-scope:voter";
const hex = (/** @type {number} */ b) => b.toString(16).padStart(2, "0");
const newVoter = () => [...crypto.getRandomValues(new Uint8Array(16))].map(hex).join("");
let pageVoter = null;

export function voter() {
  try {
    if (!sessionStorage.getItem(VOTER_KEY)) sessionStorage.setItem(VOTER_KEY, newVoter());
    return sessionStorage.getItem(VOTER_KEY);
  } catch { /* storage refused: one id for this page's life */ }
  return (pageVoter ??= newVoter());
}
