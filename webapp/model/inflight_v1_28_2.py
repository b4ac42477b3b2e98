"""v1.28.2 in-flight tracking: one ``inFlightEvents`` list of pod entries and event entries (kept by every later
version; what they changed in it is read from ``versions.Rules``)."""

from __future__ import annotations

from typing import Any

from .events import QUEUE_AFTER_BACKOFF, QUEUE_SKIP, UNSCHEDULED_POD_UPDATE, ClusterEvent
from .golist import Element, GoList
from .hintwalk import decide, walk_events
from .pod import QueuedPodInfo
from .record import Hint, ListEntry, Record, Violated
from .tracker import Tracker, Worth
from .versions import Rules
from .views import TrackerState, TrackerView


class PodEntry:
    __slots__ = ("name", "uid", "id")

    def __init__(self, name: str, uid: str, entry_id: str):
        self.name, self.uid, self.id = name, uid, entry_id

    def as_state(self) -> dict[str, str]:
        return {"pod": self.name}


class EventEntry:
    __slots__ = ("event", "id", "ordinal")

    def __init__(self, event: ClusterEvent, event_id: str, ordinal: int):
        self.event, self.id, self.ordinal = event, event_id, ordinal

    def as_state(self) -> dict[str, str]:
        return {"event": self.event.label, "id": self.id}


