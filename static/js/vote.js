// A room votes on what happens next (webapp/web/votes.py): the presenter asks (⎇ Ask the room, Shift+V), is
// offered the diagram's fork-menu actions with those after which the versions part soonest ticked, and opens the
// vote on two to four; phones vote with one tap (one ballot per phone, changeable until the vote closes); the
// presenter watches the bars fill and closes it: the server forks the winning action into the room's scenario, so
// every screen plays it and its timeline marks the branch, whose note says how the room voted. The presenter may
// undo the fork from the result. This module keeps the vote and decides; the rules are vote-state.js's, the panels
// vote-view.js's.
/** @import { readOptions } from "./options.js" */
/** @import { Actions } from "./controls.js" */
import { $, h } from "./dom.js";
import { drawKeyHelp } from "./keys.js";
import { voter } from "./voter.js";
import { dock } from "./dock.js";
import { canOpen, leftBehind, mineAfter, NO_TALLY, proposedChoice, tallyOf, toggled, voteOf } from "./vote-state.js";
import { followerParts, offerParts, resultParts, searchingParts, summaryParts, votingParts } from "./vote-view.js";

/**
 * A room's vote message (webapp/web/votes.py), read by the fields its event carries: `vote_offer` the actions
 * offered (`soon`: how soon after each the versions part) and how many are proposed; `vote` the vote (`cancelled`
 * when withdrawn, `yours` a follower's ballot; closed, its result: `label`, the counts and the `winner`);
 * `vote_tally` the tally; `summary` the address of the room's summary.
 * @typedef {Wire.Vote & Wire.VoteTally & {actions: Offered[], proposed: number, cancelled?: boolean, yours?: number,
 *   label: string, winner: number, href: string}} VoteMessage
 * @typedef {Wire.Action & {soon?: number | null}} Offered an action offered, with how soon the versions part after it
 * @typedef {{actions: Offered[], proposed: number}} Offer the presenter's offer
 * @typedef {VoteMessage & {actions: Wire.Action[]}} Result a closed vote's message, with the actions it offered
 */
/**
 * @param {ReturnType<typeof readOptions>} opts
 * @param {{send(event: string, payload?: object): void}} conn @param {{showError(message: string): void}} page
 * @param {Actions & {askRoom?: () => void}} actions
 * @param {{on: (topic: string, fn: (...args: any[]) => void) => void}} bus
 */
