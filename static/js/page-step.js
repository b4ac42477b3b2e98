// How the page moves from one model to the next, as plain data (page.js draws it): whether it is a step forward,
// which arrows are new, and how long its beats take. No DOM: node runs it as it is (tests/client).

/**
 * A step forward within one scenario (a new load starts over at its own position; going back or seeking cuts).
 * @param {Model | null} previous @param {Model} model
 */
export function steppedForward(previous, model) {
  if (!previous || model.scene.position !== previous.scene.position + 1) return false;
  return previous.scene.total === model.scene.total
    && Object.keys(previous.scene.panes).join() === Object.keys(model.scene.panes).join();
}

/**
 * The pods whose arrow is new in `now`, or aims elsewhere (another target, broken, decided) than `before`'s.
 * @param {{pointers?: any[]} | undefined} before @param {{pointers?: any[]}} now @returns {string[]}
 */
export function repointed(before, now) {
  /** @param {Wire.Pointer} p */
  const aim = (p) => `${p.target}|${p.key}|${p.detached}|${p.decided}`;
  const was = new Map((before?.pointers ?? []).map((p) => [p.pod, aim(p)]));
  return (now.pointers ?? []).filter((p) => was.get(p.pod) !== aim(p)).map((p) => p.pod);
}

/** A tick of Play, in ms, at the model's speed. @param {Model} model */
export const tickMs = (model) => 1000 / (model.speed || 1);

/** The pace of the climax's beats: 1 paused, faster as Play is. @param {Model} model */
export const paceOf = (model) => (model.playing ? Math.min(1, 1 / (model.speed || 1)) : 1);

/** How long the hint walk of a step forward takes: under half a tick playing, 1.4 s stepped. @param {Model} model */
export const walkMs = (model) => (model.playing ? tickMs(model) * 0.45 : 1400);
