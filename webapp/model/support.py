"""What a version's model cannot run: the format's extensions for later releases and the settings a release locks,
each refused with the field at fault and the reason, before a step is applied."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .config import FEATURE_GATES, QueueConfig
from .record import Step
from .versions import VERSIONS, Rules

# A refusal: (the step at fault or None, the field, why).
Refusal = tuple[int | None, str, str]

LOCKED_GATE = ("SchedulerQueueingHints is GA and locked on since 1.34, so {version} cannot run `gate: false` "
               "(the release says: cannot set feature gate SchedulerQueueingHints to false, feature is locked to "
               "true)")


def _first_with(rule: str) -> str:
    return next((name for name, v in VERSIONS.items() if getattr(v.rules, rule)), "no version")


# A step operation -> the Rules field the version needs to run it.
STEP_RULES = {"pop_specific": "pop_specific", "ungate": "pod_update_events"}
POD_RULES = {"scheduling_gates": "pod_update_events", "pod_group": "pod_groups"}


def refusals(version: str, rules: Rules, config: QueueConfig, pods: Sequence[str], steps: Iterable[Step]
             ) -> list[Refusal]:
    """Every reason ``version`` (with ``rules``) cannot run a scenario, located; empty when it can."""
    found: list[Refusal] = []
    if not config.gate and rules.hints_locked_on:
        found.append((None, "gate", LOCKED_GATE.format(version=version)))
    for gate, _ in config.feature_gates:
        rule = FEATURE_GATES[gate][0]
        if not getattr(rules, rule):
            found.append((None, f"feature_gates.{gate}",
                          f"{version} has no feature gate {gate} (from {_first_with(rule)})"))
    index = {name: i for i, name in enumerate(pods)}
    for key, named in (("scheduling_gates", config.scheduling_gates), ("pod_group", config.pod_groups)):
        rule = POD_RULES[key]
        if named and not getattr(rules, rule):
            name = named[0][0]
            found.append((None, f"pods[{index[name]}].{key}",
                          f"the model of {version} has no {key} (from {_first_with(rule)})"))
    for i, step in enumerate(steps):
        rule = STEP_RULES.get(step["op"], "")
        if rule and not getattr(rules, rule):
            found.append((i, f"steps[{i}].op", f"{version} cannot run {step['op']} (from {_first_with(rule)})"))
    return found
