"""The common PriorityQueue of kube-scheduler (scheduling_queue.go), one version's rules and tracker plugged in:
the pod's own attempt (Add, Pop, Done, AddUnschedulableIfNotPresent), Delete, the raw operations and the views.
The state and the QueueingHint are in lanes.py, the moves by events, Activate, Update and the flushes in moves.py.

Every operation takes ``rec``, the step record being built (record.Record), and appends what it did. What a later
release changed is one field of ``versions.Rules``, read where it governs (``self.rules.<name>``).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from .config import NS
from .errors import StepError
from .events import ACTIVE_Q, BACKOFF_Q, HINT_NAMES, UNSCHEDULABLE_PODS
from .lanes import IN_FLIGHT, active_order, tie
from .moves import Moves
from .pod import NO_PLUGINS, QueuedPodInfo
from .record import Record, Result
from .subqueues import KeyedHeap
from .views import PodView, State, View

__all__ = ["ACTIVE_Q", "BACKOFF_Q", "IN_FLIGHT", "UNSCHEDULABLE_PODS", "PriorityQueue"]


class PriorityQueue(Moves):
    # --- operations --------------------------------------------------------------------------
    def add(self, name: str, rec: Record) -> Result:
        src = self.where(name)
        self.active_q.add(self.new_record(name))
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
        heads = self.active_q.heads(tie)
        if expect not in {h.name for h in heads}:
            raise StepError("expect", f"expected {expect!r} at the head of activeQ, but the head is {top.name!r}")
        return self.active_q.delete(expect)

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

    def _reject(self, pinfo: QueuedPodInfo, plugins: Collection[str] | None, pending: Collection[str] | None
                ) -> None:
        """The failure's plugins: 1.29+ gives the pod the pending twins of ``plugins`` (REAL-QUEUE.md) plus the
        explicit ``pending`` ones; 1.28 has one set, so explicit pending plugins join UnschedulablePlugins."""
        if not self.rules.pending_plugins:
            if pending:
                pinfo.plugins = pinfo.plugins | frozenset(pending)
        elif pending is not None or plugins is not None:
            twins = self.config.pending_twins(tuple(plugins or ()))
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
        for name in list(self.backoff_q.index):
            rec["moves"].append({"pod": name, "from": BACKOFF_Q, "to": None})
        self.backoff_q = KeyedHeap(self._backoff_order)
        return {}

    def bump_scheduling_cycle_raw(self, rec: Record) -> Result:
        self.scheduling_cycle += 1
        return {}

    # --- views -------------------------------------------------------------------------------
    def state(self) -> State:
        """The trace ``state`` object of scenario-format.md (exactly these keys)."""
        return {
            "activeQ": sorted(self.active_q.index),
            "backoffQ": sorted(self.backoff_q.index),
            "unschedulablePods": sorted(self.unschedulable_pods),
            "schedulingCycle": self.scheduling_cycle,
            "moveRequestCycle": self.move_request_cycle,
            **self.tracker.state(),
        }

    def view(self) -> View:
        """What a renderer needs beyond ``state``: the clock, each pod's record, the list with ids."""
        pods: dict[str, PodView] = {}
        for name in self.pods:
            where = self.where(name)
            record = self._record_at(name, where)
            if record is None:
                pods[name] = {"where": where}
                continue
            expiry = self.backoff_expiry(record)
            shown: PodView = {"where": where, "attempts": record.attempts, "plugins": sorted(record.plugins)}
            pods[name] = shown
            if self.rules.pending_plugins:
                shown["pending"] = sorted(record.pending)
            shown["timestamp"] = record.timestamp / NS
            shown["backoffExpiry"] = expiry / NS
            shown["backingOff"] = expiry > self.now
            if self.config.periodic_flushes:
                flush = self._next_flush_of(record, where)
                if flush is not None:
                    shown["nextFlush"] = flush / NS  # the periodic flush that will move it, if nothing else does
            else:
                missed = self.missed_flush_of(record, where)
                if missed is not None:
                    shown["missedFlush"] = missed / NS  # the periodic flush that would have moved it by now
        order = {"activeQ": self.active_q.names_in_order(), "backoffQ": self.backoff_q.names_in_order()}
        heads = [r.name for r in self.active_q.heads(tie)]  # what a pop may take (a named pop: any of them)
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
    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["_worth"]
        state["active_q"] = list(self.active_q.records())
        state["backoff_q"] = list(self.backoff_q.records())
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        active, backoff = state.pop("active_q"), state.pop("backoff_q")
        self.__dict__.update(state)
        self._worth = {}
        self.active_q = KeyedHeap(active_order)
        self.backoff_q = KeyedHeap(self._backoff_order)
        for r in active:
            self.active_q.add(r)
        for r in backoff:
            self.backoff_q.add(r)
