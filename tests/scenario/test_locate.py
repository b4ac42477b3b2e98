"""locate: a problem's field path -> 1-based line and column in YAML and JSON sources."""

import json
from importlib import resources

import pytest

from webapp.scenario.errors import ScenarioError
from webapp.scenario.load import parse_text
from webapp.scenario.locate import locate, locate_problems
from webapp.scenario.validate import validate

LOST_MARKER = (resources.files("webapp.scenario") / "library" / "lost-marker.yaml").read_text(encoding="utf-8")
LINES = LOST_MARKER.splitlines()


def position_of(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """(line, column) of the start of ``needle`` (its ``occurrence``-th appearance) in ``text``."""
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def located(text: str, **problem) -> tuple[int, int]:
    [p] = locate_problems(text, [{"step": None, "message": "", **problem}])
    return p["line"], p["column"]


# --- YAML ----------------------------------------------------------------------------------------------------
def test_library_file_lines_are_what_the_tests_below_assume():
    assert LINES[39] == "    event: PvAdd"
    assert LINES[38] == "  - op: event"


@pytest.mark.parametrize("field, expected", [
    ("steps[3].event", (40, 12)),                      # a scalar value: where the value starts
    ("steps[3]", (39, 5)),                             # a block mapping item: its first key, after "- "
    ("steps[3].op", (39, 9)),
    ("steps[5].unschedulable_plugins[0]", (52, 29)),   # inside a flow sequence
    ("pods[1]", (22, 5)),                              # a flow mapping: its "{"
    ("hints[0].hint", (19, 37)),
    ("name", (2, 7)),
    ("description", (3, 14)),                          # a block scalar: its "|"
    ("steps", (24, 1)),                                # a block sequence value: at its key
    ("initial_active[1]", (23, 21)),
])
def test_yaml_paths(field, expected):
    assert locate(LOST_MARKER, field) == expected


def test_block_mapping_value_points_at_its_key_and_nested_scalars_at_themselves():
    text = "schema: 1\nconfig:\n  initial_backoff: 5\n  max_backoff: 2\nname: x\n"
    assert locate(text, "config") == (2, 1)
    assert locate(text, "config.max_backoff") == (4, 16)


@pytest.mark.parametrize("field, expected", [
    ("steps[3].pod", (39, 5)),          # a missing parameter: at its step
    ("steps[3].event.deeper", (40, 12)),  # a path below a scalar: at the scalar
    ("steps[99]", (24, 1)),             # a step past the end: at `steps`
    ("config.max_backoff", (1, 1)),     # no config at all: the document
    ("pods.name", (20, 1)),             # a name where an index belongs
    ("steps[not an index", (24, 1)),    # an unreadable part ends the walk
])
def test_missing_paths_fall_back_to_the_nearest_existing_ancestor(field, expected):
    assert locate(LOST_MARKER, field) == expected


def test_document_starting_after_comments_falls_back_to_its_first_line():
    assert locate("# a comment\n\nschema: 1\nname: x\n", "config") == (3, 1)


def test_text_that_does_not_compose_falls_back_to_line_1():
    assert locate("a: [1, 2\nb: 3\n", "b") == (1, 1)
    assert locate("", "steps[0]") == (1, 1)


def test_aliases_are_refused_as_load_does():
    assert locate("a: &x {b: 1}\nc: *x\n", "c.b") == (1, 1)


def test_a_repeated_key_locates_the_last_one_as_loading_keeps_it():
    assert locate("name: a\nname: b\n", "name") == (2, 7)


def test_fields_named_by_validate_for_keys_that_are_not_identifiers():
    text = "schema: 1\nname: x\npods: []\nsteps:\n  - op: pop\n    bad key: 1\n    7: seven\n'quo\"ted]': 2\n"
    problems = validate(parse_text(text, "yaml"))
    fields = {p["field"]: (p["line"], p["column"]) for p in locate_problems(text, problems)}
    assert fields["steps[0]['bad key']"] == (6, 5)   # a problem about a key: at the key, not its value
    assert fields["steps[0][7]"] == (7, 5)
    assert fields["['quo\"ted]']"] == (8, 1)


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_a_misspelt_key_is_located_at_the_key_and_a_bad_value_at_the_value(fmt):
    text = LOST_MARKER.replace("    event: PvAdd\n", "    evnt: PvAdd\n").replace("  - op: pop\n", "  - op: popp\n", 1)
    if fmt == "json":
        text = json.dumps(parse_text(text, "yaml"), indent=2)
    problems = {p["field"]: p for p in locate_problems(text, validate(parse_text(text, fmt)))}
    misspelt, bad_value = problems["steps[3].evnt"], problems["steps[0].op"]
    assert misspelt["at"] == "key" and "at" not in bad_value
    assert (misspelt["line"], misspelt["column"]) == position_of(text, "evnt" if fmt == "yaml" else '"evnt"')
    assert (bad_value["line"], bad_value["column"]) == position_of(text, "popp" if fmt == "yaml" else '"popp"')


def test_a_misspelt_event_in_the_library_file_is_located_on_its_line():
    text = LOST_MARKER.replace("    event: PvAdd\n", "    event: PvAddd\n")
    problems = locate_problems(text, validate(parse_text(text, "yaml")))
    assert [(p["field"], p["line"], p["column"]) for p in problems] == [("steps[3].event", 40, 12)]


# --- JSON ----------------------------------------------------------------------------------------------------
def test_json_pretty_printed_paths():
    text = json.dumps(parse_text(LOST_MARKER, "yaml"), indent=2)
    assert locate(text, "steps[3].event") == position_of(text, '"PvAdd"', 1)  # the first is the hint's
    assert locate(text, "steps[3]") == position_of(text, '{\n      "op": "event",\n      "event": "PvAdd"')
    assert locate(text, "pods[1]") == position_of(text, '{\n      "name": "B"')
    assert locate(text, "hints[0].hint") == position_of(text, '"QueueAfterBackoff"')
    assert locate(text, "steps[3].pod") == locate(text, "steps[3]")


def test_json_on_one_line_with_escapes_counts_columns_in_characters():
    text = ('{"name": "q\\"uote \\\\ back\\/slash \\u00e9 \\ud83d\\ude00", "description": "caf\u00e9 \U0001F600",'
            ' "steps": [{"op": "pop", "note": "\\n\\t"}, {"op": "bad"}]}')
    assert json.loads(text)["name"].endswith("\U0001F600")
    assert locate(text, "steps[1].op") == (1, text.index('"bad"') + 1)
    assert locate(text, "description") == (1, text.index('"caf') + 1)


def test_json_with_tabs_and_surrogate_escapes():
    # libyaml takes the tabs but not the escapes, the pure-Python composer the other way round
    text = '{\n\t"name": "\\ud83d\\ude00",\n\t"steps": [\n\t\t{"op": "pop"},\n\t\t{"op": "bad"}\n\t]\n}'
    assert locate(text, "steps[1].op") == position_of(text, '"bad"')
    assert locate(text.replace("\\ud83d\\ude00", "x"), "steps[1].op") == position_of(text, '"bad"')


def test_json_validation_problems_are_located():
    raw = {"schema": 1, "name": "x", "pods": [{"name": "A"}, {"name": "A"}], "steps": [{"op": "pop", "expect": "Z"}]}
    text = json.dumps(raw, indent=1)
    problems = locate_problems(text, validate(json.loads(text)))
    assert {p["field"]: (p["line"], p["column"]) for p in problems} == {
        "pods[1].name": position_of(text, '"A"', 1),
        "steps[0].expect": position_of(text, '"Z"'),
    }


# --- parse errors --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, fmt, expected", [
    ("schema: 1\nname: [x\n", "yaml", (3, 1)),
    ('{"schema": 1,\n  "name": x}', "json", (2, 11)),
    ("a: &x 1\nb: *x\n", "yaml", (1, 4)),
])
def test_parse_errors_are_located_where_their_message_says(text, fmt, expected):
    with pytest.raises(ScenarioError) as info:
        parse_text(text, fmt)
    [problem] = info.value.problems
    assert problem["field"] == "document"
    assert f"line {expected[0]}, column {expected[1]}" in problem["message"]
    assert located(text, field="document", message=problem["message"]) == expected


