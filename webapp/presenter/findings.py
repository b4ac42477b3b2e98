"""What the search found (webapp/engine/find.py), in one paragraph: what broke first, where, on which version."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .narration import describe_violation
from .words import step_label, step_number


def explain(finding: Mapping[str, Any], scenario: Mapping[str, Any], versions: Iterable[str]) -> str:
    """``finding``: {target, step, variant, detail}; ``scenario``: the (shrunk) scenario object."""
    step = scenario["steps"][finding["step"]]
    where = f"step {step_number(finding['step'])} ({step_label(step)})"
    size = f"{len(scenario['steps'])} steps, {len(scenario['pods'])} pod{'s' * (len(scenario['pods']) != 1)}"
    detail, variant = finding["detail"], finding["variant"]
    if finding["target"] == "invariant":
        said = "; ".join(describe_violation(detail["name"], v) for v in detail["violations"])
        what = f"on {variant} the invariant {detail['name']} breaks first at {where}: {said}"
    elif finding["target"] == "divergence":
        places = " but ".join(f"in {q or 'no queue'} on {v}" for v, q in detail["where"].items())
        what = f"the versions first place a pod differently at {where}: {detail['pod']} is {places}"
    else:
        what = (f"on {variant} {detail['pod']} has waited {detail['seconds']:g} s in unschedulablePods by {where}, "
                f"longer than the threshold of {detail['threshold']:g} s")
    return f"Found and shrunk to {size} on {', '.join(versions)}: {what}."
