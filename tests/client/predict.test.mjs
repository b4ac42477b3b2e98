// static/js/predict.js and spoilers.js in node: when a prompt lies ahead (and so what is withheld), the question
// asked, and the verdict's lines after the reveal.
import { test } from "node:test";
import assert from "node:assert/strict";
import { question, verdict, wantsPrediction } from "../../static/js/predict.js";
import { promptAhead } from "../../static/js/spoilers.js";

const steps = (...kinds) => kinds.map((kind) => ({ kind }));
const gated = { gate: true, steps: steps("add", "add", "pop", "event", "fail", "done") };

test("a prompt lies ahead while a failure is still to apply, with the gate on", () => {
  assert.deepEqual([0, 1, 4, 5, 6].map((p) => promptAhead(gated, p)), [true, true, true, false, false]);
});

test("no prompt lies ahead without the gate, without a failure, or without a scenario", () => {
  assert.equal(promptAhead({ ...gated, gate: false }, 0), false);
  assert.equal(promptAhead({ gate: true, steps: steps("add", "pop", "done") }, 0), false);
  assert.equal(promptAhead(null, 0), false);
});

test("the scene asks when it says so", () => {
  assert.equal(wantsPrediction({ predict: { pod: "B", choices: [] } }), true);
  assert.equal(wantsPrediction({ predict: null }), false);
  assert.equal(wantsPrediction(undefined), false);
});

test("the question names the pod and the pane's title", () => {
  assert.equal(question("B", "v1.28.1"), "Where will B go on v1.28.1?");
});

test("the verdict says per version what was guessed, where the pod went, and why", () => {
  const scene = { panes: {
    "v1.28.1": { outcome: "unschedulablePods", caption: "B's walk saw nothing" },
    "v1.28.2": { outcome: "backoffQ" },
  } };
  assert.equal(verdict({ "v1.28.1": "unschedulablePods", "v1.28.2": "activeQ" }, scene),
    "v1.28.1: you said unschedulablePods, it went to unschedulablePods ✓ — B's walk saw nothing\n"
    + "v1.28.2: you said activeQ, it went to backoffQ ✗");
});
