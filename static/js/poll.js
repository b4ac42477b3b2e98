// A room's live poll (webapp/web/sockets.py on_poll_*): where the scene asks to predict, the presenter's prompt
// opens a poll instead of a dialog; followers answer on their phones ({variant: choice}, anonymous, one answer
// each, never driving); the presenter watches a histogram per variant fill (poll_tally) and reveals by stepping:
// the server ends a poll as the room moves off it (webapp/engine/polls.py ended_by_move), revealed by the step it
// asks about, withdrawn by any other move. Followers then see the room's answers and, once the step is drawn, the
// verdict against their own answer. A presenter coming back (a reload) is given the open poll and reveals it the
// same way. Every queue, pod and variant name is the server's; only the page's own words are spelled here.
// This module keeps the poll and decides; what a message or a model does to it is poll-state.js's, its panels are
// poll-view.js's.
/** @import { readOptions } from "./options.js" */
import { $, focused, h, targetOf } from "./dom.js";
import { askWith } from "./predict.js";
import { CLOSED_BY_ESCAPE, TYPING } from "./keys.js";
import { voter } from "./voter.js";
import { afterModel, answersAfter, NO_TALLY, opened, pollOf, tallyOf } from "./poll-state.js";
import { followerParts, presenterParts } from "./poll-view.js";
import { dock } from "./dock.js";

/**
 * A `poll` message (the poll, its tally, `cancelled` when withdrawn, `yours` a follower's own answers) or a
 * `poll_tally` one (a tally, with its poll's position only): read by the fields its event carries.
 * @typedef {Wire.Poll & Wire.Tally & {cancelled?: boolean, yours?: Record<string, string>}} PollMessage
 * What a prompt waiting for the reveal is handed: {} (take the step) or null (do not).
 * @typedef {(answer: Record<string, string> | null) => unknown} Pending
 * A part of a panel (poll-view.js): an element or text; null, undefined and false are left out.
 * @typedef {Node | string | null | undefined | false} Part
 */
/**
 * @param {ReturnType<typeof readOptions>} opts
 * @param {{send(event: string, payload?: object): void}} conn @param {{latest: Model | null}} page
 * @param {{on: (topic: string, fn: (...args: any[]) => void) => void}} bus
 */
