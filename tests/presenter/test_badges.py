"""Each pane's outcome badge (verdicts.badges): said from the frame's returns, only once the outcome is known, and
for every built-in at its end a sentence on every pane."""

from __future__ import annotations

import re

import pytest

from webapp.engine.simulation import Simulation
from webapp.presenter.scene import present
from webapp.presenter.verdicts import BADGE
from webapp.scenario import builtin
from webapp.scenario.resolve import resolve


def badges_at(scenario_id: str, position: int) -> dict:
    scenario = resolve(scenario_id)[0]
    sim = Simulation(scenario, scenario.versions)
    sim.seek(position)
    return {v: pane["badge"] for v, pane in present(sim.frame())["panes"].items()}


def texts(badges: dict) -> dict:
    return {v: b and b["text"] for v, b in badges.items()}


def test_five_minute_wait_ends_with_the_wait_and_the_quick_return():
    assert texts(badges_at("five-minute-wait", 11)) == {"v1.28.1": "B waited 330 s", "v1.28.2": "B back after 1 s"}
    assert {v: b["tone"] for v, b in badges_at("five-minute-wait", 11).items()} == {"v1.28.1": "slow",
                                                                                      "v1.28.2": "quick"}


def test_no_badge_before_the_versions_part_and_then_the_outcome_so_far():
    sim = Simulation(resolve("five-minute-wait")[0])
    divergence = sim.divergence
    assert divergence is not None
    assert texts(badges_at("five-minute-wait", divergence - 1)) == {"v1.28.1": None, "v1.28.2": None}
    # no spoiler: at the divergence B has only just failed; it is back on v1.28.2 a step later
    assert texts(badges_at("five-minute-wait", divergence)) == {"v1.28.1": "B parked", "v1.28.2": "B backing off"}


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_every_built_in_ends_with_a_sentence_on_every_pane(scenario_id):
    """The sentence is the fate of the pod that failed last, or the lists' lengths where only they differ; a lesson
    where no pod fails and whose panes end alike (gated-pods) has nothing to tell apart."""
    total = builtin.step_count(scenario_id)
    said = texts(badges_at(scenario_id, total))
    if not any(step["op"] == "fail" for step in builtin.get(scenario_id)["steps"]) and not any(said.values()):
        assert scenario_id == "gated-pods"
        return
    assert all(said.values()), said
    # each made from one of the sentences (none is written for a scenario)
    patterns = [re.compile(re.sub(r"\\\{\w+\\\}", ".+", re.escape(t)) + "$") for t in BADGE.values()]
    assert all(any(p.match(text) for p in patterns) for text in said.values()), said
