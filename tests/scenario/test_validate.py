"""validate(): every problem names its step and field and says what was expected."""

import copy
import json
import random
import time

import pytest

from tests.conftest import conformance_cases
from webapp.model.events import CATALOGUE
from webapp.model.variant import OPERATIONS
from webapp.scenario import validate as validate_module
from webapp.scenario.validate import STEP_PARAMS, Limits, validate

CASES = conformance_cases()

BASE = {
    "schema": 1,
    "name": "base",
    "hints": [{"event": "PvAdd", "plugin": "P", "hint": "QueueAfterBackoff"}],
    "config": {"initial_backoff": 1, "max_backoff": 10},
    "pods": [{"name": "A"}, {"name": "B", "priority": 10}],
    "initial_active": ["A", "B"],
    "steps": [{"op": "pop", "expect": "B"}],
}


def scenario(**changes):
    raw = copy.deepcopy(BASE)
    raw.update(changes)
    return raw


def with_step(step):
    return scenario(steps=[{"op": "pop", "expect": "B"}, step])


def where(problems):
    return [(p["step"], p["field"]) for p in problems]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_conformance_scenarios_are_valid(case):
    assert validate(case["scenario"]) == []


def test_base_is_valid():
    assert validate(BASE) == []


def test_every_model_operation_has_a_parameter_list():
    assert set(STEP_PARAMS) == set(OPERATIONS)


@pytest.mark.parametrize(
    "step,field,fragment",
    [
        ({"op": "popp"}, "op", "unknown op 'popp' (did you mean 'pop'?)"),
        ({"op": ["pop"]}, "op", "expected the op as a string"),
        ({"note": "no op"}, "op", "missing"),
        ({"op": "event", "event": "NodeAddd"}, "event", "unknown event 'NodeAddd'"),
        ({"op": "event"}, "event", "missing; op 'event' requires 'event'"),
        ({"op": "event", "event": "NodeAdd", "precheck_exclude": ["Z"]}, "precheck_exclude[0]", "not declared"),
        ({"op": "done", "pod": "Z"}, "pod", "pod 'Z' is not declared in pods"),
        ({"op": "done", "pod": 7}, "pod", "expected a non-empty string, got 7"),
        ({"op": "activate", "pods": "A"}, "pods", "expected a list of pod names"),
        ({"op": "activate", "pods": ["A", "Z"]}, "pods[1]", "not declared"),
        ({"op": "assigned_pod_added"}, "affinity_matching", "missing"),
        ({"op": "fail"}, "pod", "missing; op 'fail' requires 'pod'"),
        ({"op": "fail", "pod": "A", "pod_info": "old"}, "pod_info", "expected one of popped, fresh"),
        ({"op": "fail", "pod": "A", "pod_scheduling_cycle": True}, "pod_scheduling_cycle", "got true"),
        ({"op": "fail", "pod": "A", "pod_scheduling_cycle": 1.0}, "pod_scheduling_cycle", "integer"),
        ({"op": "fail", "pod": "A", "unschedulable_plugins": "P"}, "unschedulable_plugins", "list"),
        ({"op": "fail", "pod": "A", "unschedulable_plugins": [""]}, "unschedulable_plugins[0]", "non-empty"),
        ({"op": "update", "pod": "A", "changed": "yes"}, "changed", "expected true or false"),
        ({"op": "advance_clock", "seconds": True}, "seconds", "got true"),
        ({"op": "advance_clock", "seconds": -1}, "seconds", ">= 0"),
        ({"op": "advance_clock", "seconds": float("nan")}, "seconds", "got nan"),
        ({"op": "advance_clock", "seconds": float("inf")}, "seconds", "got inf"),
        ({"op": "advance_clock", "seconds": 10**400}, "seconds", "very large"),
        ({"op": "advance_clock"}, "seconds", "missing"),
        ({"op": "pop", "pod": "A"}, "pod", "unknown parameter 'pod' for op 'pop'; expected one of op, expect, note"),
        ({"op": "flush_backoff", "note": 5}, "note", "expected a string"),
    ],
)
def test_bad_step_names_step_and_field(step, field, fragment):
    problems = validate(with_step(step))
    assert where(problems) == [(1, f"steps[1].{field}")]
    assert fragment in problems[0]["message"]


