"""Immutable queue configuration shared by every copy of a queue (hints, durations, gate)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .events import CATALOGUE, HINTS, matches

NS = 1_000_000_000  # the fake clock counts nanoseconds, like Go's time.Duration


def seconds_to_ns(seconds: float) -> int:
    return round(seconds * NS)


@dataclass(frozen=True)
class QueueConfig:
    gate: bool = True  # SchedulerQueueingHints
    hint_map: bool = True  # False: no QueueingHintMap for the profile (upstream error path)
    hints: tuple = ()  # ((event label, plugin, hint name), ...)
    initial_backoff: int = 1 * NS
    max_backoff: int = 10 * NS
    max_in_unschedulable: int = 300 * NS
    pop_clears_unschedulable_plugins: bool = False
    _fns_for: dict = field(default_factory=dict, compare=False, repr=False)

    def hint_fns_for(self, event) -> list:
        """[(plugin, hint, registered label)] of hints whose registered event matches ``event``."""
        fns = self._fns_for.get(event.label)
        if fns is None:
            fns = [
                (plugin, HINTS[hint], label)
                for label, plugin, hint in self.hints
                if matches(CATALOGUE[label], event)
            ]
            self._fns_for[event.label] = fns
        return fns
