"""Deltas in node: for generated scenarios and random walks through them (steps, backs, seeks, play and pause),
Python makes every whole state and the delta between consecutive ones exactly as the server does
(``delta_message(seq, old, new)``); delta-fold.mjs applies each delta with static/js/delta.js and, through
static/js/model.js over a fake transport, folds it into the client's model. Every result must
deep-equal the whole state (keys' order ignored), and a model the page was handed must never change after.
The first mismatch is reported with its scenario seed, move and path."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

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

FOLD = Path(__file__).parent / "delta-fold.mjs"  # prints null, or the first mismatch


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


def test_every_delta_makes_the_whole_state_in_the_client(cases):
    moves = sum(len(c["moves"]) for c in cases)
    assert moves == SCENARIOS * MOVES
    assert sum(bool(m["ops"]) for c in cases for m in c["moves"]) > moves // 2  # most moves change something
    node = shutil.which("node")
    assert node, "node is missing: `make system-deps` installs Debian's nodejs"
    done = subprocess.run([node, str(FOLD)], input=json.dumps({"cases": cases, "traced": TRACED}),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    mismatch = json.loads(done.stdout)
    if mismatch:
        case = cases[mismatch["seed"]]
        kinds = [m["kind"] for m in case["moves"]]
        pytest.fail(f"scenario seed {mismatch['seed']}, move {mismatch['move']} of {kinds} ({mismatch['where']}): "
                    f"at {mismatch['path'] or '.'} the client has {mismatch['got']},"
                    f" the whole state {mismatch['want']}",
                    pytrace=False)
