"""Imported logs' reports kept, so the page has an address that reloads and can be shared: POST /report keeps what
the page shows under a key no one can guess and sends the browser to GET /report/kept/<key>. A report is kept
KEEP_HOURS after its import, in this process's memory (a restart forgets it), the oldest dropped first past
MAX_BYTES; the page says until when."""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

KEEP_HOURS = 24
MAX_BYTES = 64 * 1024 * 1024  # the kept reports' JSON together (each is mostly its four SVG frames)


class KeptReports:
    def __init__(self, keep_seconds: float = KEEP_HOURS * 3600, max_bytes: int = MAX_BYTES,
                 clock: Callable[[], float] = time.time) -> None:
        self._keep, self._max, self._clock = keep_seconds, max_bytes, clock
        self._kept: OrderedDict[str, tuple[float, bytes]] = OrderedDict()  # key -> (until, JSON), oldest first
        self._bytes = 0
        self._lock = threading.Lock()

    def keep(self, page: dict[str, Any]) -> tuple[str, float]:
        """The key ``page`` is kept under and until when (seconds since the epoch)."""
        data = json.dumps(page, separators=(",", ":")).encode()
        key, until = secrets.token_urlsafe(16), self._clock() + self._keep
        with self._lock:
            self._drop(lambda _until: self._bytes + len(data) > self._max)
            self._kept[key] = (until, data)
            self._bytes += len(data)
        return key, until

    def get(self, key: str) -> tuple[dict[str, Any], float] | None:
        """The page kept under ``key`` and until when, or None (never kept, or no longer)."""
        now = self._clock()
        with self._lock:
            self._drop(lambda until: until <= now)
            kept = self._kept.get(key)
        return (json.loads(kept[1]), kept[0]) if kept else None

    def _drop(self, while_oldest: Callable[[float], bool]) -> None:
        """Drops the oldest while ``while_oldest(its until)`` holds (the lock held)."""
        while self._kept and while_oldest(next(iter(self._kept.values()))[0]):
            _, (_, data) = self._kept.popitem(last=False)
            self._bytes -= len(data)
