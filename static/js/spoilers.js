// Predict's promise: before the viewer answers a prompt, no text on the page names its answer. Two texts tell
// what is still to come: the introduction (how the story ends) and the presenter's notes on the next step. While
// Predict is on, the introduction is withheld as long as a prompt lies ahead, and the notes on the next step
// while it is the step asked about; every other text on the page is about the steps already applied.
import { $, h } from "./dom.js";
import { renderMarkdown } from "./markdown.js";

export const INTRO_WITHHELD = "Predict is on, and this introduction tells how the story ends: it comes back "
  + "once your last prediction is revealed (or untick Predict).";
export const NOTES_WITHHELD = "Predict is on: what the next step does is shown once it is answered.";

const predicting = () => Boolean($("predict")?.checked);

// Whether a prompt lies ahead of `position`: a failure still to apply in a scenario with the gate on (where the
// scene asks, webapp/presenter/scene.py `predict`).
/** @param {Wire.ScenarioMessage | null} scenario @param {number} position */
export function promptAhead(scenario, position) {
  return scenario !== null && scenario.gate && scenario.steps.slice(position).some((step) => step.kind === "fail");
}

/** @type {{scenario: Wire.ScenarioMessage | null, withheld: boolean}} */
let drawn = { scenario: null, withheld: false };

// The scenario's description at `position`, or in its place why it is withheld (drawn again only on a change).
/** @param {Wire.ScenarioMessage} scenario @param {number} position */
export function drawDescription(scenario, position) {
  const withheld = predicting() && promptAhead(scenario, position);
  if (drawn.scenario === scenario && drawn.withheld === withheld) return;
  drawn = { scenario, withheld };
  $("scenario-description").replaceChildren(...(withheld
    ? [h("p", { class: "withheld", dataTestid: "intro-withheld", text: INTRO_WITHHELD })]
    : renderMarkdown(scenario.description)));
}

// Whether the presenter's notes on the next step are withheld from `scene`.
/** @param {Wire.Scene} scene */
export const notesWithheld = (scene) => predicting() && Boolean(scene.predict);
