"""ReturnTracker.at(position): the outcomes as they stood after the first ``position`` steps."""

import random

from webapp.engine.simulation import Simulation
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
