"""Invariants checked after every step; a violation is reported, never raised."""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from typing import Any, TypedDict

from .queue import PriorityQueue
from .record import Violated
from .tracker import Tracker


class Invariant(TypedDict):
    """An invariant of the variant at a position: whether it holds, what breaks it, and what it means."""

    name: str
    ok: bool
    violations: list[dict[str, Any]]
    description: str

DESCRIPTIONS = {
    "in_flight_boundary": "Every in-flight pod can still walk the list from its boundary: its own entry "
    "(v1.28.2) or the element after its previousEvent marker (v1.28.1). A detached marker's Next() is nil, "
    "so the pod cannot see the events listed as unseen.",
    "queue_membership": "A pod is in at most one of activeQ, backoffQ and unschedulablePods.",
    "events_preceded_by_pod": "v1.28.2: the list is empty or starts with a pod entry, so every retained "
    "event is preceded by a pod that was in flight when it arrived.",
    "pod_entries_in_flight": "v1.28.2: every pod entry in the list belongs to a pod still in flight. "
    "An orphaned entry (a second Pop of the same pod) is never removed and stops the front cleanup for ever.",
}


def names(tracker: Tracker) -> list[str]:
    """The invariants checked for a variant's tracker, in report order."""
    return ["in_flight_boundary", "queue_membership", *tracker.structure_check_names]


def check(queue: PriorityQueue, moves: Iterable[Mapping[str, object]] | None = None) -> list[Violated]:
    """The violated invariants as [{name, violations}] (empty: all hold).
    Queue membership is checked for the pods of ``moves``, a step record's (None: every declared pod)."""
    tracker = queue.tracker
    broken = tracker.broken
    if broken is None:  # a change to the tracker may have altered them: found again, once
        broken = tracker.broken = tracker.check()
    if moves is None:
        moves = [{"pod": name} for name in queue.pods]
    elif not moves:
        return broken
    # queue_membership: a pod is in at most one of activeQ, backoffQ and unschedulablePods.
    active, backoff, unschedulable = queue.active_q.index, queue.backoff_q, queue.unschedulable_pods
    membership = []
    for move in moves:
        name = move["pod"]
        # in two or three: in backoffQ and another, or in activeQ and unschedulablePods
        if name in backoff and (name in active or name in unschedulable) or name in active and name in unschedulable:
            subqueues: tuple[tuple[str, Container[str]], ...] = (
                ("activeQ", active), ("backoffQ", backoff), ("unschedulablePods", unschedulable))
            queues = [q for q, held in subqueues if name in held]
            membership.append({"pod": name, "queues": queues})
    if membership:
        return [*broken, {"name": "queue_membership", "violations": membership}]
    return broken


def report(queue: PriorityQueue, broken: list[Violated]) -> list[Invariant]:
    """Every invariant of the variant with ok/violations and its plain-words description."""
    by_name = {b["name"]: b["violations"] for b in broken}
    return [
        {"name": n, "ok": n not in by_name, "violations": by_name.get(n, []), "description": DESCRIPTIONS[n]}
        for n in names(queue.tracker)
    ]
