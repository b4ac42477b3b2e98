"""A room's summary after the talk, as plain data: its scenario, the path it took (each fork its votes made: where,
what was offered, how the room voted, which won) and each prediction poll it revealed (how the room answered,
per version, against where the pod went). Each point names the scenario and position that open the run there
(``at``: a built-in id or a scenario object, and a position), so the page links to it. No token, no voter: only
counts.

    summary = {name, source, total, forks: [{at, actions: [{label, n}], winner, before, after}],
               polls: [{at, pod, choices, variants, answered, counts, truth, source}]}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from ..scenario import builtin
from ..scenario.resolve import resolve
from .simulation import Simulation
from .votes import forked

KEEP_HOURS = 24  # a posted summary is kept this long
QUEUES: tuple[Literal["activeQ"], Literal["backoffQ"], Literal["unschedulablePods"]] = (
    "activeQ", "backoffQ", "unschedulablePods")


def raw_of(source: Any) -> dict[str, Any]:
    """The scenario object of a source (a built-in id or the object itself)."""
    return builtin.get(source) if isinstance(source, str) else dict(source)


def truth(source: Any, variants: list[str], position: int, pod: str) -> dict[str, str | None]:
    """Where ``pod`` is on each of ``variants`` once step ``position`` + 1 of ``source`` is applied (None: in none of
    the queues a poll asks about)."""
    scenario, _ = resolve(source)
    sim = Simulation(scenario, variants)
    sim.seek(min(position + 1, sim.total))
    states = {v: frame["state"] for v, frame in sim.frame()["variants"].items()}
    return {v: next((q for q in QUEUES if pod in states[v][q]), None) for v in variants}


def summary(source: Any, turns: list[Mapping[str, Any]], polls: list[Mapping[str, Any]]) -> dict[str, Any]:
    """The summary of a room standing on ``source``, whose votes took ``turns`` and which revealed ``polls``."""
    raw = raw_of(source)
    forks = []
    for turn in turns:
        before = raw_of(turn["before"])
        won = turn["actions"][turn["winner"]]
        forks.append({"at": turn["at"], "winner": turn["winner"],
                      "actions": [{"label": label, "n": n} for label, n in zip(turn["actions"], turn["counts"])],
                      "before": {"source": turn["before"], "position": turn["at"]},
                      "after": {"source": forked(before, turn["at"], turn["step"], turn.get("note", won)),
                                "position": turn["at"] + 1}})
    asked = [{"at": poll["position"], "pod": poll["pod"], "choices": poll["choices"], "variants": poll["variants"],
              "answered": poll["answered"], "counts": poll["counts"],
              "truth": truth(poll["source"], poll["variants"], poll["position"], poll["pod"]),
              "open": {"source": poll["source"], "position": poll["position"]}} for poll in polls]
    return {"name": raw.get("name", "scenario"), "source": source, "total": len(raw.get("steps", [])),
            "forks": forks, "polls": asked}
