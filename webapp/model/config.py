"""Immutable queue configuration shared by every copy of a queue (hints, durations, gate)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .events import (
    GATES_ELIMINATED,
    HINTS,
    PENDING_SUFFIX,
    QUEUE_AFTER_BACKOFF,
    QUEUE_IMMEDIATELY,
    SCHEDULING_GATES,
    WILDCARD_RESOURCE,
    ClusterEvent,
    matches,
)
from .plugins import HintFn, registrations
from .versions import Rules

T = TypeVar("T")
# A hint function registered for an event: (plugin, hint, registered on '*' and matching only by 1.30's Match).
Registered = tuple[str, int, bool]

NS = 1_000_000_000  # the fake clock counts nanoseconds, like Go's time.Duration
BACKOFF_PERIOD = 1 * NS  # wait.Until(p.flushBackoffQCompleted, 1.0*time.Second, ...)
LEFTOVER_PERIOD = 30 * NS  # wait.Until(p.flushUnschedulablePodsLeftover, 30*time.Second, ...)
# The feature gates a scenario may set (``feature_gates``): gate -> (the Rules field of the version that has it,
# its default there).
FEATURE_GATES: dict[str, tuple[str, bool]] = {
    "SchedulerPopFromBackoffQ": ("pop_from_backoff_q", True),  # beta, on since 1.33 (KEP-5142)
    "GenericWorkload": ("pod_groups", False),  # alpha since 1.35
}


def seconds_to_ns(seconds: float) -> int:
    return round(seconds * NS)


@dataclass(frozen=True)
class QueueConfig:
    gate: bool = True  # SchedulerQueueingHints
    hint_map: bool = True  # False: no QueueingHintMap for the profile (upstream error path)
    hints: tuple[tuple[str, str, str], ...] = ()  # the scenario's explicit (event label, plugin, hint name)
    # The plugin names the scenario's failures give; those in plugins.PLUGINS without an explicit hint register
    # their 1.28 events (plugins.registrations: explicit hints win, per plugin).
    plugins: tuple[str, ...] = ()
    initial_backoff: int = 1 * NS
    max_backoff: int = 10 * NS
    max_in_unschedulable: int = 300 * NS
    pop_clears_unschedulable_plugins: bool = False
    # Run's tickers (scheduling_queue.go Run): as the clock advances, flushBackoffQCompleted every BACKOFF_PERIOD
    # and flushUnschedulablePodsLeftover every LEFTOVER_PERIOD. Off by default: a scenario's explicit flush steps
    # are then exact. The scheduler started ``flush_phase`` before t = 0: ticks at k·period - flush_phase.
    periodic_flushes: bool = False
    flush_phase: int = 0
    feature_gates: tuple[tuple[str, bool], ...] = ()  # (gate, value) the scenario sets; FEATURE_GATES
    scheduling_gates: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (pod, its gates): gated at PreEnqueue
    pod_groups: tuple[tuple[str, str], ...] = ()  # (pod, its pod group)
    _memo: dict[object, Any] = field(default_factory=dict, compare=False, repr=False)  # what the methods below found

    def _cached(self, key: object, make: Callable[..., T], *args: Any) -> T:
        """``make(*args)``, worked out once per key (the configuration never changes)."""
        found: T | None = self._memo.get(key)
        if found is None:
            found = self._memo[key] = make(*args)
        return found

    def feature(self, gate: str, rules: Rules) -> bool:
        """A feature gate's value on a version with ``rules``: the scenario's, else the default; off where the
        version has no such gate."""
        field_name, default = FEATURE_GATES[gate]
        return getattr(rules, field_name) and dict(self.feature_gates).get(gate, default)

    def registrations(self, rules: Rules) -> tuple[HintFn, ...]:
        """((registered ClusterEvent, plugin, hint name), ...): the QueueingHintMap of the scenario's profile. With
        the gate off (the scenario's or v1.28.5's) a catalogue registration's function is defaultQueueingHintFn."""
        return self._registrations(self.gate and not rules.gate_off)

    def _registrations(self, gate: bool) -> tuple[HintFn, ...]:
        return self._cached(("registrations", gate), self._registered, gate)

    def _registered(self, gate: bool) -> tuple[HintFn, ...]:
        """The profile's registrations; with gated pods, also the SchedulingGates plugin's
        (scheduling_gates.go EventsToRegister: Pod/UpdatePodSchedulingGatesEliminated, whose hint is Queue)."""
        found = registrations(self.hints, self.plugins, gate)
        if self.scheduling_gates:
            found = (*found, (GATES_ELIMINATED, SCHEDULING_GATES, "Queue" if gate else "QueueAfterBackoff"))
        return found

    def hint_fns_for(self, event: ClusterEvent, rules: Rules) -> list[Registered]:
        """[(plugin, hint, by wildcard)] of the hint functions registered for an event that matches
        ``event`` on a version with ``rules``. From 1.29 (``rules.pending_plugins``) a function returns Queue or
        QueueSkip: QueueAfterBackoff and Queue are Queue from the plugin itself, QueueImmediately is Queue from
        its pending twin "P#pending" (REAL-QUEUE.md); Queue is held as QUEUE_AFTER_BACKOFF. ``by wildcard``: the
        function is registered on resource '*' and matches this event only by 1.30's ``ClusterEvent.Match``."""
        key = (event, rules.pending_plugins, rules.wildcard_registration, rules.gate_off)
        return self._cached(key, self._hint_fns, event, rules)

    def _hint_fns(self, event: ClusterEvent, rules: Rules) -> list[Registered]:
        fns: list[Registered] = []
        for registered, plugin, hint in self.registrations(rules):
            if not matches(registered, event, rules.wildcard_registration):
                continue
            value = HINTS[hint]
            if rules.pending_plugins and value == QUEUE_IMMEDIATELY:
                plugin, value = plugin + PENDING_SUFFIX, QUEUE_AFTER_BACKOFF
            fns.append((plugin, value, registered.resource == WILDCARD_RESOURCE != event.resource))
        return fns

    def interested(self, event: ClusterEvent, rules: Rules) -> bool:
        """isEventOfInterest (1.30+): a wildcard event, or one some registered hint matches."""
        if event.is_wildcard:
            return True
        key = ("interested", event, rules.wildcard_registration, rules.gate_off)
        return self._cached(key, self._interested, event, rules)

    def _interested(self, event: ClusterEvent, rules: Rules) -> bool:
        return self.hint_map and any(
            matches(registered, event, rules.wildcard_registration) for registered, _, _ in self.registrations(rules))

    def pending_twins(self, plugins: tuple[str, ...], need_hint_map: bool = True) -> frozenset[str]:
        """1.29+: the pending plugins a pod gets with unschedulable ``plugins``: "P#pending" for each P that has a
        QueueImmediately hint (the 1.28 vocabulary, mapped as REAL-QUEUE.md says; none without a hint map when
        ``need_hint_map``, versions.Version.twins_need_hint_map), worked out once per tuple. Only 1.29+ asks, where
        the gate is the scenario's."""
        return self._cached(("pending_twins", plugins, need_hint_map), self._pending_twins, plugins, need_hint_map)

    def _pending_twins(self, plugins: tuple[str, ...], need_hint_map: bool) -> frozenset[str]:
        if need_hint_map and not self.hint_map:
            return frozenset()
        return frozenset(plugin + PENDING_SUFFIX for _, plugin, hint in self._registrations(self.gate)
                         if plugin in plugins and hint == "QueueImmediately")
