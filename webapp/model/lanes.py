"""The state of kube-scheduler's PriorityQueue (scheduling_queue.go) and what every operation on it asks: where a
pod is, when its backoff ends, and isPodWorthRequeuing with requeuePodViaQueueingHint (the QueueingHint).

The operations are in moves.py (events and flushes) and queue.py (Add, Pop, Done, AddUnschedulableIfNotPresent,
the views); ``queue.PriorityQueue`` is the whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .config import NS, QueueConfig, Registered
from .events import (
    ACTIVE_Q,
    BACKOFF_Q,
    GATES_ELIMINATED,
    QUEUE_AFTER_BACKOFF,
    QUEUE_IMMEDIATELY,
    QUEUE_SKIP,
    SCHEDULING_GATES,
    UNSCHEDULABLE_PODS,
    ClusterEvent,
    matches,
)
from .pod import NO_PLUGINS, Plugins, QueuedPodInfo, backoff_duration, failure_backoff
from .subqueues import BackoffQueue, KeyedHeap
from .tracker import Tracker
from .versions import Rules
from .views import Due

IN_FLIGHT = "inFlight"
ZERO_TIME = -(2**63)  # Go's time.Time{}: before every time on the clock (1.34+ getBackoffTime with no backoff)

Decision = tuple[int, str, str | None]  # isPodWorthRequeuing: (hint, why, the deciding plugin)


class Lanes:
    def __init__(self, config: QueueConfig, rules: Rules, tracker: Tracker, pods: Mapping[str, tuple[str, int]],
                 twins_need_hint_map: bool = True):
        self.config = config
        self.rules = rules  # versions.Rules: what this version changed
        self.twins_need_hint_map = twins_need_hint_map  # versions.Version's: how the 1.28 vocabulary maps
        # SchedulerQueueingHints: the scenario's setting, unless the version turns it off (v1.28.5).
        self.gate = config.gate and not rules.gate_off
        self.tracker = tracker  # InFlightEvents (v1.28.2 and later) or ReceivedEvents (v1.28.1)
        self.pods = pods  # name -> (uid, priority): the declared pods, read-only
        self.now = 0
        # A pod (queue key = name) is in at most one of activeQ, podBackoffQ, unschedulablePods.
        self.active_q = KeyedHeap(active_order)
        # SchedulerPopFromBackoffQ (1.33+, on unless the scenario turns it off): the 1 s window of KEP-5142.
        self.window = config.feature("SchedulerPopFromBackoffQ", rules)
        self.backoff_q = BackoffQueue(self._backoff_order, rules.error_backoff_q)
        # Pop takes activeQ's head as it is: no record is discarded (until 1.31, or with the gate off), none comes
        # from backoffQ.
        self.plain_pop = not (rules.pop_discards_in_flight and self.gate) and not self.window
        # calculateBackoffDuration by Attempts for every record: none of the later backoff rules applies.
        self.attempts_backoff = not (rules.never_attempted_no_backoff or rules.zero_max_backoff
                                     or rules.backoff_counts_failures)
        self.unschedulable_pods: dict[str, QueuedPodInfo] = {}
        self.scheduling_cycle = 0
        self.move_request_cycle = -1
        self.popped: dict[str, QueuedPodInfo] = {}  # the record the last Pop of each pod returned
        self.attempting: dict[str, str] = {}  # pods popped and not yet failed/done -> pod entry id
        self.events_seen = 0  # numbers event ids e1, e2, ...
        self.updates_seen = 0  # 1.31: numbers the in-flight update entries u1, u2, ...
        self.records_created = 0
        self.activations_seen = 0  # 1.32+: numbers the ForceActivate entries a1, a2, ...
        # 1.32+: the pods whose scheduling gates still hold them (an `ungate` removes a pod for good)
        self.gated_pods = {name for name, _ in config.scheduling_gates}
        # GenericWorkload (1.35+, off unless the scenario turns it on): a failed member of a pod group backs off.
        self.group_backoff = config.feature("GenericWorkload", rules)
        self.grouped = frozenset(name for name, _ in config.pod_groups)
        self._worth: dict[tuple[ClusterEvent, Plugins, Plugins], Decision] = {}  # kept out of checkpoints

    # --- helpers -----------------------------------------------------------------------------
    def _backoff_order(self, r: QueuedPodInfo) -> tuple[int, ...]:
        if self.window:  # lessBackoffCompletedWithPriority: the window, then activeQ's order
            return (self.backoff_expiry(r), -r.priority, r.timestamp, r.seq)
        return (self.backoff_expiry(r), r.seq)

    def backoff_tie(self, r: QueuedPodInfo) -> tuple[int, ...]:
        """What pops from podBackoffQ tie on (v1.36.2): the window, then priority and Timestamp."""
        return (self.backoff_expiry(r, False), r.priority, r.timestamp)

    def backoff_expiry(self, r: QueuedPodInfo, cache: bool = True) -> int:
        """getBackoffTime: when ``r``'s backoff ends (ZERO_TIME: it has none). From 1.34 the answer is cached in the
        record (BackoffExpiration) when ``cache``, as every call of the real queue does; views pass False."""
        c = self.config
        if self.attempts_backoff:  # until 1.31: by Attempts, every record
            return r.timestamp + backoff_duration(r.attempts, c.initial_backoff, c.max_backoff)
        if self.rules.zero_max_backoff and c.max_backoff == 0:
            return ZERO_TIME  # backoff_queue.go 74a7d3b1 l. 223-225
        if not self.rules.backoff_counts_failures:
            if self.rules.never_attempted_no_backoff and r.attempts == 0:
                return r.timestamp
            return r.timestamp + backoff_duration(r.attempts, c.initial_backoff, c.max_backoff)
        if r.backoff_expiration is not None:
            return r.backoff_expiration
        count = r.consecutive_errors or r.unschedulable_count
        if count == 0:
            return ZERO_TIME
        expiry = r.timestamp + failure_backoff(count, c.initial_backoff, c.max_backoff)
        if self.window:
            expiry -= expiry % NS  # alignToWindow
        if cache:
            r.backoff_expiration = expiry
        return expiry

    def align(self, t: int) -> int:
        """alignToWindow: truncated to the 1 s window with SchedulerPopFromBackoffQ (the fake clock starts on a
        whole second), else unchanged."""
        return t - t % NS if self.window else t

    def backing_off(self, r: QueuedPodInfo, cache: bool = True) -> bool:
        """isPodBackingoff: until 1.32 expiry.After(now); from 1.33 !expiry.Before(alignToWindow(now))."""
        if self.rules.backing_off_at_expiry:
            now = self.now
            return self.backoff_expiry(r, cache) >= (now - now % NS if self.window else now)  # alignToWindow(now)
        return self.backoff_expiry(r, cache) > self.now

    def backoff_done_at(self, r: QueuedPodInfo) -> int:
        """The first instant at which ``r`` is no longer backing off (never before its Timestamp)."""
        expiry = max(self.backoff_expiry(r, False), r.timestamp)
        if not self.rules.backing_off_at_expiry:
            return expiry
        return self.align(expiry) + NS if self.window else expiry + 1

    def pre_enqueue(self, pinfo: QueuedPodInfo) -> bool:
        """runPreEnqueuePlugins (1.32+ with scheduling gates): False while the pod's gates hold it, the record then
        gated with SchedulingGates among its unschedulable plugins."""
        if pinfo.name not in self.gated_pods:
            pinfo.gated = False
            return True
        pinfo.plugins = pinfo.plugins | {SCHEDULING_GATES}
        pinfo.gated = True
        return False

    def skips_gated(self, pinfo: QueuedPodInfo, event: ClusterEvent) -> bool:
        """An event leaves a gated pod where it is: until 1.32 whatever the event (Gated with SchedulingGates); from
        1.33 unless it matches the gating plugin's registered events (GatingPluginEvents)."""
        if not pinfo.gated:
            return False
        return not (self.rules.gating_plugin and matches(GATES_ELIMINATED, event, self.rules.wildcard_registration))

    def overdue(self) -> list[Due]:
        """Pods a flush would move now: in backoffQ with their backoff over, in unschedulablePods longer than
        the limit (``max_in_unschedulable``). Without periodic flushes only explicit flush steps move them."""
        limit = self.config.max_in_unschedulable
        backed_off = [(r.name, BACKOFF_Q, self.backoff_done_at(r)) for r in self.backoff_q.records()
                      if not self.backing_off(r, False)]
        parked = [(r.name, UNSCHEDULABLE_PODS, r.timestamp + limit) for r in self.unschedulable_pods.values()
                  if self.now - r.timestamp > limit]
        return [{"pod": pod, "where": where, "due": due / NS} for pod, where, due in sorted(backed_off + parked)]

    def new_record(self, name: str, plugins: Iterable[str] = NO_PLUGINS) -> QueuedPodInfo:
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
    def is_pod_worth_requeuing(self, pinfo: QueuedPodInfo, event: ClusterEvent) -> Decision:
        """isPodWorthRequeuing: (hint, why, deciding plugin). The answer depends only on the event and the record's
        two plugin sets (the configuration and the rules are fixed), so each combination is worked out once."""
        if event.target is not None:  # ForceActivate: the answer depends on the pod
            return self._worth_of(pinfo, event)
        key = (event, pinfo.plugins, pinfo.pending)
        found = self._worth.get(key)
        if found is None:
            found = self._worth[key] = self._worth_of(pinfo, event)
        return found

    def _worth_of(self, pinfo: QueuedPodInfo, event: ClusterEvent) -> Decision:
        rejectors = pinfo.rejectors()
        if not rejectors:
            return QUEUE_AFTER_BACKOFF, "no-unschedulable-plugins", None
        if event.is_wildcard:
            if event.target is not None and event.target != pinfo.uid:  # 1.32+ ForceActivate of another pod
                return QUEUE_SKIP, "wildcard-for-another-pod", None
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
        # moveToActiveQ: a gated pod stays unschedulable
        if (pinfo.gated or self.gated_pods) and not self.pre_enqueue(pinfo):
            self.unschedulable_pods[pinfo.name] = pinfo
            return UNSCHEDULABLE_PODS
        self.active_q.add(pinfo)
        return ACTIVE_Q


def _worth_by_queue(pinfo: QueuedPodInfo, rejectors: Plugins, fns: list[Registered]) -> Decision:
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


def tie(r: QueuedPodInfo) -> tuple[int, int]:
    """What pops tie on: pods equal in it are all heads of activeQ, and a pop that names its pod may take any."""
    return (r.priority, r.timestamp)


def active_order(r: QueuedPodInfo) -> tuple[int, int, int]:
    # PrioritySort: higher priority first, then earlier Timestamp, then the record created first.
    return (-r.priority, r.timestamp, r.seq)
