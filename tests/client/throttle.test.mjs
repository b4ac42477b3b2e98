// static/js/throttle.js in node: a burst of calls is at most one call per interval, and the last call of a burst
// always gets through with the arguments it was made with.
import { test } from "node:test";
import assert from "node:assert/strict";
import { throttle } from "../../static/js/throttle.js";

const settled = (ms) => new Promise((done) => setTimeout(done, ms));

test("the first call runs at once and a burst after it ends with its latest call", async () => {
  const calls = [];
  const run = throttle((value) => calls.push(value), 20, (value) => [value]);
  run(1);
  assert.deepEqual(calls, [1]);
  for (const value of [2, 3, 4]) run(value);
  assert.deepEqual(calls, [1]); // within the interval: held back
  while (calls.length < 2) await settled(5);
  await settled(60); // nothing else is pending
  assert.deepEqual(calls, [1, 4]);
});

test("capture takes the arguments at the time of the call", async () => {
  const calls = [];
  const input = { value: "a" };
  const run = throttle((value) => calls.push(value), 20, (el) => [el.value]);
  run(input);
  input.value = "b";
  run(input);
  input.value = "c"; // moved after the call: not what the held call sends
  while (calls.length < 2) await settled(5);
  assert.deepEqual(calls, ["a", "b"]);
});
