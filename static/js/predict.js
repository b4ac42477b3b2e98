// "Predict" mode: before a failure is evaluated, ask where the pod will go; reveal after the step.
// The scene says when to ask (`predict`: the next step is a fail with the gate on), about which pod, with which
// choices; each pane's `outcome` is where the pod went.
import { h } from "./dom.js";

export function wantsPrediction(scene) {
  return Boolean(scene?.predict);
}

// Shows the prompt in `dialog`; resolves with {variant: queue} once the viewer picks for every variant.
export function askPrediction(dialog, scene) {
  const { pod, choices } = scene.predict;
  const guesses = {};
  return new Promise((resolve) => {
    const reveal = h("button", { class: "btn primary", type: "button", text: "Step and reveal", disabled: true });
    const rows = Object.values(scene.panes).map((pane) =>
      h("fieldset", { class: "predict-row" }, h("legend", { text: `Where will ${pod} go on ${pane.title}?` }),
        choices.map((queue) => h("label", {},
          h("input", { type: "radio", name: `guess-${pane.variant}`, value: queue, onchange: () => {
            guesses[pane.variant] = queue;
            reveal.disabled = Object.keys(guesses).length < rows.length;
          } }), ` ${queue}`))));
    reveal.addEventListener("click", () => {
      dialog.hidden = true;
      resolve(guesses);
    });
    dialog.replaceChildren(h("div", { class: "help-card" }, h("h2", { text: "Predict" }), rows, reveal));
    dialog.hidden = false;
    dialog.querySelector("input")?.focus();
  });
}

// The guesses against where the pod went (the scene after the step).
export function verdict(guesses, scene) {
  return Object.entries(guesses).map(([variant, guess]) => {
    const actual = scene.panes[variant]?.outcome;
    return `${variant}: you said ${guess}, it went to ${actual} ${guess === actual ? "✓" : "✗"}`;
  }).join(" · ");
}
