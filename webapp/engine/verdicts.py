"""Can the lost marker happen on a version? Answered by running the model, not written by hand: the lost-marker
built-in (the smallest case: two pods in flight, two events) runs on every version, and the verdict says whether
an in-flight pod's boundary broke (its marker left the list while it was in flight), where B ended, and why.
"""

from __future__ import annotations

import functools
from typing import TypedDict

from ..model.versions import VERSIONS
from ..scenario import builtin
from ..scenario.scenario import from_valid_dict

CASE = "lost-marker"
VICTIM = "B"  # the pod whose marker is lost on v1.28.1


class Verdict(TypedDict):
    version: str
    releases: str
    summary: str
    upstream: str
    lost: bool
    step: int | None
    where: str | None
    why: str


@functools.cache
def lost_marker_verdicts() -> tuple[Verdict, ...]:
    """Per version, in order: ``lost``: some step broke the in_flight_boundary invariant (``step``: the first);
    ``where``: the sub-queue B ended in; ``why``: "marker-removed", "gate-off" (no in-flight state at all) or
    "own-entry" (every in-flight pod marks the list with an entry only its own Done removes)."""
    scenario = from_valid_dict(builtin.get(CASE))
    out: list[Verdict] = []
    for name, version in VERSIONS.items():
        model = scenario.model(name)
        broken = None
        for i, step in enumerate(scenario.steps):
            _, record = model.apply(i, step)
            if broken is None and any(v["name"] == "in_flight_boundary" for v in record["invariants"]):
                broken = i
        if broken is not None:
            why = "marker-removed"
        elif not model.queue.gate:
            why = "gate-off"
        else:
            why = "own-entry"
        out.append({"version": name, "releases": version.releases, "summary": version.summary,
                    "upstream": version.upstream, "lost": broken is not None, "step": broken,
                    "where": model.view()["pods"][VICTIM]["where"], "why": why})
    return tuple(out)
