"""Replay a whole scenario on one variant into a trace object (scenario-format.md)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import NotRequired, TypedDict

from ..model.errors import StepError
from ..model.record import Record, Result, Step
from ..model.variant import VARIANTS, Model, Overdue
from ..model.views import State
from ..scenario.errors import Problem, ScenarioError
from ..scenario.scenario import Scenario


class TraceStep(TypedDict):
    step: int
    op: str
    result: Result
    state: State
    record: NotRequired[Record]


class Trace(TypedDict):
    """A trace as scenario-format.md lays it out (a trace file may hold a summary where the steps would be)."""

    schema: int
    scenario: str
    variant: str
    steps: list[TraceStep] | str
    final: State | str


def step_error(index: int, step: Step, err: StepError, variant: str) -> ScenarioError:
    field = f"steps[{index}].{err.field}"
    return ScenarioError([{"step": index, "field": field, "message": f"{err.message} (on {variant})"}])


def entries_in(state: Mapping[str, object]) -> int:
    """How many entries the lists and maps of one state hold (what makes a trace big)."""
    return sum(len(value) for value in state.values() if isinstance(value, (list, dict)))


def _applied(model: Model, scenario: Scenario, variant: str) -> Iterator[tuple[int, Step, Result, Record]]:
    """(index, step, result, record) after each step; raises the ScenarioError of a step that cannot apply."""
    for i, step in enumerate(scenario.steps):
        try:
            result, record = model.apply(i, step)
        except StepError as err:
            raise step_error(i, step, err, variant) from None
        yield i, step, result, record


def dry_runs(scenario: Scenario, variants: Iterable[str]) -> tuple[list[Problem], list[str], dict[str, Overdue]]:
    """(problems, variants that ran, overdue): each variant run on its own, so a step that fails on one only is
    reported with the variant it fails on; ``overdue``, where the clock runs no flushes, is per variant that ran
    Model.overdue() at its end (the pods left where only a flush would move them), else empty."""
    problems: list[Problem] = []
    ran: list[str] = []
    overdue: dict[str, Overdue] = {}
    for variant in variants:
        try:
            end = run_through(scenario, variant)
        except ScenarioError as err:
            problems.extend(err.problems)
            continue
        ran.append(variant)
        if not scenario.config.periodic_flushes:
            overdue[variant] = end.overdue()
    return problems, ran, overdue


def run_through(scenario: Scenario, variant: str) -> Model:
    """Apply every step, keeping no trace (time and memory linear in the steps): the model at the end; raises
    ScenarioError naming the first step that cannot be applied."""
    model = scenario.model(variant)
    for _ in _applied(model, scenario, variant):
        pass
    return model


def _trace_steps(model: Model, scenario: Scenario, variant: str, records: bool, max_entries: int | None
                 ) -> Iterator[TraceStep]:
    # A trace holds every step's state: while a pod stays in flight each event lengthens every later state,
    # so its size can grow with the square of the steps. ``max_entries`` bounds what it may hold.
    held = 0
    for i, step, result, record in _applied(model, scenario, variant):
        entry: TraceStep = {"step": i, "op": step["op"], "result": result, "state": model.state()}
        if max_entries is not None:
            held += entries_in(entry["state"])
            if held > max_entries:
                raise ScenarioError([{"step": i, "field": "steps", "message": (
                    f"the trace is too large to build here: by step {i} of {len(scenario.steps)} its states hold "
                    f"more than {max_entries:,} entries (the in-flight lists keep growing); "
                    "replay it with `inflight-scope replay` instead")}])
        if records:
            entry["record"] = record
        yield entry


def trace_steps(scenario: Scenario, variant: str) -> Iterator[TraceStep]:
    """The trace's steps one at a time (for comparing without holding them all); ScenarioError as replay."""
    return _trace_steps(scenario.model(variant), scenario, variant, False, None)


def replay(scenario: Scenario, variant: str, records: bool = False, max_entries: int | None = None) -> Trace:
    """The trace of ``scenario`` on ``variant``; raises ScenarioError naming the first step that cannot be
    applied, or the step by which the states hold more than ``max_entries`` entries. With ``records`` each
    step also carries its step record."""
    model = scenario.model(variant)
    steps = list(_trace_steps(model, scenario, variant, records, max_entries))
    return trace_object(scenario, variant, steps, model.state())


def trace_object(scenario: Scenario, variant: str, steps: list[TraceStep] | str, final: State | str) -> Trace:
    """A trace as scenario-format.md lays it out."""
    return {"schema": 1, "scenario": scenario.name, "variant": variant, "steps": steps, "final": final}


def check_runs(scenario: Scenario, variants: Iterable[str] = VARIANTS, records: bool = False,
               max_entries: int | None = None) -> list[Trace]:
    """Dry run: the trace of every variant, in order (``max_entries`` bounds each). Raises the ScenarioError
    of the first step a variant cannot apply (it names the step and the field, e.g. a pop on an empty
    activeQ)."""
    return [replay(scenario, variant, records=records, max_entries=max_entries) for variant in variants]
