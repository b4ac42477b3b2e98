// static/js/poll-state.js in node: a room's poll is plain data in, plain data out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { afterModel, answersAfter, opened, pollOf, stepped, tallyOf } from "../../static/js/poll-state.js";

const poll = { position: 3, pod: "p", choices: ["activeQ", "backoffQ"], variants: ["v1", "v2"], open: true };

test("the presenter's prompt opens a poll on the scene's prediction, over its versions", () => {
  const scene = { position: 3, total: 9, predict: { pod: "p", choices: ["activeQ", "backoffQ"] },
    panes: { v1: {}, v2: {} } };
  assert.deepEqual(opened(scene), poll);
});

test("a message's poll and tally are its fields, nothing more", () => {
  const msg = { ...poll, room: "ABCD", answered: 2, counts: { v1: { activeQ: 2 } }, yours: {} };
  assert.deepEqual(pollOf(msg), poll);
  assert.deepEqual(tallyOf(msg), { answered: 2, counts: { v1: { activeQ: 2 } } });
});

test("a follower's answers: kept for the open poll given again, the server's for a new one, kept once closed", () => {
  const mine = { v1: "activeQ" };
  assert.equal(answersAfter(poll, { ...poll, yours: {} }, mine), mine);
  assert.deepEqual(answersAfter(poll, { ...poll, position: 5, yours: { v2: "backoffQ" } }, mine), { v2: "backoffQ" });
  assert.deepEqual(answersAfter({ ...poll, open: false }, { ...poll }, mine), {});
  assert.deepEqual(answersAfter(null, { ...poll }, mine), {});
  assert.equal(answersAfter(poll, { ...poll, open: false }, mine), mine);
});

test("stepped: the scene is the step the poll asks about", () => {
  assert.equal(stepped(poll, { position: 4 }), true);
  assert.equal(stepped(poll, { position: 3 }), false);
  assert.equal(stepped(poll, null), false);
});

test("a model drawn: revealed at the step after, kept where it asks, the presenter's open one kept a step on", () => {
  const revealed = { ...poll, open: false };
  assert.equal(afterModel(revealed, 4, true), "reveal");
  assert.equal(afterModel(revealed, 4, false), "reveal");
  assert.equal(afterModel(revealed, 3, true), "away", "a revealed poll goes where the view steps back to it");
  assert.equal(afterModel(poll, 3, true), "keep");
  assert.equal(afterModel(poll, 4, false), "keep", "the presenter's reveal may come after the step");
  assert.equal(afterModel(poll, 4, true), "away", "a follower's own view left the open poll");
  assert.equal(afterModel(poll, 7, false), "away");
});
