"""Deltas in a real browser: for generated scenarios and random walks through them (steps, backs, seeks, play and
pause), Python makes every whole state and the delta between consecutive ones exactly as the server does
(``delta_message(seq, old, new)``); the page applies each delta with static/js/delta.js and,
through static/js/model.js over a fake transport, folds it into the client's model. Every result must
deep-equal the whole state (keys' order ignored), and a model the page was handed must never change after.
The first mismatch is reported with its scenario seed, move and path."""

from __future__ import annotations

import json
import random

import pytest

from webapp.engine.simulation import Simulation
from webapp.model.variant import VARIANTS
from webapp.presenter import delta_message, state_message
from webapp.presenter.messages import TRACED
from webapp.scenario.generate import generate
from webapp.scenario.scenario import from_valid_dict

SCENARIOS = 30
MOVES = 40
STEPS = 60  # per generated scenario
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)

# Runs in the page: returns null, or the first mismatch {seed, move, where, path, got, want}.
CHECK_JS = """async (text) => {
  const { cases, traced: TRACED } = JSON.parse(text);  // one string: far quicker than the same data as objects
  const { applyOps } = await import('/static/js/delta.js');
  const { openModel } = await import('/static/js/model.js');
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
}"""


def walk(seed: int) -> dict:
    """One generated scenario and a random walk through it: the whole states it passes (deduplicated) and, per
    move, the delta from the state before and the index of the state after."""
    rng = random.Random(seed)
    sim = Simulation(from_valid_dict(generate(random.Random(seed).choice, STEPS, pods=rng.choice((3, 6, 10)))),
                     VARIANTS)
    room = f"R{seed:04d}" if seed % 2 else None  # a room's states carry the presenter's preview and notes
    settings = {"playing": False, "speed": 1.0, "range": [0, sim.total], "room": room}
    states, index = [], {}

    def whole() -> int:
        key = (sim.position, settings["playing"], settings["speed"])
        if key not in index:
            message = state_message(sim.frame(), sim.preview() if room else None, settings)
            index[key] = len(states)
            states.append({**message, **settings})
        return index[key]

    sim.seek(rng.randint(0, sim.total))
    start = previous = whole()
    moves = []
    for _ in range(MOVES):
        move = rng.choice(("step", "step", "step", "back", "seek", "play", "pause"))
        if move == "step":
            sim.seek(min(sim.position + 1, sim.total))
        elif move == "back":
            sim.seek(max(sim.position - 1, 0))
        elif move == "seek":
            sim.seek(rng.randint(0, sim.total))
        else:
            settings["playing"] = move == "play"
            settings["speed"] = rng.choice(SPEEDS) if move == "play" else settings["speed"]
            if move == "play":
                sim.seek(min(sim.position + 1, sim.total))  # an autoplay tick
        state = whole()
        delta = delta_message(len(moves) + 2, states[previous], states[state])
        moves.append({"kind": move, "ops": delta["ops"], "state": state})
        previous = state
    return {"seed": seed, "room": room, "start": start, "states": states, "moves": moves}


@pytest.fixture(scope="module")
def cases():
    return [walk(seed) for seed in range(SCENARIOS)]


def test_every_delta_makes_the_whole_state_in_the_browser(page, cases):
    moves = sum(len(c["moves"]) for c in cases)
    assert moves == SCENARIOS * MOVES
    assert sum(bool(m["ops"]) for c in cases for m in c["moves"]) > moves // 2  # most moves change something
    page.goto("/healthz")
    mismatch = page.evaluate(CHECK_JS, json.dumps({"cases": cases, "traced": TRACED}))
    if mismatch:
        case = cases[mismatch["seed"]]
        kinds = [m["kind"] for m in case["moves"]]
        pytest.fail(f"scenario seed {mismatch['seed']}, move {mismatch['move']} of {kinds} ({mismatch['where']}): "
                    f"at {mismatch['path'] or '.'} the client has {mismatch['got']},"
                    f" the whole state {mismatch['want']}",
                    pytrace=False)
