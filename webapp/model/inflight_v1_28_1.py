"""v1.28.1 (v1.28.0, v1.28.1) in-flight tracking: ``receivedEvents`` + per-pod ``previousEvent`` marker."""

from __future__ import annotations

from typing import Any

from .events import QUEUE_AFTER_BACKOFF, QUEUE_SKIP, ClusterEvent
from .golist import Element, GoList
from .hintwalk import decide, walk_events
from .pod import QueuedPodInfo
from .record import Hint, ListEntry, Record, Violated
from .tracker import Tracker, Worth
from .versions import Rules
from .views import InFlightMarker, Marker, TrackerState, TrackerView


class ReceivedEvent:
    __slots__ = ("event", "id", "ordinal", "in_flight_pods_num")

    def __init__(self, event: ClusterEvent, event_id: str, ordinal: int, in_flight_pods_num: int):
        self.event, self.id, self.ordinal = event, event_id, ordinal
        self.in_flight_pods_num = in_flight_pods_num


class InFlightPod:
    __slots__ = ("name", "id", "previous_event")

    def __init__(self, name: str, entry_id: str, previous_event: Element[ReceivedEvent] | None):
        self.name, self.id = name, entry_id
        # The element of the latest event at Pop time, or None. It is *not* this pod's own element:
        # when every pod counted in it is done it is removed, and its next() becomes None.
        self.previous_event = previous_event


