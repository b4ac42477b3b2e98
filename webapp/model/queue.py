"""The common PriorityQueue of kube-scheduler (scheduling_queue.go), one version's rules and tracker plugged in:
the pod's own attempt (Add, Pop, Done, AddUnschedulableIfNotPresent), Delete, the raw operations and the views.
The state and the QueueingHint are in lanes.py, the moves by events, Activate, Update and the flushes in moves.py.

Every operation takes ``rec``, the step record being built (record.Record), and appends what it did. What a later
release changed is one field of ``versions.Rules``, read where it governs (``self.rules.<name>``).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, cast

from .config import NS
from .errors import StepError
from .events import ACTIVE_Q, BACKOFF_Q, HINT_NAMES, QUEUE_AFTER_BACKOFF, SCHEDULING_GATES, UNSCHEDULABLE_PODS
from .lanes import IN_FLIGHT, active_order, tie
from .moves import Moves
from .pod import NO_PLUGINS, QueuedPodInfo
from .record import Record, Result
from .subqueues import BackoffQueue, KeyedHeap
from .views import PodView, State, View

__all__ = ["ACTIVE_Q", "BACKOFF_Q", "IN_FLIGHT", "UNSCHEDULABLE_PODS", "PriorityQueue"]


class PriorityQueue(Moves):
    # --- operations --------------------------------------------------------------------------
    def add(self, name: str, rec: Record) -> Result:
        src = self.where(name)
        pinfo = self.new_record(name)
        if self.gated_pods and not self.pre_enqueue(pinfo):  # moveToActiveQ: held by its scheduling gates
            if name not in self.active_q.index and name not in self.backoff_q.index:
                self.unschedulable_pods[name] = pinfo
                rec["moves"].append({"pod": name, "from": src, "to": UNSCHEDULABLE_PODS})
            return {}
        self.active_q.add(pinfo)
        self.unschedulable_pods.pop(name, None)
        self.backoff_q.delete(name)
        rec["moves"].append({"pod": name, "from": src, "to": ACTIVE_Q})
        return {}

    def active_add_raw(self, name: str, rec: Record) -> Result:
        src = self.where(name)
        self.active_q.add(self.new_record(name))
        rec["moves"].append({"pod": name, "from": src, "to": ACTIVE_Q})
        return {}

    def pop(self, expect: str | None, rec: Record) -> Result:
        if expect is None:
            if self.plain_pop:  # activeQ's head, whatever it is
                pinfo = self.active_q.pop()
                if pinfo is None:
                    raise StepError("op", "pop on an empty activeQ (Pop would block)")
                return self._in_flight(pinfo, ACTIVE_Q, rec)
            top = self.active_q.peek()
            if top is not None and not self.tracker.in_flight(top.uid):  # activeQ's head, nothing discarded
                self.active_q.pop()
                return self._in_flight(top, ACTIVE_Q, rec)
        pinfo, source, discarded = self._take(expect)
        for name, where in discarded:  # 1.32+: records of pods already in flight, dropped on the way
            (self.active_q if where == ACTIVE_Q else self.backoff_q).delete(name)
            rec["moves"].append({"pod": name, "from": where, "to": None})
        (self.active_q if source == ACTIVE_Q else self.backoff_q).delete(pinfo.name)
        result = self._in_flight(pinfo, source, rec)
        if discarded:
            result["discarded"] = [name for name, _ in discarded]
        if source == BACKOFF_Q:
            result["from"] = BACKOFF_Q
        return result

    def next_pop(self) -> str | None:
        """The pod a pop would take now; None where Pop would block."""
        try:
            return self._take(None)[0].name
        except StepError:
            return None

    def _take(self, expect: str | None) -> tuple[QueuedPodInfo, str, list[tuple[str, str]]]:
        """What Pop returns, from where, and the (pod, sub-queue) of the records it discards first; raises StepError
        where Pop would block (nothing to pop, or from 1.32 every poppable record's pod already in flight) or
        ``expect`` is not (one of) the head(s). Changes nothing."""
        discards = self.rules.pop_discards_in_flight and self.gate
        top = self.active_q.peek()
        if top is not None and not (discards and self.tracker.in_flight(top.uid)):  # the common case
            return self._expected(top, ACTIVE_Q, expect), ACTIVE_Q, []
        heaps = [(ACTIVE_Q, self.active_q)]
        if self.window:  # 1.33+: podBackoffQ's head when activeQ is (or becomes) empty
            heaps.append((BACKOFF_Q, self.backoff_q.main))
        discarded: list[tuple[str, str]] = []
        for source, heap in heaps:
            top = heap.peek()
            if top is None:
                continue
            if discards and self.tracker.in_flight(top.uid):
                found = None
                for name in heap.names_in_order():
                    r = heap.get(name)
                    if r is not None and not self.tracker.in_flight(r.uid):
                        found = r
                        break
                    discarded.append((name, source))
                if found is None:
                    continue
                top = found
            return self._expected(top, source, expect), source, discarded
        if discarded:
            raise StepError("op", "pop would block: every poppable pod is already in flight (Pop discards them, "
                                  "then waits)")
        raise StepError("op", "pop on an empty activeQ (Pop would block)")

    def _expected(self, top: QueuedPodInfo, source: str, expect: str | None) -> QueuedPodInfo:
        """The record a pop takes: ``top``, or the one ``expect`` names when it ties with ``top`` (priority and
        Timestamp; in podBackoffQ also the window)."""
        if expect is None or expect == top.name:
            return top
        heap = self.active_q if source == ACTIVE_Q else self.backoff_q.main
        key = tie if source == ACTIVE_Q else self.backoff_tie
        want = key(top)
        named = heap.get(expect)
        if (named is None or key(named) != want or self.rules.pop_discards_in_flight and self.gate
                and self.tracker.in_flight(named.uid)):  # 1.32+: Pop would discard it
            raise StepError("expect", f"expected {expect!r} at the head of {source}, but the head is {top.name!r}")
        return named

    def _in_flight(self, pinfo: QueuedPodInfo, source: str, rec: Record) -> Result:
        """The popped record goes in flight: Attempts+1, schedulingCycle+1, its own list entry (gate on)."""
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
            pinfo.pending = NO_PLUGINS
        self.popped[name] = pinfo
        self.attempting[name] = entry_id
        rec["moves"].append({"pod": name, "from": source, "to": IN_FLIGHT})
        return {"popped": name}

    def pop_specific(self, name: str, rec: Record) -> Result:
        """1.36 PopSpecificPod: activate the pod, then take exactly its record out of activeQ into flight; null
        when it is not in activeQ then, or (its record dropped) when its pod is already in flight."""
        if not self.rules.pop_specific:
            raise StepError("op", "this version has no PopSpecificPod (v1.36.2 has, with pod-group scheduling)")
        rec["calls"] += ["PopSpecificPod", "activate"]
        self.activate_one(name, rec)
        pinfo = self.active_q.delete(name)
        if pinfo is None:
            return {"popped": None}
        if self.gate and self.tracker.in_flight(pinfo.uid):
            pinfo.attempts += 1
            rec["moves"].append({"pod": name, "from": ACTIVE_Q, "to": None})
            return {"popped": None}
        return self._in_flight(pinfo, ACTIVE_Q, rec)

    def done(self, name: str, rec: Record) -> Result:
        rec["calls"].append("Done")
        if self.attempting.pop(name, None) is not None:
            rec["moves"].append({"pod": name, "from": IN_FLIGHT, "to": None})
        if self.gate:
            self.tracker.done(self.pods[name][0], rec)
        return {}

    def add_unschedulable_if_not_present(
        self, name: str, plugins: Collection[str] | None, fresh: bool, pod_scheduling_cycle: int | None, rec: Record,
        pending: Collection[str] | None = None
    ) -> Result:
        if fresh:
            pinfo = self.new_record(name, plugins or ())
            plugins = plugins or ()
        else:
            popped = self.popped.get(name)
            if popped is None:
                raise StepError("pod_info", f"{name!r} was never popped; use pod_info: fresh")
            pinfo = popped
            if self.rules.plugins_cleared_at_failure and self._present_in(name) is None:
                # handleSchedulingFailure: podInfo.ClearRejectorPlugins() (schedule_one.go 74a7d3b1 l. 1232)
                if pinfo.plugins or pinfo.pending:
                    rec["cleared"] = [*pinfo.plugins, *pinfo.pending]
                pinfo.plugins = pinfo.pending = NO_PLUGINS
                pinfo.gated = False
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
            if self.rules.backoff_counts_failures:  # scheduling_queue.go 74a7d3b1 l. 924-937
                if pinfo.rejectors():
                    pinfo.unschedulable_count += 1
                    pinfo.consecutive_errors = 0
                else:
                    pinfo.consecutive_errors += 1
                pinfo.backoff_expiration = None
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
            if self.group_backoff and name in self.grouped and pinfo.rejectors():
                # 1.36 GenericWorkload: a pod-group member always backs off (scheduling_queue.go 74a7d3b1 l. 825-830)
                rec["hint"] = {"pod": name, "walk": [], "start": {"rule": "pod-group"},
                               "decision": HINT_NAMES[QUEUE_AFTER_BACKOFF], "reason": "pod-group"}
                hint = QUEUE_AFTER_BACKOFF
            else:
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

    def _reject(self, pinfo: QueuedPodInfo, plugins: Collection[str] | None, pending: Collection[str] | None
                ) -> None:
        """The failure's plugins: 1.29+ gives the pod the pending twins of ``plugins`` (REAL-QUEUE.md) plus the
        explicit ``pending`` ones; 1.28 has one set, so explicit pending plugins join UnschedulablePlugins."""
        if not self.rules.pending_plugins:
            if pending:
                pinfo.plugins = pinfo.plugins | frozenset(pending)
        elif pending is not None or plugins is not None:
            twins = self.config.pending_twins(tuple(plugins or ()), self.twins_need_hint_map)
            pinfo.pending = twins | frozenset(pending) if pending else twins

    def delete(self, name: str, rec: Record) -> Result:
        src = self.where(name)
        if self.active_q.delete(name) is None:
            self.backoff_q.delete(name)
            self.unschedulable_pods.pop(name, None)
        if src in (ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_PODS):
            rec["moves"].append({"pod": name, "from": src, "to": None})
        return {}

    def backoff_pop_all_raw(self, rec: Record) -> Result:
        for name in self.backoff_q.names():
            rec["moves"].append({"pod": name, "from": BACKOFF_Q, "to": None})
        self.backoff_q = BackoffQueue(self._backoff_order, self.rules.error_backoff_q)
        return {}

    def bump_scheduling_cycle_raw(self, rec: Record) -> Result:
        self.scheduling_cycle += 1
        return {}

    # --- views -------------------------------------------------------------------------------
    def state(self) -> State:
        """The trace ``state`` object of scenario-format.md (exactly these keys)."""
        state = cast(State, {  # State with the tracker's keys (a literal with ** cannot leave backoffQ_error out)
            "activeQ": sorted(self.active_q.index),
            "backoffQ": sorted(self.backoff_q.names()),
            "unschedulablePods": sorted(self.unschedulable_pods),
            "schedulingCycle": self.scheduling_cycle,
            "moveRequestCycle": self.move_request_cycle,
            **self.tracker.state(),
        })
        if self.rules.error_backoff_q:
            state["backoffQ_error"] = sorted(self.backoff_q.errors.index)
        return state

    def view(self) -> View:
        """What a renderer needs beyond ``state``: the clock, each pod's record, the list with ids."""
        pods: dict[str, PodView] = {}
        for name in self.pods:
            where = self.where(name)
            record = self._record_at(name, where)
            if record is None:
                pods[name] = {"where": where}
                continue
            pods[name] = self._record_view(record, where)
        order = {"activeQ": self.active_q.names_in_order(), "backoffQ": self.backoff_q.names_in_order()}
        heads = [r.name for r in self.active_q.heads(tie)]  # what a pop may take (a named pop: any of them)
        return {"now": self.now / NS, "pods": pods, "order": order, "heads": heads, **self.tracker.view()}

    def _record_view(self, record: QueuedPodInfo, where: str | None) -> PodView:
        """A record as views show it (nothing in it is computed or cached by looking)."""
        expiry = max(self.backoff_expiry(record, False), record.timestamp)
        shown: PodView = {"where": where, "attempts": record.attempts, "plugins": sorted(record.plugins)}
        rules = self.rules
        if rules.pending_plugins:
            shown["pending"] = sorted(record.pending)
        shown["timestamp"] = record.timestamp / NS
        shown["backoffExpiry"] = expiry / NS
        shown["backingOff"] = self.backing_off(record, False)
        name = record.name
        if rules.backoff_counts_failures:
            shown["unschedulableCount"] = record.unschedulable_count
            shown["consecutiveErrors"] = record.consecutive_errors
            if record.backoff_expiration is not None:
                shown["backoffExpiration"] = record.backoff_expiration / NS  # getBackoffTime's cached answer
        elif rules.never_attempted_no_backoff and name in self.backoff_q.index:
            shown["backoffExpiration"] = self.backoff_expiry(record) / NS  # getBackoffTime, while in backoffQ
        if self.backoff_q.in_errors(name):
            shown["backoffHeap"] = "error"  # the pod's key is in podErrorBackoffQ
        if record.gated:
            shown["gated"] = True
            if rules.gating_plugin:
                shown["gatingPlugin"] = SCHEDULING_GATES
        if self.config.periodic_flushes:
            flush = self._next_flush_of(record, where)
            if flush is not None:
                shown["nextFlush"] = flush / NS  # the periodic flush that will move it, if nothing else does
        else:
            missed = self.missed_flush_of(record, where)
            if missed is not None:
                shown["missedFlush"] = missed / NS  # the periodic flush that would have moved it by now
        return shown

    def _record_at(self, name: str, where: str | None) -> QueuedPodInfo | None:
        if where == ACTIVE_Q:
            return self.active_q.get(name)
        if where == BACKOFF_Q:
            return self.backoff_q.get(name)
        if where == UNSCHEDULABLE_PODS:
            return self.unschedulable_pods[name]
        return self.popped.get(name)

    # --- checkpoints: pickled, with the heaps stored as their records --------------------------
    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["_worth"]
        state["active_q"] = list(self.active_q.records())
        state["backoff_q"] = (list(self.backoff_q.main.records()), list(self.backoff_q.errors.records()))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        active, (backoff, errors) = state.pop("active_q"), state.pop("backoff_q")
        self.__dict__.update(state)
        self._worth = {}
        self.active_q = KeyedHeap(active_order)
        self.backoff_q = BackoffQueue(self._backoff_order, self.rules.error_backoff_q)
        for r in active:
            self.active_q.add(r)
        self.backoff_q.restore(backoff, errors)