class InFlightEvents(Tracker):
    variant = "v1.28.2"

    def __init__(self) -> None:
        super().__init__()
        # Invariant: the list is empty or starts with a pod entry (Done's front cleanup keeps it so);
        # every event entry follows the pod entries of all pods that were in flight when it arrived.
        self.in_flight_events: GoList[PodEntry | EventEntry] = GoList()
        # uid -> the pod's own element in in_flight_events (its boundary for the hint walk).
        self.in_flight_pods: dict[str, Element[Any]] = {}  # each element's value is the pod's PodEntry
        self.pod_entries = 0  # pod entries in the list; more than len(in_flight_pods) after a duplicate Pop

    def __len__(self) -> int:
        return len(self.in_flight_pods)

    def pop(self, pinfo: QueuedPodInfo, entry_id: str, rec: Record) -> None:
        name, uid = pinfo.name, pinfo.uid
        # A second Pop of an in-flight uid overwrites the map value: the first entry is orphaned.
        orphan = self.in_flight_pods.get(uid)
        self.in_flight_pods[uid] = self.in_flight_events.push_back(PodEntry(name, uid, entry_id))
        self.pod_entries += 1
        rec["appended"].append({"kind": "pod", "id": entry_id, "pod": name})
        # An orphan breaks pod_entries_in_flight; without one no check's result changes: the new entry is in the list
        # (the front, or behind it) and counted with its pod (Tracker.broken).
        if orphan is not None:
            self.broken = None
            rec["orphaned"] = {"pod": name, "id": orphan.value.id}

    def record_event(self, event: ClusterEvent, event_id: str, ordinal: int, rec: Record) -> bool:
        if not self.in_flight_pods:
            return False
        if self.broken:  # after the in-flight pods' entries it breaks no invariant that holds (Tracker.broken)
            self.broken = None
        self.in_flight_events.push_back(EventEntry(event, event_id, ordinal))
        rec["appended"].append({"kind": "event", "id": event_id, "event": event.label})
        return True

    def record_update(self, name: str, entry_id: str, rec: Record) -> None:
        """1.31 (#125578): an update of an in-flight pod is appended as an UnschedulablePodUpdate entry."""
        if self.broken:  # after the pod's own entry it breaks no invariant that holds (Tracker.broken)
            self.broken = None
        self.in_flight_events.push_back(EventEntry(UNSCHEDULED_POD_UPDATE, entry_id, 0))
        rec["appended"].append({"kind": "event", "id": entry_id, "event": UNSCHEDULED_POD_UPDATE.label, "pod": name})

    def done(self, uid: str, rec: Record) -> None:
        elem = self.in_flight_pods.pop(uid, None)
        if elem is None:
            return
        if self.broken:  # the pod, its entry and events at the front go: what holds still does (Tracker.broken)
            self.broken = None
        entry: Any = self.in_flight_events.remove(elem)  # the pod's own: a PodEntry
        self.pod_entries -= 1
        removed = rec["removed"]
        removed.append({"kind": "pod", "id": entry.id, "pod": entry.name, "reason": "done"})
        self.cleanup_front(removed)

    def cleanup_front(self, removed: list[ListEntry]) -> None:
        """Drop event entries from the front: no remaining attempt was in flight when they arrived. Each is noted in
        ``removed`` (the step record's)."""
        events = self.in_flight_events
        front = events.front()
        while front is not None and type(front.value) is EventEntry:
            event: Any = events.remove(front)  # an EventEntry
            removed.append({"kind": "event", "id": event.id, "event": event.event.label, "reason": "cleanup_front"})
            front = events.front()

    def determine_hint(self, pinfo: QueuedPodInfo, worth: Worth, rules: Rules, rec: Record) -> int:
        """determineSchedulingHintForInFlightPod (v1.28.2 on): walk the entries after the pod's own."""
        info: Hint = {"pod": pinfo.name, "walk": []}
        rec["hint"] = info
        elem = self.in_flight_pods.get(pinfo.uid)
        if elem is None:
            info["start"] = {"rule": "not-in-flight"}
            if rules.not_in_flight_backoff:
                return decide(info, QUEUE_AFTER_BACKOFF, "not-in-flight-error")
            if pinfo.plugins:
                return decide(info, QUEUE_AFTER_BACKOFF, "not-in-flight-with-plugins")
            if len(self.in_flight_events) > len(self.in_flight_pods):
                return decide(info, QUEUE_AFTER_BACKOFF, "not-in-flight-events-retained")
            return decide(info, QUEUE_SKIP, "not-in-flight-no-events")
        info["start"] = {"rule": "after-own-entry", "id": elem.value.id}
        rejectors = pinfo.rejectors()  # 1.28: the unschedulable plugins; 1.29+: with the pending ones
        if rules.no_rejector_backoff and not rejectors:
            return decide(info, QUEUE_AFTER_BACKOFF, "no-rejector-plugins")
        if not rejectors:
            e = elem.next()
            while e is not None:
                value: Any = e.value  # an EventEntry or a PodEntry
                if type(value) is EventEntry:
                    info["walk"].append({"id": value.id, "event": value.event.label, "why": "event-seen"})
                    return decide(info, QUEUE_AFTER_BACKOFF, "no-plugins-event-after-pod")
                info["walk"].append({"id": value.id, "pod": value.name, "why": "pod-entry-skipped"})
                e = e.next()
            return decide(info, QUEUE_SKIP, "no-plugins-no-event")
        # 1.29+: without pending plugins nothing can say queueImmediately, so the first Queue ends the walk.
        enough = QUEUE_AFTER_BACKOFF if rules.pending_plugins and not pinfo.pending else None
        hint = walk_events(pinfo, elem.next(), worth, info["walk"], EventEntry, enough)
        return decide(info, hint, "events" if hint != QUEUE_SKIP else "no-event-worth-requeuing")

    # --- views -------------------------------------------------------------------------------
    def state(self) -> TrackerState:
        return {
            "inFlightPods": sorted(e.value.name for e in self.in_flight_pods.values()),
            "inFlightEvents": [e.value.as_state() for e in self.in_flight_events],
        }

    def view(self) -> TrackerView:
        return {"entries": self.entries(), "markers": []}

    def entries(self) -> list[ListEntry]:
        """The list with ids, for renderers (pod entries carry their pod and whether they are orphaned)."""
        live = {id(e) for e in self.in_flight_pods.values()}
        out: list[ListEntry] = []
        for e in self.in_flight_events:
            v = e.value
            if type(v) is PodEntry:
                out.append({"kind": "pod", "id": v.id, "pod": v.name, "orphaned": id(e) not in live})
            elif isinstance(v, EventEntry):
                out.append({"kind": "event", "id": v.id, "event": v.event.label})
        return out

    structure_check_names = ("events_preceded_by_pod", "pod_entries_in_flight")

    def check(self) -> list[Violated]:
        broken: list[Violated] = []
        for e in self.in_flight_pods.values():  # a loop, not a comprehension: no function made and called per step
            if e.list is None:  # a pod's own entry left the list while it is in flight
                if not broken:
                    broken.append({"name": "in_flight_boundary", "violations": []})
                broken[0]["violations"].append({"pod": e.value.name, "id": e.value.id, "unseen": []})
        front = self.in_flight_events.front()
        if front is not None and type(front.value) is EventEntry:
            broken.append({"name": "events_preceded_by_pod", "violations": [{"id": front.value.id}]})
        orphans = self.pod_entries - len(self.in_flight_pods)
        if orphans:
            broken.append({"name": "pod_entries_in_flight", "violations": [{"orphaned_pod_entries": orphans}]})
        return broken

    # --- checkpoints: elements are stored as positions in the list ------------------------------
    def __getstate__(self) -> dict[str, Any]:
        position = {id(e): i for i, e in enumerate(self.in_flight_events)}
        pods = {uid: position[id(e)] for uid, e in self.in_flight_pods.items()}
        return {"values": self.in_flight_events.values(), "pods": pods, "pod_entries": self.pod_entries}

    def __setstate__(self, state: dict[str, Any]) -> None:
        InFlightEvents.__init__(self)
        elements = self.in_flight_events.extend(state["values"])
        self.in_flight_pods = {uid: elements[i] for uid, i in state["pods"].items()}
        self.pod_entries = state["pod_entries"]
