// The delta fold in node (tests/client/test_delta_fold.py hands it the cases on stdin): for each generated walk,
// static/js/delta.js applies every delta in place, and static/js/model.js, over a fake transport, folds it into
// the client's model. Prints null, or the first mismatch {seed, move, where, path, got, want}.
import { readFileSync } from "node:fs";
import { applyOps } from "../../static/js/delta.js";
import { openModel } from "../../static/js/model.js";

function firstMismatch(cases, TRACED) {
  const traced = (m) => Object.fromEntries(TRACED.map((k) => [k, m[k]]));
  const kind = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  const show = (v) => { const s = JSON.stringify(v); return s === undefined ? String(v) : s.slice(0, 300); };
  function difference(got, want, path = '') {
    if (kind(got) !== kind(want)) return { path, got: show(got), want: show(want) };
    if (kind(want) === 'array') {
      for (let i = 0; i < Math.min(got.length, want.length); i += 1) {
        const d = difference(got[i], want[i], `${path}[${i}]`);
        if (d) return d;
      }
      return got.length === want.length ? null : { path: `${path}.length`, got: got.length, want: want.length };
    }
    if (kind(want) === 'object') {
      for (const key of new Set([...Object.keys(got), ...Object.keys(want)])) {
        if (!(key in want) || !(key in got))
          return { path: `${path}.${key}`, got: show(got[key]), want: show(want[key]) };
        const d = difference(got[key], want[key], `${path}.${key}`);
        if (d) return d;
      }
      return null;
    }
    return Object.is(got, want) ? null : { path, got: show(got), want: show(want) };
  }
  
  for (const c of cases) {
    // 1. delta.js alone, in place: the twin of webapp/presenter/delta.py apply.
    let doc = traced(structuredClone(c.states[c.start]));
    for (const [i, move] of c.moves.entries()) {
      doc = applyOps(doc, structuredClone(move.ops));
      const d = difference(doc, traced(c.states[move.state]));
      if (d) return { seed: c.seed, move: i, where: 'applyOps in place', ...d };
    }
  
    // 2. The client's model: model.js folds each delta into a new model; a model handed on never changes.
    const models = [];
    const sent = [];
    let handlers;
    const conn = openModel((h) => { handlers = h; return { send: (e, p) => sent.push([e, p]), request: () => null }; },
      { connect() {}, disconnect() {}, scenario() {}, error() {}, model: (m) => models.push(m) });
    conn.follow(c.room);
    handlers.connect();
    handlers.state({ seq: 1, ...structuredClone(c.states[c.start]) });
    let frozen = JSON.stringify(models[0]);
    for (const [i, move] of c.moves.entries()) {
      const seq = i + 2;
      const want = c.states[move.state];
      handlers.delta({ seq, position: want.position, playing: want.playing, speed: want.speed,
                       ops: structuredClone(move.ops) });
      if (models.length !== i + 2)
        return { seed: c.seed, move: i, where: 'connection', path: '', got: 'no model', want: 'a model' };
      const model = models[i + 1];
      const d = difference(model, { seq, ...want });
      if (d) return { seed: c.seed, move: i, where: 'connection model', ...d };
      if (JSON.stringify(models[i]) !== frozen)
        return { seed: c.seed, move: i, where: 'connection', path: '',
                 got: 'the previous model changed', want: 'unchanged' };
      frozen = JSON.stringify(model);
    }
    // A gap in seq: one sync for the channel, deltas ignored until the whole state comes.
    const last = c.moves.length + 1;
    handlers.delta({ seq: last + 2, position: 0, playing: false, speed: 1, ops: [] });
    handlers.delta({ seq: last + 3, position: 0, playing: false, speed: 1, ops: [] });
    const syncs = sent.filter(([e]) => e === 'sync');
    const wantSync = JSON.stringify([['sync', c.room ? { room: c.room } : {}]]);
    if (JSON.stringify(syncs) !== wantSync || models.length !== last) {
      return { seed: c.seed, move: last, where: 'gap', path: '', got: JSON.stringify([syncs, models.length]),
               want: wantSync };
    }
  }
  return null;
}

const { cases, traced } = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify(firstMismatch(cases, traced)));
