"""The operation registry (webapp/model/operations.py) is the one list of ops: every op in it is declared
completely, dispatched by the model, validated from its parameters and documented; and no op is used or
tabulated anywhere (scenarios, cases, source tables, docs) that the registry does not declare."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from tests.conftest import conformance_cases, runnable_variants
from webapp.model import operations as ops
from webapp.model.errors import StepError
from webapp.model.operations import KINDS, OPERATIONS, TYPES, arguments, functions_of, kind_of, summary_of
from webapp.model.variant import VARIANTS
from webapp.model.versions import VERSIONS
from webapp.scenario import builtin
from webapp.scenario.generate import generate
from webapp.scenario.scenario import from_valid_dict
from webapp.scenario.validate import STEP_PARAMS, TYPE_CHECKS, validate

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "scenario-format.md"
TIMELINE = ROOT / "static" / "js" / "timeline.js"
NAMES = list(OPERATIONS)


# --- the declarations ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_declared_completely(name):
    op = OPERATIONS[name]
    assert op.name == name
    assert kind_of(name) in KINDS
    assert functions_of(name) and all(isinstance(f, str) and f.strip() for f in functions_of(name))
    summary = summary_of(name)
    assert summary.endswith(".") and "\n" not in summary and "`" not in summary  # plain text, one line
    names = [p.name for p in op.params]
    assert len(set(names)) == len(names) and not {"op", "note"} & set(names)
    assert [p.required for p in op.params] == sorted((p.required for p in op.params), reverse=True)
    for p in op.params:
        assert p.type in TYPES
        assert bool(p.choices) == (p.type in (ops.EVENT, ops.ENUM))
        assert p.required or p.doc, f"{name}.{p.name}: say what omitting it means"


def test_kinds_are_the_timeline_kinds():
    telling = re.search(r"const TELLING = \[(.*?)\];", TIMELINE.read_text()).group(1)
    assert set(KINDS) == set(re.findall(r'"(\w+)"', telling))


def test_kinds_of_the_timeline_ticks():
    kinds = {name: kind_of(name) for name in NAMES if kind_of(name) != "other"}
    assert kinds == {"pop": "pop", "pop_specific": "pop", "event": "event", "assigned_pod_added": "event",
                     "flush_unschedulable_leftover": "event", "done": "done", "fail": "fail",
                     "advance_clock": "clock", "flush_backoff": "clock"}


def test_arguments_follow_the_declaration():
    step = {"note": "n", "pod_info": "fresh", "op": "fail", "pod": "A"}
    assert arguments(step) == [("pod", "A"), ("pod_info", "fresh")]
    assert arguments({"op": "flush_backoff"}) == []


# --- every op: validated from its parameters, dispatched by the model ---------------------------------
SAMPLE = {ops.POD: "A", ops.PODS: ["A"], ops.SECONDS: 1, ops.BOOL: True, ops.PLUGINS: ["P"], ops.CYCLE: 0}
# A scenario where every op applies: A is in flight and (re-added) at the head of activeQ.
PREFIX = [{"op": "pop", "expect": "A"}, {"op": "add", "pod": "A"}]


def scenario(*steps) -> dict:
    return {"schema": 1, "name": "ops", "hints": [{"event": "NodeAdd", "plugin": "P", "hint": "QueueAfterBackoff"}],
            "pods": [{"name": "A", "priority": 1}, {"name": "B"}], "initial_active": ["A", "B"],
            "steps": [*PREFIX, *steps]}


def sample_step(name: str, optional: bool) -> dict:
    params = [p for p in OPERATIONS[name].params if p.required or optional]
    return {"op": name, **{p.name: p.choices[0] if p.choices else SAMPLE[p.type] for p in params}}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("optional", [False, True], ids=["required", "all"])
def test_dispatched_by_the_model(name, optional):
    raw = scenario(sample_step(name, optional))
    assert validate(raw) == []
    loaded = from_valid_dict(raw)
    runs = [v for v in VARIANTS if not loaded.refused(v)] or [v for v in VERSIONS if not loaded.refused(v)]
    assert runs, f"no version runs {name}"
    for variant in runs:
        model = from_valid_dict(raw).model(variant)
        for i, step in enumerate(raw["steps"]):
            result, record = model.apply(i, step)
        assert isinstance(result, dict) and record["op"] == name


def test_every_parameter_type_has_a_check():
    assert set(TYPE_CHECKS) == set(TYPES)


@pytest.mark.parametrize("name", NAMES)
def test_validation_derives_from_the_parameters(name):
    params = OPERATIONS[name].params
    assert STEP_PARAMS[name] == (tuple(p.name for p in params if p.required),
                                 tuple(p.name for p in params if not p.required))
    field = f"steps[{len(PREFIX)}]"
    [problem] = validate(scenario({**sample_step(name, False), "bogus": 1}))
    assert problem["field"] == f"{field}.bogus"
    allowed = ", ".join(["op", *(p.name for p in params), "note"])
    assert problem["message"].endswith(f"for op {name!r}; expected one of {allowed}")
    for p in params:
        wrong = validate(scenario({**sample_step(name, True), p.name: {"a": "mapping"}}))
        assert [w["field"] for w in wrong] == [f"{field}.{p.name}"], p.name
        if p.required:
            step = sample_step(name, True)
            del step[p.name]
            [missing] = validate(scenario(step))
            assert missing["field"] == f"{field}.{p.name}" and missing["message"].startswith("missing")


def test_the_first_function_is_the_first_call_recorded():
    """An op whose queue method records upstream calls records its first function first, and all of them."""
    called = {name: set() for name in NAMES}
    raws = [c["scenario"] for c in conformance_cases()] + [builtin.get(i) for i in builtin.ids()]
    for raw in raws:
        for variant in runnable_variants(from_valid_dict(raw)):
            model = from_valid_dict(raw).model(variant)
            for i, step in enumerate(raw["steps"]):
                try:
                    _, record = model.apply(i, step)
                except StepError:
                    break
                if record["calls"]:
                    assert record["calls"][0] == functions_of(step["op"])[0], step
                    called[step["op"]].update(record["calls"])
    for name, calls in called.items():
        assert not calls or set(functions_of(name)) <= calls, name


# --- the docs table is generated from the registry ------------------------------------------------------
def _param(p: ops.Param) -> str:
    what = " or ".join(p.choices) if p.type == ops.ENUM else TYPES[p.type]
    return f"`{p.name}` ({what}{'' if p.required else ', optional'})" + (f": {p.doc}" if p.doc else "")


def steps_table() -> str:
    rows = ["| op | parameters | upstream functions | what it does |", "|---|---|---|---|"]
    for op in OPERATIONS.values():
        params = "<br>".join(map(_param, op.params)) or "—"
        functions = ", then ".join(f if " " in f else f"`{f}`" for f in op.functions)
        rows.append(f"| `{op.name}` | {params} | {functions} | {op.summary} |")
    return "\n".join(rows)


def documented_table() -> str:
    text = DOCS.read_text()
    start = text.index("| op | parameters |")
    return text[start:text.index("\n\n", start)]


def test_docs_table_lists_the_registry():
    assert re.findall(r"^\| `(\w+)` \|", documented_table(), re.M) == NAMES


def test_docs_table_is_generated_from_the_registry():
    assert documented_table() == steps_table(), (
        f"docs/scenario-format.md: replace the steps table with\n\n{steps_table()}\n")


# --- the reverse: no op anywhere that the registry lacks -----------------------------------------------
def scenario_ops() -> set:
    raws = [c["scenario"] for c in conformance_cases()] + [builtin.get(i) for i in builtin.ids()]
    raws.append(generate(random.Random(7).choice, 500))
    return {s["op"] for raw in raws for s in raw["steps"]}


def test_scenario_library_cases_and_generator_use_only_registered_ops():
    assert scenario_ops() <= set(OPERATIONS)
    expected = [t for c in conformance_cases() for t in c["expected"].values()]
    assert {s["op"] for trace in expected for s in trace["steps"]} <= set(OPERATIONS)


def _strings(node) -> list | None:
    """The string constants a dict's keys or a list/tuple/set literal holds (None if not all strings)."""
    items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
    if items is None or not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in items):
        return None
    return [k.value for k in items]


