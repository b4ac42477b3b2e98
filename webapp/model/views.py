"""What a model shows of itself at a position: ``State``, the trace's state object (scenario-format.md, exactly
these keys), and ``View``, what a renderer needs beyond it (the clock, each pod's record, the list with ids)."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from .record import ListEntry


class InFlightMarker(TypedDict):
    """v1.28.1's state of an in-flight pod: its previousEvent marker and whether that is still in the list."""

    previousEvent: str | None
    previousEventInList: bool | None


class TrackerState(TypedDict):
    inFlightPods: dict[str, InFlightMarker] | list[str]  # v1.28.1: by pod; v1.28.2 on: the pods' names
    receivedEvents: NotRequired[list[dict[str, str | int]]]  # v1.28.1: {event, id, inFlightPodsNum}
    inFlightEvents: NotRequired[list[dict[str, str]]]  # v1.28.2 on: {pod} or {event, id}


class State(TrackerState):
    activeQ: list[str]
    backoffQ: list[str]
    unschedulablePods: list[str]
    schedulingCycle: int
    moveRequestCycle: int
    backoffQ_error: NotRequired[list[str]]  # 1.33+: the backoffQ pods held in podErrorBackoffQ


class PodView(TypedDict):
    """A declared pod: where it is and, when it has a record there, that record's fields (times in seconds)."""

    where: str | None
    attempts: NotRequired[int]
    plugins: NotRequired[list[str]]
    pending: NotRequired[list[str]]  # 1.29+
    timestamp: NotRequired[float]
    backoffExpiry: NotRequired[float]
    backingOff: NotRequired[bool]
    nextFlush: NotRequired[float]  # with periodic flushes: the tick that will move it, if nothing else does
    missedFlush: NotRequired[float]  # without them: the past tick at which the scheduler's flush would have moved it
    unschedulableCount: NotRequired[int]  # 1.34+: failures with rejector plugins
    consecutiveErrors: NotRequired[int]  # 1.34+: failures without, in a row
    backoffExpiration: NotRequired[float]  # 1.34+: the cached expiry (BackoffExpiration), when set
    backoffHeap: NotRequired[str]  # 1.33+: "error" for a record in podErrorBackoffQ
    gated: NotRequired[bool]  # 1.32+: held by its scheduling gates
    gatingPlugin: NotRequired[str]  # 1.33+: the PreEnqueue plugin that gates it


class Marker(TypedDict):
    """v1.28.1: an in-flight pod's previousEvent marker (``detached``: removed from the list, Next() is nil)."""

    pod: str
    previousEvent: str | None
    detached: bool
    unseen: list[str]


class TrackerView(TypedDict):
    entries: list[ListEntry]
    markers: list[Marker]  # v1.28.1's; none from v1.28.2 on


class View(TrackerView):
    now: float
    pods: dict[str, PodView]
    order: dict[str, list[str]]  # activeQ and backoffQ in the order pops and the backoff flush take them
    heads: list[str]  # what a pop may take (a named pop: any of them)


class Due(TypedDict):
    """A pod a flush would move now: from ``where``, due since ``due`` (s)."""

    pod: str
    where: str
    due: float
