"""parse_text / load_scenario / load_file / check_runs: safe parsing, limits, dry run."""

import json
import random
import time

import pytest
import yaml

from tests.conftest import conformance_cases
from webapp.model.variant import VARIANTS
from webapp.scenario import builtin
from webapp.scenario.errors import ScenarioError
from webapp.scenario.generate import generate
from webapp.scenario.load import check_runs, load_file, load_scenario, parse_text
from webapp.scenario.validate import Limits

CASES = conformance_cases()
LOST_MARKER = next(c for c in CASES if c["id"] == "custom-lost-marker-01")["scenario"]


def problem_of(call, *args, **kwargs) -> dict:
    with pytest.raises(ScenarioError) as info:
        call(*args, **kwargs)
    assert len(info.value.problems) == 1
    return info.value.problems[0]


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
    check_runs(load_scenario(builtin.get(scenario_id)))


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


def test_load_scenario_raises_every_problem():
    with pytest.raises(ScenarioError) as info:
        load_scenario({**LOST_MARKER, "gate": 1, "steps": [{"op": "popp"}, {"op": "done", "pod": "Z"}]})
    assert [(p["step"], p["field"]) for p in info.value.problems] == [
        (None, "gate"),
        (0, "steps[0].op"),
        (1, "steps[1].pod"),
    ]


def test_too_many_steps_rejected():
    p = problem_of(load_scenario, {**LOST_MARKER, "steps": [{"op": "pop"}] * 3}, Limits(max_steps=2))
    assert (p["step"], p["field"]) == (None, "steps")


# --- parse_text ----------------------------------------------------------------------------------
def test_json_and_yaml_parse_to_the_same_object():
    assert parse_text(json.dumps(LOST_MARKER)) == LOST_MARKER
    assert parse_text(yaml.safe_dump(LOST_MARKER), "yaml") == LOST_MARKER
    assert parse_text(yaml.safe_dump(LOST_MARKER).encode()) == LOST_MARKER


def test_format_guess_and_byte_order_mark():
    assert parse_text(b'\xef\xbb\xbf {"a": 1}') == {"a": 1}
    assert parse_text("a: 1") == {"a": 1}


def test_invalid_json_reports_line_and_column():
    p = problem_of(parse_text, '{\n  "a": 1,\n  oops\n}')
    assert p == {
        "step": None,
        "field": "document",
        "message": "invalid JSON at line 3, column 3: Expecting property name enclosed in double quotes",
    }


def test_invalid_yaml_reports_line_and_column():
    p = problem_of(parse_text, "a: 1\nb: [1, 2\n", "yaml")
    assert p["field"] == "document"
    assert "invalid YAML at line 3, column 1" in p["message"]


@pytest.mark.parametrize(
    "text",
    [
        "a: &x [1, 2]\nb: *x\n",
        "a: &x 1\n",
        "b: *undefined\n",
        "base: &b {op: pop}\nsteps: [{<<: *b}]\n",
    ],
)
def test_yaml_anchors_and_aliases_are_rejected(text):
    assert "anchors and aliases" in problem_of(parse_text, text)["message"]


def test_billion_laughs_is_rejected_at_once():
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    start = time.monotonic()
    assert "anchors and aliases" in problem_of(parse_text, "\n".join(lines))["message"]
    assert time.monotonic() - start < 1


@pytest.mark.parametrize(
    "text",
    [
        "!!python/object:os.system {}\n",
        "a: !!python/object/apply:os.system [echo pwned]\n",
        "a: !!python/name:os.system\n",
    ],
)
def test_yaml_python_tags_are_rejected(text):
    assert "could not determine a constructor" in problem_of(parse_text, text)["message"]


def test_oversized_document_is_rejected_before_parsing():
    text = "{" + " " * 100  # not even valid JSON: the size check comes first
    p = problem_of(parse_text, text, None, Limits(max_bytes=50))
    assert p["message"] == "larger than 50 bytes"


def test_size_counts_utf8_bytes():
    text = '{"name": "' + "é" * 30 + '"}'  # 42 characters, 72 bytes
    assert problem_of(parse_text, text, None, Limits(max_bytes=50))["message"] == "larger than 50 bytes"


def test_not_utf8_is_a_document_problem():
    assert "not UTF-8" in problem_of(parse_text, b'{"a": "\xff"}')["message"]


def test_absurd_json_nesting_is_a_document_problem():
    assert problem_of(parse_text, "[" * 100_000)["message"] == "invalid JSON: nested too deeply"


@pytest.mark.parametrize("text", ["- " * 100_000 + "x", "[[[1]]]", "a:\n  b:\n    c: 1\n"])
def test_deep_yaml_is_rejected_before_composing(text):
    p = problem_of(parse_text, text, "yaml", Limits(max_depth=2))
    assert "nested deeper than 2 levels" in p["message"]


def test_absurd_yaml_flow_nesting_is_a_document_problem():
    assert problem_of(parse_text, "[" * 100_000, "yaml")["field"] == "document"


def test_huge_integer_literal_is_a_document_problem():
    assert problem_of(parse_text, '{"a": ' + "9" * 5000 + "}")["field"] == "document"


# --- load_file -----------------------------------------------------------------------------------
def test_load_file_json_yaml_and_unknown_suffix(tmp_path):
    (tmp_path / "s.json").write_text(json.dumps(LOST_MARKER))
    (tmp_path / "s.yml").write_text(yaml.safe_dump(LOST_MARKER))
    (tmp_path / "s.txt").write_text(yaml.safe_dump(LOST_MARKER))
    loaded = [load_file(tmp_path / name) for name in ("s.json", "s.yml", "s.txt")]
    assert loaded[0] == loaded[1] == loaded[2]
    assert loaded[0].name == LOST_MARKER["name"]


def test_load_file_oversized(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps(LOST_MARKER))
    assert problem_of(load_file, path, Limits(max_bytes=100))["message"] == "larger than 100 bytes"


def test_load_file_missing_raises_oserror(tmp_path):
    with pytest.raises(OSError):
        load_file(tmp_path / "missing.yaml")
