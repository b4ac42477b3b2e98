"""What both in-flight trackers share: the operations the queue calls on them, and their invariant results, kept
while no change can alter them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .events import ClusterEvent
from .pod import QueuedPodInfo
from .record import ListEntry, Record, Violated
from .versions import Rules
from .views import TrackerState, TrackerView

# isPodWorthRequeuing: (hint, why, the deciding plugin) for a record and an event.
Worth = Callable[[QueuedPodInfo, ClusterEvent], tuple[int, str, str | None]]


class Tracker:
    structure_check_names: tuple[str, ...] = ()
    in_flight_pods: dict[str, Any]  # uid -> what the tracker holds for the pod while it is in flight

    def __init__(self) -> None:
        # [{name, violations}] of the tracker's broken invariants (in_flight_boundary first, then the structure
        # checks) as check() found them, or None until invariants.check finds them again. Each change to the list
        # or the in-flight map says what it can do to them: one that can break an invariant sets None; one that
        # cannot break an invariant that holds sets None only when some invariant is broken (their violations may
        # change), so "none broken" stays; one that changes no check's result leaves them.
        self.broken: list[Violated] | None = None

    def in_flight(self, uid: str) -> bool:
        return uid in self.in_flight_pods

    def pop(self, pinfo: QueuedPodInfo, entry_id: str, rec: Record) -> None:
        raise NotImplementedError

    def record_event(self, event: ClusterEvent, event_id: str, ordinal: int, rec: Record) -> bool:
        """Whether the event was recorded (only while some pod is in flight)."""
        raise NotImplementedError

    def record_update(self, name: str, entry_id: str, rec: Record) -> None:
        """1.31: an update of an in-flight pod, as an entry of its own (a tracker with pod entries)."""
        raise NotImplementedError

    def done(self, uid: str, rec: Record) -> None:
        raise NotImplementedError

    def determine_hint(self, pinfo: QueuedPodInfo, worth: Worth, rules: Rules, rec: Record) -> int:
        raise NotImplementedError

    def state(self) -> TrackerState:
        raise NotImplementedError

    def view(self) -> TrackerView:
        raise NotImplementedError

    def entries(self) -> list[ListEntry]:
        raise NotImplementedError

    def check(self) -> list[Violated]:
        raise NotImplementedError
