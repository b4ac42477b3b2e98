// static/js/model.js in node: how the client's model takes whole states and deltas, over a fake transport.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openModel } from "../../static/js/model.js";

// A transport whose handlers the test calls as the server's messages, a page that records every model drawn.
function opened() {
  const sent = [];
  const drawn = [];
  let hear;
  const transport = (handlers) => {
    hear = handlers;
    return { send: (event, payload) => sent.push([event, payload]), request: async () => ({}) };
  };
  const page = { connect() {}, disconnect() {}, scenario() {}, model: (m) => drawn.push(m), error() {} };
  const model = openModel(transport, page);
  return { model, sent, drawn, hear: (event, msg) => hear[event](msg) };
}

const state = { seq: 16, position: 13, total: 40, playing: false, speed: 1, variants: ["v"], scene: { n: 13 } };
const delta = (seq, position, ops = []) => ({ seq, position, playing: false, speed: 1, ops });

test("a delta already in the whole state held is dropped, without a sync", () => {
  const { model, sent, drawn, hear } = opened();
  hear("state", state);
  hear("delta", delta(16, 13));
  hear("delta", delta(15, 12));
  assert.deepEqual(sent, []);
  assert.equal(drawn.length, 1);
  assert.equal(model.model.seq, 16);
});

test("the delta after the state is folded; a gap asks for the whole state once", () => {
  const { model, sent, drawn, hear } = opened();
  hear("state", state);
  hear("delta", delta(17, 14, [[[0, "position"], 14]]));
  assert.equal(model.model.seq, 17);
  assert.equal(drawn.at(-1).position, 14);
  hear("delta", delta(19, 16));
  hear("delta", delta(20, 17));
  assert.deepEqual(sent, [["sync", {}]]);
});