class ReceivedEvents(Tracker):
    variant = "v1.28.1"

    def __init__(self) -> None:
        super().__init__()
        # Events recorded while at least one pod was in flight; each counts the pods then in flight
        # and is removed once that many Done calls have decremented it (anywhere in the list).
        self.received_events: GoList[ReceivedEvent] = GoList()
        self.in_flight_pods: dict[str, InFlightPod] = {}  # uid -> InFlightPod

    def __len__(self) -> int:
        return len(self.in_flight_pods)

    def pop(self, pinfo: QueuedPodInfo, entry_id: str, rec: Record) -> None:
        # The new marker is in the list (or none): a new pod changes no check's result, a second Pop of one in
        # flight can only drop its detached marker (Tracker.broken).
        if self.broken and pinfo.uid in self.in_flight_pods:
            self.broken = None
        marker = self.received_events.back()
        self.in_flight_pods[pinfo.uid] = InFlightPod(pinfo.name, entry_id, marker)
        rec["marker"] = {"pod": pinfo.name, "previousEvent": marker.value.id if marker else None}

    def record_event(self, event: ClusterEvent, event_id: str, ordinal: int, rec: Record) -> bool:
        if not self.in_flight_pods:
            return False
        if self.broken:  # a new event is unseen only by detached markers (Tracker.broken)
            self.broken = None
        n = len(self.in_flight_pods)
        self.received_events.push_back(ReceivedEvent(event, event_id, ordinal, n))
        rec["appended"].append({"kind": "event", "id": event_id, "event": event.label, "inFlightPodsNum": n})
        return True

    def done(self, uid: str, rec: Record) -> None:
        pod = self.in_flight_pods.pop(uid, None)
        if pod is None:
            return
        if self.broken:  # it breaks an invariant that holds only by detaching a marker: _note_detached (Tracker.broken)
            self.broken = None
        events = self.received_events
        marker = pod.previous_event
        if marker is not None and marker.value.in_flight_pods_num != 0:
            e, start = marker.next(), "marker-next"
        else:
            e, start = events.front(), ("front" if marker is None else "front-marker-removed")
        rec["done_start"] = {"pod": pod.name, "rule": start, "id": e.value.id if e is not None else None}
        removed = []
        while e is not None:
            v = e.value
            v.in_flight_pods_num -= 1
            rec["counters"].append({"id": v.id, "inFlightPodsNum": v.in_flight_pods_num})
            nxt = e.next()
            if v.in_flight_pods_num <= 0:
                events.remove(e)
                removed.append(e)
                rec["removed"].append({"kind": "event", "id": v.id, "event": v.event.label, "reason": "exhausted"})
            e = nxt
        if removed:
            self._note_detached(removed, rec)

    def _note_detached(self, removed: list[Element[ReceivedEvent]], rec: Record) -> None:
        gone = {id(e) for e in removed}
        for p in self.in_flight_pods.values():
            if p.previous_event is not None and id(p.previous_event) in gone:
                self.broken = None  # in_flight_boundary breaks
                rec["detached"].append(
                    {"pod": p.name, "marker": p.previous_event.value.id, "unseen": self._unseen(p.previous_event)}
                )

    def _unseen(self, marker: Element[ReceivedEvent]) -> list[str]:
        """Retained events that arrived after ``marker``: a pod whose marker is detached cannot see them."""
        after = marker.value.ordinal
        return [e.value.id for e in self.received_events if e.value.ordinal > after]

    def determine_hint(self, pinfo: QueuedPodInfo, worth: Worth, rules: Rules, rec: Record) -> int:
        """determineSchedulingHintForInFlightPod (v1.28.0/1): note the unconditional previousEvent.Next()."""
        info: Hint = {"pod": pinfo.name, "walk": []}
        rec["hint"] = info
        if not pinfo.plugins:
            info["start"] = {"rule": "no-plugins-global"}
            if len(self.received_events) != 0:
                return decide(info, QUEUE_AFTER_BACKOFF, "no-plugins-list-nonempty")
            return decide(info, QUEUE_SKIP, "no-plugins-list-empty")
        pod = self.in_flight_pods.get(pinfo.uid)
        if pod is None:
            info["start"] = {"rule": "not-in-flight"}
            return decide(info, QUEUE_AFTER_BACKOFF, "not-in-flight")
        marker = pod.previous_event
        if marker is None:
            start = self.received_events.front()
            info["start"] = {"rule": "front"}
        else:
            start = marker.next()  # None if the marker was removed: the walk sees nothing
            if marker.in_list:
                info["start"] = {"rule": "marker-next", "marker": marker.value.id}
            else:
                info["start"] = {"rule": "marker-detached", "marker": marker.value.id, "unseen": self._unseen(marker)}
        hint = walk_events(pinfo, start, worth, info["walk"], ReceivedEvent)
        return decide(info, hint, "events" if hint != QUEUE_SKIP else "no-event-worth-requeuing")

    # --- views -------------------------------------------------------------------------------
    def state(self) -> TrackerState:
        pods: dict[str, InFlightMarker] = {}
        for p in self.in_flight_pods.values():
            m = p.previous_event
            pods[p.name] = {
                "previousEvent": m.value.id if m is not None else None,
                "previousEventInList": m.in_list if m is not None else None,
            }
        return {
            "inFlightPods": dict(sorted(pods.items())),
            "receivedEvents": [
                {"event": e.value.event.label, "id": e.value.id, "inFlightPodsNum": e.value.in_flight_pods_num}
                for e in self.received_events
            ],
        }

    def view(self) -> TrackerView:
        return {"entries": self.entries(), "markers": self.markers()}

    def entries(self) -> list[ListEntry]:
        return [
            {"kind": "event", "id": e.value.id, "event": e.value.event.label,
             "inFlightPodsNum": e.value.in_flight_pods_num}
            for e in self.received_events
        ]

    def markers(self) -> list[Marker]:
        out: list[Marker] = []
        for p in self.in_flight_pods.values():
            m = p.previous_event
            detached = m is not None and m.list is None
            out.append({
                "pod": p.name,
                "previousEvent": m.value.id if m is not None else None,
                "detached": detached,
                "unseen": self._unseen(m) if m is not None and detached else [],
            })
        return sorted(out, key=lambda m: m["pod"])

    def check(self) -> list[Violated]:
        detached: list[dict[str, Any]] = []
        for p in self.in_flight_pods.values():  # a loop, not a comprehension: no function made and called per step
            m = p.previous_event
            if m is not None and m.list is None:
                detached.append({"pod": p.name, "marker": m.value.id, "unseen": self._unseen(m)})
        return [{"name": "in_flight_boundary", "violations": detached}] if detached else []

    # --- checkpoints: a marker is stored as its position, or as its value when detached ---------
    def __getstate__(self) -> dict[str, Any]:
        position = {id(e): i for i, e in enumerate(self.received_events)}
        pods: dict[str, tuple[str, str, int | ReceivedEvent | None]] = {}
        for uid, p in self.in_flight_pods.items():
            m = p.previous_event
            marker = None if m is None else position[id(m)] if m.list is not None else m.value
            pods[uid] = (p.name, p.id, marker)
        return {"values": self.received_events.values(), "pods": pods}

    def __setstate__(self, state: dict[str, Any]) -> None:
        ReceivedEvents.__init__(self)
        elements = self.received_events.extend(state["values"])
        detached: dict[int, Element[ReceivedEvent]] = {}
        for uid, (name, entry_id, marker) in state["pods"].items():
            element = None
            if isinstance(marker, int):
                element = elements[marker]
            elif marker is not None:
                element = detached.setdefault(id(marker), Element(marker))  # next() stays None
            self.in_flight_pods[uid] = InFlightPod(name, entry_id, element)