export function createPoll(opts, conn, page, bus) {
  /** @type {Wire.Poll | null} */
  let poll = null;
  let tally = NO_TALLY;
  /** @type {Record<string, string>} a follower's answers */
  let mine = {};
  /** @type {Pending | null} */
  let pending = null; // the presenter's step, waiting for the reveal: pending({}) takes it, pending(null) does not
  /** @type {HTMLElement | null} */
  let box = null;
  let undock = () => {}; // a follower's sheet docked at the phone's foot (dock.js)
  const follower = opts.mode === "audience";
  const presenter = opts.mode === "present";
  const room = () => ({ room: opts.room, token: opts.token }); // a new room's are known once it is made

  const titleOf = (/** @type {string} */ variant) => page.latest?.scene.panes[variant]?.title ?? variant;
  /** What the panels show: the poll held (none: nothing to show) over `scene`. @param {Wire.Scene | null} scene */
  const shown = (scene) => (poll ? { poll, tally, scene, titleOf } : null);

  if (presenter) {
    askWith((_dialog, scene) => open(scene));
    document.addEventListener("keydown", withdrawOnEscape);
  }
  bus.on("room", heard);
  bus.on("model", drawn);

  // Escape withdraws the open poll, as it closes the Predict prompt (the step is not taken); not while it closes
  // something else (the help, a tip, a menu, the legend, the link box, a notice, the blank screen) or leaves a field.
  /** @param {KeyboardEvent} ev */
  function withdrawOnEscape(ev) {
    if (ev.key !== "Escape" || !pending || ev.defaultPrevented) return;
    if (document.querySelector(CLOSED_BY_ESCAPE)) return;
    if (targetOf(ev).closest?.(TYPING)) return;
    withdraw();
  }

  // The presenter's prompt: open the room's poll; the step waits for Reveal (Reveal, or → again).
  /** @param {Wire.Scene & {predict: Wire.Predict}} scene @returns {Promise<Record<string, string> | null>} */
  function open(scene) {
    if (pending) {
      reveal();
      return Promise.resolve(null); // this press revealed; the waiting prompt steps
    }
    poll = opened(scene);
    tally = NO_TALLY;
    conn.send("poll_open", room());
    drawPresenter();
    return new Promise((resolve) => (pending = resolve));
  }

  // The waiting step is taken, and taking it reveals the poll (the server closes it as the room moves onto the step
  // it asks about, and tells the room before the step). Closed here at once: a second press steps no further.
  function reveal() {
    if (!pending || !poll) return;
    poll = { ...poll, open: false };
    drawPresenter();
    settle({});
  }

  /** @param {Record<string, string> | null} answer */
  function settle(answer) {
    const step = pending;
    pending = null;
    step?.(answer);
  }

  // The presenter cancels the open poll: withdrawn for the whole room too; nothing is stepped.
  function withdraw() {
    if (poll?.open) conn.send("poll_cancel", room());
    putAway();
  }

  // The poll leaves this page (withdrawn, left behind, or closed by its reader); a step waiting for it is not taken.
  // Put away with the focus in it (its Close), the focus goes to Step, or on the audience's page to the first pane
  // (it fell to the page's body).
  function putAway() {
    const hadFocus = box?.contains(focused());
    settle(null);
    poll = null;
    box?.remove();
    box = null;
    undock();
    undock = () => {};
    if (!hadFocus) return;
    const step = $("btn-step");
    (step?.offsetParent ? step : document.querySelector("#panes > [data-variant]"))?.focus();
  }

  // The room's poll as the server tells the presenter: its own (drawn already), or, on a page without one, the open
  // poll given back after a reload, which waits for its step as the prompt did (Predict ticked again, as it was);
  // revealed, the room has taken its step, so no step waiting for it is taken.
  function heardByPresenter() {
    if (!poll) return;
    if (poll.open && !box) {
      pending = (answer) => answer && conn.send("step", room());
      $("predict").checked = true;
    } else if (!poll.open) {
      settle(null);
    }
    if (box || poll.open) drawPresenter();
  }

  // The panel `cls` (made anew if another is on the page), filled with `parts` (nested lists and nulls allowed).
  /** @param {string} cls @param {(Part | Part[])[]} parts */
  function fill(cls, parts) {
    if (!box || !box.isConnected || !box.classList.contains(cls)) {
      box?.remove();
      box = h("section", { class: `poll ${cls}`, role: "region", ariaLabel: "Live poll", dataTestid: cls });
      $("app").append(box);
      undock();
      undock = follower ? dock(box) : () => {};
    }
    box.replaceChildren(...parts.flat(2).filter((p) => p !== null && p !== undefined && p !== false));
  }

  // Drawn from the scene on screen, whatever message asked for it: a tally or the reveal's poll message that came
  // after the step's state (the room's messages can cross) drew the histograms without the truth again.
  function drawPresenter(scene = page.latest?.scene ?? null) {
    const seen = shown(scene);
    if (seen) fill("poll-presenter", presenterParts(seen, { reveal, withdraw, putAway }));
  }

  function drawFollower(scene = page.latest?.scene ?? null) {
    const seen = shown(scene);
    if (seen) fill("poll-follower", followerParts(seen, mine, { answer, putAway }));
  }

  /** @param {string} variant @param {string} choice */
  function answer(variant, choice) {
    if (!poll?.open) return;
    mine = { ...mine, [variant]: choice };
    conn.send("poll_answer", { room: opts.room, voter: voter(), answers: mine });
    drawFollower();
  }

  // poll / poll_tally messages of the room this page follows
  /** @param {string} event @param {PollMessage} msg */
  function heard(event, msg) {
    if (event === "poll_tally") {
      if (!poll || msg.position !== poll.position) return;
      tally = tallyOf(msg);
      drawPresenter();
    } else if (event === "poll") {
      if (msg.cancelled) { // withdrawn before the reveal: by the presenter, or by the room moving elsewhere
        if (poll?.position === msg.position) putAway();
        return;
      }
      if (follower) mine = answersAfter(poll, msg, mine);
      poll = pollOf(msg);
      tally = tallyOf(msg);
      if (follower) drawFollower();
      else if (presenter) heardByPresenter();
    }
  }

  // Each model drawn: the verdict once the poll's step is applied and revealed; a poll left behind goes.
  /** @param {Model} model */
  function drawn(model) {
    if (!poll || !box) return;
    const next = afterModel(poll, model.position, follower);
    if (next === "reveal" && follower) drawFollower(model.scene);
    else if (next === "reveal") drawPresenter(model.scene);
    else if (next === "away") putAway();
  }
}
