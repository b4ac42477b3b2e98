"""What moves pods between the sub-queues other than a pod's own attempt: cluster events
(movePodsToActiveOrBackoffQueue and its callers), Activate, Update, and the clock with Run's two flushes."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .config import BACKOFF_PERIOD, LEFTOVER_PERIOD, NS
from .errors import StepError
from .events import (
    ACTIVE_Q,
    BACKOFF_Q,
    GATES_ELIMINATED,
    HINT_NAMES,
    POD_OTHER_UPDATE,
    QUEUE_SKIP,
    UNSCHEDULABLE_PODS,
    UNSCHEDULABLE_TIMEOUT,
    UNSCHEDULED_POD_UPDATE,
    ClusterEvent,
    force_activate,
)
from .lanes import Lanes
from .pod import QueuedPodInfo
from .record import Flush, Record, Result


class Moves(Lanes):
    # --- cluster events ----------------------------------------------------------------------
    def move_pods_to_active_or_backoff_queue(self, pods: Iterable[QueuedPodInfo], event: ClusterEvent,
                                             rec: Record) -> Result:
        rec["calls"].append("movePodsToActiveOrBackoffQueue")
        event_id, ordinal = self._new_event_id()
        if self.rules.events_of_interest and not self.config.interested(event, self.rules):
            rec["ignored"] = {"event": event.label, "id": event_id}
            return {"event_id": event_id, "event": event.label, "recorded_in_flight": False, "moved": {}}
        moved = {}
        evaluations, moves, worth = rec["evaluations"], rec["moves"], self.is_pod_worth_requeuing
        for pinfo in pods:
            name = pinfo.name
            if pinfo.gated and self.skips_gated(pinfo, event):
                rec["skipped"].append({"pod": name, "why": "gated: held by its scheduling gates"})
                continue
            hint, why, plugin = worth(pinfo, event)
            evaluations.append({"pod": name, "hint": HINT_NAMES[hint], "why": why, "plugin": plugin})
            if hint == QUEUE_SKIP:
                continue
            del self.unschedulable_pods[name]
            moved[name] = queue = self.requeue_pod_via_queueing_hint(pinfo, hint)
            moves.append({"pod": name, "from": UNSCHEDULABLE_PODS, "to": queue})
        self.move_request_cycle = self.scheduling_cycle
        # Recorded only while some pod is in flight (always empty with the gate off).
        recorded = self.tracker.record_event(event, event_id, ordinal, rec)
        return {"event_id": event_id, "event": event.label, "recorded_in_flight": recorded, "moved": moved}

    def move_all_to_active_or_backoff_queue(self, event: ClusterEvent, exclude: Iterable[str] | None,
                                            rec: Record) -> Result:
        rec["calls"].append("MoveAllToActiveOrBackoffQueue")
        pods: Iterable[QueuedPodInfo] = self.unschedulable_pods.values()
        pods = [p for p in pods if p.name not in exclude] if exclude else list(pods)
        return self.move_pods_to_active_or_backoff_queue(pods, event, rec)

    def assigned_pod_added(self, event: ClusterEvent, affinity_matching: frozenset[str], rec: Record) -> Result:
        rec["calls"].append("AssignedPodAdded")
        pods = [p for p in self.unschedulable_pods.values() if p.name in affinity_matching]
        return self.move_pods_to_active_or_backoff_queue(pods, event, rec)

    # --- Activate and Update -----------------------------------------------------------------
    def activate(self, names: Iterable[str], rec: Record) -> Result:
        """Activate (a map of pods: each once). From 1.32 a pod it cannot move leaves ForceActivate:<pod> in the list
        when it is in flight, and moveRequestCycle = schedulingCycle (scheduling_queue.go ee4fafa6 l. 613-635)."""
        forced = []
        for name in dict.fromkeys(names):
            if self.activate_one(name, rec) or not self.rules.activate_force_event:
                continue
            if self.gate and self.tracker.in_flight(self.pods[name][0]):
                forced.append(name)
            self.move_request_cycle = self.scheduling_cycle
        ids = []
        for name in sorted(forced):  # a Go map's order, unobservable: sorted by pod as the traces are
            self.activations_seen += 1
            entry_id = f"a{self.activations_seen}"
            self.tracker.record_event(force_activate(name, self.pods[name][0]), entry_id, 0, rec)
            ids.append(entry_id)
        return {"recorded_in_flight": True, "event_ids": ids} if ids else {}

    def activate_one(self, name: str, rec: Record) -> bool:
        """activate: the pod's record in unschedulablePods or backoffQ goes to activeQ; False when there is none
        (or, before 1.31, the pod is in activeQ already) or its scheduling gates hold it."""
        if name in self.active_q and not self.rules.activate_in_active_q:
            rec["skipped"].append({"pod": name, "why": "in activeQ already, so Activate returns early (before "
                                                       "1.31, #126222)"})
            return False
        src = self.where(name)
        pinfo = self.unschedulable_pods.get(name) or self.backoff_q.get(name)
        if pinfo is None:
            rec["skipped"].append({"pod": name, "why": "not in unschedulablePods or backoffQ"})
            return False
        if pinfo.gated and not self.pre_enqueue(pinfo):
            rec["skipped"].append({"pod": name, "why": "gated: held by its scheduling gates"})
            return False
        if src == ACTIVE_Q:  # 1.31: in activeQ and in another sub-queue (raw ops); that record replaces it
            src = UNSCHEDULABLE_PODS if name in self.unschedulable_pods else BACKOFF_Q
        self.active_q.add(pinfo)
        self.unschedulable_pods.pop(name, None)
        self.backoff_q.delete(name)
        rec["moves"].append({"pod": name, "from": src, "to": ACTIVE_Q})
        return True

    UPDATE_RULES = ("in_flight_update_event", "unschedulable_update_by_hint")  # the Rules update() reads

    def update(self, name: str, changed: bool, rec: Record, ungate: bool = False) -> Result:
        """Update; ``ungate``: the update removes the pod's scheduling gates (1.32+: UpdatePodSchedulingGatesEliminated,
        the event PodSchedulingPropertiesChange returns for it)."""
        if ungate:
            if not self.rules.pod_update_events:
                raise StepError("op", "this version's model has no scheduling gates (v1.32.0 and later have)")
            self.gated_pods.discard(name)
        event = GATES_ELIMINATED if ungate else POD_OTHER_UPDATE
        if self.rules.in_flight_update_event and self.gate and self.tracker.in_flight(self.pods[name][0]):
            self.updates_seen += 1
            entry_id = f"u{self.updates_seen}"
            self.tracker.record_update(name, entry_id, rec)
            return {"event_id": entry_id, "event": UNSCHEDULED_POD_UPDATE.label, "recorded_in_flight": True}
        if name in self.active_q or name in self.backoff_q:
            rec["skipped"].append({"pod": name, "why": "updated in place"})
            return {}
        pinfo = self.unschedulable_pods.get(name)
        if pinfo is not None:
            if self.rules.unschedulable_update_by_hint and self.gate:
                return self._update_by_hint(pinfo, event, rec)
            if not changed:
                rec["skipped"].append({"pod": name, "why": "update not scheduling-relevant"})
                return {}
            queue = BACKOFF_Q if self.backing_off(pinfo) else ACTIVE_Q
            (self.backoff_q if queue == BACKOFF_Q else self.active_q).add(pinfo)
            del self.unschedulable_pods[name]
            rec["moves"].append({"pod": name, "from": UNSCHEDULABLE_PODS, "to": queue})
            return {}
        # In no queue (e.g. in flight): a new record goes to activeQ; the in-flight entry is untouched.
        if name in self.attempting:
            rec["skipped"].append({"pod": name, "why": "in flight: a second record is added to activeQ"})
        pinfo = self.new_record(name)
        if self.gated_pods and not self.pre_enqueue(pinfo):
            self.unschedulable_pods[name] = pinfo
            rec["moves"].append({"pod": name, "from": None, "to": UNSCHEDULABLE_PODS})
            return {}
        self.active_q.add(pinfo)
        rec["moves"].append({"pod": name, "from": None, "to": ACTIVE_Q})
        return {}

    def _update_by_hint(self, pinfo: QueuedPodInfo, event: ClusterEvent, rec: Record) -> Result:
        """1.31: an update of a pod in unschedulablePods is the event Pod/Update (PodSchedulingPropertiesChange:
        no label or resource change, so assignedPodOtherUpdate; 1.32+ an `ungate` is
        UpdatePodSchedulingGatesEliminated) judged by the pod's plugins' hints."""
        hint, why, plugin = self.is_pod_worth_requeuing(pinfo, event)
        rec["evaluations"].append({"pod": pinfo.name, "hint": HINT_NAMES[hint], "why": why, "plugin": plugin})
        queue = self.requeue_pod_via_queueing_hint(pinfo, hint)
        if queue != UNSCHEDULABLE_PODS:
            del self.unschedulable_pods[pinfo.name]
            rec["moves"].append({"pod": pinfo.name, "from": UNSCHEDULABLE_PODS, "to": queue})
        return {}

    # --- the clock and Run's flushes ---------------------------------------------------------
    def advance_clock(self, seconds: float, rec: Record) -> Result:
        target = self.now + round(seconds * NS)
        if not self.config.periodic_flushes:
            self.now = target
            return {"now": self.now / NS}
        # Run's tickers fire at every grid time in (now, target]; only the ticks that move a pod are run (the
        # others find nothing to do), in time order, the backoff flush first when both fire at once.
        rec["calls"].append("clock")
        tickers: tuple[tuple[str, str, Callable[[Record], Result]], ...] = (
            ("flush_backoff", BACKOFF_Q, self.flush_backoff_q_completed),
            ("flush_unschedulable_leftover", UNSCHEDULABLE_PODS, self.flush_unschedulable_pods_leftover))
        flushes: list[Flush] = []
        while True:
            due = [(op, self._next_tick(where), flush) for op, where, flush in tickers]
            ready = [(op, at, flush) for op, at, flush in due if at is not None and at <= target]
            if not ready:
                break
            self.now = at = min(at for _, at, _ in ready)
            for op, when, flush in ready:
                if when == at:
                    flushes.append({"at": at / NS, "op": op, "result": flush(rec)})
        self.now = target
        return {"now": self.now / NS, "flushes": flushes}

    def _tick_after(self, period: int, after: int) -> int:
        """The first tick of a ``period`` ticker strictly after ``after`` (ticks at k·period - flush_phase; with
        SchedulerPopFromBackoffQ the 1 s ticker is aligned to whole seconds: waitUntilAlignedWithOrderingWindow)."""
        phase = 0 if period == BACKOFF_PERIOD and self.window else self.config.flush_phase
        return ((after + phase) // period + 1) * period - phase

    def _next_flush_of(self, record: QueuedPodInfo, where: str | None) -> int | None:
        """When Run's tickers will move ``record`` out of backoffQ (the first 1 s tick at or after its backoff
        expiry) or unschedulablePods (the first 30 s tick when it has been parked longer than the limit); None
        elsewhere. Never before now."""
        return self._flush_tick_of(record, where, self.now)

    def missed_flush_of(self, record: QueuedPodInfo, where: str | None) -> int | None:
        """Without periodic flushes: the tick at which Run's tickers would have moved ``record`` out of its
        sub-queue, when that tick is already past (it stays until a flush step or another move); else None."""
        tick = self._flush_tick_of(record, where, None)
        return tick if tick is not None and tick <= self.now else None

    def _flush_tick_of(self, record: QueuedPodInfo, where: str | None, since: int | None) -> int | None:
        """The first tick that moves ``record``, not before ``since`` (None: from the moment it could move)."""
        if where == BACKOFF_Q:
            due = self.backoff_done_at(record) - 1
            return self._tick_after(BACKOFF_PERIOD, due if since is None else max(since, due))
        if where == UNSCHEDULABLE_PODS:
            due = record.timestamp + self.config.max_in_unschedulable
            return self._tick_after(LEFTOVER_PERIOD, due if since is None else max(since, due))
        return None

    def _next_tick(self, where: str) -> int | None:
        """The first tick after now at which the flush of sub-queue ``where`` moves a pod: its first pod's."""
        if where == BACKOFF_Q:
            heads = [h.peek() for h in self.backoff_q.heaps()]  # the earliest expiries
            first = min((h for h in heads if h is not None), key=self.backoff_done_at, default=None)
        else:
            first = min(self.unschedulable_pods.values(), key=lambda p: p.timestamp, default=None)  # parked longest
        return None if first is None else self._next_flush_of(first, where)

    def flush_backoff_q_completed(self, rec: Record) -> Result:
        """flushBackoffQCompleted: every record whose backoff is over moves to activeQ, podBackoffQ's first, then
        (1.33+) podErrorBackoffQ's (popAllBackoffCompleted, backoff_queue.go 74a7d3b1 l. 284-290)."""
        rec["calls"].append("flushBackoffQCompleted")
        moved = []
        for heap in self.backoff_q.heaps():
            top = heap.peek()
            while top is not None and not self.backing_off(top):
                heap.pop()
                self.active_q.add(top)
                moved.append(top.name)
                rec["moves"].append({"pod": top.name, "from": BACKOFF_Q, "to": ACTIVE_Q})
                top = heap.peek()
        return {"moved_to_activeQ": sorted(moved)}

    def flush_unschedulable_pods_leftover(self, rec: Record) -> Result:
        rec["calls"].append("flushUnschedulablePodsLeftover")
        now, limit = self.now, self.config.max_in_unschedulable
        stale = []
        for p in self.unschedulable_pods.values():  # a loop, not a comprehension: no function made and called per flush
            if now - p.timestamp > limit:
                stale.append(p)
        if not stale:
            return {"moved": {}}
        return self.move_pods_to_active_or_backoff_queue(stale, UNSCHEDULABLE_TIMEOUT, rec)
