"""The scenario operations, each declared once: its parameters, its timeline kind, the upstream functions it
stands for, a one-line summary, and how it drives the queue. Dispatch (variant.Model), validation
(scenario/validate.py), the CLI and the steps table of docs/scenario-format.md all derive from ``OPERATIONS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .events import ASSIGNED_POD_ADD, CATALOGUE
from .queue import PriorityQueue
from .record import Record, Result, Step

# Parameter types -> what a value must be, in the words of the docs (EVENT and ENUM values are its choices).
POD, PODS, EVENT, ENUM = "pod", "pods", "event", "enum"
SECONDS, BOOL, PLUGINS, CYCLE = "seconds", "bool", "plugins", "cycle"
TYPES = {
    POD: "pod name",
    PODS: "list of pod names",
    EVENT: "event label",
    ENUM: "one of its choices",
    SECONDS: "seconds ≥ 0",
    BOOL: "bool",
    PLUGINS: "list of plugin names",
    CYCLE: "integer ≥ 0",
}
# Timeline kinds (the tick colours of static/js/timeline.js).
KINDS = ("pop", "event", "done", "fail", "clock", "other")


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # a key of TYPES
    required: bool = True
    doc: str = ""  # what it means; for an optional parameter, what omitting it means
    choices: tuple[str, ...] = ()  # EVENT and ENUM: the accepted values


@dataclass(frozen=True)
class Operation:
    name: str
    kind: str  # one of KINDS
    functions: tuple[str, ...]  # the upstream functions it stands for, in call order
    summary: str  # one plain sentence
    apply: Callable[[PriorityQueue, Step, Record], Result]
    params: tuple[Param, ...] = ()  # required ones first


def _registry(*operations: Operation) -> dict[str, Operation]:
    return {op.name: op for op in operations}


OPERATIONS: dict[str, Operation] = _registry(
    Operation(
        "add", "other", ("Add",),
        "A new record of the pod (Timestamp now, Attempts 0) enters activeQ; its record in backoffQ or "
        "unschedulablePods is dropped.",
        lambda q, s, r: q.add(s["pod"], r),
        (Param("pod", POD),),
    ),
    Operation(
        "pop", "pop", ("Pop",),
        "The head of activeQ is taken for a scheduling attempt and is in flight until it fails or is done.",
        lambda q, s, r: q.pop(s.get("expect"), r),
        (Param("expect", POD, False, "that pod must be (one of) the head(s) of activeQ (on v1.36.2, of backoffQ when "
                                    "Pop takes from there), else the step is an error"),),
    ),
    Operation(
        "event", "event", ("MoveAllToActiveOrBackoffQueue",),
        "A cluster event: every pod in unschedulablePods it may help moves to activeQ or backoffQ, and the event is "
        "recorded while pods are in flight.",
        lambda q, s, r: q.move_all_to_active_or_backoff_queue(
            CATALOGUE[s["event"]], frozenset(s.get("precheck_exclude", ())), r),
        (Param("event", EVENT, choices=tuple(CATALOGUE)),
         Param("precheck_exclude", PODS, False, "pods the pre-check skips")),
    ),
    Operation(
        "assigned_pod_added", "event", ("AssignedPodAdded",),
        "Event AssignedPodAdd, moving only the listed unschedulable pods (those the new pod's affinity matches).",
        lambda q, s, r: q.assigned_pod_added(ASSIGNED_POD_ADD, frozenset(s["affinity_matching"]), r),
        (Param("affinity_matching", PODS),),
    ),
    Operation(
        # `done` is the deferred call, lower-case in 1.28: the queue's lock is already held.
        "fail", "fail", ("AddUnschedulableIfNotPresent", "done"),
        "The pod's attempt failed: it goes back to unschedulablePods, backoffQ or activeQ (by queueing hint, or by "
        "the move-request cycle with the gate off), and the deferred done ends the attempt.",
        lambda q, s, r: q.add_unschedulable_if_not_present(
            s["pod"], s.get("unschedulable_plugins"), s.get("pod_info", "popped") == "fresh",
            s.get("pod_scheduling_cycle"), r, s.get("pending_plugins")),
        (Param("pod", POD),
         Param("unschedulable_plugins", PLUGINS, False,
               "when omitted, with popped the plugins the record already carries, with fresh none"),
         Param("pod_info", ENUM, False,
               "popped (the default) is the record the last Pop returned, fresh a new record with Attempts 0",
               choices=("popped", "fresh")),
         Param("pod_scheduling_cycle", CYCLE, False, "the cycle the attempt began in; default the current one"),
         Param("pending_plugins", PLUGINS, False,
               "1.29+ PendingPlugins; when omitted, P#pending for each unschedulable plugin P with a "
               "QueueImmediately hint; on 1.28 versions they join the unschedulable plugins")),
    ),
    Operation(
        "pop_specific", "pop", ("PopSpecificPod",),
        "v1.36.2: the named pod is activated (from unschedulablePods or backoffQ) and popped exactly: it is in flight "
        "with its own entry; the result is null when it is not in the queue.",
        lambda q, s, r: q.pop_specific(s["pod"], r),
        (Param("pod", POD),),
    ),
    Operation(
        "ungate", "other", ("Update",),
        "v1.32.0+: the update that removes all the pod's scheduling gates (event UpdatePodSchedulingGatesEliminated, "
        "which the SchedulingGates plugin's hint answers).",
        lambda q, s, r: q.update(s["pod"], True, r, ungate=True),
        (Param("pod", POD),),
    ),
    Operation(
        "done", "done", ("Done",),
        "The pod's scheduling attempt has finished: it is no longer in flight.",
        lambda q, s, r: q.done(s["pod"], r),
        (Param("pod", POD),),
    ),
    Operation(
        "activate", "other", ("Activate",),
        "The listed pods move from unschedulablePods or backoffQ to activeQ.",
        lambda q, s, r: q.activate(s["pods"], r),
        (Param("pods", PODS),),
    ),
    Operation(
        "update", "other", ("Update",),
        "The pod was updated: an unschedulable pod moves to backoffQ or activeQ if the change is scheduling-relevant; "
        "a pod in no queue gets a new record in activeQ. From 1.31 an in-flight pod's update is a list entry "
        "instead, and an unschedulable pod's is judged by its plugins' hints.",
        lambda q, s, r: q.update(s["pod"], s.get("changed", True), r),
        (Param("pod", POD),
         Param("changed", BOOL, False, "the update is scheduling-relevant (default true)")),
    ),
    Operation(
        "delete", "other", ("Delete",),
        "The pod leaves whichever queue holds it.",
        lambda q, s, r: q.delete(s["pod"], r),
        (Param("pod", POD),),
    ),
    Operation(
        "advance_clock", "clock", ("clock", "flushBackoffQCompleted", "flushUnschedulablePodsLeftover"),
        "The fake clock moves forward; with periodic_flushes the scheduler's 1 s and 30 s flushes run at their "
        "ticks on the way.",
        lambda q, s, r: q.advance_clock(s["seconds"], r),
        (Param("seconds", SECONDS),),
    ),
    Operation(
        "flush_backoff", "clock", ("flushBackoffQCompleted",),
        "The every-second flush: pods that have finished backing off move from backoffQ to activeQ.",
        lambda q, s, r: q.flush_backoff_q_completed(r),
    ),
    Operation(
        "flush_unschedulable_leftover", "event", ("flushUnschedulablePodsLeftover",),
        "The every-30-seconds flush: pods in unschedulablePods for longer than max_in_unschedulable move, with "
        "event UnschedulableTimeout.",
        lambda q, s, r: q.flush_unschedulable_pods_leftover(r),
    ),
    Operation(
        "active_add_raw", "other", ("activeQ.Add (test harness)",),
        "Test harness: a new record of the pod goes straight into the activeQ heap; no other queue is touched.",
        lambda q, s, r: q.active_add_raw(s["pod"], r),
        (Param("pod", POD),),
    ),
    Operation(
        "backoff_pop_all_raw", "other", ("podBackoffQ emptied (test harness)",),
        "Test harness: podBackoffQ is emptied.",
        lambda q, s, r: q.backoff_pop_all_raw(r),
    ),
    Operation(
        "bump_scheduling_cycle_raw", "other", ("schedulingCycle++ (test harness)",),
        "Test harness: schedulingCycle is incremented.",
        lambda q, s, r: q.bump_scheduling_cycle_raw(r),
    ),
)


def kind_of(op: str) -> str:
    """The timeline kind of ``op`` (one of KINDS)."""
    return OPERATIONS[op].kind


def functions_of(op: str) -> tuple[str, ...]:
    """The upstream functions ``op`` stands for, in call order."""
    return OPERATIONS[op].functions


def summary_of(op: str) -> str:
    return OPERATIONS[op].summary


def arguments(step: Step) -> list[tuple[str, object]]:
    """The parameters ``step`` gives, as (name, value) in declaration order (``op`` and ``note`` left out)."""
    return [(p.name, step[p.name]) for p in OPERATIONS[step["op"]].params if p.name in step]
