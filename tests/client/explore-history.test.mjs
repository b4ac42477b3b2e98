// static/js/explore-history.js in node: the history is plain data in, plain data out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { begun, canRedo, canUndo, EMPTY, heard, keyOf, keyOfMessage, moved, pushed }
  from "../../static/js/explore-history.js";

const a = { name: "A", steps: [] };
const b = { name: "B", steps: [] };
const c = { name: "C", steps: [] };

test("a first fork begins the history with the scenario on screen; a begun one is kept", () => {
  const h = begun(EMPTY, "lesson", 4);
  assert.deepEqual(h, { entries: [{ source: "lesson", position: 4 }], at: 0 });
  assert.equal(begun(h, "other", 1), h);
  assert.deepEqual(EMPTY, { entries: [], at: -1 }, "EMPTY is not changed");
});

test("pushed leaves the entry on screen where it was and drops what came after it", () => {
  let h = pushed(begun(EMPTY, "lesson", 4), 4, a, 5);
  h = pushed(h, 6, b, 7);
  assert.deepEqual(h.entries,
    [{ source: "lesson", position: 4 }, { source: a, position: 6 }, { source: b, position: 7 }]);
  assert.equal(h.at, 2);
  const back = moved(h, 2, 7, 0);
  const branched = pushed(back, 2, c, 3);
  assert.deepEqual(branched.entries.map((e) => e.source), ["lesson", c]);
  assert.deepEqual(branched.entries[0], { source: "lesson", position: 2 });
  assert.equal(branched.at, 1);
});

test("pushed keeps the newest `limit` entries", () => {
  let h = begun(EMPTY, "s0", 0);
  for (let i = 1; i <= 5; i++) h = pushed(h, 0, `s${i}`, i, 3);
  assert.deepEqual(h.entries.map((e) => e.source), ["s3", "s4", "s5"]);
  assert.equal(h.at, 2);
});

test("moved puts `to` on screen and leaves `from` where it was", () => {
  const h = pushed(begun(EMPTY, "lesson", 4), 4, a, 5);
  const undone = moved(h, 1, 9, 0);
  assert.deepEqual(undone, { entries: [{ source: "lesson", position: 4 }, { source: a, position: 9 }], at: 0 });
  assert.deepEqual(h.entries[1], { source: a, position: 5 }, "the history given is not changed");
});

test("undo and redo are offered only where there is an entry to go to", () => {
  assert.equal(canUndo(EMPTY), false);
  assert.equal(canRedo(EMPTY), false);
  const h = pushed(begun(EMPTY, "lesson", 4), 4, a, 5);
  assert.deepEqual([canUndo(h), canRedo(h)], [true, false]);
  const undone = moved(h, 1, 5, 0);
  assert.deepEqual([canUndo(undone), canRedo(undone)], [false, true]);
});

test("a scenario message the history holds puts its entry on screen; another starts over", () => {
  const h = pushed(begun(EMPTY, "lesson", 4), 4, a, 5);
  assert.deepEqual(heard(h, "lesson"), { history: { ...h, at: 0 }, cleared: false });
  assert.deepEqual(heard(h, keyOf(a)), { history: h, cleared: false });
  assert.deepEqual(heard(h, "elsewhere"), { history: EMPTY, cleared: true });
  assert.deepEqual(heard(EMPTY, "elsewhere"), { history: EMPTY, cleared: false });
});

test("a message's key is its id, or its source as JSON, as an entry's is", () => {
  assert.equal(keyOfMessage({ id: "lesson", source: a }), keyOf("lesson"));
  assert.equal(keyOfMessage({ id: null, source: a }), keyOf(a));
});