def _is_op(node) -> bool:
    """``op``, ``x.op``, ``x["op"]`` or ``x.get("op")``."""
    if isinstance(node, (ast.Name, ast.Attribute)):
        return getattr(node, "id", getattr(node, "attr", None)) == "op"
    key = node.slice if isinstance(node, ast.Subscript) else node.args[0] if isinstance(node, ast.Call) and node.args \
        else None
    return isinstance(key, ast.Constant) and key.value == "op"


def ops_named_in(source: str) -> set:
    """Op names in tables keyed by ops, ``{"op": ...}`` literals and comparisons with an op."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        keys = _strings(node) if isinstance(node, ast.Dict) else None
        if keys and 2 * len(set(keys) & set(OPERATIONS)) > len(keys) and not set(keys) <= set(KINDS):
            found.update(keys)  # a table keyed by ops (one keyed by timeline kinds is not)
        if isinstance(node, ast.Dict):
            found.update(v.value for k, v in zip(node.keys, node.values)
                         if isinstance(k, ast.Constant) and k.value == "op" and isinstance(v, ast.Constant))
        if isinstance(node, ast.Compare) and any(map(_is_op, [node.left, *node.comparators])):
            for side in [node.left, *node.comparators]:
                found.update([side.value] if isinstance(side, ast.Constant) else _strings(side) or ())
    return {s for s in found if isinstance(s, str)}


SOURCES = sorted([*(ROOT / "webapp").rglob("*.py"), *(ROOT / "bench").rglob("*.py"),
                  ROOT / "tests" / "scenario" / "test_builtin.py"])


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_source_tables_name_only_registered_ops(path):
    assert ops_named_in(path.read_text()) <= set(OPERATIONS)


def test_the_source_scan_finds_op_tables():
    found = ops_named_in('KINDS = {"pop": 1, "event": 2, "pause": 3}\nif step["op"] == "skip": pass\n'
                         'x = {"op": "wait"}\nif op in ("fail", "retry"): pass\nif s.get("op") != "halt": pass\n'
                         'COLOURS = {"pop": 1, "clock": 2, "other": 3}\n'
                         'if "op" in step and k not in ("op", "note"): pass\n'
                         'step = {"op": "event", "event": "NodeAdd"}\n')
    assert found - set(OPERATIONS) == {"pause", "skip", "wait", "retry", "halt"}


def test_scripts_compare_only_registered_ops():
    for path in (ROOT / "static" / "js").rglob("*.js"):
        named = set(re.findall(r"""\bop\s*[!=]==?\s*["'](\w+)["']""", path.read_text()))
        assert named <= set(OPERATIONS), path.name
