"""Verdicts in words: the versions page and the README's versions table, from the verdicts the engine derives by
running the lost-marker case on every version (webapp/engine/verdicts.py); and each pane's outcome badge, from the
frame's returns (``badges``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..phrases import listed
from .shapes import Badge
from .words import entries, seconds, step_number

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


# --- a pane's punch line: its outcome as a badge, in presentation mode ---------------------------------------
# Each pane's badge says, once it is known, how the scenario ends there: the fate of the pod that failed last
# (with the pods that share it), from the frame's returns (the "so far" outcome line's facts); where the versions'
# fates do not differ but their in-flight lists do, the list's length. Known means: from the position where the
# versions first place a pod differently, or at the end when they never do.
BADGE = {
    "waited": "{pods} waited {seconds}",  # back in activeQ from unschedulablePods
    "back": "{pods} back after {seconds}",
    "at-once": "{pods} back at once",
    "many": "{pods} back {count} times, longest {seconds}",
    "parked": "{pods} parked",  # in unschedulablePods
    "backing-off": "{pods} backing off",  # in backoffQ
    "waiting": "{pods} waiting in {where}",
    "deleted": "{pods} deleted",
    "in": "{pods} in {where}",
    "list": "list: {entries}",
}
# A badge's tone: slow (a pod kept waiting), quick (a pod on its way back) or plain.
BADGE_TONE = {"waited": "slow", "parked": "slow", "back": "quick", "at-once": "quick", "backing-off": "quick"}

Fate = tuple[str, tuple[tuple[str, str], ...]]  # (BADGE key, its fields but the pods)


def _fates(returns: Mapping[str, Any]) -> dict[str, tuple[int, Fate]]:
    """pod -> (the step of its latest failure, its fate): still waiting wins over returns before it."""
    fates: dict[str, tuple[int, Fate]] = {}
    for back in returns.get("returned", []):
        latest = max(r["failed_step"] for r in [*back["listed"], back["longest"]])
        longest = back["longest"]
        if back["count"] > 1:
            fate: Fate = ("many", (("count", str(back["count"])), ("seconds", seconds(longest["seconds"]))))
        elif longest["seconds"] == 0:
            fate = ("at-once", ())
        else:
            fate = ("waited" if longest["via"] == "unschedulablePods" else "back",
                    (("seconds", seconds(longest["seconds"])),))
        fates[back["pod"]] = (latest, fate)
    for waiting in returns.get("still_waiting", []):
        where = waiting["where"]
        key = ("deleted" if where is None else "parked" if where == "unschedulablePods"
               else "backing-off" if where == "backoffQ" else "waiting")
        fates[waiting["pod"]] = (waiting["failed_step"], (key, (("where", where),) if key == "waiting" else ()))
    return fates


def _last(fates: Mapping[str, tuple[int, Fate]]) -> tuple[str, Fate]:
    pod, (_, fate) = max(fates.items(), key=lambda kv: kv[1][0])
    return pod, fate


def _pods(names: list[str]) -> str:
    return " and ".join(names) if len(names) == 2 else listed(names, 3)


def _said(pods: list[str], fate: Fate) -> Badge:
    key, fields = fate
    return {"text": BADGE[key].format(pods=_pods(pods), **dict(fields)), "tone": BADGE_TONE.get(key, "plain")}


def badges(frame: Mapping[str, Any], lists: Mapping[str, int]) -> dict[str, Badge | None]:
    """variant -> its badge {text, tone} at the frame's position, or None while the outcome is not known yet.
    ``lists``: each variant's in-flight list length, as its pane shows it."""
    variants = frame["variants"]
    divergence = frame["divergence"]
    known = frame["position"] >= divergence if divergence is not None else frame["position"] == frame["total"]
    if not known:
        return dict.fromkeys(variants)
    fates = {v: _fates(p.get("returns") or {}) for v, p in variants.items()}
    # each pane's focus: the pod that failed last there, and its fate
    said = {v: _last(f) for v, f in fates.items() if f}
    alike = len(said) in (0, len(variants)) and len({fate for _, fate in said.values()}) <= 1
    if alike and len(set(lists.values())) > 1:  # the fates do not tell the versions apart; their lists do
        return {v: {"text": BADGE["list"].format(entries=entries(lists[v])), "tone": "plain"} for v in variants}
    focus = next((pod for pod, _ in said.values()), None)
    out: dict[str, Badge | None] = {}
    for v, p in variants.items():
        where = p["view"]["pods"].get(focus, {}).get("where") if focus else None
        if v in said:
            fate = said[v][1]
            out[v] = _said(sorted(q for q, (_, f) in fates[v].items() if f == fate), fate)
        elif focus and where:  # no failure here: where the others' pod is
            out[v] = _said([focus], ("in", (("where", where),)))
        else:
            out[v] = None
    return out
