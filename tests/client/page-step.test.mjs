// static/js/page-step.js in node: how the page moves from one model to the next, as plain data.
import { test } from "node:test";
import assert from "node:assert/strict";
import { paceOf, repointed, steppedForward, tickMs, walkMs } from "../../static/js/page-step.js";

const model = (position, { total = 9, panes = ["v1", "v2"], playing = false, speed = 1 } = {}) =>
  ({ position, playing, speed, scene: { position, total, panes: Object.fromEntries(panes.map((v) => [v, {}])) } });

test("only a step forward within one scenario moves", () => {
  assert.equal(steppedForward(model(2), model(3)), true);
  assert.equal(steppedForward(null, model(1)), false, "the first model cuts");
  assert.equal(steppedForward(model(3), model(2)), false, "back cuts");
  assert.equal(steppedForward(model(2), model(5)), false, "a seek cuts");
  assert.equal(steppedForward(model(2), model(3, { total: 7 })), false, "another scenario cuts");
  assert.equal(steppedForward(model(2), model(3, { panes: ["v1"] })), false, "other versions cut");
});

test("repointed: the pods whose arrow is new or aims elsewhere", () => {
  const arrow = (pod, target, extra = {}) => ({ pod, target, key: target, detached: false, decided: false, ...extra });
  const before = { pointers: [arrow("a", "e1"), arrow("b", "e2"), arrow("c", "e3")] };
  const now = { pointers: [arrow("a", "e1"), arrow("b", "e4"), arrow("c", "e3", { detached: true }),
    arrow("d", "e1")] };
  assert.deepEqual(repointed(before, now), ["b", "c", "d"]);
  assert.deepEqual(repointed(undefined, { pointers: [arrow("a", "e1")] }), ["a"]);
  assert.deepEqual(repointed(before, {}), []);
});

test("the beats follow Play's speed; stepped by hand they take their own time", () => {
  assert.equal(tickMs(model(1, { speed: 4 })), 250);
  assert.equal(tickMs(model(1, { speed: 0 })), 1000);
  assert.equal(paceOf(model(1, { playing: true, speed: 4 })), 0.25);
  assert.equal(paceOf(model(1, { playing: true, speed: 0.5 })), 1);
  assert.equal(paceOf(model(1, { speed: 8 })), 1);
  assert.equal(walkMs(model(1, { playing: true, speed: 2 })), 225);
  assert.equal(walkMs(model(1, { speed: 2 })), 1400);
});
