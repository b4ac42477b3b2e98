"""What changed in the queue after 1.31, one row per change (the digest of ../shared/conformance/REAL-QUEUE-NEW.md):
the release that made it, the change in a sentence, its pull requests, the version that has it, and what shows it:
a built-in lesson (its id) or, where no lesson does, the one-change scenario of the conformance traces
(``change/...``). The versions page lists them."""

from __future__ import annotations

from typing import NamedTuple

CHANGES_HEADER = ("since", "what changed", "upstream", "in", "shown by")
NO_TRACE = "(no trace change)"  # a change the queue's traces cannot show (the scheduler around it differs)


class Change(NamedTuple):
    since: str  # the release dated by the trees (1.33–1.36: bounded by v1.33.0-alpha.0 and v1.36.2)
    what: str
    upstream: str
    version: str  # the modelled version that has it
    lesson: str  # a built-in's id, or ""
    trace: str  # the one-change scenario's id in the conformance traces


CHANGES = (
    Change("1.32", "Pop discards a popped record whose pod is already in flight and pops the next; with nothing "
           "else to pop it waits.", "#127016", "v1.32.0", "pop-discards-duplicate",
           "change/pop-discards-inflight-duplicate"),
    Change("1.32", "Activate of an in-flight pod appends a ForceActivate entry that requeues only that pod, and sets "
           "moveRequestCycle for every pod it cannot move.", "#128170 (KEP-4832)", "v1.32.0", "force-activate",
           "change/activate-inflight-records-forceactivate"),
    Change("1.32", "A record never attempted (Attempts 0) does not back off.", "#126029†", "v1.32.0", "",
           "change/never-attempted-record-no-backoff"),
    Change("1.32", "An in-flight update records the events PodSchedulingPropertiesChange returns.", "(not identified)",
           "v1.32.0", "", "change/inflight-update-specific-event"),
    Change("1.33", "Gated pods carry their gating plugin; an event skips a gated pod unless that plugin registered "
           "it.", "#127180†", "v1.36.2", "gated-pods", "change/gated-pod-ungate [EXT]"),
    Change("1.33", "Pop takes backoffQ's head when activeQ is empty, before its backoff has ended.",
           "#130772 (KEP-5142)", "v1.36.2", "pop-from-backoffq", "change/pop-from-backoffq"),
    Change("1.33", "backoffQ is ordered by one-second window, then by priority; a pod leaves when its window has "
           "passed, and the 1 s flush ticks at whole seconds.", "KEP-5142", "v1.36.2", "backoff-windows",
           "change/backoff-window-alignment"),
    Change("1.33", "A failure with no rejecting plugin backs off in a separate error heap, which Pop never takes "
           "from.", "#130214†", "v1.36.2", "error-backoffq", "change/error-backoffq-not-poppable"),
    Change("1.34", "Backoff counts failures (UnschedulableCount, or ConsecutiveErrorsCount while errors repeat), not "
           "attempts.", "#128748†", "v1.36.2", "backoff-counts-failures", "change/backoff-counts-failures"),
    Change("1.34", "max_backoff 0 disables backoff.", "#131965†", "v1.36.2", "", "change/max-backoff-zero"),
    Change("1.34", "SchedulerQueueingHints is GA and locked on: a scenario with gate: false is refused.",
           "gate table", "v1.36.2", "", "change/queueing-hints-ga"),
    Change("1.35–1.36", "Pop keeps the rejector plugins; the failure handler clears them.", "#135126†", "v1.36.2", "",
           NO_TRACE),
    Change("1.35–1.36", "With GenericWorkload, a failed member of a pod group always backs off.", "#137768†",
           "v1.36.2", "pod-group-backoff", "change/pod-group-member-backoff [EXT]"),
    Change("1.36", "PopSpecificPod activates a pod and pops exactly it.", "#136618†", "v1.36.2", "pop-specific",
           "change/pop-specific [EXT]"),
)
