"""parse_text / load_scenario / load_file: safe parsing, limits, validation."""

import json
import time

import pytest
import yaml

from tests.conftest import conformance_cases, problem_of
from webapp.scenario.errors import ScenarioError
from webapp.scenario.load import load_file, load_scenario, parse_text
from webapp.scenario.validate import Limits

CASES = conformance_cases()
LOST_MARKER = next(c for c in CASES if c["id"] == "custom-lost-marker-01")["scenario"]


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
    start = time.thread_time()  # this thread's CPU, not the wall clock: the same on a busy machine
    assert "anchors and aliases" in problem_of(parse_text, "\n".join(lines))["message"]
    assert time.thread_time() - start < 1


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


@pytest.mark.parametrize("text, field, column", [
    ("[" * 100_000, "[0][0][0][0][0][0]...", 65),
    ("[" * 100_000 + "]" * 100_000, "[0][0][0][0][0][0]...", 65),
    ('{"a":' * 70 + "1" + "}" * 70, "a.a.a.a.a.a...", 321),
])
def test_absurd_json_nesting_is_a_problem_at_its_place(text, field, column):
    """The field where the too-deep value starts (its first levels) and the bracket that goes too deep."""
    problem = problem_of(parse_text, text)
    assert problem["message"] == f"nested deeper than 64 levels (line 1, column {column})"
    assert problem["field"] == field


@pytest.mark.parametrize("text", ["- " * 100_000 + "x", "[[[1]]]", "a:\n  b:\n    c: 1\n"])
def test_deep_yaml_is_rejected_before_composing(text):
    p = problem_of(parse_text, text, "yaml", Limits(max_depth=2))
    assert "nested deeper than 2 levels" in p["message"]


@pytest.mark.parametrize("text, field, line, column", [
    ("steps:\n- op: add\n  pod: " + "[" * 70 + "]" * 70 + "\n", "steps[0].pod[0][0][0]...", 3, 69),
    ("steps:\n- {op: add, x: {a: {b: " + "[" * 70 + "1" + "]" * 70 + "}}}\n", "steps[0].x.a.b[0]...", 2, 83),
    ("- " * 100_000 + "x", "[0][0][0][0][0][0]...", 1, 129),
])
def test_deep_yaml_names_the_field_and_where_it_goes_too_deep(text, field, line, column):
    """As JSON: the field where the too-deep value starts (its first levels) and its step, then line and column."""
    problem = problem_of(parse_text, text, "yaml")
    assert problem == {"step": 0 if field.startswith("steps[0]") else None, "field": field,
                       "message": f"nested deeper than 64 levels (line {line}, column {column})"}


def test_absurd_yaml_flow_nesting_is_a_document_problem():
    assert problem_of(parse_text, "[" * 100_000, "yaml")["field"] == "document"


@pytest.mark.parametrize("digits", [101, 5000])
def test_a_long_integer_literal_is_a_problem_of_its_field(digits):
    p = problem_of(parse_text, '{"pods": [{"priority": -' + "9" * digits + "}]}")
    assert p["field"] == "pods[0].priority"
    assert p["message"] == f"an integer of {digits} digits; at most 100 are accepted"


@pytest.mark.parametrize("literal", ["9" * 5000, "-" + "1" * 101, "1_000" * 30, "1" * 60 + ":" + "2" * 60,
                                     "0x" + "f" * 4000, "-0b" + "1" * 16000, "0x" + "f_" * 101])
def test_a_long_yaml_integer_is_refused_where_it_is(literal):
    """Hexadecimal and binary literals passed (int() converts them at any length) and failed later, as a 500,
    where the value was put in words (str() refuses over 4,300 digits)."""
    p = problem_of(parse_text, f"schema: 1\npods:\n  - priority: {literal}\n", "yaml")
    assert p["field"] == "document"
    assert p["message"].startswith("invalid YAML at line 3, column 15: an integer of")


