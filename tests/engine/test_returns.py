"""ReturnTracker.at(position): the outcomes as they stood after the first ``position`` steps."""

import json
import random

from webapp.engine.simulation import Simulation
from webapp.presenter import state_message
from webapp.scenario.generate import generate
from webapp.scenario.resolve import resolve
from webapp.scenario.scenario import from_valid_dict


def scanned(tracker, position):
    """What ``tracker.at(position)`` must say, worked out the plain way: every return scanned at every position."""
    end = float("inf") if position is None else position
    every = sorted((r for rs in tracker.returns.values() for r in rs), key=lambda r: r["back_step"])
    returned = {}
    for r in every:
        if r["back_step"] < end:
            returned.setdefault(r["pod"], []).append(r)
    back_later = [r for r in every if r["failed_step"] < end <= r["back_step"]]
    waiting = [r for r in [*back_later, *tracker.waiting.values()] if r["failed_step"] < end]
    return ({pod: (len(rs), rs[:2], max(rs, key=lambda r: r["seconds"])) for pod, rs in returned.items()},
            [(r["pod"], r["failed_step"], r["via"]) for r in waiting])


def test_the_outcomes_at_every_position_are_the_plain_scan_of_the_history():
    sim = Simulation(from_valid_dict(generate(random.Random(7).choice, 1500, pods=6)))
    for tracker in sim.returns.values():
        assert max(len(rs) for rs in tracker.returns.values()) > 3, "the generated scenario should have many returns"
        for position in [*range(0, sim.total + 1, 7), None]:
            now = tracker.at(position)
            returned, waiting = scanned(tracker, position)
            assert {r["pod"]: (r["count"], r["listed"], r["longest"]) for r in now["returned"]} == returned
            assert list(returned) == [r["pod"] for r in now["returned"]]  # pods in the order they first got back
            assert [(r["pod"], r["failed_step"], r["via"]) for r in now["still_waiting"]] == waiting
        assert tracker.at(sim.total) == tracker.at(None)


def test_a_long_scenarios_outcomes_carry_the_pods_not_the_history():
    """A frame carries the outcomes at its position: their size is bounded by the pods (a pod's count, first
    returns and longest), not by the thousands of returns of a long history (2 MB of JSON a frame at 100,000
    steps when every return was carried)."""
    sim = Simulation(from_valid_dict(generate(random.Random(3).choice, 20_000, pods=4)))
    tracker = sim.returns["v1.28.2"]
    assert sum(len(rs) for rs in tracker.returns.values()) > 1000
    middle = sim.total // 2
    returned, waiting = scanned(tracker, middle)
    now = tracker.at(middle)
    assert {r["pod"]: r["count"] for r in now["returned"]} == {pod: v[0] for pod, v in returned.items()}
    assert all(len(r["listed"]) <= 2 for r in now["returned"])
    assert len(json.dumps(now)) < 1000 * len(tracker.returns)


def test_a_pod_still_waiting_is_where_it_waits_then_not_where_it_failed_to():
    """queueing-hints: A fails to unschedulablePods at step 3 and an event moves it to backoffQ at step 5; at
    position 7 it is still waiting, in backoffQ (the outcomes line said 'waiting in unschedulablePods', beside a
    lane that showed A in backoffQ)."""
    sim = Simulation(resolve("queueing-hints")[0])
    for tracker in sim.returns.values():
        [at_3] = [w for w in tracker.at(3)["still_waiting"] if w["pod"] == "A"]
        [at_7] = [w for w in tracker.at(7)["still_waiting"] if w["pod"] == "A"]
        assert (at_3["via"], at_3["where"]) == ("unschedulablePods", "unschedulablePods")
        assert (at_7["via"], at_7["where"]) == ("unschedulablePods", "backoffQ")
    sim.seek(7)
    line = state_message(sim.frame())["scene"]["outcomes"]
    [a] = [p for p in line["pods"] if p["pod"] == "A"]
    assert [part["text"] for part in a["parts"]] == [
        f"{v}: waiting in backoffQ since t = 0 s, via unschedulablePods" for v in sim.variants]
    for variant in sim.variants:
        assert "A" in sim.frame()["variants"][variant]["state"]["backoffQ"]


def test_a_pod_moved_by_a_flush_inside_a_long_advance_of_the_clock_is_back_at_that_flush():
    """Backed off for 1 s, then the clock advances 40 s with the periodic flushes: the backoff flush at 1 s moved
    it, so it was back after 1 s (not 40); B, parked in unschedulablePods at 40 s, was moved by the leftover flush at
    360 s (its first 30 s tick after 300 s of waiting), in the middle of a 400 s advance (not at 440 s)."""
    sim = Simulation(resolve({
        "schema": 1, "name": "flushes inside an advance", "pods": [{"name": "A"}, {"name": "B"}],
        "initial_active": ["A", "B"], "periodic_flushes": True,
        "hints": [{"event": "NodeAdd", "plugin": "P", "hint": "QueueAfterBackoff"}],
        "steps": [{"op": "pop", "expect": "A"}, {"op": "event", "event": "NodeAdd"},
                  {"op": "fail", "pod": "A", "unschedulable_plugins": ["P"]}, {"op": "advance_clock", "seconds": 40},
                  {"op": "pop", "expect": "B"}, {"op": "fail", "pod": "B", "unschedulable_plugins": ["Q"]},
                  {"op": "advance_clock", "seconds": 400}]})[0])
    for variant, tracker in sim.returns.items():
        back = {r["pod"]: r for r in tracker.at(None)["returned"]}
        assert (back["A"]["longest"]["back_at"], back["A"]["longest"]["seconds"]) == (1.0, 1.0), variant
        assert back["B"]["longest"]["failed_at"] == 40.0 and back["B"]["longest"]["back_at"] == 360.0, variant
