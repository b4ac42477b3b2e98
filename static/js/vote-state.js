// A room's vote on what happens next, as plain data (vote.js keeps one and draws it): what a message makes of it,
// what a follower's ballot is after one, what the presenter may open, the bars. No DOM and no network: node runs
// it as it is (tests/client). The rules are the server's (webapp/engine/votes.py): 2 to 4 actions, one ballot per
// phone, changeable until the presenter closes the vote; the most voted for (the first offered, on a tie) wins.

/** The room's messages about its vote, and its posted summary (model.js hands them on as `room` messages). */
export const VOTE_EVENTS = ["vote_offer", "vote", "vote_tally", "summary"];
export const MIN_ACTIONS = 2;
export const MAX_ACTIONS = 4;

/** @type {Wire.VoteTally} */
export const NO_TALLY = { answered: 0, counts: [] };

/** The vote a `vote` message opens. @param {Wire.Vote & Record<string, any>} msg @returns {Wire.Vote} */
export const voteOf = (msg) => ({ position: msg.position, key: msg.key ?? null, actions: msg.actions, open: true });

/**
 * The tally a `vote_tally` or a closing `vote` message carries.
 * @param {Wire.VoteTally} msg @returns {Wire.VoteTally}
 */
export const tallyOf = (msg) => ({ answered: msg.answered, counts: msg.counts });

/**
 * A follower's ballot once a `vote` message opening a vote is heard: the same vote given again (a reconnection)
 * keeps this phone's; a new one starts with the server's (`yours`, after a reload) or none.
 * @param {Wire.Vote | null} vote @param {Wire.Vote & {yours?: number}} msg @param {number | null} mine
 * @returns {number | null}
 */
export function mineAfter(vote, msg, mine) {
  if (vote?.open && vote.position === msg.position && vote.key === (msg.key ?? null)) return mine;
  return msg.yours ?? null;
}

/** Whether the scenario a `scenario` message loads leaves the vote behind (another load: it can no longer close).
 * @param {Wire.Vote | null} vote @param {{key?: string | null}} msg */
export const leftBehind = (vote, msg) => vote !== null && vote.open && (msg.key ?? null) !== vote.key;

/**
 * The presenter's choice, `chosen` (indices of the offer) with `index` ticked or unticked; never more than
 * MAX_ACTIONS (a fifth tick is refused).
 * @param {number[]} chosen @param {number} index @returns {number[]}
 */
export function toggled(chosen, index) {
  if (chosen.includes(index)) return chosen.filter((i) => i !== index);
  return chosen.length >= MAX_ACTIONS ? chosen : [...chosen, index].sort((a, b) => a - b);
}

/** Whether `chosen` can open a vote. @param {number[]} chosen */
export const canOpen = (chosen) => chosen.length >= MIN_ACTIONS && chosen.length <= MAX_ACTIONS;

/** The offer's first `proposed` actions, ticked at first. @param {{proposed: number}} offer @returns {number[]} */
export const proposedChoice = (offer) => Array.from({ length: Math.min(offer.proposed, MAX_ACTIONS) }, (_, i) => i);

/**
 * Each action's bar: its count, its width against the most voted (0 … 100) and whether it leads (or won).
 * @param {Wire.Action[]} actions @param {number[]} counts @param {number | null} winner
 * @returns {{label: string, n: number, width: number, lead: boolean}[]}
 */
export function bars(actions, counts, winner = null) {
  const most = Math.max(0, ...counts);
  return actions.map((action, i) => {
    const n = counts[i] ?? 0;
    return { label: action.label, n, width: most ? (100 * n) / most : 0,
      lead: winner === null ? most > 0 && n === most : i === winner };
  });
}

/** What a closed vote says: the winner and its share.
 * @param {{label: string, counts: number[], answered: number}} msg */
export function resultWords(msg) {
  const won = Math.max(0, ...msg.counts);
  return `The room chose “${msg.label}” (${won} of ${msg.answered} vote${msg.answered === 1 ? "" : "s"}): ` +
    "every version plays it now.";
}

/** How soon an offered action parts the versions (the server's `soon`: 0 at once, 1 a step later, null not
 * within those), in words for its badge; "" for none. @param {number | null | undefined} soon */
export const soonWords = (soon) => (soon === 0 ? "parts the versions" : soon === 1 ? "a step later" : "");

/** What a follower reads under the actions. @param {number | null} mine */
export const ballotWords = (mine) => (mine === null ? "Tap what should happen next."
  : "Wire.Vote sent — you may change it until the presenter closes the vote.");