def test_unknown_event_lists_the_catalogue():
    [problem] = validate(with_step({"op": "event", "event": "NodeAddd"}))
    assert problem["message"].endswith("expected one of " + ", ".join(CATALOGUE))


def test_step_that_is_not_a_mapping():
    assert where(validate(with_step("pop"))) == [(1, "steps[1]")]


@pytest.mark.parametrize(
    "step",
    [
        {"op": "advance_clock", "seconds": 0.0},
        {"op": "advance_clock", "seconds": 2},
        {"op": "flush_backoff", "note": "presenter note"},
        {"op": "update", "pod": "A", "changed": False},
        {"op": "fail", "pod": "A", "pod_info": "fresh", "pod_scheduling_cycle": 0, "unschedulable_plugins": []},
        {"op": "event", "event": "UnschedulableTimeout", "precheck_exclude": []},
        {"op": "assigned_pod_added", "affinity_matching": ["A"]},
    ],
)
def test_good_steps(step):
    assert validate(with_step(step)) == []


@pytest.mark.parametrize(
    "changes,field",
    [
        ({"schema": 3}, "schema"),
        ({"schema": True}, "schema"),
        ({"name": ""}, "name"),
        ({"name": 5}, "name"),
        ({"description": ["x"]}, "description"),
        ({"gate": "true"}, "gate"),
        ({"hint_map": 1}, "hint_map"),
        ({"hints": {"event": "PvAdd"}}, "hints"),
        ({"hints": [{"event": "PvAddd", "plugin": "P", "hint": "QueueSkip"}]}, "hints[0].event"),
        ({"hints": [{"event": "PvAdd", "plugin": "", "hint": "QueueSkip"}]}, "hints[0].plugin"),
        ({"hints": [{"event": "PvAdd", "plugin": "P", "hint": "Skip"}]}, "hints[0].hint"),
        ({"hints": [{"event": "PvAdd", "plugin": "P"}]}, "hints[0].hint"),
        ({"hints": [{"event": "PvAdd", "plugin": "P", "hint": "QueueSkip", "x": 1}]}, "hints[0].x"),
        ({"config": {"max_backoff": True}}, "config.max_backoff"),
        ({"config": {"initial_backoff": 0}}, "config.initial_backoff"),
        ({"config": {"max_in_unschedulable": "5m"}}, "config.max_in_unschedulable"),
        ({"config": {"initial_backoff": 5, "max_backoff": 2}}, "config.max_backoff"),
        ({"config": {"initial_backoff": 20}}, "config.initial_backoff"),
        ({"config": {"pop_clears_unschedulable_plugins": "no"}}, "config.pop_clears_unschedulable_plugins"),
        ({"config": {"backoff": 1}}, "config.backoff"),
        ({"config": []}, "config"),
        ({"pods": [{"name": "A"}, {"name": "B"}, {"name": "A"}]}, "pods[2].name"),
        ({"pods": [{"name": "A", "priority": True}, {"name": "B"}]}, "pods[0].priority"),
        ({"pods": [{"name": "A", "priority": 2**31}, {"name": "B"}]}, "pods[0].priority"),
        ({"pods": [{"name": "A", "priority": 1.5}, {"name": "B"}]}, "pods[0].priority"),
        ({"pods": [{"name": "A", "uid": 5}, {"name": "B"}]}, "pods[0].uid"),
        ({"pods": [{"name": "A", "prio": 1}, {"name": "B"}]}, "pods[0].prio"),
        ({"initial_active": ["A", "Z"]}, "initial_active[1]"),
        ({"steps": {"op": "pop"}}, "steps"),
        ({"intial_active": ["A"]}, "intial_active"),
        ({"branch": []}, "branch"),
        ({"branch": {"steps": []}}, "branch.at"),
        ({"branch": {"at": 2, "steps": []}}, "branch.at"),  # past the scenario's one step
        ({"branch": {"at": True, "steps": []}}, "branch.at"),
        ({"branch": {"at": 1}}, "branch.steps"),
        ({"branch": {"at": 1, "steps": [], "name": " "}}, "branch.name"),
        ({"branch": {"at": 1, "steps": [], "when": 3}}, "branch.when"),
        ({"branch": {"at": 0, "steps": [{"op": "pop", "expect": "Z"}]}}, "branch.steps[0].expect"),
        ({"branch": {"at": 0, "steps": [{"op": "fial", "pod": "A"}]}}, "branch.steps[0].op"),
    ],
)
def test_bad_top_level_names_field(changes, field):
    assert where(validate(scenario(**changes))) == [(None, field)]