def test_document_problems_without_a_position_are_at_line_1():
    assert located("x" * 10, field="document", message="larger than 5 bytes") == (1, 1)


# --- bounded work ----------------------------------------------------------------------------------------------
MILLION = '{"schema": 1, "name": "x", "pods": [{"name": "A"}], "steps": [' + ",".join(["1"] * 1_000_000) + "]}"


def test_a_document_of_a_million_items_is_walked_only_so_far(monkeypatch):
    """A 2 MB text holding a million items (composed into nodes, 15 s of CPU in the editor's one place for heavy
    work): at most MAX_EVENTS of its events are walked; what lies beyond is located at its nearest ancestor
    reached, what lies within exactly."""
    import yaml

    from webapp.scenario import locate as module

    walked = []
    real = yaml.parse

    def counted(*args, **kwargs):
        for n, event in enumerate(real(*args, **kwargs), 1):
            walked.append(n)
            yield event

    monkeypatch.setattr(module.yaml, "parse", counted)
    fields = module.locate_fields(MILLION, ["steps", "steps[5]", "steps[999999]", "pods[0].name"])
    assert max(walked) <= module.MAX_EVENTS < 1_000_000
    steps_at = (1, MILLION.index("[1,1") + 1)
    assert fields == {"steps": steps_at, "steps[5]": (1, steps_at[1] + 1 + 2 * 5),
                      "steps[999999]": steps_at, "pods[0].name": (1, MILLION.index('"A"') + 1)}


def test_a_long_scenario_is_located_to_its_last_step():
    """An 8,000-step scenario (about 60,000 events, within MAX_EVENTS) is located exactly to its last step."""
    steps = [{"op": "event", "event": "NodeAdd"}] * 7999 + [{"op": "evnt"}]
    text = json.dumps({"schema": 1, "name": "x", "pods": [{"name": "A"}], "steps": steps}, indent=1)
    assert locate(text, "steps[7999].op") == position_of(text, '"evnt"')
