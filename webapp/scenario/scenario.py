"""A loaded, validated scenario: everything a Model needs, plus the text for people."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model.config import QueueConfig, seconds_to_ns
from ..model.record import Step
from ..model.support import refusals
from ..model.variant import VARIANTS, Model
from ..model.versions import VERSIONS, Rules
from .errors import Problem, ScenarioError
from .schemas import defaults


@dataclass(frozen=True)
class Scenario:
    name: str
    description: str
    config: QueueConfig
    pods: dict[str, tuple[str, int]]  # name -> (uid, priority), in declaration order
    initial_active: tuple[str, ...]
    steps: tuple[Step, ...]  # steps as validated (each may carry a "note"), their lists as tuples (``frozen_step``)
    raw: dict[str, Any] = field(compare=False, repr=False)  # the scenario object as given, with those steps
    versions: tuple[str, ...] = VARIANTS  # the versions it is shown on unless the viewer picks others
    _refused: dict[tuple[str, Rules], list[Problem]] = field(default_factory=dict, compare=False, repr=False)

    def model(self, variant: str) -> Model:
        """The scenario's queue on ``variant``; ScenarioError when that version cannot run it (``refused``)."""
        return self.model_with(variant, VERSIONS[variant].rules)

    def model_with(self, variant: str, rules: Rules) -> Model:
        """A what-if: ``variant`` with other rules (one change switched on or off)."""
        problems = self.refused(variant, rules)
        if problems:
            raise ScenarioError(problems)
        return Model(variant, self.config, self.pods, self.initial_active, rules)

    def refused(self, variant: str, rules: Rules | None = None) -> list[Problem]:
        """Why ``variant`` cannot run this scenario (a field a version lacks, a setting it locks), located and
        naming the version; empty when it can. Worked out once per version."""
        rules = rules or VERSIONS[variant].rules
        key = (variant, rules)
        found = self._refused.get(key)
        if found is None:
            found = self._refused[key] = [
                {"step": step, "field": fld, "message": message}
                for step, fld, message in refusals(variant, rules, self.config, list(self.pods), self.steps)]
        return found


def plugins_named(raw: dict[str, Any]) -> tuple[str, ...]:
    """The plugin names a scenario's failures give (unschedulable and pending), in order of first mention: the
    profile whose catalogue plugins register their 1.28 events (model/plugins.py)."""
    names: dict[str, None] = {}
    for step in raw.get("steps") or ():
        if step.get("op") == "fail":
            for key in ("unschedulable_plugins", "pending_plugins"):
                names.update(dict.fromkeys(step.get(key) or ()))
    return tuple(names)


def frozen_step(step: dict[str, Any]) -> dict[str, Any]:
    """``step`` with its lists (a failure's plugins, say) as tuples: a tuple or a dict that holds only strings and
    numbers is one the garbage collector stops walking, and a long scenario's thousands of steps stay in memory
    for its session's lifetime (every full collection walked them: a stall of every viewer on the process). The
    same step for everything else (JSON writes a tuple as a list; validate.py takes one as a list)."""
    if not any(type(v) is list for v in step.values()):
        return step
    return {k: tuple(v) if type(v) is list else v for k, v in step.items()}


def from_valid_dict(raw: dict[str, Any]) -> Scenario:
    """Build a Scenario from a dict that already passed validation (see validate.py)."""
    steps = tuple(map(frozen_step, raw.get("steps") or ()))
    raw = {**raw, "steps": list(steps)} if "steps" in raw else raw
    cfg = raw.get("config") or {}
    config = QueueConfig(
        gate=raw.get("gate", True),
        hint_map=raw.get("hint_map", True),
        hints=tuple((h["event"], h["plugin"], h["hint"]) for h in raw.get("hints") or ()),
        plugins=plugins_named(raw),
        initial_backoff=seconds_to_ns(cfg.get("initial_backoff", 1)),
        max_backoff=seconds_to_ns(cfg.get("max_backoff", 10)),
        max_in_unschedulable=seconds_to_ns(cfg.get("max_in_unschedulable", 300)),
        pop_clears_unschedulable_plugins=cfg.get("pop_clears_unschedulable_plugins", False),
        periodic_flushes=raw.get("periodic_flushes", defaults(raw["schema"])["periodic_flushes"]),
        flush_phase=seconds_to_ns(cfg.get("flush_phase", 0)),
        feature_gates=tuple((raw.get("feature_gates") or {}).items()),
        scheduling_gates=tuple((p["name"], tuple(p["scheduling_gates"])) for p in raw["pods"]
                               if p.get("scheduling_gates")),
        pod_groups=tuple((p["name"], p["pod_group"]) for p in raw["pods"] if p.get("pod_group")),
    )
    pods = {p["name"]: (str(p.get("uid", p["name"])), p.get("priority", 0)) for p in raw["pods"]}
    return Scenario(
        name=raw["name"],
        description=raw.get("description") or "",
        config=config,
        pods=pods,
        initial_active=tuple(raw.get("initial_active") or ()),
        steps=steps,
        versions=tuple(raw.get("versions") or VARIANTS),
        raw=raw,
    )
