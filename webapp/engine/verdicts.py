"""Can the lost marker happen on a version? Answered by running the model, not written by hand: the lost-marker
built-in (the smallest case: two pods in flight, two events) runs on every version, and the verdict says whether
an in-flight pod's boundary broke (its marker left the list while it was in flight), where B ended, and why.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TypedDict

from ..model.config import NS
from ..model.frame import Frame, Return
from ..model.versions import VERSIONS
from ..scenario import builtin
from ..scenario.scenario import Scenario, from_valid_dict
from .simulation import Simulation, placed_differently

CASE = "lost-marker"
VICTIM = "B"  # the pod whose marker is lost on v1.28.1
MAX_FRAMES = 200  # failures of pods that part whose frames an incident report gets (their captions), the first ones


class Verdict(TypedDict):
    version: str
    releases: str
    summary: str
    upstream: str
    verified: str  # the real code whose traces the version was checked against
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
                    "upstream": version.upstream, "verified": version.verified, "lost": broken is not None,
                    "step": broken,
                    "where": model.view()["pods"][VICTIM]["where"], "why": why})
    return tuple(out)


class Runs(TypedDict):
    """A scenario run on its versions for an incident report, as plain data (the presenter words it):
    ``returns``: version -> pod -> its returns and the failure it has not recovered from (``Return``s, in order);
    ``parted``: pod -> the first position where the versions place it differently; ``end``: the clock at the end
    per version (s); ``frames``: position -> the frame there, for the positions the report shows (each pod's
    failures where the versions part, and the steps around the first parting)."""
    versions: list[str]
    total: int
    returns: dict[str, dict[str, list[Return]]]
    parted: dict[str, int]
    end: dict[str, float]
    frames: dict[int, Frame]  # as Simulation.frame_at gives it


def incident_runs(scenario: Scenario, versions: Sequence[str] | None = None, max_bytes: int | None = None) -> Runs:
    """Run ``scenario`` on ``versions`` (default: the ones it opens on) and gather what an incident report says of
    it: each pod's way back to activeQ per version, where the versions first part for each pod, and the frames."""
    sim = Simulation(scenario, versions or scenario.versions, max_bytes=max_bytes)
    models = {v: scenario.model(v) for v in sim.variants}
    parted: dict[str, int] = {}
    for position, step in enumerate(scenario.steps, 1):
        touched: set[str] = set()  # a pod starts to be placed differently only where it moves on some version
        for model in models.values():
            touched.update(m["pod"] for m in model.apply(position - 1, step)[1]["moves"])
        for pod in placed_differently([m.queue for m in models.values()], touched - parted.keys()):
            parted[pod] = position
    returns: dict[str, dict[str, list[Return]]] = {}
    for v, tracker in sim.returns.items():
        mine = {pod: list(rs) for pod, rs in tracker.returns.items()}
        for pod, waiting in tracker.waiting.items():
            mine.setdefault(pod, []).append(waiting)
        returns[v] = mine
    failures = sorted({r["failed_step"] for rs in returns.values() for pod_rs in rs.values() for r in pod_rs
                       if r["pod"] in parted})[:MAX_FRAMES]
    shown = {*parted.values(), *(step + 1 for step in failures), *(p - 1 for p in parted.values()), sim.total}
    frames = {p: sim.frame_at(p) for p in sorted(shown)}
    return {"versions": list(sim.variants), "total": sim.total, "returns": returns, "parted": parted,
            "end": {v: m.queue.now / NS for v, m in models.items()}, "frames": frames}
