"""Resolve what a client names (a built-in id or a scenario object) into a loaded Scenario."""

from __future__ import annotations

from functools import cache

from . import builtin
from .errors import ScenarioError
from .load import load_scenario
from .scenario import Scenario


def resolve(spec: object) -> tuple[Scenario, str | None]:
    """(Scenario, builtin id or None); raises ScenarioError with a clear message."""
    if isinstance(spec, str):
        if spec not in builtin.ids():
            raise ScenarioError([{"step": None, "field": "scenario",
                                  "message": f"unknown built-in scenario {spec[:80]!r}; expected one of "
                                  f"{', '.join(builtin.ids())}"}])
        return _builtin(spec), spec
    if isinstance(spec, dict):
        return load_scenario(spec), None
    raise ScenarioError([{"step": None, "field": "scenario",
                          "message": "expected a built-in scenario id (string) or a scenario object"}])


@cache
def _builtin(scenario_id: str) -> Scenario:
    """A built-in, parsed once per process (a Scenario is immutable; the built-ins are few and small)."""
    return load_scenario(builtin.get(scenario_id))