export function createVote(opts, conn, page, actions, bus) {
  const follower = opts.mode === "audience";
  const presenter = opts.mode === "present";
  if (!follower && !presenter) return;
  /** @type {Wire.Vote | null} */
  let vote = null;
  let tally = NO_TALLY;
  /** @type {number | null} */
  let mine = null; // a follower's ballot: the number of the action it voted for
  /** @type {Offer | null} */
  let offer = null; // the presenter's offer, while it picks
  /** @type {number[]} */
  let chosen = []; // the offer's actions ticked
  /** @type {Result | null} */
  let result = null; // the closed vote's message, with the actions it offered
  let problem = ""; // the server's refusal of the last vote message
  /** @type {HTMLElement | null} */
  let box = null;
  let undock = () => {};
  const room = () => ({ room: opts.room, token: opts.token });

  if (presenter) {
    actions.askRoom = ask;
    /** @type {[string, () => void][]} */
    const buttons = [["btn-vote", ask], ["btn-summary", postSummary]];
    for (const [id, fn] of buttons) {
      const button = $(id);
      if (!button) continue;
      button.hidden = false;
      button.addEventListener("click", fn);
    }
    drawKeyHelp(actions);
  }
  bus.on("room", heard);
  bus.on("scenario", (/** @type {ScenarioMessage} */ msg) => leftBehind(vote, msg) && putAway());
  bus.on("error", (/** @type {Wire.Reply & {event?: string}} */ msg) => {
    if (!String(msg.event).startsWith("vote_") || !box) return;
    problem = msg.message;
    draw();
  });

  function ask() {
    if (!opts.room) return page.showError("The room is not open yet: open it (Present) before asking it to vote.");
    offer = null;
    result = null;
    conn.send("vote_offer", room());
    fill("vote-presenter", searchingParts(putAway));
  }

  // The room's summary (webapp/web/roomsummary.py): posted, its address shown in a box of its own.
  /** @type {HTMLElement | null} */
  let posted = null;
  function postSummary() {
    if (!opts.room) return page.showError("The room is not open yet: there is nothing to sum up.");
    conn.send("summary_post", room());
  }
  /** @param {string} href */
  function showSummary(href) {
    posted?.remove();
    posted = h("section", { class: "poll poll-presenter summary-posted", role: "region",
      ariaLabel: "The room's summary", dataTestid: "summary-posted" }, ...summaryParts(href, () => posted?.remove()));
    $("app").append(posted);
  }

  const act = {
    tick: (/** @type {number} */ i) => { chosen = toggled(chosen, i); draw(); },
    // its button is on the offer's panel only: there is an offer
    openVote: () => canOpen(chosen) && conn.send("vote_open",
      { ...room(), actions: chosen.map((i) => /** @type {Offer} */ (offer).actions[i].step) }),
    close: () => conn.send("vote_close", room()),
    cancel: () => { conn.send("vote_cancel", room()); putAway(); },
    undo: () => { conn.send("vote_undo", room()); putAway(); },
    putAway,
  };

  function draw() {
    const said = problem ? h("p", { class: "vote-problem", role: "alert", text: problem }) : null;
    if (result) {
      fill(follower ? "vote-follower" : "vote-presenter",
        [...resultParts(result, result.actions, { undo: presenter ? act.undo : undefined, putAway }), said]);
    } else if (vote && follower) {
      fill("vote-follower", [...followerParts(vote, mine, cast), said]);
    } else if (vote) {
      fill("vote-presenter", [...votingParts(vote, tally, act), said]);
    } else if (offer && presenter) {
      fill("vote-presenter", [...offerParts(offer, chosen, act), said]);
    }
  }

  /** @param {number} i */
  function cast(i) {
    if (!vote?.open) return;
    mine = i;
    problem = "";
    conn.send("vote_answer", { room: opts.room, voter: voter(), action: i });
    draw();
  }

  // vote_offer, vote and vote_tally messages of the room this page follows
  /** @param {string} event @param {VoteMessage} msg */
  function heard(event, msg) {
    if (event === "summary" && presenter) {
      return showSummary(msg.href);
    } else if (event === "vote_offer" && presenter) {
      offer = msg;
      chosen = proposedChoice(msg);
    } else if (event === "vote_tally") {
      if (!vote || msg.position !== vote.position) return;
      tally = tallyOf(msg);
    } else if (event === "vote" && msg.cancelled) {
      return putAway();
    } else if (event === "vote" && msg.open) {
      mine = mineAfter(vote, msg, mine);
      const again = vote?.position === msg.position && vote?.key === (msg.key ?? null);
      vote = voteOf(msg);
      tally = again ? tally : NO_TALLY;
      result = offer = null;
    } else if (event === "vote") {
      result = { ...msg, actions: vote?.actions ?? [] };
      vote = null;
    } else {
      return;
    }
    problem = "";
    draw();
  }

  // The panel `cls` (made anew if another is on the page), filled with `parts`; a follower's is a docked sheet.
  /** @param {string} cls @param {(Node | null)[]} parts */
  function fill(cls, parts) {
    if (!box || !box.isConnected || !box.classList.contains(cls)) {
      box?.remove();
      const kind = follower ? "poll-follower" : "poll-presenter";
      box = h("section", { class: `poll ${kind} vote ${cls}`, role: "region", ariaLabel: "The room's vote",
        dataTestid: cls });
      $("app").append(box);
      undock();
      undock = follower ? dock(box) : () => {};
    }
    box.replaceChildren(.../** @type {Node[]} */ (parts.filter(Boolean)));
  }

  function putAway() {
    vote = offer = result = null;
    tally = NO_TALLY;
    problem = "";
    box?.remove();
    box = null;
    undock();
    undock = () => {};
  }
}
