"""Trace files: a scenario object with its trace on every variant (what the editor downloads), and the check
that replaying the scenario still produces the recorded traces.

    {"schema": 1, "scenario_object": {...}, "traces": {"v1.28.1": trace, "v1.28.2": trace}}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import Invalid
from ..model.variant import VARIANTS
from ..phrases import shown
from ..scenario.errors import ScenarioError
from ..scenario.load import load_scenario
from ..scenario.scenario import Scenario
from .trace import check_runs, trace_object, trace_steps

# A document as JSON gives it, and a difference found in one: {step?, path, recorded?, replayed?, error?}.
Document = dict[str, Any]
Difference = dict[str, Any]

SCHEMA = 1


class MalformedTraceFile(Invalid):
    """The document is not a trace file (its message says why)."""


def build(scenario: Scenario, max_entries: int | None = None) -> Document:
    """The trace file of a loaded scenario; raises ScenarioError if a variant cannot run it, or if a trace
    would hold more than ``max_entries`` entries."""
    traces = check_runs(scenario, max_entries=max_entries)
    return {"schema": SCHEMA, "scenario_object": scenario.raw, "traces": dict(zip(VARIANTS, traces))}


def check(doc: object) -> Document:
    """Replay ``doc["scenario_object"]`` on every variant in ``doc["traces"]`` and compare:
    ``{"match": bool, "variants": {variant: {"match": bool, "first_mismatch": None | {...}}}}``.
    A mismatch names its ``step`` (None past the steps), the ``path`` of the first differing value, and
    ``recorded`` / ``replayed`` (a key absent on one side is left out), or ``error`` if the step fails now.
    Raises MalformedTraceFile, or ScenarioError when the scenario object is not valid."""
    if not isinstance(doc, dict):
        raise MalformedTraceFile("expected a trace file: an object {schema, scenario_object, traces}")
    if doc.get("schema") != SCHEMA or isinstance(doc.get("schema"), bool):
        raise MalformedTraceFile(f"expected schema {SCHEMA}, got {shown(doc.get('schema'))}")
    if not isinstance(doc.get("scenario_object"), dict):
        raise MalformedTraceFile("expected scenario_object to be the scenario object")
    traces = doc.get("traces")
    if not isinstance(traces, dict) or not traces:
        raise MalformedTraceFile(f"expected traces to be an object with a trace per variant ({', '.join(VARIANTS)})")
    unknown = [v for v in traces if v not in VARIANTS]
    if unknown:
        raise MalformedTraceFile(f"unknown variant {unknown[0][:40]!r} in traces; expected {', '.join(VARIANTS)}")
    scenario = load_scenario(doc["scenario_object"])
    variants = {}
    for variant, recorded in traces.items():
        try:
            mismatch = _first_mismatch(recorded, scenario, variant)
        except ScenarioError as err:
            p = err.problems[0]
            mismatch = {"step": p["step"], "path": p["field"], "error": p["message"]}
        variants[variant] = {"match": mismatch is None, "first_mismatch": mismatch}
    return {"match": all(v["match"] for v in variants.values()), "variants": variants}


_MISSING = object()


def _first_mismatch(recorded: object, scenario: Scenario, variant: str) -> Difference | None:
    steps = recorded.get("steps") if isinstance(recorded, dict) else None
    if not isinstance(steps, list):  # no steps to compare: the replayed steps are summed up, not replayed
        summary = f"(a list of {len(scenario.steps)} steps)"
        return _whole_difference(recorded, trace_object(scenario, variant, summary, "(the state after the last step)"))
    # Step by step, so the earliest differing step is the one named; replaying stops there, so the work is
    # bounded by what the recorded trace holds.
    last = None
    for i, replayed in enumerate(trace_steps(scenario, variant)):
        got = _difference(_at(steps, i), replayed, f"steps[{i}]")
        if got:
            return {"step": i, **got}
        last = replayed
    if len(steps) > len(scenario.steps):
        i = len(scenario.steps)
        extra = _difference(steps[i], _MISSING, f"steps[{i}]")
        assert extra is not None  # a recorded step where none was replayed always differs
        return {"step": i, **extra}
    final = last["state"] if last else scenario.model(variant).state()
    # every step matched: the recorded steps stand in for the replayed ones
    return _whole_difference(recorded, trace_object(scenario, variant, steps, final))


def _whole_difference(recorded: object, replayed: Mapping[str, object]) -> Difference | None:
    got = _difference(recorded, replayed, "")
    return {"step": None, **got} if got else None


def _at(items: list[Any], i: int) -> object:
    return items[i] if i < len(items) else _MISSING


def _difference(recorded: object, replayed: object, path: str) -> Difference | None:
    """The first differing value, depth first: {path, recorded?, replayed?}. Types are compared too
    (JSON's 1, 1.0 and true are different values)."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in [*replayed, *(k for k in recorded if k not in replayed)]:
            got = _difference(recorded.get(key, _MISSING), replayed.get(key, _MISSING), f"{path}.{key}".lstrip("."))
            if got:
                return got
        return None
    if isinstance(recorded, list) and isinstance(replayed, list):
        for i in range(max(len(recorded), len(replayed))):
            got = _difference(_at(recorded, i), _at(replayed, i), f"{path}[{i}]")
            if got:
                return got
        return None
    if type(recorded) is type(replayed) and recorded == replayed:
        return None
    sides = {"recorded": recorded, "replayed": replayed}
    return {"path": path or "trace", **{k: v for k, v in sides.items() if v is not _MISSING}}
