"""The common PriorityQueue of kube-scheduler (scheduling_queue.go), one version's rules and tracker plugged in.

Every operation takes ``rec``, the step record being built (see record.py), and appends what it did. What a later
release changed is one field of ``versions.Rules``, read where it governs (``self.rules.<name>``).
"""

from __future__ import annotations

from .config import BACKOFF_PERIOD, LEFTOVER_PERIOD, NS, QueueConfig
from .errors import StepError
from .events import (
    ACTIVE_Q,
    BACKOFF_Q,
    HINT_NAMES,
    POD_OTHER_UPDATE,
    QUEUE_AFTER_BACKOFF,
    QUEUE_IMMEDIATELY,
    QUEUE_SKIP,
    UNSCHEDULABLE_PODS,
    UNSCHEDULABLE_TIMEOUT,
    UNSCHEDULED_POD_UPDATE,
)
from .pod import NO_PLUGINS, QueuedPodInfo, backoff_duration
from .subqueues import KeyedHeap

IN_FLIGHT = "inFlight"


class PriorityQueue:
    def __init__(self, config: QueueConfig, rules, tracker, pods: dict):
        self.config = config
        self.rules = rules  # versions.Rules: what this version changed
        # SchedulerQueueingHints: the scenario's setting, unless the version turns it off (v1.28.5).
        self.gate = config.gate and not rules.gate_off
        self.tracker = tracker  # InFlightEvents (v1.28.2 and later) or ReceivedEvents (v1.28.1)
        self.pods = pods  # name -> (uid, priority): the declared pods, read-only
        self.now = 0
        # A pod (queue key = name) is in at most one of activeQ, podBackoffQ, unschedulablePods.
        self.active_q = KeyedHeap(_active_order)
        self.backoff_q = KeyedHeap(self._backoff_order)
        self.unschedulable_pods: dict[str, QueuedPodInfo] = {}
        self.scheduling_cycle = 0
        self.move_request_cycle = -1
        self.popped: dict[str, QueuedPodInfo] = {}  # the record the last Pop of each pod returned
        self.attempting: dict[str, str] = {}  # pods popped and not yet failed/done -> pod entry id
        self.events_seen = 0  # numbers event ids e1, e2, ...
        self.updates_seen = 0  # 1.31: numbers the in-flight update entries u1, u2, ...
        self.records_created = 0
        self._worth: dict = {}  # is_pod_worth_requeuing's answers, kept out of checkpoints

    # --- helpers -----------------------------------------------------------------------------
    def _backoff_order(self, r: QueuedPodInfo):
        return (self.backoff_expiry(r), r.seq)

    def backoff_expiry(self, r: QueuedPodInfo) -> int:
        c = self.config
        return r.timestamp + backoff_duration(r.attempts, c.initial_backoff, c.max_backoff)

    def backing_off(self, r: QueuedPodInfo) -> bool:
        return self.backoff_expiry(r) > self.now  # strict, as isPodBackingoff

    def overdue(self) -> list[dict]:
        """Pods a flush would move now: in backoffQ with their backoff over, in unschedulablePods longer than
        the limit (``max_in_unschedulable``): [{pod, where, due (s)}]. Without periodic flushes only explicit
        flush steps move them."""
        limit = self.config.max_in_unschedulable
        backed_off = [(r.name, BACKOFF_Q, self.backoff_expiry(r)) for r in self.backoff_q.records()
                      if not self.backing_off(r)]
        parked = [(r.name, UNSCHEDULABLE_PODS, r.timestamp + limit) for r in self.unschedulable_pods.values()
                  if self.now - r.timestamp > limit]
        return [{"pod": pod, "where": where, "due": due / NS} for pod, where, due in sorted(backed_off + parked)]

    def new_record(self, name: str, plugins=NO_PLUGINS) -> QueuedPodInfo:
        uid, priority = self.pods[name]
        self.records_created += 1
        return QueuedPodInfo(name, uid, priority, self.now, self.records_created, plugins)

    def where(self, name: str) -> str | None:
        if name in self.active_q.index:
            return ACTIVE_Q
        if name in self.backoff_q.index:
            return BACKOFF_Q
        if name in self.unschedulable_pods:
            return UNSCHEDULABLE_PODS
        if name in self.attempting:
            return IN_FLIGHT
        return None

    def _new_event_id(self) -> tuple[str, int]:
        self.events_seen += 1
        return f"e{self.events_seen}", self.events_seen

    # --- QueueingHint ------------------------------------------------------------------------
    def is_pod_worth_requeuing(self, pinfo: QueuedPodInfo, event) -> tuple[int, str, str | None]:
        """isPodWorthRequeuing: (hint, why, deciding plugin). The answer depends only on the event and the record's
        two plugin sets (the configuration and the rules are fixed), so each combination is worked out once."""
        key = (event, pinfo.plugins, pinfo.pending)
        found = self._worth.get(key)
        if found is None:
            found = self._worth[key] = self._worth_of(pinfo, event)
        return found

    def _worth_of(self, pinfo: QueuedPodInfo, event) -> tuple[int, str, str | None]:
        rejectors = pinfo.rejectors()
        if not rejectors:
            return QUEUE_AFTER_BACKOFF, "no-unschedulable-plugins", None
        if event.is_wildcard:
            return QUEUE_AFTER_BACKOFF, "wildcard-event", None
        if not self.config.hint_map:
            return QUEUE_AFTER_BACKOFF, "no-hint-map", None
        fns = self.config.hint_fns_for(event, self.rules)
        if self.rules.pending_plugins:
            return _worth_by_queue(pinfo, rejectors, fns)
        hint, why, decider = QUEUE_SKIP, "no-registered-hint", None
        for plugin, h, _by_wildcard in fns:  # 1.28 and 1.29 match no registration by wildcard
            if plugin not in pinfo.plugins:
                continue
            if h == QUEUE_IMMEDIATELY:
                return h, "hint-fn", plugin
            if h == QUEUE_AFTER_BACKOFF:
                hint, why, decider = h, "hint-fn", plugin
            elif decider is None:
                why, decider = "hint-fn-skip", plugin
        return hint, why, decider

    def requeue_pod_via_queueing_hint(self, pinfo: QueuedPodInfo, hint: int) -> str:
        if hint == QUEUE_SKIP:
            self.unschedulable_pods[pinfo.name] = pinfo
            return UNSCHEDULABLE_PODS
        if hint == QUEUE_AFTER_BACKOFF and self.backing_off(pinfo):
            self.backoff_q.add(pinfo)
            return BACKOFF_Q
        self.active_q.add(pinfo)
        return ACTIVE_Q

    # --- operations --------------------------------------------------------------------------
    def add(self, name: str, rec: dict) -> dict:
        src = self.where(name)
        self.active_q.add(self.new_record(name))
        self.unschedulable_pods.pop(name, None)
        self.backoff_q.delete(name)
        rec["moves"].append({"pod": name, "from": src, "to": ACTIVE_Q})
        return {}

    def active_add_raw(self, name: str, rec: dict) -> dict:
        src = self.where(name)
        self.active_q.add(self.new_record(name))
        rec["moves"].append({"pod": name, "from": src, "to": ACTIVE_Q})
        return {}

    def pop(self, expect: str | None, rec: dict) -> dict:
        pinfo = self.active_q.pop() if expect is None else self._pop_expected(expect)
        if pinfo is None:
            raise StepError("op", "pop on an empty activeQ (Pop would block)")
        pinfo.attempts += 1
        self.scheduling_cycle += 1
        name = pinfo.name
        entry_id = f"{name}@{self.scheduling_cycle}"
        if self.gate:
            self.tracker.pop(pinfo, entry_id, rec)
        if self.rules.pop_clears_plugins or self.config.pop_clears_unschedulable_plugins:
            if pinfo.plugins or pinfo.pending:
                rec["cleared"] = [*pinfo.plugins, *pinfo.pending]  # in no order: narration sorts them
            pinfo.plugins = NO_PLUGINS
        if self.rules.pending_plugins:
            pinfo.pending = NO_PLUGINS
        self.popped[name] = pinfo
        self.attempting[name] = entry_id
        rec["moves"].append({"pod": name, "from": ACTIVE_Q, "to": IN_FLIGHT})
        return {"popped": name}

    def _pop_expected(self, expect: str) -> QueuedPodInfo | None:
        """Pop's record when the step names it: ``expect`` must be (one of) the head(s) of activeQ, tied on priority
        and Timestamp; None when activeQ is empty."""
        top = self.active_q.peek()
        if top is None or expect == top.name:
            return self.active_q.pop()
        heads = self.active_q.heads(_tie)
        if expect not in {h.name for h in heads}:
            raise StepError("expect", f"expected {expect!r} at the head of activeQ, but the head is {top.name!r}")
        return self.active_q.delete(expect)

    def done(self, name: str, rec: dict) -> dict:
        rec["calls"].append("Done")
        if self.attempting.pop(name, None) is not None:
            rec["moves"].append({"pod": name, "from": IN_FLIGHT, "to": None})
        if self.gate:
            self.tracker.done(self.pods[name][0], rec)
        return {}

    def add_unschedulable_if_not_present(
        self, name: str, plugins, fresh: bool, pod_scheduling_cycle: int | None, rec: dict, pending=None
    ) -> dict:
        if fresh:
            pinfo = self.new_record(name, plugins or ())
            plugins = plugins or ()
        else:
            pinfo = self.popped.get(name)
            if pinfo is None:
                raise StepError("pod_info", f"{name!r} was never popped; use pod_info: fresh")
            if plugins is not None:
                pinfo.plugins = frozenset(plugins)
        self._reject(pinfo, plugins, pending)
        cycle = self.scheduling_cycle if pod_scheduling_cycle is None else pod_scheduling_cycle
        calls = rec["calls"]
        calls.append("AddUnschedulableIfNotPresent")
        failed = rec["failed"] = {"pod": name, "plugins": sorted(pinfo.plugins), "attempts": pinfo.attempts}
        if self.rules.pending_plugins:
            failed["pending"] = sorted(pinfo.pending)
        try:
            present = self._present_in(name)
            if present is not None:
                return {"error": f"Pod {name} is already present in {present}"}
            pinfo.timestamp = self.now
            if not self.gate:
                if self.move_request_cycle >= cycle:
                    self.backoff_q.add(pinfo)
                    queue, rule = BACKOFF_Q, "moveRequestCycle>=podSchedulingCycle"
                elif self.rules.no_rejector_backoff and not pinfo.rejectors():
                    self.backoff_q.add(pinfo)
                    queue, rule = BACKOFF_Q, "no-rejector-plugins"
                else:
                    self.unschedulable_pods[name] = pinfo
                    queue, rule = UNSCHEDULABLE_PODS, "moveRequestCycle<podSchedulingCycle"
                rec["gate_off_rule"] = {"moveRequestCycle": self.move_request_cycle, "podSchedulingCycle": cycle}
                rec["moves"].append({"pod": name, "from": IN_FLIGHT, "to": queue})
                return {"queue": queue, "rule": rule}
            calls.append("determineSchedulingHintForInFlightPod")
            hint = self.tracker.determine_hint(pinfo, self.is_pod_worth_requeuing, self.rules, rec)
            calls.append("requeuePodViaQueueingHint")
            queue = self.requeue_pod_via_queueing_hint(pinfo, hint)
            rec["moves"].append({"pod": name, "from": IN_FLIGHT, "to": queue})
            return {"hint": HINT_NAMES[hint], "queue": queue}
        finally:
            self.attempting.pop(name, None)
            if self.gate:
                calls.append("done")
                self.tracker.done(pinfo.uid, rec)  # deferred in upstream: runs on every return path

    def _present_in(self, name: str) -> str | None:
        """Where AddUnschedulableIfNotPresent finds the pod already. Upstream checks unschedulablePods, then activeQ,
        then podBackoffQ (not where()'s order): a pod in two sub-queues at once (after active_add_raw) is reported
        as in the unschedulable queue."""
        if name in self.unschedulable_pods:
            return "unschedulable queue"
        if name in self.active_q.index:
            return "the active queue"
        if name in self.backoff_q.index:
            return "the backoff queue"
        return None

    def _reject(self, pinfo: QueuedPodInfo, plugins, pending) -> None:
        """The failure's plugins: 1.29+ gives the pod the pending twins of ``plugins`` (REAL-QUEUE.md) plus the
        explicit ``pending`` ones; 1.28 has one set, so explicit pending plugins join UnschedulablePlugins."""
        if not self.rules.pending_plugins:
            if pending:
                pinfo.plugins = pinfo.plugins | frozenset(pending)
        elif pending is not None or plugins is not None:
            twins = self.config.pending_twins(tuple(plugins or ()))
            pinfo.pending = twins | frozenset(pending) if pending else twins

    def move_pods_to_active_or_backoff_queue(self, pods: list, event, rec: dict) -> dict:
        rec["calls"].append("movePodsToActiveOrBackoffQueue")
        event_id, ordinal = self._new_event_id()
        if self.rules.events_of_interest and not self.config.interested(event, self.rules):
            rec["ignored"] = {"event": event.label, "id": event_id}
            return {"event_id": event_id, "event": event.label, "recorded_in_flight": False, "moved": {}}
        moved = {}
        evaluations, moves, worth = rec["evaluations"], rec["moves"], self.is_pod_worth_requeuing
        for pinfo in pods:
            name = pinfo.name
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

    def move_all_to_active_or_backoff_queue(self, event, exclude, rec: dict) -> dict:
        rec["calls"].append("MoveAllToActiveOrBackoffQueue")
        pods = self.unschedulable_pods.values()
        pods = [p for p in pods if p.name not in exclude] if exclude else list(pods)
        return self.move_pods_to_active_or_backoff_queue(pods, event, rec)

    def assigned_pod_added(self, event, affinity_matching, rec: dict) -> dict:
        rec["calls"].append("AssignedPodAdded")
        pods = [p for p in self.unschedulable_pods.values() if p.name in affinity_matching]
        return self.move_pods_to_active_or_backoff_queue(pods, event, rec)

    def activate(self, names, rec: dict) -> dict:
        for name in names:
            if name in self.active_q and not self.rules.activate_in_active_q:
                rec["skipped"].append({"pod": name, "why": "in activeQ already, so Activate returns early (before "
                                                           "1.31, #126222)"})
                continue
            src = self.where(name)
            pinfo = self.unschedulable_pods.get(name) or self.backoff_q.get(name)
            if pinfo is None:
                rec["skipped"].append({"pod": name, "why": "not in unschedulablePods or backoffQ"})
                continue
            if src == ACTIVE_Q:  # 1.31: in activeQ and in another sub-queue (raw ops); that record replaces it
                src = UNSCHEDULABLE_PODS if name in self.unschedulable_pods else BACKOFF_Q
            self.active_q.add(pinfo)
            self.unschedulable_pods.pop(name, None)
            self.backoff_q.delete(name)
            rec["moves"].append({"pod": name, "from": src, "to": ACTIVE_Q})
        return {}

    UPDATE_RULES = ("in_flight_update_event", "unschedulable_update_by_hint")  # the Rules update() reads

    def update(self, name: str, changed: bool, rec: dict) -> dict:
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
                return self._update_by_hint(pinfo, rec)
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
        self.active_q.add(self.new_record(name))
        rec["moves"].append({"pod": name, "from": None, "to": ACTIVE_Q})
        return {}

    def _update_by_hint(self, pinfo: QueuedPodInfo, rec: dict) -> dict:
        """1.31: an update of a pod in unschedulablePods is the event Pod/Update (PodSchedulingPropertiesChange:
        no label or resource change, so assignedPodOtherUpdate) judged by the pod's plugins' hints."""
        hint, why, plugin = self.is_pod_worth_requeuing(pinfo, POD_OTHER_UPDATE)
        rec["evaluations"].append({"pod": pinfo.name, "hint": HINT_NAMES[hint], "why": why, "plugin": plugin})
        queue = self.requeue_pod_via_queueing_hint(pinfo, hint)
        if queue != UNSCHEDULABLE_PODS:
            del self.unschedulable_pods[pinfo.name]
            rec["moves"].append({"pod": pinfo.name, "from": UNSCHEDULABLE_PODS, "to": queue})
        return {}

    def delete(self, name: str, rec: dict) -> dict:
        src = self.where(name)
        if self.active_q.delete(name) is None:
            self.backoff_q.delete(name)
            self.unschedulable_pods.pop(name, None)
        if src in (ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_PODS):
            rec["moves"].append({"pod": name, "from": src, "to": None})
        return {}

    def advance_clock(self, seconds: float, rec: dict) -> dict:
        target = self.now + round(seconds * NS)
        if not self.config.periodic_flushes:
            self.now = target
            return {"now": self.now / NS}
        # Run's tickers fire at every grid time in (now, target]; only the ticks that move a pod are run (the
        # others find nothing to do), in time order, the backoff flush first when both fire at once.
        rec["calls"].append("clock")
        tickers = (("flush_backoff", BACKOFF_Q, self.flush_backoff_q_completed),
                   ("flush_unschedulable_leftover", UNSCHEDULABLE_PODS, self.flush_unschedulable_pods_leftover))
        flushes = []
        while True:
            due = [(op, self._next_tick(where), flush) for op, where, flush in tickers]
            due = [(op, at, flush) for op, at, flush in due if at is not None and at <= target]
            if not due:
                break
            self.now = at = min(at for _, at, _ in due)
            for op, when, flush in due:
                if when == at:
                    flushes.append({"at": at / NS, "op": op, "result": flush(rec)})
        self.now = target
        return {"now": self.now / NS, "flushes": flushes}

    def _tick_after(self, period: int, after: int) -> int:
        """The first tick of a ``period`` ticker strictly after ``after`` (ticks at k·period - flush_phase)."""
        phase = self.config.flush_phase
        return ((after + phase) // period + 1) * period - phase

    def _next_flush_of(self, record: QueuedPodInfo, where: str | None) -> int | None:
        """When Run's tickers will move ``record`` out of backoffQ (the first 1 s tick at or after its backoff
        expiry) or unschedulablePods (the first 30 s tick when it has been parked longer than the limit); None
        elsewhere. Never before now."""
        if where == BACKOFF_Q:
            return self._tick_after(BACKOFF_PERIOD, max(self.now, self.backoff_expiry(record) - 1))
        if where == UNSCHEDULABLE_PODS:
            limit = self.config.max_in_unschedulable
            return self._tick_after(LEFTOVER_PERIOD, max(self.now, record.timestamp + limit))
        return None

    def _next_tick(self, where: str) -> int | None:
        """The first tick after now at which the flush of sub-queue ``where`` moves a pod: its first pod's."""
        if where == BACKOFF_Q:
            first = self.backoff_q.peek()  # the earliest expiry
        else:
            first = min(self.unschedulable_pods.values(), key=lambda p: p.timestamp, default=None)  # parked longest
        return None if first is None else self._next_flush_of(first, where)

    def flush_backoff_q_completed(self, rec: dict) -> dict:
        rec["calls"].append("flushBackoffQCompleted")
        moved = []
        top = self.backoff_q.peek()
        while top is not None and not self.backing_off(top):
            self.backoff_q.pop()
            self.active_q.add(top)
            moved.append(top.name)
            rec["moves"].append({"pod": top.name, "from": BACKOFF_Q, "to": ACTIVE_Q})
            top = self.backoff_q.peek()
        return {"moved_to_activeQ": sorted(moved)}

    def flush_unschedulable_pods_leftover(self, rec: dict) -> dict:
        rec["calls"].append("flushUnschedulablePodsLeftover")
        now, limit = self.now, self.config.max_in_unschedulable
        stale = []
        for p in self.unschedulable_pods.values():  # a loop, not a comprehension: no function made and called per flush
            if now - p.timestamp > limit:
                stale.append(p)
        if not stale:
            return {"moved": {}}
        return self.move_pods_to_active_or_backoff_queue(stale, UNSCHEDULABLE_TIMEOUT, rec)

    def backoff_pop_all_raw(self, rec: dict) -> dict:
        for name in list(self.backoff_q.index):
            rec["moves"].append({"pod": name, "from": BACKOFF_Q, "to": None})
        self.backoff_q = KeyedHeap(self._backoff_order)
        return {}

    def bump_scheduling_cycle_raw(self, rec: dict) -> dict:
        self.scheduling_cycle += 1
        return {}

    # --- views -------------------------------------------------------------------------------
    def state(self) -> dict:
        """The trace ``state`` object of scenario-format.md (exactly these keys)."""
        return {
            "activeQ": sorted(self.active_q.index),
            "backoffQ": sorted(self.backoff_q.index),
            "unschedulablePods": sorted(self.unschedulable_pods),
            "schedulingCycle": self.scheduling_cycle,
            "moveRequestCycle": self.move_request_cycle,
            **self.tracker.state(),
        }

    def view(self) -> dict:
        """What a renderer needs beyond ``state``: the clock, each pod's record, the list with ids."""
        pods = {}
        for name in self.pods:
            where = self.where(name)
            record = self._record_at(name, where)
            if record is None:
                pods[name] = {"where": where}
                continue
            expiry = self.backoff_expiry(record)
            pods[name] = {
                "where": where,
                "attempts": record.attempts,
                "plugins": sorted(record.plugins),
                **({"pending": sorted(record.pending)} if self.rules.pending_plugins else {}),
                "timestamp": record.timestamp / NS,
                "backoffExpiry": expiry / NS,
                "backingOff": expiry > self.now,
            }
            flush = self._next_flush_of(record, where) if self.config.periodic_flushes else None
            if flush is not None:
                pods[name]["nextFlush"] = flush / NS  # the periodic flush that will move it, if nothing else does
        order = {"activeQ": self.active_q.names_in_order(), "backoffQ": self.backoff_q.names_in_order()}
        heads = [r.name for r in self.active_q.heads(_tie)]  # what a pop may take (a named pop: any of them)
        return {"now": self.now / NS, "pods": pods, "order": order, "heads": heads, **self.tracker.view()}

    def _record_at(self, name: str, where: str | None) -> QueuedPodInfo | None:
        if where == ACTIVE_Q:
            return self.active_q.get(name)
        if where == BACKOFF_Q:
            return self.backoff_q.get(name)
        if where == UNSCHEDULABLE_PODS:
            return self.unschedulable_pods[name]
        return self.popped.get(name)

    # --- checkpoints: pickled, with the heaps stored as their records --------------------------
    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        del state["_worth"]
        state["active_q"] = list(self.active_q.records())
        state["backoff_q"] = list(self.backoff_q.records())
        return state

    def __setstate__(self, state: dict) -> None:
        active, backoff = state.pop("active_q"), state.pop("backoff_q")
        self.__dict__.update(state)
        self._worth = {}
        self.active_q = KeyedHeap(_active_order)
        self.backoff_q = KeyedHeap(self._backoff_order)
        for r in active:
            self.active_q.add(r)
        for r in backoff:
            self.backoff_q.add(r)


def _worth_by_queue(pinfo: QueuedPodInfo, rejectors: frozenset, fns: list) -> tuple[int, str, str | None]:
    """isPodWorthRequeuing's hint loop from 1.29: Queue from a pending plugin is queueImmediately; from an
    unschedulable plugin queueAfterBackoff, final unless the pod has pending plugins that might still say Queue."""
    hint, why, decider = QUEUE_SKIP, "no-registered-hint", None
    for plugin, h, by_wildcard in fns:
        if plugin not in rejectors:
            continue
        if h == QUEUE_SKIP:
            if decider is None:
                why, decider = "hint-fn-skip", plugin
            continue
        if plugin in pinfo.pending:
            return QUEUE_IMMEDIATELY, "hint-fn-pending", plugin
        queued = "hint-fn-wildcard" if by_wildcard else "hint-fn"  # 1.30: registered on '*', matching every event
        if not pinfo.pending:
            return QUEUE_AFTER_BACKOFF, queued, plugin
        hint, why, decider = QUEUE_AFTER_BACKOFF, queued, plugin
    return hint, why, decider


def _tie(r: QueuedPodInfo):
    """What pops tie on: pods equal in it are all heads of activeQ, and a pop that names its pod may take any."""
    return (r.priority, r.timestamp)


def _active_order(r: QueuedPodInfo):
    # PrioritySort: higher priority first, then earlier Timestamp, then the record created first.
    return (-r.priority, r.timestamp, r.seq)
