// Small parts of the viewer in node: the event bus (bus.js), the climax's beats at a pace (animate.js), a count
// with its noun (editor-import.js) and the tab's voter id in a room's polls (voter.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBus } from "../../static/js/bus.js";
import { climaxBeats } from "../../static/js/animate.js";
import { counted } from "../../static/js/editor-import.js";
import { TOKENS } from "../../static/js/tokens.js";

test("the bus calls a topic's parts in the order they subscribed, and no other topic's", () => {
  const bus = createBus();
  const heard = [];
  bus.on("model", (m) => heard.push(["first", m]));
  bus.on("error", (m) => heard.push(["error", m]));
  bus.on("model", (m) => heard.push(["second", m]));
  bus.emit("model", 1);
  bus.emit("nobody", 2);
  assert.deepEqual(heard, [["first", 1], ["second", 1]]);
});

test("a publisher has one function per topic, each emitting it with its arguments", () => {
  const bus = createBus();
  const heard = [];
  bus.on("room", (...args) => heard.push(args));
  const publish = bus.publisher(["room", "scenario"]);
  assert.deepEqual(Object.keys(publish), ["room", "scenario"]);
  publish.room("poll", { open: true });
  assert.deepEqual(heard, [["poll", { open: true }]]);
});

test("the climax's beats are the tokens' at pace 1 and never shorter than the eye can follow", () => {
  assert.deepEqual(climaxBeats(1), { per: Math.max(160, TOKENS.beats.per), hold: Math.max(300, TOKENS.beats.hold),
    fade: Math.max(300, TOKENS.beats.fade) });
  assert.deepEqual(climaxBeats(1 / 1000), { per: 160, hold: 300, fade: 300 });
  const slow = climaxBeats(2);
  assert.ok(slow.per >= climaxBeats(1).per && slow.hold >= climaxBeats(1).hold);
});

test("a count agrees with its noun and is grouped in thousands", () => {
  assert.equal(counted(1, "step"), "1 step");
  assert.equal(counted(0, "step"), "0 steps");
  assert.equal(counted(12345, "pod"), "12,345 pods");
});

test("a tab keeps one voter id; where storage is refused, the page keeps one for its life", async () => {
  const stored = new Map();
  globalThis.sessionStorage = { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, v) };
  const { voter } = await import("../../static/js/voter.js");
  const id = voter();
  assert.match(id, /^[0-9a-f]{32}$/);
  assert.equal(voter(), id);
  globalThis.sessionStorage = { getItem: () => { throw new Error("refused"); }, setItem: () => {} };
  const own = voter();
  assert.match(own, /^[0-9a-f]{32}$/);
  assert.notEqual(own, id);
  assert.equal(voter(), own);
});
