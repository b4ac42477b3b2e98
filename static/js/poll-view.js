// A room's poll drawn (poll.js decides when): the presenter's panel (a histogram per version filling, Reveal and
// Cancel) and a follower's (a row of choices per version, then the room's answers and the verdict on its own).
// Each function takes the poll as plain data and gives the panel's parts; only the page's own words are spelled
// here, every queue, pod and version name is the server's.
import { h } from "./dom.js";
import { question, verdict } from "./predict.js";
import { stepped } from "./poll-state.js";

/**
 * What a panel shows: the poll, its tally, the scene on screen (null: none yet) and a version's title.
 * @typedef {{poll: Wire.Poll, tally: Wire.Tally, scene: Wire.Scene | null, titleOf: (variant: string) => string}} Shown
 */

/** @param {Shown} shown @param {string} variant @param {string | null | undefined} outcome */
function histogram({ poll, tally, titleOf }, variant, outcome) {
  const counts = tally.counts[variant] ?? {};
  const most = Math.max(1, ...Object.values(counts));
  return h("figure", { class: "histogram", dataVariant: variant },
    h("figcaption", { text: `${titleOf(variant)}` }),
    poll.choices.map((choice) => {
      const n = counts[choice] ?? 0;
      const bar = h("span", { class: "bar" });
      bar.style.inlineSize = `${(100 * n) / most}%`;
      return h("div", { class: `bin${outcome === choice ? " truth" : ""}`, dataChoice: choice, dataCount: n },
        h("span", { class: "choice name", text: choice }), h("span", { class: "track" }, bar),
        h("span", { class: "n", text: String(n) }));
    }));
}

/** A histogram per version, each marking its outcome once the step is applied. @param {Shown} shown */
function histograms(shown) {
  const { poll, scene } = shown;
  const applied = stepped(poll, scene);
  return h("div", { class: "histograms" },
    poll.variants.map((v) => histogram(shown, v, applied ? scene?.panes[v]?.outcome : null)));
}

/** Where the pod went on each of `variants`. @param {Shown} shown @param {string[]} variants */
function outcomeLines({ poll, scene }, variants) {
  return variants.map((variant) => {
    const pane = scene?.panes[variant];
    return pane?.outcome ? h("p", { class: "truth-line", dataVariant: variant },
      h("strong", { text: `${pane.title}: ${poll.pod} → ${pane.outcome}` }),
      pane.caption ? ` — ${pane.caption}` : "")
      : null;
  });
}

/** @param {string} text @param {() => void} onclick @param {Record<string, any>} attrs */
const button = (text, onclick, attrs = {}) => h("button", { class: "btn", type: "button", text, onclick, ...attrs });

/**
 * The presenter's panel: open, Reveal and step or Cancel; revealed, the truth and Close.
 * @param {Shown} shown @param {{reveal: () => void, withdraw: () => void, putAway: () => void}} act
 */
export function presenterParts(shown, { reveal, withdraw, putAway }) {
  const { poll, tally, scene } = shown;
  const actions = poll.open
    ? [button("Reveal and step", reveal, { class: "btn primary", dataTestid: "poll-reveal" }),
      button("Cancel", withdraw)]
    : [button("Close", putAway)];
  return [
    h("h2", { text: `Live poll: where will ${poll.pod} go?` }),
    h("p", { class: "answered", dataTestid: "poll-answered",
      text: `${tally.answered} answered${poll.open ? " so far" : ""}` }),
    histograms(shown),
    stepped(poll, scene) ? outcomeLines(shown, poll.variants) : null,
    h("div", { class: "poll-actions" }, actions),
  ];
}

/**
 * A follower's panel, a sheet docked at a phone's foot (phone.css, dock.js) that leaves the diagram in sight: open, a
 * row of choices per version (`mine` pressed); revealed, a head with Close, then once the step is applied the
 * verdict on `mine` and where the pod went on the versions not answered, then the room's answers.
 * @param {Shown} shown @param {Record<string, string>} mine
 * @param {{answer: (variant: string, choice: string) => void, putAway: () => void}} act
 */
export function followerParts(shown, mine, { answer, putAway }) {
  const { poll, tally, scene, titleOf } = shown;
  const applied = stepped(poll, scene);
  const rows = poll.variants.map((variant) => h("fieldset", { class: "poll-row", dataVariant: variant },
    h("legend", { text: question(poll.pod, titleOf(variant)) }),
    h("div", { class: "poll-choices" }, poll.choices.map((choice) => h("button", {
      class: "btn choice name", type: "button", text: choice, dataChoice: choice, disabled: !poll.open,
      ariaPressed: String(mine[variant] === choice), onclick: () => answer(variant, choice),
    })))));
  const answered = Object.keys(mine).length;
  const status = poll.open
    ? (answered ? "Answer sent — you may change it until the presenter reveals." : "Tap where you think it goes.")
    : applied ? "" : `${tally.answered} answered · the presenter is stepping…`;
  return [
    h("div", { class: "poll-head" },
      h("h2", { text: poll.open ? "Predict with the room" : "The room's answers" }),
      poll.open ? null : h("div", { class: "poll-actions" }, button("Close", putAway))),
    poll.open ? rows : null,
    h("p", { class: "poll-status", role: "status", dataTestid: "poll-status", text: status }),
    applied && answered && scene
      ? h("p", { class: "prediction poll-verdict", dataTestid: "poll-verdict", text: verdict(mine, scene) }) : null,
    applied ? outcomeLines(shown, poll.variants.filter((v) => !(v in mine))) : null, // the verdict says the rest
    poll.open ? null : histograms(shown),
  ];
}
