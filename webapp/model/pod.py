"""QueuedPodInfo: one queue record of a pod (a pod can have several records over time)."""

from __future__ import annotations

import functools
from collections.abc import Iterable

Plugins = frozenset[str]
NO_PLUGINS: Plugins = frozenset()


class QueuedPodInfo:
    # `seq` orders records created at the same Timestamp (creation order; see scenario-format.md).
    __slots__ = ("name", "uid", "priority", "timestamp", "attempts", "plugins", "pending", "seq",
                 "unschedulable_count", "consecutive_errors", "backoff_expiration", "gated")

    def __init__(self, name: str, uid: str, priority: int, timestamp: int, seq: int,
                 plugins: Iterable[str] = NO_PLUGINS):
        self.name = name
        self.uid = uid
        self.priority = priority
        self.timestamp = timestamp  # nanoseconds on the fake clock
        self.attempts = 0
        self.plugins = frozenset(plugins)  # UnschedulablePlugins
        self.pending = NO_PLUGINS  # PendingPlugins (1.29+)
        self.seq = seq
        self.unschedulable_count = 0  # 1.34+: failures with rejector plugins
        self.consecutive_errors = 0  # 1.34+: failures without, since the last one with
        self.backoff_expiration: int | None = None  # 1.34+: getBackoffTime's cached answer (None: the zero time)
        self.gated = False  # 1.32+: a PreEnqueue plugin (SchedulingGates) holds it


    def rejectors(self) -> Plugins:
        """UnschedulablePlugins ∪ PendingPlugins (1.29's rejectorPlugins; 1.28 has only the first set)."""
        return self.plugins | self.pending if self.pending else self.plugins


@functools.lru_cache(maxsize=1024)
def failure_backoff(count: int, initial: int, maximum: int) -> int:
    """1.34+ calculateBackoffDuration(count): initial << (count-1), maximum once initial > maximum >> (count-1)
    (backoff_queue.go 74a7d3b1 l. 250-260)."""
    shift = count - 1
    if initial > maximum >> shift:
        return maximum
    return initial << shift


@functools.lru_cache(maxsize=1024)
def backoff_duration(attempts: int, initial: int, maximum: int) -> int:
    """calculateBackoffDuration: initial, doubled attempts-1 times, capped at maximum. A pure function: its recent
    answers are kept."""
    d = initial
    for _ in range(1, attempts):
        if d > maximum - d:
            return maximum
        d += d
    return d
