// "Predict" mode: before a failure is evaluated, ask where the pod will go; reveal after the step.
import { h } from "./dom.js";

const QUEUES = ["activeQ", "backoffQ", "unschedulablePods"];

export function wantsPrediction(state, scenario) {
  return Boolean(state?.next && state.next.op === "fail" && scenario?.gate);
}

// Shows the prompt in `dialog`; resolves with {variant: queue} once the viewer picks for every variant.
export function askPrediction(dialog, state) {
  const pod = state.next.label.match(/pod=(\S+)/)?.[1] ?? "the pod";
  const guesses = {};
  return new Promise((resolve) => {
    const reveal = h("button", { class: "btn primary", type: "button", text: "Step and reveal", disabled: true });
    const rows = Object.keys(state.variants).map((variant) =>
      h("fieldset", { class: "predict-row" }, h("legend", { text: `Where will ${pod} go on ${variant}?` }),
        QUEUES.map((q) => h("label", {},
          h("input", { type: "radio", name: `guess-${variant}`, value: q, onchange: () => {
            guesses[variant] = q;
            reveal.disabled = Object.keys(guesses).length < rows.length;
          } }), ` ${q}`))));
    reveal.addEventListener("click", () => {
      dialog.hidden = true;
      resolve(guesses);
    });
    dialog.replaceChildren(h("div", { class: "help-card" }, h("h2", { text: "Predict" }), rows, reveal));
    dialog.hidden = false;
    dialog.querySelector("input")?.focus();
  });
}

export function verdict(guesses, state) {
  return Object.entries(guesses).map(([variant, guess]) => {
    const actual = state.variants[variant]?.result?.queue;
    return `${variant}: you said ${guess}, it went to ${actual} ${guess === actual ? "✓" : "✗"}`;
  }).join(" · ");
}