@pytest.mark.parametrize("literal", ['!!int "' + "9" * 5000 + '"', "!!int '0x" + "f" * 4000 + "'"])
def test_a_quoted_integer_tagged_int_is_refused_where_it_is(literal):
    """A quoted scalar tagged !!int is read as an integer all the same: 5,000 digits were refused in Python's
    words ("Exceeds the limit (4300 digits)..."), 4,000 hex digits converted to a 16,000-bit integer."""
    p = problem_of(parse_text, f"schema: 1\npods:\n  - priority: {literal}\n", "yaml")
    assert p["field"] == "document"
    assert p["message"].startswith("invalid YAML at line 3, column 15: an integer of")


@pytest.mark.parametrize("fmt", [None, "json", "yaml"])
def test_a_text_may_start_with_a_byte_order_mark(fmt):
    """As a body's bytes may (decoded as utf-8-sig): the editor's JSON text starting with U+FEFF was refused
    ("Unexpected UTF-8 BOM")."""
    assert parse_text('\ufeff{"schema": 1, "name": "x"}', fmt)["name"] == "x"


def test_long_digit_strings_and_floats_are_not_integers():
    text = '{"name": "' + "9" * 500 + '", "x": 1' + "0" * 500 + '.5, "y": "' + "9" * 500 + '"}'
    assert parse_text(text)["name"] == "9" * 500
    assert parse_text("name: '" + "9" * 500 + "'\n", "yaml")["name"] == "9" * 500
    assert parse_text("name: 0X" + "f" * 200 + "\n", "yaml")["name"] == "0X" + "f" * 200  # no integer to YAML
    assert parse_text("x: 0x" + "f" * 100 + "\n", "yaml")["x"] == 16 ** 100 - 1


@pytest.mark.parametrize("text, fmt, field, line", [
    ('{"schema": 1, "name": "x\\ud800"}', "json", "name", None),
    ('{"steps": [{"op": "pop", "note": "\\udfff y"}]}', "json", "steps[0].note", None),
    ('{"pods": [{"\\ud83d": 1}]}', "json", "pods[0]", None),
    ("schema: 1\nname: x\ud800\n", "yaml", "document", 2),
    ('{"schema": 1, "name": "x\ud800"}', "json", "document", 1),
])
def test_a_lone_surrogate_is_a_problem_where_it_is(text, fmt, field, line):
    p = problem_of(parse_text, text, fmt)
    assert p["field"] == field
    assert "lone surrogate" in p["message"]
    assert p["step"] == (0 if field.startswith("steps[0]") else None)
    if line is not None:
        assert f"at line {line}, column " in p["message"]


def test_a_surrogate_pair_is_one_character():
    assert parse_text('{"name": "\\ud83d\\ude00"}')["name"] == "\U0001F600"


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


def test_a_yaml_text_of_more_values_than_its_limit_is_refused_before_it_is_composed():
    """130,000 steps of YAML (1.8 MB, under the 2 MiB limit) took 5.5 s to read, composed in Python; the same as
    JSON 0.05 s. YAML stops at 50,000 values, where it says so and what to do; the JSON is read."""
    steps = 130_000
    text = "schema: 1\nname: x\npods: []\nsteps:\n" + "  - {op: pop}\n" * steps
    p = problem_of(parse_text, text, "yaml")
    assert p["field"] == "document" and "more than 50,000 values" in p["message"] and "as JSON" in p["message"]
    line = 5 + (50_001 - 9 - 1) // 3  # 9 values before the steps (from line 5), 3 a step: the 50,001st's line
    assert p["message"].startswith(f"invalid YAML at line {line}, column ")
    assert len(parse_text(json.dumps({"steps": [{"op": "pop"}] * steps}))["steps"]) == steps
    within = "schema: 1\nname: x\npods: []\nsteps:\n" + "  - {op: pop}\n" * 16_000  # 48,009 values
    assert len(parse_text(within, "yaml")["steps"]) == 16_000
