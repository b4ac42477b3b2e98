"""check_runs / replay: the dry run of a scenario on each variant, and the step it stops at."""

import random

import pytest

from tests.conftest import conformance_cases, problem_of, runnable_variants
from webapp.engine.trace import check_runs, entries_in, replay, run_through, trace_steps
from webapp.model.variant import VARIANTS
from webapp.scenario import builtin
from webapp.scenario.generate import generate
from webapp.scenario.load import load_scenario

CASES = conformance_cases()
LOST_MARKER = next(c for c in CASES if c["id"] == "custom-lost-marker-01")["scenario"]


def runs_problem(**changes) -> dict:
    return problem_of(check_runs, load_scenario({**LOST_MARKER, **changes}))


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_conformance_case_loads_and_replays_to_expected_trace(case):
    variants = sorted(case["expected"])
    traces = check_runs(load_scenario(case["scenario"]), variants)
    for variant, trace in zip(variants, traces):
        expected = case["expected"][variant]
        assert trace["variant"] == variant
        assert trace["steps"] == expected["steps"]
        assert trace["final"] == expected["final"]


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_builtin_scenarios_load_and_replay(scenario_id):
    """On the default pair, or on the versions it opens on where 1.28 lacks what it names (gates, pod groups)."""
    scenario = load_scenario(builtin.get(scenario_id))
    check_runs(scenario, runnable_variants(scenario))


@pytest.mark.parametrize("seed", range(5))
def test_generated_scenarios_load_and_replay(seed):
    check_runs(load_scenario(generate(random.Random(seed).choice, steps=60, pods=5)))


def test_check_runs_defaults_to_both_variants_in_order():
    assert [t["variant"] for t in check_runs(load_scenario(LOST_MARKER))] == list(VARIANTS) == ["v1.28.1", "v1.28.2"]


def test_check_runs_with_records():
    [trace] = check_runs(load_scenario(LOST_MARKER), ["v1.28.2"], records=True)
    assert all("record" in step for step in trace["steps"])


def test_pop_on_empty_active_queue_names_step_and_op():
    p = runs_problem(steps=[{"op": "pop"}, {"op": "pop"}, {"op": "pop"}])
    assert (p["step"], p["field"]) == (2, "steps[2].op")
    assert "empty activeQ" in p["message"]


def test_pop_expecting_a_pod_not_at_the_head_names_expect():
    p = runs_problem(pods=[{"name": "A"}, {"name": "B", "priority": 10}], steps=[{"op": "pop", "expect": "A"}])
    assert (p["step"], p["field"]) == (0, "steps[0].expect")


def test_fail_popped_on_never_popped_pod_names_pod_info():
    p = runs_problem(steps=[{"op": "fail", "pod": "A", "pod_info": "popped"}])
    assert (p["step"], p["field"]) == (0, "steps[0].pod_info")


GROWING = {"schema": 1, "name": "growing", "pods": [{"name": "A"}], "initial_active": ["A"],
           "steps": [{"op": "pop"}] + [{"op": "event", "event": "PvAdd"}] * 300}


def test_a_bounded_replay_stops_at_the_step_that_passes_the_bound():
    scenario = load_scenario(GROWING)
    held = 0
    for entry in replay(scenario, "v1.28.2")["steps"]:  # unbounded: where the bound is passed
        held += entries_in(entry["state"])
        if held > 5_000:
            break
    p = problem_of(replay, scenario, "v1.28.2", max_entries=5_000)
    assert (p["step"], p["field"]) == (entry["step"], "steps")
    assert p["message"].startswith(f"the trace is too large to build here: by step {entry['step']} of 301 ")
    whole = replay(scenario, "v1.28.2")
    total = sum(entries_in(entry["state"]) for entry in whole["steps"])
    assert replay(scenario, "v1.28.2", max_entries=total) == whole  # exactly at the bound: the whole trace
    assert problem_of(replay, scenario, "v1.28.2", max_entries=total - 1)["step"] == 300


def test_entries_in_counts_the_lists_and_maps_of_a_state():
    state = {"activeQ": ["A"], "backoffQ": [], "schedulingCycle": 3, "inFlightPods": {"B": {}, "C": {}},
             "inFlightEvents": [{"pod": "B"}, {"event": "PvAdd", "id": "e1"}]}
    assert entries_in(state) == 5


def test_run_through_keeps_no_trace_but_names_the_failing_step():
    end = run_through(load_scenario(GROWING), "v1.28.1")  # the model at the end, no trace
    assert end.state() == replay(load_scenario(GROWING), "v1.28.1")["steps"][-1]["state"]
    bad = load_scenario({**LOST_MARKER, "steps": [{"op": "pop"}, {"op": "pop"}, {"op": "pop"}]})
    p = problem_of(run_through, bad, "v1.28.2")
    assert (p["step"], p["field"]) == (2, "steps[2].op") and p["message"].endswith("(on v1.28.2)")


@pytest.mark.parametrize("variant", VARIANTS)
def test_trace_steps_are_the_steps_of_the_replay(variant):
    scenario = load_scenario(LOST_MARKER)
    assert list(trace_steps(scenario, variant)) == replay(scenario, variant)["steps"]
