// One version's state in a line, for the strip that keeps the other panes in sight where the panes stack (glance.js):
// the pods that matter and the lanes they are in, then what was decided or how they fared so far. Every word is the
// scene's (webapp/presenter/scene.py): the pane's lanes, its caption and outcome, the scene's outcomes and predict;
// only the joining punctuation is spelled here. No DOM: node runs it as it is (tests/client).

/**
 * The pods a line is about: the one the room is asked to predict, else the pods that have failed so far (the
 * scene's outcomes), else every pod in a lane.
 * @param {Wire.Scene} scene @param {Wire.Pane} pane @returns {string[]}
 */
export function podsOf(scene, pane) {
  if (scene.predict?.pod) return [scene.predict.pod];
  const failed = (scene.outcomes?.pods ?? []).map((/** @type {{pod: string}} */ o) => o.pod);
  if (failed.length) return failed;
  return pane.lanes.flatMap((lane) => lane.chips.map((chip) => chip.pod));
}

/**
 * Where `pods` are on `pane`: each lane holding one of them, its label and those pods ("backoffQ: B").
 * @param {Wire.Pane} pane @param {string[]} pods @returns {string}
 */
export function whereOf(pane, pods) {
  return pane.lanes.map((lane) => {
    const here = lane.chips.map((chip) => chip.pod).filter((pod) => pods.includes(pod));
    return here.length ? `${lane.label ?? lane.queue}: ${here.join(" ")}` : "";
  }).filter(Boolean).join(" · ");
}

/**
 * How `pods` fared so far on `variant` (the scene's outcomes line, without its version's name): "B: back in activeQ
 * after 1 s via backoffQ".
 * @param {Wire.Scene} scene @param {string} variant @param {string[]} pods @returns {string}
 */
export function soFarOf(scene, variant, pods) {
  const prefix = `${variant}: `;
  return (scene.outcomes?.pods ?? []).filter((/** @type {{pod: string}} */ o) => pods.includes(o.pod))
    .flatMap((/** @type {{pod: string, parts: {variant: string, text: string}[]}} */ o) => o.parts
      .filter((part) => part.variant === variant)
      .map((part) => `${o.pod}: ${part.text.startsWith(prefix) ? part.text.slice(prefix.length) : part.text}`))
    .join("; ");
}

/**
 * The line for `variant`'s pane: its title, where the pods are, and what the step decided (the pane's caption, when
 * a pod failed on it) or else how they fared so far, or else the caption.
 * @param {Wire.Scene} scene @param {string} variant
 * @returns {{variant: string, title: string, tone: string, where: string, text: string}}
 */
export function glanceLine(scene, variant) {
  const pane = scene.panes[variant];
  const pods = podsOf(scene, pane);
  const caption = pane.caption ?? pane.narration?.title ?? "";
  const text = pane.outcome ? caption : (soFarOf(scene, variant, pods) || caption);
  return { variant, title: pane.title, tone: pane.tone ?? "", where: whereOf(pane, pods), text };
}
