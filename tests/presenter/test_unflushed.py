"""Where no periodic flush runs, the picture says which move the scheduler's flushes would have made by now."""

from __future__ import annotations

import pytest

from webapp.engine.simulation import Simulation
from webapp.presenter.scene import present
from webapp.scenario.scenario import from_valid_dict
from webapp.scenario.validate import validate

# The lost marker: after step 6 v1.28.1's B is in unschedulablePods, v1.28.2's in backoffQ (1 s backoff, at t = 0).
LOST = [{"op": "pop", "expect": "A"}, {"op": "event", "event": "NodeAdd"}, {"op": "pop", "expect": "B"},
        {"op": "event", "event": "PvAdd"}, {"op": "done", "pod": "A"},
        {"op": "fail", "pod": "B", "unschedulable_plugins": ["P"]}]


def doc(clock: list[float], schema: int = 1, **fields) -> dict:
    return {"schema": schema, "name": "clock",
            "hints": [{"event": "PvAdd", "plugin": "P", "hint": "QueueAfterBackoff"}],
            "pods": [{"name": "A"}, {"name": "B"}], "initial_active": ["A", "B"],
            "steps": LOST + [{"op": "advance_clock", "seconds": s} for s in clock], **fields}


def scene_at_end(raw: dict) -> dict:
    assert validate(raw) == []
    sim = Simulation(from_valid_dict(raw))
    sim.run()
    return dict(present(sim.frame())["panes"])


def chip(pane: dict, pod: str) -> dict:
    return next(c for lane in pane["lanes"] for c in lane["chips"] if c["pod"] == pod)


def test_backoff_past_its_tick_is_said_on_the_chip_and_under_the_pane():
    panes = scene_at_end(doc([2]))
    fixed = panes["v1.28.2"]
    assert chip(fixed, "B")["timer"]["missed"] == 1.0
    assert chip(fixed, "B")["timer"]["text"] == "backoff over"
    assert fixed["unflushed"] == ["No flush ran: the scheduler would have moved B at 1 s, out of backoffQ."]
    assert fixed["unflushedWhy"].startswith("periodic_flushes is off")
    assert panes["v1.28.1"]["unflushed"] == []  # 2 s of 300 s: no flush would have moved it yet
    assert "unflushedWhy" not in panes["v1.28.1"]


def test_nothing_is_said_before_the_tick():
    panes = scene_at_end(doc([0.5]))
    assert all(p["unflushed"] == [] for p in panes.values())
    assert "missed" not in chip(panes["v1.28.2"], "B")["timer"]


@pytest.mark.parametrize("clock, said", [([329], False), ([330], True)])
def test_unschedulable_pods_missed_the_first_30_s_tick_after_the_limit(clock, said):
    bug = scene_at_end(doc(clock))["v1.28.1"]
    assert bool(bug["unflushed"]) is said
    if said:
        assert bug["unflushed"] == ["No flush ran: the scheduler would have moved B at 330 s, out of "
                                    "unschedulablePods."]


@pytest.mark.parametrize("fields", [{"schema": 2}, {"schema": 1, "periodic_flushes": True}])
def test_time_that_runs_says_nothing(fields):
    panes = scene_at_end(doc([2, 400], **fields))
    assert all(p["unflushed"] == [] for p in panes.values())
    assert chip(panes["v1.28.1"], "B")["timer"] is None  # the leftover flush moved it at 330 s
