"""The wire shapes have one owner: static/js/types.d.ts is made from the TypedDicts the server sends
(tools/wiretypes.py), maps each of their fields, and types what the server really sends: the checker takes the
messages of every built-in scenario, typed as the interfaces say, without an error."""

from __future__ import annotations

import json
import shutil
import subprocess
import typing
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal, NotRequired, Required, TypedDict

import pytest

from tools.clientgen import JS, stale
from tools.wiretypes import ROOTS, WireTypeError, declarations, interfaces
from webapp import ROOT
from webapp.engine.simulation import Simulation
from webapp.model.variant import VARIANTS
from webapp.presenter.messages import key_positions, scenario_message, state_message
from webapp.scenario import builtin
from webapp.scenario.scenario import from_valid_dict

TSC = ROOT / "node_modules" / "typescript" / "bin" / "tsc"


def test_the_committed_types_are_made_from_todays_typeddicts():
    assert (JS / "types.d.ts").read_text() == declarations(), "run: python -m tools.clientgen"
    assert stale() == [], "run: python -m tools.clientgen"


def reachable(roots) -> set[type]:
    """Every TypedDict ``roots`` name, found by walking the type hints (not by the generator)."""
    found: set[type] = set()
    pending = list(roots)
    while pending:
        hint = pending.pop()
        if typing.is_typeddict(hint):
            if hint in found:
                continue
            found.add(hint)
            pending.extend(typing.get_type_hints(hint, include_extras=True).values())
        else:
            pending.extend(arg for arg in typing.get_args(hint) if arg is not Ellipsis)
    return found


def required(shape: type, hint: object) -> bool:
    wrapper = typing.get_origin(hint)
    return wrapper is Required or (wrapper is not NotRequired and shape.__total__)


def test_every_field_of_every_typeddict_sent_is_declared_and_optional_only_where_python_says():
    text = (JS / "types.d.ts").read_text()
    shapes = reachable(ROOTS)
    assert {"Scene", "Pane", "Chip", "Timer", "Poll", "ScenarioMessage", "Record"} <= {s.__name__ for s in shapes}
    for shape in shapes:
        body = text.split(f"\n  interface {shape.__name__} {{\n", 1)[1].split("\n  }\n", 1)[0]
        declared = dict(line.strip().rstrip(";").split(": ", 1) for line in body.splitlines())
        fields = typing.get_type_hints(shape, include_extras=True)
        expected = {json.dumps(f) if not f.isidentifier() else f: required(shape, hint) for f, hint in fields.items()}
        assert {name.rstrip("?"): not name.endswith("?") for name in declared} == expected, shape.__name__


class Inner(TypedDict):
    n: int


class Sample(TypedDict):
    plain: str
    maybe: NotRequired[int]
    kind: Literal["a", "b", 3]
    either: str | None
    rows: list[list[float]]
    pair: tuple[str, int]
    many: tuple[str, ...]
    table: dict[str, Inner]
    nested: Mapping[str, list[Inner | None]]
    anything: Any
    opaque: object
    flag: bool


class Partial(TypedDict, total=False):
    loose: str
    sure: Required[list[Sample]]


def test_each_kind_of_field_maps_to_its_typescript():
    made = {name: members for name, (_, members) in interfaces([Partial]).items()}
    assert made == {
        "Partial": [("loose", "string", False), ("sure", "Sample[]", True)],
        "Sample": [("plain", "string", True), ("maybe", "number", False), ("kind", '"a" | "b" | 3', True),
                   ("either", "string | null", True), ("rows", "number[][]", True), ("pair", "[string, number]", True),
                   ("many", "string[]", True), ("table", "{ [key: string]: Inner }", True),
                   ("nested", "{ [key: string]: (Inner | null)[] }", True), ("anything", "any", True),
                   ("opaque", "unknown", True), ("flag", "boolean", True)],
        "Inner": [("n", "number", True)],
    }


class Dated(TypedDict):
    when: datetime


def test_a_type_without_typescript_is_refused_by_field():
    with pytest.raises(WireTypeError, match=r"Dated\.when: no TypeScript for <class 'datetime.datetime'>"):
        interfaces([Dated])


def test_two_typeddicts_of_one_name_are_refused():
    Twin = TypedDict("Inner", {"m": str})  # noqa: UP013 (a second Inner, as another module might declare)
    with pytest.raises(WireTypeError, match="two TypedDicts are named Inner"):
        interfaces([Sample, Twin])


def sent() -> dict[str, list[Any]]:
    """What the server sends of every built-in scenario: its scenario message and its state where the story
    turns (with the preview and a room's notes, as a presenter is sent it)."""
    states, scenarios = [], []
    for scenario_id in builtin.ids():
        raw = builtin.get(scenario_id)
        sim = Simulation(from_valid_dict(raw), variants=raw.get("versions") or VARIANTS)
        summary = sim.summary()
        scenarios.append(scenario_message(summary, scenario_id, "ABCD"))
        for position in {0, *(p - 1 for p in key_positions(summary)), summary["total"]}:
            sim.seek(position)
            states.append(state_message(sim.frame(), sim.preview(), {"room": "ABCD"}))
    return {"StateMessage": states, "ScenarioMessage": scenarios}


def test_what_the_server_sends_type_checks_as_the_interfaces_say(tmp_path):
    """An object literal typed as an interface is checked for fields it lacks and fields it has too many."""
    node = shutil.which("node")
    assert node and TSC.is_file(), "node and the checker are needed: `make jscheck` installs the checker"
    module = "".join(f"/** @type {{Wire.{name}[]}} */\nexport const {name.lower()} = {json.dumps(messages)};\n"
                     for name, messages in sent().items())
    (tmp_path / "sent.js").write_text(module)
    done = subprocess.run([node, str(TSC), "--noEmit", "--strict", "--allowJs", "--checkJs", "--target", "ES2022",
                           "--skipLibCheck", str(JS / "types.d.ts"), str(tmp_path / "sent.js")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[:5000]
