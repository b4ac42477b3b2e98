"""The step record: what one operation did, for renderers, narration and invariant checks; and the result the
operation returns. ``Record`` is the contract: the keys below are always there (lists empty when nothing of that
kind happened), the others only where the step did that.

  step, op          position of the step and its operation
  calls             upstream functions entered, in order (Pop, Done, AddUnschedulableIfNotPresent, ...)
  moves             lane changes; from/to are activeQ, backoffQ, unschedulablePods, inFlight or None (outside)
  appended          list entries pushed at the back
  removed           list entries removed (reason: done|cleanup_front|exhausted)
  counters          v1.28.1: each decrement made by Done
  detached          v1.28.1: markers removed from the list during this step
  evaluations       isPodWorthRequeuing per unschedulable pod for an event
  skipped           pods an operation left where they were
  cleared           pop, 1.28.3+: the plugins (unschedulable, and pending from 1.29) Pop cleared (absent: none)
  hint              determineSchedulingHintForInFlightPod: {pod, start, walk, decision, reason}
  invariants        the invariants violated after the step (empty: all hold)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

# A scenario step as validated (scenario/validate.py): ``op``, an optional ``note`` and the parameters its
# operation declares (operations.OPERATIONS).
Step = Mapping[str, Any]

Move = TypedDict("Move", {"pod": str, "from": str | None, "to": str | None})


class ListEntry(TypedDict):
    """An entry of the in-flight list: an event (v1.28.1: with the pods it still counts) or a pod's own entry."""

    kind: str  # "event" | "pod"
    id: str
    event: NotRequired[str]
    pod: NotRequired[str]  # a pod entry's pod; an update entry's (1.31)
    inFlightPodsNum: NotRequired[int]
    orphaned: NotRequired[bool]  # a pod entry whose pod was popped again (views only)
    reason: NotRequired[str]  # a removed entry's: done | cleanup_front | exhausted


class Counter(TypedDict):
    id: str
    inFlightPodsNum: int


class Detached(TypedDict):
    pod: str
    marker: str
    unseen: list[str]


class Evaluation(TypedDict):
    pod: str
    hint: str
    why: str
    plugin: str | None


class Skip(TypedDict):
    pod: str
    why: str


class HintStart(TypedDict):
    """Where a failed pod's walk starts: ``rule`` names the case (front, marker-next, marker-detached,
    after-own-entry, not-in-flight, no-plugins-global)."""

    rule: str
    marker: NotRequired[str]  # v1.28.1: the marker's event
    unseen: NotRequired[list[str]]  # v1.28.1, a detached marker: the events it cannot see
    id: NotRequired[str]  # v1.28.2: the pod's own entry


class WalkStep(TypedDict):
    """An entry the walk visited: an event with its hint, or a pod entry it skipped."""

    id: str
    why: str
    event: NotRequired[str]
    hint: NotRequired[str]
    plugin: NotRequired[str | None]
    pod: NotRequired[str]


class Hint(TypedDict):
    pod: str
    walk: list[WalkStep]
    start: NotRequired[HintStart]  # set before the decision, on every path
    decision: NotRequired[str]
    reason: NotRequired[str]


class Failed(TypedDict):
    pod: str
    plugins: list[str]
    attempts: int
    pending: NotRequired[list[str]]  # 1.29+


class Violated(TypedDict):
    name: str
    violations: list[dict[str, Any]]  # each invariant says what breaks it in its own words (narration.py)


class MarkerAt(TypedDict):
    """v1.28.1: the marker a pop gives the pod (the newest retained event, or None)."""

    pod: str
    previousEvent: str | None


class DoneStart(TypedDict):
    """v1.28.1: where Done starts counting down (``rule``: marker-next, front, front-marker-removed)."""

    pod: str
    rule: str
    id: str | None


class Record(TypedDict):
    step: int
    op: str
    calls: list[str]
    moves: list[Move]
    appended: list[ListEntry]
    removed: list[ListEntry]
    counters: list[Counter]
    detached: list[Detached]
    evaluations: list[Evaluation]
    skipped: list[Skip]
    invariants: NotRequired[list[Violated]]  # set once the step is applied
    cleared: NotRequired[list[str]]
    hint: NotRequired[Hint]
    failed: NotRequired[Failed]  # fail: the failed pod's record
    gate_off_rule: NotRequired[dict[str, int]]  # fail with the gate off: {moveRequestCycle, podSchedulingCycle}
    ignored: NotRequired[dict[str, str]]  # 1.30+: an event no hint matches {event, id}
    marker: NotRequired[MarkerAt]  # v1.28.1 pop
    done_start: NotRequired[DoneStart]  # v1.28.1 Done
    orphaned: NotRequired[dict[str, str]]  # v1.28.2 pop of a pod in flight: {pod, id} of the entry orphaned


class Flush(TypedDict):
    at: float
    op: str
    result: Result


# What an operation returns (the trace's ``result``): the keys its operation sets. ``from`` (1.36: "backoffQ" when
# Pop took the head of podBackoffQ) is a Python keyword, hence this form.
Result = TypedDict("Result", {
    "popped": str | None,  # pop_specific: None when the pod is not there
    "discarded": list[str],  # pop, 1.32+: the pods already in flight whose records Pop dropped first
    "from": str,
    "queue": str,
    "rule": str,
    "hint": str,
    "error": str,
    "event_id": str,
    "event_ids": list[str],  # activate, 1.32+: the ForceActivate entries it appended
    "event": str,
    "recorded_in_flight": bool,
    "moved": dict[str, str],
    "moved_to_activeQ": list[str],
    "now": float,
    "flushes": list["Flush"],
}, total=False)


def new_record(step: int, op: str) -> Record:
    return {"step": step, "op": op, "calls": [], "moves": [], "appended": [], "removed": [], "counters": [],
            "detached": [], "evaluations": [], "skipped": []}
