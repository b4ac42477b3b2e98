"""Fuzzing: whatever comes in, parsing, loading and dry-running raise nothing but ScenarioError."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.profiles import examples
from webapp.engine.trace import check_runs
from webapp.model.events import CATALOGUE, HINTS
from webapp.scenario.errors import ScenarioError
from webapp.scenario.load import load_scenario, parse_text
from webapp.scenario.validate import STEP_PARAMS

FUZZ = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
json_like = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=40,
)
yamlish = st.text(alphabet="&*!:-?[]{},<>|'\"#%@` \n\tabAB019.~=", max_size=200)


def assert_well_formed(err: ScenarioError) -> None:
    assert err.problems
    for p in err.problems:
        assert set(p) - {"at"} == {"step", "field", "message"} and p.get("at", "key") == "key"
        assert p["field"] and "\n" not in p["message"]


def load_or_reject(text):
    try:
        return load_scenario(parse_text(text))
    except ScenarioError as err:
        assert_well_formed(err)
        return None


@FUZZ
@given(st.text(max_size=300))
def test_arbitrary_text(text):
    load_or_reject(text)


@FUZZ
@given(yamlish)
def test_yaml_syntax_soup(text):
    load_or_reject(text)


@FUZZ
@given(st.binary(max_size=300))
def test_arbitrary_bytes(data):
    load_or_reject(data)


@FUZZ
@given(json_like)
def test_arbitrary_json_like_objects(raw):
    load_or_reject(json.dumps(raw))
    try:
        load_scenario(raw)
    except ScenarioError as err:
        assert_well_formed(err)


# Scenario-shaped objects: mostly-valid values, so that many pass validation and reach the model.
PODS = ["A", "B", "C"]
param_values = {
    "pod": st.sampled_from(PODS + ["Z", 1]),
    "expect": st.sampled_from(PODS),
    "pods": st.lists(st.sampled_from(PODS), max_size=3),
    "precheck_exclude": st.lists(st.sampled_from(PODS), max_size=2),
    "affinity_matching": st.lists(st.sampled_from(PODS), max_size=2),
    "event": st.sampled_from([*CATALOGUE, "Nope"]),
    "unschedulable_plugins": st.lists(st.sampled_from(["P", "Q"]), max_size=2),
    "pending_plugins": st.lists(st.sampled_from(["P", "Q"]), max_size=2),
    "pod_info": st.sampled_from(["popped", "fresh"]),
    "pod_scheduling_cycle": st.integers(-1, 5),
    "changed": st.booleans(),
    "seconds": st.floats(-1, 400) | st.integers(0, 400) | st.booleans(),
}


@st.composite
def steps(draw):
    op = draw(st.sampled_from(list(STEP_PARAMS)))
    required, optional = STEP_PARAMS[op]
    params = list(required) + draw(st.lists(st.sampled_from(optional), unique=True)) if optional else list(required)
    return {"op": op, **{p: draw(param_values[p]) for p in params}}


scenarios = st.fixed_dictionaries(
    {
        "schema": st.just(1),
        "name": st.just("fuzz"),
        "gate": st.booleans(),
        "hint_map": st.booleans(),
        "hints": st.lists(
            st.fixed_dictionaries(
                {"event": st.sampled_from(list(CATALOGUE)), "plugin": st.sampled_from(["P", "Q"]),
                 "hint": st.sampled_from(tuple(HINTS))}
            ),
            max_size=3,
        ),
        "config": st.fixed_dictionaries(
            {"pop_clears_unschedulable_plugins": st.booleans()},
            optional={"initial_backoff": st.floats(0.5, 5), "max_backoff": st.floats(5, 20)},
        ),
        "pods": st.just([{"name": "A"}, {"name": "B", "priority": 5}, {"name": "C", "uid": "c-uid"}]),
        "initial_active": st.lists(st.sampled_from(PODS), max_size=3),
        "steps": st.lists(steps(), max_size=25),
    }
)


@FUZZ
@given(scenarios)
def test_scenario_shaped_objects_load_and_dry_run(raw):
    try:
        check_runs(load_scenario(raw))
    except ScenarioError as err:
        assert_well_formed(err)
