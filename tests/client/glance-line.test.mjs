// static/js/glance-line.js in node: one version's state in a line, every word the scene's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { glanceLine, podsOf, soFarOf, whereOf } from "../../static/js/glance-line.js";

const lanes = (where) => ["activeQ", "backoffQ", "unschedulablePods", "in flight"].map((label) => ({
  queue: label, label, chips: (where[label] ?? []).map((pod) => ({ pod })) }));
const pane = (variant, where, extra = {}) => ({ variant, title: variant, tone: "fix", caption: "Done(A)",
  lanes: lanes(where), ...extra });
const outcomes = { label: "After failing, so far", pods: [{ pod: "B", parts: [
  { variant: "v1", text: "v1: waiting in unschedulablePods since t = 0 s" },
  { variant: "v2", text: "v2: back in activeQ after 1 s via backoffQ" }] }] };

test("the pods: the predicted one, else those failed so far, else every pod in a lane", () => {
  const p = pane("v1", { activeQ: ["A"], "in flight": ["B", "C"] });
  assert.deepEqual(podsOf({ predict: { pod: "C" }, outcomes, panes: {} }, p), ["C"]);
  assert.deepEqual(podsOf({ predict: null, outcomes, panes: {} }, p), ["B"]);
  assert.deepEqual(podsOf({ predict: null, outcomes: { pods: [] }, panes: {} }, p), ["A", "B", "C"]);
});

test("where: each lane holding one of the pods, its label and those pods", () => {
  const p = pane("v1", { activeQ: ["A"], "in flight": ["B", "C"] });
  assert.equal(whereOf(p, ["B", "C"]), "in flight: B C");
  assert.equal(whereOf(p, ["A", "C"]), "activeQ: A · in flight: C");
  assert.equal(whereOf(p, ["Z"]), "");
});

test("so far: the scene's outcome for the version, its name dropped, the pod's put in front", () => {
  assert.equal(soFarOf({ outcomes }, "v2", ["B"]), "B: back in activeQ after 1 s via backoffQ");
  assert.equal(soFarOf({ outcomes }, "v3", ["B"]), "");
});

test("the line: the step's decision where a pod failed, else how it fared so far, else the caption", () => {
  const failed = pane("v1", { unschedulablePods: ["B"] },
    { outcome: "unschedulablePods", caption: "B fails → unschedulablePods: saw nothing" });
  const later = pane("v2", { activeQ: ["B"] }, { caption: "Clock +299 s" });
  const scene = { predict: null, outcomes, panes: { v1: failed, v2: later } };
  assert.deepEqual(glanceLine(scene, "v1"), { variant: "v1", title: "v1", tone: "fix",
    where: "unschedulablePods: B", text: "B fails → unschedulablePods: saw nothing" });
  assert.equal(glanceLine(scene, "v2").text, "B: back in activeQ after 1 s via backoffQ");
  const start = { predict: null, outcomes: { pods: [] }, panes: { v1: pane("v1", { activeQ: ["A", "B"] }) } };
  assert.deepEqual(glanceLine(start, "v1"), { variant: "v1", title: "v1", tone: "fix", where: "activeQ: A B",
    text: "Done(A)" });
});
