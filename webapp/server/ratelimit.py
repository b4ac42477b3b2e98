"""The rate limit: a token bucket per connection over every message it sends (``RATE_LIMIT_PER_SECOND``,
``RATE_LIMIT_BURST``; 0 turns it off). A message over the limit is dropped; the sender is told with one
``error`` {message: "rate limit: …", event} at most once a second, the other drops are silent (``guard.py``).
The same buckets, one per client address, bound HTTP requests (``httplimit.py``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass

ADMIT, REFUSE_AND_TELL, REFUSE = "admit", "refuse-and-tell", "refuse"


@dataclass
class Bucket:
    tokens: float
    refilled: float  # when tokens were last refilled
    told: float = -float("inf")  # when a refusal was last told


class RateLimiter:
    """One token bucket per key: ``rate`` tokens per second, at most ``burst`` saved up; a message costs one.
    A refused message is to be answered at most once per ``tell_every`` seconds per key (events of one
    connection are handled on several threads, so "once per run of refusals" would still be many)."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic,
                 tell_every: float = 1.0):
        if rate <= 0 or burst < 1:
            raise ValueError(f"a rate limit needs rate > 0 and burst >= 1, got {rate!r}, {burst!r}")
        self.rate, self.burst, self.clock, self.tell_every = float(rate), float(burst), clock, tell_every
        self._buckets: dict[Hashable, Bucket] = {}
        self._lock = threading.Lock()  # events of one connection may be handled on several threads

    def check(self, key: Hashable, spend: bool = True, cost: float = 1.0) -> str:
        """ADMIT (and spend ``cost`` tokens), REFUSE_AND_TELL (not told within ``tell_every``) or REFUSE. ``spend``
        False: ADMIT without spending (what a message would get now: asked before decoding it, whose handler
        spends)."""
        now = self.clock()
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                bucket = self._buckets[key] = Bucket(self.burst, now)
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.refilled) * self.rate)
            bucket.refilled = now
            if bucket.tokens >= 1:
                bucket.tokens -= cost if spend else 0
                return ADMIT
            if now - bucket.told < self.tell_every:
                return REFUSE
            bucket.told = now
            return REFUSE_AND_TELL

    def keep_only(self, keys: Collection[Hashable]) -> None:
        """Forget the buckets of every key not in ``keys`` (connections that went away)."""
        with self._lock:
            for key in [k for k in self._buckets if k not in keys]:
                del self._buckets[key]

    def forget_full(self) -> None:
        """Forget the buckets that have filled up again (keys idle long enough to be as good as new)."""
        now = self.clock()
        with self._lock:
            for key in [k for k, b in self._buckets.items() if b.tokens + (now - b.refilled) * self.rate >= self.burst]:
                del self._buckets[key]

    def __len__(self) -> int:
        return len(self._buckets)


def rate_limit_message(rate: float, burst: float) -> str:
    return (f"rate limit: more than {rate:g} messages per second (bursts of {burst:g}); this message was dropped, "
            "and so are the next ones over the limit")
