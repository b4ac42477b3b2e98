"""The versions page and the README's versions table, in words, from the verdicts the engine derives by running
the lost-marker case on every version (webapp/engine/verdicts.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .words import step_number

Verdict = Mapping[str, Any]  # engine.verdicts.Verdict, read as plain data (the presenter knows no engine)

# why -> the answer to "can the lost marker happen?" and the reason, for any version the verdict is about
ANSWERS = {
    "marker-removed": ("yes", "an in-flight pod's marker is an event element that Done can remove while the pod is "
                              "still in flight; Next() on it is nil, so the pod sees none of the later events"),
    "own-entry": ("no", "every in-flight pod marks the list with its own entry, which only its own Done removes"),
    "gate-off": ("no", "SchedulerQueueingHints is off by default: the queue keeps no in-flight list at all and a "
                       "failure goes to backoffQ only if an event arrived since the latest Pop of any pod "
                       "(moveRequestCycle >= the current scheduling cycle), so an event that came before another "
                       "pod's Pop is forgotten"),
}
HEADER = ("version", "releases", "can the lost marker happen?", "why", "B after the lost-marker case", "what changed")


def rows(verdicts: Iterable[Verdict]) -> list[dict[str, Any]]:
    """One row per version: the cells of HEADER, plus the version name and the verdict."""
    out = []
    for v in verdicts:
        answer, reason = ANSWERS[v["why"]]
        if v["lost"]:
            answer = f"{answer} (step {step_number(v['step'])})"
        out.append({"version": v["version"], "lost": v["lost"],
                    "cells": (v["version"], v["releases"], answer, reason, v["where"],
                              f"{v['summary']} ({v['upstream']})")})
    return out


def markdown(verdicts: Iterable[Verdict]) -> str:
    """The README's table (tests/engine/test_verdicts.py keeps the README equal to it)."""
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row["cells"]) + " |" for row in rows(verdicts)]
    return "\n".join(lines)
