"""What the log says that the model does not: the queue moves the log states (``Claim``) that the model's
replay on the versions the import targets does not make about then, each with what the model did, and which
versions make it: a move one version makes and another does not is the cluster behaving as that version does."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any, TypedDict

from ...model.events import ACTIVE_Q, UNSCHEDULABLE_PODS
from ...model.queue import IN_FLIGHT
from ...model.record import Move
from ...phrases import joined
from ..load import load_scenario
from ..scenario import Scenario
from ..validate import Limits
from .builder import FLUSHES, Builder, Claim
from .mend import applied

MOVE_SLACK = 0.5  # s: a move the log states and one of the model's are the same this close (half the 1 s flush)
MAX_DISAGREEMENTS = 50  # listed; the counts say how many lines disagree
# The event label of the model's moves, by the step that made them (an event step's is its own; a flush's, FLUSHES).
CAUSES = {"add": "PodAdd", "fail": "ScheduleAttemptFailure", "update": "PodUpdate",
          "assigned_pod_added": "AssignedPodAdd", **{op: label for label, (op, _, _) in FLUSHES.items()}}


def _update_label(move: Move) -> str:
    """The event label upstream logs for a move an Update makes: BackoffComplete from unschedulablePods to activeQ
    (v1.28.0 scheduling_queue.go:948), PodUpdate otherwise (l. 942, 964)."""
    return "BackoffComplete" if (move["from"], move["to"]) == (UNSCHEDULABLE_PODS, ACTIVE_Q) else "PodUpdate"


@dataclass(frozen=True)
class _Move:
    """A move the model made: when (s), where to (a queue, IN_FLIGHT or None), by what, from which log line."""
    at: float
    to: str | None
    cause: str
    line: int | None


def _model_moves(loaded: Scenario, variant: str, scenario: dict[str, Any], b: Builder) -> dict[str, list[_Move]]:
    """pod -> its moves on ``variant``, in time order (a periodic flush's at its tick)."""
    moves: dict[str, list[_Move]] = {}
    now = 0.0
    for original, (step, result, record) in zip(scenario["steps"], applied(loaded.model(variant), loaded.steps)):
        if step["op"] == "advance_clock":
            for flush in result["flushes"]:
                moved = flush["result"].get("moved") or dict.fromkeys(flush["result"].get("moved_to_activeQ", ()),
                                                                       ACTIVE_Q)
                for pod, queue in moved.items():
                    moves.setdefault(pod, []).append(_Move(flush["at"], queue, CAUSES[flush["op"]], None))
            now = result["now"]
            continue
        cause = str(step.get("event") or CAUSES.get(step["op"], step["op"]))
        for move in record["moves"]:
            label = _update_label(move) if step["op"] == "update" else cause
            moves.setdefault(move["pod"], []).append(_Move(now, move["to"], label, b.line_of(original)))
    return moves


def disagreements(scenario: dict[str, Any], limits: Limits, b: Builder, names: dict[str, str],
                  evidence: list[Evidence] | None = None) -> tuple[list[str], int, list[str]]:
    """The queue moves the log states (``Pod moved to an internal scheduling queue``: the event and the queue) that
    the model's replay on the versions the import targets does not make about then, each with what the model did
    and the versions that make it (as the cluster did); how many lines disagree; and the versions that make every
    move the log states when another does not (they behave as the cluster did), else none. ``evidence``, when
    given, gets each claimed move and each attempt (``attempts``) as an ``Evidence``."""
    loaded = load_scenario(scenario, limits)
    replays = {variant: _model_moves(loaded, variant, scenario, b) for variant in b.variants}
    if evidence is not None:
        assumed = {b.line_of(s) for s in scenario["steps"]
                   if s["op"] == "pop" and s.get("note", "").startswith("assumed")}
        evidence += _claimed(replays, b, names) + attempts(replays, b, assumed)
    said, lines, wrong = [], 0, set()  # wrong: the versions that do not make some move
    for claim in b.claims:
        pod = names[claim.pod]
        versions: dict[str, list[str]] = {}  # what the model did -> the versions that did it
        for variant, moves in replays.items():
            history = moves.get(pod, [])
            if not _makes(history, claim):
                versions.setdefault(_did(history, claim, pod, b), []).append(variant)
        lines += bool(versions)
        missed = {v for vs in versions.values() for v in vs}
        wrong |= missed
        said += _said(claim, pod, versions, [v for v in replays if v not in missed], b)
    if len(said) > MAX_DISAGREEMENTS:
        said[MAX_DISAGREEMENTS:] = [f"... and {len(said) - MAX_DISAGREEMENTS:,} more."]
    return said, lines, [v for v in replays if v not in wrong] if wrong else []


class Evidence(TypedDict):
    """One log line against the replays: what it says, the versions whose replay agrees with it and, for each
    version that does not, what its model did instead."""
    line: str  # FILE:LINE
    at: float  # s
    pod: str
    says: str
    agree: list[str]
    disagree: dict[str, str]  # version -> what its model did


IDLE = 2 * MOVE_SLACK  # s: a pod this long in activeQ with no Pop in between is one the scheduler would have popped


def _claimed(replays: dict[str, dict[str, list[_Move]]], b: Builder, names: dict[str, str]) -> list[Evidence]:
    out: list[Evidence] = []
    for claim in b.claims:
        pod = names[claim.pod]
        gloss = f" ({claim.by})" if claim.by else ""
        did = {v: _did(moves.get(pod, []), claim, pod, b) for v, moves in replays.items()
               if not _makes(moves.get(pod, []), claim)}
        out.append({"line": b.place(claim.line), "at": claim.at / 1e6, "pod": pod,
                    "says": f"the log moves {pod} to {claim.queue} by {claim.event}{gloss}",
                    "agree": [v for v in replays if v not in did], "disagree": did})
    return out


def attempts(replays: dict[str, dict[str, list[_Move]]], b: Builder, assumed: set[int]) -> list[Evidence]:
    """Each attempt the log shows (not one ``assumed``, from a line without one) against the replays: a version
    disagrees when its model had the pod in activeQ over IDLE before the log's Pop with no other Pop between (the
    scheduler pops whenever activeQ holds a pod), or did not have it there."""
    pops = {v: sorted(m.at for ms in moves.values() for m in ms if m.to == IN_FLIGHT) for v, moves in replays.items()}
    first = next(iter(replays.values()))
    out: list[Evidence] = []
    for pod, history in first.items():
        for pop in history:
            if pop.to != IN_FLIGHT or pop.line is None or pop.line in assumed:
                continue
            did: dict[str, str] = {}
            for v, moves in replays.items():
                history_v = moves.get(pod, [])
                mine = [j for j, m in enumerate(history_v) if m.to == IN_FLIGHT and m.line == pop.line]
                at = history_v[mine[0]].at if mine else pop.at
                came = history_v[mine[0] - 1] if mine and mine[0] else None
                if came is None or came.to != ACTIVE_Q:
                    did[v] = f"{pod} was not in activeQ then"
                elif at - came.at > IDLE and not any(came.at < t < at for t in pops[v]):
                    did[v] = (f"{pod} in activeQ from t = {came.at:g} s ({came.cause}), no Pop until the log's "
                              f"at t = {at:g} s")
            out.append({"line": b.place(pop.line), "at": pop.at, "pod": pod, "says": f"the log attempts {pod}",
                        "agree": [v for v in replays if v not in did], "disagree": did})
    return sorted(out, key=lambda e: e["at"])


def _said(claim: Claim, pod: str, versions: dict[str, list[str]], makers: list[str], b: Builder) -> list[str]:
    """A claimed move's disagreements: one per thing the model did instead, each with the versions that make the
    move (the cluster behaved as they do)."""
    gloss = f" ({claim.by})" if claim.by else ""
    agree = f" On {joined(makers)} the model makes it, as the cluster did." if makers else ""
    return [f"{b.place(claim.line)} (t = {claim.at / 1e6:g} s): the log moves {pod} to {claim.queue} by "
            f"{claim.event}{gloss}; on {joined(v)} the model: {did}.{agree}" for did, v in versions.items()]


def _makes(history: list[_Move], claim: Claim) -> bool:
    """Whether the model makes the claimed move (the pod, its queue and event) within MOVE_SLACK of it."""
    at = claim.at / 1e6
    first = bisect.bisect_left(history, at - MOVE_SLACK, key=lambda m: m.at)
    return any(m.to == claim.queue and m.cause == claim.event
               for m in history[first:bisect.bisect_right(history, at + MOVE_SLACK, key=lambda m: m.at)])


def _did(history: list[_Move], claim: Claim, pod: str, b: Builder) -> str:
    """What the model did with the pod by the time of the claimed move, since its last attempt, and next."""
    end = bisect.bisect_right(history, claim.at / 1e6, key=lambda m: m.at)
    recent = history[max(end - 3, 0):end]
    attempts = [i for i, m in enumerate(recent) if m.to == IN_FLIGHT]
    done = [_moved_words(m, b) for m in recent[attempts[-1] if attempts else 0:]]
    did = ", then ".join(done) if done else f"{pod} not queued yet"
    return did + (f"; next: {_moved_words(history[end], b)}" if end < len(history) else "")


def _moved_words(move: _Move, b: Builder) -> str:
    where = {IN_FLIGHT: "popped", None: move.cause}.get(move.to, f"to {move.to} by {move.cause}")
    return f"{where} at t = {move.at:g} s" + (f" ({b.place(move.line)})" if move.line is not None else "")
