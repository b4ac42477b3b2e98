"""Replay a whole scenario on one variant into a trace object (scenario-format.md)."""

from __future__ import annotations

from ..model.errors import StepError
from ..model.variant import VARIANTS
from ..scenario.errors import ScenarioError


def step_error(index: int, step: dict, err: StepError, variant: str) -> ScenarioError:
    field = f"steps[{index}].{err.field}"
    return ScenarioError([{"step": index, "field": field, "message": f"{err.message} (on {variant})"}])


def replay(scenario, variant: str, records: bool = False) -> dict:
    """The trace of ``scenario`` on ``variant``; raises ScenarioError naming the first step that
    cannot be applied. With ``records`` each step also carries its step record."""
    model = scenario.model(variant)
    steps = []
    for i, step in enumerate(scenario.steps):
        try:
            result, record = model.apply(i, step)
        except StepError as err:
            raise step_error(i, step, err, variant) from None
        entry = {"step": i, "op": step["op"], "result": result, "state": model.state()}
        if records:
            entry["record"] = record
        steps.append(entry)
    return {"schema": 1, "scenario": scenario.name, "variant": variant, "steps": steps, "final": model.state()}


def check_runs(scenario, variants=VARIANTS, records: bool = False) -> list[dict]:
    """Dry run: the trace of every variant, in order. Raises the ScenarioError of the first step a
    variant cannot apply (it names the step and the field, e.g. a pop on an empty activeQ)."""
    return [replay(scenario, variant, records=records) for variant in variants]