def test_a_fork_keeps_its_other_branch():
    """branch: the scenario a fork was made from, after the shared steps (explore.js); it changes nothing."""
    raw = scenario(branch={"at": 1, "name": "the original", "steps": [{"op": "fail", "pod": "B", "note": "x"}]})
    assert validate(raw) == []
    assert validate(scenario(branch={"at": 0, "steps": []})) == []


def test_pods_may_share_a_uid():
    assert validate(scenario(pods=[{"name": "A", "uid": "B"}, {"name": "B"}])) == []


def test_missing_required_keys():
    raw = scenario()
    del raw["schema"], raw["steps"]
    assert where(validate(raw)) == [(None, "schema"), (None, "steps")]


@pytest.mark.parametrize("raw", [None, [], "schema: 1", 3])
def test_document_must_be_a_mapping(raw):
    assert where(validate(raw)) == [(None, "document")]


def test_collects_every_problem_in_order():
    raw = scenario(gate="yes", steps=[{"op": "pop"}, {"op": "popp"}, {"op": "done", "pod": "Z"}, {"op": "delete"}])
    assert where(validate(raw)) == [
        (None, "gate"),
        (1, "steps[1].op"),
        (2, "steps[2].pod"),
        (3, "steps[3].pod"),
    ]


def test_problems_are_capped():
    problems = validate(scenario(steps=[{"op": "nope"}] * 500), Limits(max_problems=50))
    assert len(problems) == 51
    assert problems[-1] == {"step": None, "field": "document", "message": "stopped after 50 problems"}


@pytest.mark.parametrize(
    "changes,limits,field",
    [
        ({"steps": [{"op": "pop"}] * 4}, Limits(max_steps=3), "steps"),
        ({"pods": [{"name": f"p{i}"} for i in range(4)], "initial_active": []}, Limits(max_pods=3), "pods"),
        ({"hints": BASE["hints"] * 4}, Limits(max_hints=3), "hints"),
        ({"pods": [{"name": "A" * 11}], "initial_active": [], "steps": []}, Limits(max_name_length=10), "pods[0].name"),
    ],
)
def test_limits(changes, limits, field):
    problems = validate(scenario(**changes), limits)
    assert where(problems) == [(None, field)]


def test_too_deep_nesting_is_one_problem():
    deep = []
    for _ in range(70):
        deep = [deep]
    problems = validate(scenario(description=deep))
    assert problems == [{"step": None, "field": "description[0][0][0][0][0]...",
                         "message": "nested deeper than 64 levels"}]


def test_self_referencing_object_is_rejected_not_looped():
    raw = scenario()
    raw["steps"].append(raw)
    step = len(raw["steps"]) - 1
    assert where(validate(raw)) == [(step, f"steps[{step}].steps[{step}].steps[{step}]...")]


