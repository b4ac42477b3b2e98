"""The format's extensions for v1.32.0 and v1.36.2 (feature_gates, scheduling_gates, pod_group, ungate,
pop_specific, max_backoff 0) are validated like every other field, with the field path and, in a text, the line;
a version that lacks one refuses the scenario, naming the field and the version."""

import pytest

from webapp.scenario.load import parse_text
from webapp.scenario.locate import locate_problems
from webapp.scenario.scenario import from_valid_dict
from webapp.scenario.validate import validate

BASE = {"schema": 1, "name": "t", "pods": [{"name": "A"}, {"name": "G", "scheduling_gates": ["example.com/wait"]}],
        "initial_active": ["A", "G"], "steps": [{"op": "pop", "expect": "A"}, {"op": "ungate", "pod": "G"}]}


def problems(**changes) -> list[tuple[str, str]]:
    return [(p["field"], p["message"]) for p in validate({**BASE, **changes})]


def test_the_extensions_are_valid():
    assert validate(BASE) == []
    assert validate({**BASE, "feature_gates": {"SchedulerPopFromBackoffQ": False, "GenericWorkload": True},
                     "pods": [*BASE["pods"], {"name": "M", "pod_group": "g"}], "config": {"max_backoff": 0},
                     "steps": [*BASE["steps"], {"op": "pop_specific", "pod": "M"}]}) == []


@pytest.mark.parametrize("changes, field, words", [
    ({"feature_gates": {"SchedulerPopFromBackof": False}}, "feature_gates.SchedulerPopFromBackof",
     "unknown feature gate 'SchedulerPopFromBackof' (did you mean 'SchedulerPopFromBackoffQ'?)"),
    ({"feature_gates": {"GenericWorkload": "yes"}}, "feature_gates.GenericWorkload", "expected true or false"),
    ({"feature_gates": ["GenericWorkload"]}, "feature_gates", "expected a mapping"),
    ({"pods": [{"name": "G", "scheduling_gates": "wait"}]}, "pods[0].scheduling_gates", "expected a list of 1 to 32"),
    ({"pods": [{"name": "G", "scheduling_gates": []}]}, "pods[0].scheduling_gates", "expected a list of 1 to 32"),
    ({"pods": [{"name": "G", "scheduling_gates": ["a", "a"]}]}, "pods[0].scheduling_gates", "listed twice"),
    ({"pods": [{"name": "G", "scheduling_gates": ["a", 3]}]}, "pods[0].scheduling_gates[1]", "non-empty string"),
    ({"pods": [{"name": "M", "pod_group": ""}]}, "pods[0].pod_group", "non-empty string"),
    ({"steps": [{"op": "ungate"}]}, "steps[0].pod", "requires 'pod'"),
    ({"steps": [{"op": "pop_specific", "pod": "Z"}]}, "steps[0].pod", "not declared"),
    ({"config": {"max_backoff": -1}}, "config.max_backoff", ">= 0"),
])
def test_each_bad_extension_names_its_field(changes, field, words):
    found = problems(**changes)
    assert any(f == field and words in m for f, m in found), found


def test_a_bad_gate_in_a_text_is_located_at_its_line():
    text = "schema: 1\nname: t\nfeature_gates:\n  GenericWorkload: maybe\npods: [{name: A}]\nsteps: []\n"
    [problem] = validate(parse_text(text, "yaml"))
    [located] = locate_problems(text, [problem])
    assert (problem["field"], located["line"]) == ("feature_gates.GenericWorkload", 4)


@pytest.mark.parametrize("changes, version, field", [
    ({}, "v1.31.13", "pods[1].scheduling_gates"),
    ({"pods": [{"name": "A", "pod_group": "g"}], "initial_active": ["A"], "steps": []}, "v1.32.0",
     "pods[0].pod_group"),
    ({"feature_gates": {"GenericWorkload": True}}, "v1.32.0", "feature_gates.GenericWorkload"),
    ({"steps": [{"op": "pop_specific", "pod": "A"}], "pods": [{"name": "A"}], "initial_active": ["A"]}, "v1.32.0",
     "steps[0].op"),
    ({"gate": False}, "v1.36.2", "gate"),
])
def test_a_version_refuses_what_it_lacks_naming_the_field_and_itself(changes, version, field):
    scenario = from_valid_dict({**BASE, **changes})
    refused = scenario.refused(version)
    assert [p["field"] for p in refused][:1] == [field] and version in refused[0]["message"], refused
