// A room's vote on what happens next, drawn (vote.js decides when): the presenter's panels (pick the actions,
// watch the votes come in, the result with Undo), a follower's sheet (one button per action, then the result) and
// the speaker view's read-only bars. Each function takes plain data and gives the panel's parts; every action's
// label is the server's (webapp/presenter/words.py step_label), only the page's own words are spelled here.
import { h } from "./dom.js";
import { ballotWords, bars, canOpen, MAX_ACTIONS, MIN_ACTIONS, resultWords, soonWords } from "./vote-state.js";

/** @param {string} text @param {() => void} onclick @param {Record<string, unknown>} [attrs] */
const button = (text, onclick, attrs = {}) => h("button", { class: "btn", type: "button", text, onclick, ...attrs });
export const QUESTION = "What should happen next?";

/**
 * The actions and their votes, a bar each (the leader, or the winner, marked).
 * @param {Wire.Action[]} actions @param {number[]} counts @param {number | null} winner
 */
export function barList(actions, counts, winner = null) {
  return h("ol", { class: "vote-bars", dataTestid: "vote-bars" }, bars(actions, counts, winner).map((bar) => {
    const fill = h("span", { class: "bar" });
    fill.style.inlineSize = `${bar.width}%`;
    return h("li", { class: `vote-bar${bar.lead ? " lead" : ""}`, dataCount: bar.n },
      h("span", { class: "label name", text: bar.label }), h("span", { class: "track" }, fill),
      h("span", { class: "n", text: String(bar.n) }));
  }));
}

/** The presenter's panel while the server looks for the actions to propose. @param {() => void} putAway */
export function searchingParts(putAway) {
  return [h("h2", { text: QUESTION }),
    h("p", { class: "vote-hint", role: "status",
      text: "Looking for the actions after which the versions part soonest…" }),
    h("div", { class: "poll-actions" }, button("Cancel", putAway))];
}

/**
 * The presenter picks what the room may vote for: the fork menu's actions, those proposed ticked first, each
 * marked with how soon it parts the versions.
 * @param {{actions: (Wire.Action & {soon?: number | null})[], proposed: number}} offer
 * @param {number[]} chosen
 * @param {{tick: (i: number) => void, openVote: () => void, putAway: () => void}} act
 */
export function offerParts(offer, chosen, { tick, openVote, putAway }) {
  return [
    h("h2", { text: `Ask the room: ${QUESTION.toLowerCase()}` }),
    h("p", { class: "vote-hint", text: `Tick ${MIN_ACTIONS} to ${MAX_ACTIONS} actions; those after which the ` +
      "versions part soonest come first, ticked." }),
    h("ul", { class: "vote-offer", dataTestid: "vote-offer" }, offer.actions.map((action, i) => h("li", {},
      h("label", {}, h("input", { type: "checkbox", checked: chosen.includes(i), onchange: () => tick(i),
        disabled: !chosen.includes(i) && chosen.length >= MAX_ACTIONS }),
      h("span", { class: "name", text: action.label }),
      soonWords(action.soon) ? h("span", { class: `vote-proposed soon-${action.soon}`, text: soonWords(action.soon) })
        : null)))),
    h("div", { class: "poll-actions" },
      button("Open the vote", openVote, { class: "btn primary", disabled: !canOpen(chosen), dataTestid: "vote-open" }),
      button("Cancel", putAway)),
  ];
}

/**
 * The presenter's panel while the room votes: the bars filling, Close (the winner is played) or Cancel.
 * @param {Wire.Vote} vote @param {Wire.VoteTally} tally
 * @param {{close: () => void, cancel: () => void}} act
 */
export function votingParts(vote, tally, { close, cancel }) {
  return [
    h("h2", { text: `The room votes: ${QUESTION.toLowerCase()}` }),
    h("p", { class: "answered", dataTestid: "vote-answered", text: `${tally.answered} voted so far` }),
    barList(vote.actions, tally.counts),
    h("div", { class: "poll-actions" },
      button("Close and play the winner", close, { class: "btn primary", dataTestid: "vote-close",
        disabled: !tally.answered }),
      button("Cancel", cancel)),
  ];
}

/**
 * The result, on every screen: what the room chose and how it voted; the presenter may undo the fork.
 * @param {{label: string, counts: number[], answered: number, winner: number}} result
 * @param {Wire.Action[]} actions @param {{undo?: () => void, putAway: () => void}} act
 */
export function resultParts(result, actions, { undo, putAway }) {
  return [
    h("div", { class: "poll-head" }, h("h2", { text: "The room voted" }),
      h("div", { class: "poll-actions" }, undo ? button("↶ Undo the fork", undo, { dataTestid: "vote-undo" }) : null,
        button("Close", putAway))),
    h("p", { class: "vote-result", role: "status", dataTestid: "vote-result", text: resultWords(result) }),
    barList(actions, result.counts, result.winner),
  ];
}

/** The posted summary's address, to share. @param {string} href @param {() => void} close */
export function summaryParts(href, close) {
  const url = new URL(href, location.href).href;
  return [h("div", { class: "poll-head" }, h("h2", { text: "The room's summary" }),
    h("div", { class: "poll-actions" }, button("Close", close))),
  h("p", {}, "Kept to share after the talk (no token in it): ",
    h("a", { href: url, target: "_blank", rel: "noopener", dataTestid: "summary-link", text: url }))];
}

/**
 * A follower's sheet: one button per action (its own pressed), and how to change it.
 * @param {Wire.Vote} vote @param {number | null} mine @param {(i: number) => void} cast
 */
export function followerParts(vote, mine, cast) {
  return [
    h("div", { class: "poll-head" }, h("h2", { text: QUESTION })),
    h("div", { class: "vote-choices", role: "group", ariaLabel: QUESTION }, vote.actions.map((action, i) =>
      h("button", { class: "btn choice name", type: "button", text: action.label, dataAction: String(i),
        ariaPressed: String(mine === i), onclick: () => cast(i) }))),
    h("p", { class: "poll-status", role: "status", dataTestid: "vote-status", text: ballotWords(mine) }),
  ];
}

/**
 * The speaker view's bars: the open vote filling, or the result (`result`, with the actions it offered).
 * @param {Wire.Vote | null} vote @param {Wire.VoteTally} tally
 * @param {{label: string, counts: number[], answered: number, winner: number, actions: any[]} | null} result
 */
export function speakerParts(vote, tally, result) {
  if (result) return [h("h2", { text: "The room voted" }), h("p", { class: "vote-result", text: resultWords(result) }),
    barList(result.actions, result.counts, result.winner)];
  if (!vote) return [];
  return [h("h2", { text: `The room votes · ${tally.answered} so far` }), barList(vote.actions, tally.counts)];
}