# --- the cost of "did you mean" ------------------------------------------------------------------------------
def similar_names(count: int, length: int, seed: int = 1) -> list[str]:
    """Long pod names that differ in a few places: difflib's worst case (every choice passes its quick tests)."""
    rng = random.Random(seed)
    base = [rng.choice("abcdefghij") for _ in range(length)]
    names = []
    for i in range(count):
        chars = list(base)
        for _ in range(8):
            chars[rng.randrange(length)] = rng.choice("abcdefghij")
        names.append("".join(chars)[: length - 4] + f"{i:04d}")
    return names


def adversarial(pods: int = 1000, length: int = 253, references: int = 60) -> dict:
    names = similar_names(pods, length)
    rng = random.Random(2)
    wrong = [name[:10] + "-" + name[11:] for name in rng.sample(names, references)]
    return {"schema": 1, "name": "costly", "pods": [{"name": n} for n in names],
            "initial_active": wrong[: references // 2],
            "steps": [{"op": "pop", "expect": w} for w in wrong[references // 2:]]}


class CountingMatcher(validate_module.SequenceMatcher):
    compared = 0  # characters compared by ratio(): len(a) * len(b), summed

    def ratio(self):
        CountingMatcher.compared += len(self.a) * len(self.b)
        return super().ratio()


def test_suggestions_are_bounded_in_work_and_time(monkeypatch):
    raw = adversarial()
    assert len(json.dumps(raw)) < 300_000  # within the limits by far (2 MiB)
    monkeypatch.setattr(validate_module, "SequenceMatcher", CountingMatcher)
    CountingMatcher.compared = 0
    started = time.process_time()
    problems = validate(raw)
    seconds = time.process_time() - started
    assert len(problems) == Limits().max_problems + 1  # every problem still reported (then "stopped after")
    assert all("is not declared in pods" in p["message"] for p in problems[:-1])
    assert CountingMatcher.compared <= validate_module.SUGGESTION_WORK  # before: ~3,000 times as much
    assert seconds < 1.0, seconds  # before: 10-13 s; now milliseconds


@pytest.mark.parametrize("step, field, suggestion", [
    ({"op": "popp"}, "steps[1].op", "(did you mean 'pop'?)"),
    ({"op": "event", "event": "PvAddd"}, "steps[1].event", "(did you mean 'PvAdd'?)"),
    ({"op": "done", "pod": "web-frontend-7"}, "steps[1].pod", "(did you mean 'web-frontend-1'?)"),
    ({"op": "pop", "expectt": "A"}, "steps[1].expectt", "(did you mean 'expect'?)"),
])
def test_an_ordinary_typo_still_gets_its_suggestion_among_many_pods(step, field, suggestion):
    pods = [{"name": f"pod-{i}"} for i in range(995)] + [{"name": "A"}, {"name": "B"}, {"name": "web-frontend-1"}]
    raw = scenario(pods=pods, initial_active=["A"], steps=[{"op": "pop", "expect": "A"}, step])
    [problem] = validate(raw)
    assert problem["field"] == field and suggestion in problem["message"]


def test_suggestions_stop_after_the_first_few_problems():
    steps = [{"op": "popp"} for _ in range(validate_module.SUGGESTED_PROBLEMS + 5)]
    problems = validate(scenario(steps=steps))
    suggested = ["did you mean" in p["message"] for p in problems]
    assert suggested == [True] * validate_module.SUGGESTED_PROBLEMS + [False] * 5
    assert all("expected one of" in p["message"] for p in problems)


@pytest.mark.parametrize("versions, got", [
    (["v1.28.1", "v1.28.2", "v1.28.4", "v1.29.9", "v1.30.14"], "a list of 5 items"),
    ([], "a list of 0 items"),
    ("v1.28.1", "'v1.28.1'"),
])
def test_a_list_of_the_wrong_length_says_how_long_it_is(versions, got):
    [problem] = validate(scenario(versions=versions))
    assert problem["field"] == "versions" and problem["message"] == f"expected a list of 1 to 4 versions, got {got}"
