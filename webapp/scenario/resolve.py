"""Resolve what a client names (a built-in id or a scenario object) into a loaded Scenario."""

from __future__ import annotations

from . import builtin
from .errors import ScenarioError
from .load import load_scenario


def resolve(spec) -> tuple[object, str | None]:
    """(Scenario, builtin id or None); raises ScenarioError with a clear message."""
    if isinstance(spec, str):
        try:
            raw = builtin.get(spec)
        except KeyError:
            raise ScenarioError([{"step": None, "field": "scenario",
                                  "message": f"unknown built-in scenario {spec!r}; expected one of "
                                  f"{', '.join(builtin.ids())}"}]) from None
        return load_scenario(raw), spec
    if isinstance(spec, dict):
        return load_scenario(spec), None
    raise ScenarioError([{"step": None, "field": "scenario",
                          "message": "expected a built-in scenario id (string) or a scenario object"}])
