// static/js/explore-fork.js in node: forking is plain data in, plain data out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { actable, branchWords, forked, forkedName, forkedWords, jsonBytes, otherBranch, paletteOf, parted }
  from "../../static/js/explore-fork.js";

const step = (n) => ({ op: "event", event: `E${n}` });
const lesson = { name: "Lesson", steps: [step(1), step(2), step(3)], hints: [{ plugin: "P", event: "NodeAdd" }] };

test("parted keeps the steps before `at`, puts `steps` after them and the rest as the other branch", () => {
  const out = parted(lesson, 1, "New", [step(9)]);
  assert.deepEqual(out.steps, [step(1), step(9)]);
  assert.equal(out.name, "New");
  assert.deepEqual(out.branch, { at: 1, name: "Lesson", steps: [step(2), step(3)] });
  assert.deepEqual(out.hints, lesson.hints);
  assert.equal(lesson.steps.length, 3, "the source is not changed");
});

test("parted at the end leaves no other branch, and drops the source's own", () => {
  const out = parted({ ...lesson, branch: { at: 0, steps: [step(7)] } }, 3, "New", []);
  assert.equal(out.branch, undefined);
  assert.deepEqual(out.steps, lesson.steps);
});

test("a fork is named once, however often it is forked again", () => {
  assert.equal(forkedName("Lesson"), "Lesson (fork)");
  assert.equal(forkedName("Lesson (fork)"), "Lesson (fork)");
});

test("forked adds the step with its note after `here` and keeps the rest as the other branch", () => {
  const out = forked(lesson, 2, { op: "pop" });
  assert.equal(out.name, "Lesson (fork)");
  assert.deepEqual(out.steps.slice(0, 2), [step(1), step(2)]);
  assert.equal(out.steps[2].op, "pop");
  assert.match(out.steps[2].note, /^⎇ Forked from “Lesson” after step 2\.$/);
  assert.deepEqual(out.branch, { at: 2, name: "Lesson", steps: [step(3)] });
});

test("forked on at the end of a fork keeps the fork's own other branch", () => {
  const fork = forked(lesson, 1, { op: "pop" });
  const again = forked(fork, fork.steps.length, { op: "pop" });
  assert.deepEqual(again.branch, fork.branch);
  assert.equal(again.name, "Lesson (fork)");
});

test("the other branch keeps this one as its own, so switching twice comes back", () => {
  const fork = forked(lesson, 1, { op: "pop" });
  const { other, from } = otherBranch(fork);
  assert.equal(from, 1);
  assert.equal(other.name, "Lesson");
  assert.deepEqual(other.steps, lesson.steps);
  const back = otherBranch(other).other;
  assert.deepEqual(back.steps, fork.steps);
  assert.equal(back.name, fork.name);
  assert.equal(otherBranch(lesson), null);
});

test("the words say what was kept", () => {
  assert.match(forkedWords(2, "pop", 1), /^Forked after step 2: pop\. The original's other step is kept/);
  assert.match(forkedWords(2, "pop", 3), /other 3 steps are kept/);
  assert.equal(forkedWords(3, "pop", 0), "Forked after step 3: pop. ↶ Undo returns to the scenario before.");
  assert.equal(branchWords(lesson, "Other", 1, 2, 3),
    "On the other branch, “Other”, at step 2: it parts from “Lesson” after step 1.");
  assert.equal(branchWords(lesson, "Other", 3, 3, 3), "On the other branch, “Other”, at step 3.");
});

test("jsonBytes counts the UTF-8 bytes of the JSON", () => {
  assert.equal(jsonBytes({ name: "é" }), JSON.stringify({ name: "é" }).length + 1);
});

test("the palette: hints' events, steps' events, then those that wake a named plugin, offered ones only, five", () => {
  const source = { name: "S", hints: [{ plugin: "P", event: "NodeAdd" }],
    steps: [{ op: "event", event: "PodAdd" }, { op: "fail", pod: "a", unschedulable_plugins: ["Q"] }] };
  const choices = ["NodeAdd", "PodAdd", "CSINodeAdd", "PVAdd", "X1", "X2", "X3"];
  const wakes = { CSINodeAdd: ["Q"], PVAdd: ["P"], Unoffered: ["P"], X1: ["P"], X2: ["P"], X3: ["Q"] };
  const { palette, plugins } = paletteOf(source, choices, wakes);
  assert.deepEqual(palette, ["NodeAdd", "PodAdd", "CSINodeAdd", "PVAdd", "X1"]);
  assert.deepEqual(plugins, ["P", "Q"]);
});

test("a fork's palette reads its original's steps first, so the keys stay as they were", () => {
  const choices = ["A", "B", "C"];
  const original = { name: "S", steps: [{ op: "event", event: "A" }, { op: "event", event: "B" }] };
  const fork = forked(original, 1, { op: "event", event: "C" });
  assert.deepEqual(paletteOf(original, choices, {}).palette, ["A", "B"]);
  assert.deepEqual(paletteOf(fork, choices, {}).palette, ["A", "B", "C"]);
});

test("actable: the pods in flight in any version, once each, and whether any version can pop", () => {
  const pane = (active, inFlight) => ({ lanes: [{ queue: "activeQ", chips: active.map((pod) => ({ pod })) },
    { queue: "inFlight", chips: inFlight.map((pod) => ({ pod })) }] });
  assert.deepEqual(actable({ panes: { v1: pane([], ["a", "b"]), v2: pane(["c"], ["b", "d"]) } }),
    { inFlight: ["a", "b", "d"], poppable: true });
  assert.deepEqual(actable({ panes: { v1: pane([], []) } }), { inFlight: [], poppable: false });
});
