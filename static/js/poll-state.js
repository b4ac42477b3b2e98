// A room's poll as plain data (poll.js keeps one and draws it): what a poll is, how a message changes it and what a
// model drawn means for it. No DOM and no network: node runs it as it is (tests/client).

/** @type {Wire.Tally} */
export const NO_TALLY = { answered: 0, counts: {} };

/** The poll a presenter's prompt opens on `scene` (it asks to predict).
 * @param {Wire.Scene & {predict: Wire.Predict}} scene @returns {Wire.Poll} */
export function opened(scene) {
  const { pod, choices } = scene.predict;
  return { position: scene.position, pod, choices, variants: Object.keys(scene.panes), open: true };
}

/** The poll a `poll` message describes. @param {Wire.Poll & Record<string, any>} msg @returns {Wire.Poll} */
export function pollOf(msg) {
  return { position: msg.position, pod: msg.pod, choices: msg.choices, variants: msg.variants, open: msg.open };
}

/** The tally a `poll` or `poll_tally` message carries. @param {Wire.Tally} msg @returns {Wire.Tally} */
export const tallyOf = (msg) => ({ answered: msg.answered, counts: msg.counts });

/**
 * A follower's answers once a `poll` message is heard: a new poll starts unanswered (even where a revealed one
 * asked); the open one given again (a reconnection) keeps this phone's answers, as the server does, and after a
 * reload the server gives them back (`yours`).
 * @param {Wire.Poll | null} poll @param {Wire.Poll & {yours?: Record<string, string>}} msg
 * @param {Record<string, string>} mine
 * @returns {Record<string, string>}
 */
export function answersAfter(poll, msg, mine) {
  if (!msg.open || (poll?.open && poll.position === msg.position)) return mine;
  return msg.yours ?? {};
}

/** Whether `scene` is the step the poll asks about, applied.
 * @param {Wire.Poll} poll @param {Wire.Scene | null} scene */
export const stepped = (poll, scene) => scene !== null && scene.position === poll.position + 1;

/**
 * What a model drawn at `position` does to the poll on screen: "reveal" (the step it asks about is applied and it
 * is revealed: its verdict is drawn), "keep" (it still asks there, or the presenter's open poll that the room
 * stepped past, its reveal on its way) or "away" (left behind: a revealed one too where the view steps back to
 * where it asked, and an open one a follower's own view has left; the reveal, or rejoining, gives it back).
 * @param {Wire.Poll} poll @param {number} position @param {boolean} follower @returns {"reveal" | "keep" | "away"}
 */
export function afterModel(poll, position, follower) {
  if (position === poll.position + 1 && !poll.open) return "reveal";
  const asking = position === poll.position && poll.open;
  const revealing = position === poll.position + 1 && poll.open && !follower;
  return asking || revealing ? "keep" : "away";
}
