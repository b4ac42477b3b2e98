// static/js/markdown.js's reading in node: a description's blocks and runs, before any DOM is built.
import { test } from "node:test";
import assert from "node:assert/strict";
import { blocks, runs } from "../../static/js/markdown.js";

test("blank lines part the blocks; a block's lines join into one paragraph", () => {
  assert.deepEqual(blocks("one\ntwo\n\n  \nthree\n"), [{ paragraph: "one two" }, { paragraph: "three" }]);
  assert.deepEqual(blocks(""), []);
  assert.deepEqual(blocks(null), []);
});

test("a block that starts with a bullet is a list; a line that is not a bullet continues the item above", () => {
  const text = "* **v1.28.1** keeps `receivedEvents` (events only,\n  each with a counter)\n"
    + "- **v1.28.2** keeps one list";
  assert.deepEqual(blocks(text), [{ list: ["**v1.28.1** keeps `receivedEvents` (events only, each with a counter)",
    "**v1.28.2** keeps one list"] }]);
  assert.deepEqual(blocks("a paragraph\n- not a list: the block began as a paragraph"),
    [{ paragraph: "a paragraph - not a list: the block began as a paragraph" }]);
});

test("a line's runs: bold, code and emphasis, the rest plain text, markup never kept as text", () => {
  assert.deepEqual(runs("**Start here.** a *queue* of `Pop()` calls"), [["strong", "Start here."], [null, " a "],
    ["em", "queue"], [null, " of "], ["code", "Pop()"], [null, " calls"]]);
  assert.deepEqual(runs("2 * 3 and a lone ` stay text"), [[null, "2 * 3 and a lone ` stay text"]]);
  assert.deepEqual(runs("<img src=x onerror=alert(1)>"), [[null, "<img src=x onerror=alert(1)>"]]);
});
