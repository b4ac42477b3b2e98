// static/js/keys.js in node: the one table of keys (each key one action, each row shown and described) and how a
// key press is read (Shift by the letter's case, Ctrl or ⌘ as "Ctrl+", nothing while typing or under the help).
// The document is a stand-in holding what bindKeys listens to and what the selectors it asks would find.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bindKeys, KEYS } from "../../static/js/keys.js";

test("each key belongs to one row, and each row names its action, shows its keys and says what it does", () => {
  const keys = KEYS.flatMap((row) => row.keys);
  assert.equal(new Set(keys).size, keys.length, "a key in two rows");
  assert.equal(new Set(KEYS.map((row) => row.action)).size, KEYS.length, "an action in two rows");
  for (const row of KEYS) assert.ok(row.keys.length && row.shown && row.action && row.does, JSON.stringify(row));
});

// A document whose keydown and pointerdown listeners can be fired; `open` and `typing` are the selectors that
// match something (the help shown, a field focused).
function page({ open = [] } = {}) {
  const listeners = {};
  globalThis.document = {
    addEventListener: (type, fn) => (listeners[type] ||= []).push(fn),
    querySelector: (selector) => (open.some((s) => selector.includes(s)) ? {} : null),
    getElementById: () => null,
  };
  const target = (typing = false) => ({ closest: (selector) => (typing && selector.includes("textarea") ? {} : null) });
  const press = (key, { shift = false, ctrl = false, alt = false, typing = false } = {}) => {
    const ev = { key, shiftKey: shift, ctrlKey: ctrl, metaKey: false, altKey: alt, target: target(typing),
      prevented: false, preventDefault() { this.prevented = true; } };
    for (const fn of listeners.keydown) fn(ev);
    return ev;
  };
  return { press };
}

function bound(options) {
  const called = [];
  const actions = Object.fromEntries(KEYS.map((row) => [row.action, (key) => called.push([row.action, key])]));
  const { press } = page(options);
  bindKeys(actions);
  return { called, press };
}

test("a key calls its row's action and is kept from the browser", () => {
  const { called, press } = bound();
  assert.equal(press("ArrowRight").prevented, true);
  press("PageUp");
  press("End");
  assert.deepEqual(called, [["step", "ArrowRight"], ["back", "PageUp"], ["end", "End"]]);
});

test("Shift is read from the letter's case, Caps Lock or not", () => {
  const { called, press } = bound();
  press("n");
  press("n", { shift: true });
  press("N", { shift: true });
  press("N"); // Caps Lock, no Shift
  assert.deepEqual(called.map(([action]) => action),
    ["toggleNarration", "nextLesson", "nextLesson", "toggleNarration"]);
});

test("Ctrl (or ⌘) makes a chord; Alt leaves the key to the browser", () => {
  const { called, press } = bound();
  press("z", { ctrl: true });
  press("z", { ctrl: true, shift: true });
  press("ArrowRight", { alt: true });
  assert.deepEqual(called.map(([action]) => action), ["undo", "redo"]);
});

test("a key not in the table is left alone", () => {
  const { called, press } = bound();
  assert.equal(press("q").prevented, false);
  assert.deepEqual(called, []);
});

test("while typing in a field the keys type", () => {
  const { called, press } = bound();
  assert.equal(press("ArrowRight", { typing: true }).prevented, false);
  press("p", { typing: true });
  assert.deepEqual(called, []);
});

test("with the help open only Escape and ? reach the page", () => {
  const { called, press } = bound({ open: [".help:not([hidden])"] });
  press("ArrowRight");
  press("p");
  press("?");
  press("Escape");
  assert.deepEqual(called.map(([action]) => action), ["toggleHelp", "close"]);
});
