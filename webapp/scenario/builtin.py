"""The built-in scenario library: ``library/<id>.yaml``, one scenario per file, in course order.

The files are package data (read through importlib.resources), so the library works from a wheel too.
"""

from __future__ import annotations

import copy
import functools
from importlib import resources
from typing import Any

import yaml

# Course order: what "in flight" means, the bug and its consequences, the bookkeeping, the way out, and then
# the versions after the fix.
ORDER = (
    "in-flight-basics",
    "queueing-hints",
    "lost-marker",
    "three-pod-cascade",
    "five-minute-wait",
    "no-unschedulable-plugin",
    "front-cleanup",
    "duplicate-pop-growth",
    "gate-off",
    # What each later release changed (webapp/model/versions.py), one lesson per change.
    "pop-clears-plugins",
    "gate-default-off",
    "no-rejector-backoff",
    "ignored-events",
    "in-flight-update",
    # What changed since 1.31: each lesson compares v1.31.13 with the release that changed it.
    "pop-discards-duplicate",
    "force-activate",
    "pop-from-backoffq",
    "backoff-windows",
    "error-backoffq",
    "backoff-counts-failures",
    # What 1.33-1.36 added that v1.31.13 cannot run (scheduling gates, pod groups, PopSpecificPod): each lesson opens
    # on the versions that run it.
    "gated-pods",
    "pod-group-backoff",
    "pop-specific",
)


def ids() -> list[str]:
    """Ids of the built-in scenarios, in course order."""
    return list(ORDER)


@functools.cache
def _load(scenario_id: str) -> dict[str, Any]:
    text = (resources.files(__package__) / "library" / f"{scenario_id}.yaml").read_text(encoding="utf-8")
    raw: dict[str, Any] = yaml.safe_load(text)
    return raw


def get(scenario_id: str) -> dict[str, Any]:
    """The raw scenario object of one built-in (a fresh copy); KeyError for an unknown id."""
    if scenario_id not in ORDER:
        raise KeyError(scenario_id)
    return copy.deepcopy(_load(scenario_id))


def step_count(scenario_id: str) -> int:
    """How many steps a built-in has (no copy made); KeyError for an unknown id."""
    if scenario_id not in ORDER:
        raise KeyError(scenario_id)
    return len(_load(scenario_id)["steps"])


def index() -> list[dict[str, str]]:
    """``[{id, name, description}]`` for every built-in, in course order."""
    out = []
    for scenario_id in ORDER:
        raw = _load(scenario_id)
        out.append({"id": scenario_id, "name": raw["name"], "description": raw.get("description", "")})
    return out
