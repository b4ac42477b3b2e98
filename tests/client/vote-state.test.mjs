// static/js/vote-state.js in node: a room's vote is plain data in, plain data out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ballotWords, bars, canOpen, leftBehind, mineAfter, proposedChoice, resultWords, soonWords, tallyOf, toggled,
  voteOf } from "../../static/js/vote-state.js";

const actions = [{ step: { op: "pop" }, label: "pop" }, { step: { op: "done", pod: "A" }, label: "done A" }];
const vote = { position: 2, key: "k1", actions, open: true };

test("a message's vote and tally are its fields, nothing more", () => {
  assert.deepEqual(voteOf({ ...vote, room: "ABCDEF", yours: 1 }), vote);
  assert.deepEqual(tallyOf({ room: "ABCDEF", position: 2, answered: 3, counts: [1, 2] }),
    { answered: 3, counts: [1, 2] });
});

test("a follower's ballot: kept for the same vote given again, the server's for a new one", () => {
  assert.equal(mineAfter(vote, { ...vote }, 1), 1);
  assert.equal(mineAfter(vote, { ...vote, position: 3 }, 1), null);
  assert.equal(mineAfter(vote, { ...vote, key: "k2", yours: 0 }, 1), 0);
  assert.equal(mineAfter(null, { ...vote, yours: 1 }, null), 1);
  assert.equal(mineAfter({ ...vote, open: false }, { ...vote }, 1), null);
});

test("another load leaves an open vote behind; the same load does not", () => {
  assert.equal(leftBehind(vote, { key: "k2" }), true);
  assert.equal(leftBehind(vote, { key: "k1" }), false);
  assert.equal(leftBehind({ ...vote, open: false }, { key: "k2" }), false);
  assert.equal(leftBehind(null, { key: "k2" }), false);
});

test("the presenter ticks two to four actions, the proposed ones first", () => {
  assert.deepEqual(proposedChoice({ proposed: 3 }), [0, 1, 2]);
  assert.deepEqual(proposedChoice({ proposed: 9 }), [0, 1, 2, 3]);
  assert.deepEqual(toggled([0, 1], 1), [0]);
  assert.deepEqual(toggled([0, 3], 1), [0, 1, 3]);
  assert.deepEqual(toggled([0, 1, 2, 3], 5), [0, 1, 2, 3]); // a fifth is refused
  assert.equal(canOpen([0]), false);
  assert.equal(canOpen([0, 1]), true);
  assert.equal(canOpen([0, 1, 2, 3, 4]), false);
});

test("bars: widths against the most voted, the leader marked, the winner once closed", () => {
  assert.deepEqual(bars(actions, [1, 4]), [{ label: "pop", n: 1, width: 25, lead: false },
    { label: "done A", n: 4, width: 100, lead: true }]);
  assert.deepEqual(bars(actions, []).map((b) => [b.n, b.width, b.lead]), [[0, 0, false], [0, 0, false]]);
  assert.deepEqual(bars(actions, [2, 2], 0).map((b) => b.lead), [true, false]);
});

test("the words: the result with its share, a follower's status", () => {
  assert.equal(resultWords({ label: "done A", counts: [1, 4], answered: 5 }),
    "The room chose “done A” (4 of 5 votes): every version plays it now.");
  assert.match(resultWords({ label: "pop", counts: [1, 0], answered: 1 }), /\(1 of 1 vote\)/);
  assert.equal(ballotWords(null), "Tap what should happen next.");
  assert.deepEqual([0, 1, null, undefined].map(soonWords), ["parts the versions", "a step later", "", ""]);
  assert.match(ballotWords(0), /change it until the presenter closes/);
});
