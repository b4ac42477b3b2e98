"""ReturnTracker.at(position): the outcomes as they stood after the first ``position`` steps."""

import random

from webapp.engine.simulation import Simulation
from webapp.presenter import state_message
from webapp.scenario.resolve import resolve
from webapp.scenario.generate import generate
from webapp.scenario.scenario import from_valid_dict


def test_at_the_end_it_is_the_summary_and_before_it_only_what_happened_so_far():
    sim = Simulation(from_valid_dict(generate(random.Random(7).choice, 400, pods=6)))
    for tracker in sim.returns.values():
        whole = tracker.summary()
        assert tracker.at(sim.total)["returned"] == whole["returned"]
        assert [r["pod"] for r in tracker.at(sim.total)["still_waiting"]] == [r["pod"] for r in whole["still_waiting"]]
        assert whole["returned"], "the generated scenario should have returns"
        for position in range(0, sim.total + 1, 37):
            now = tracker.at(position)
            assert all(r["back_step"] < position for r in now["returned"])
            assert all(r["failed_step"] < position for r in now["still_waiting"])
            # a failure so far is either back already or still waiting, never both, never lost
            failed = [r for r in whole["returned"] + whole["still_waiting"] if r["failed_step"] < position]
            assert len(now["returned"]) + len(now["still_waiting"]) == len(failed)


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
