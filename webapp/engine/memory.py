"""What a session holds in memory, counted against MAX_SESSION_BYTES, and what all of a process's sessions hold,
against MAX_SESSION_MEMORY and a share per address (``MemoryBudget``) (no I/O, no Flask).

``deep_size`` walks an object graph without recursion (a scenario can nest 20 levels and hold 200,000 steps)
and counts each object once (``sys.getsizeof``): it measures a scenario's source and parsed steps once, at load.
The live part of a simulation (each variant's model at the cursor, the frame built from it: state, views,
the view before the step) is not walked at every step; it is estimated from the largest checkpoint, the
pickled model at its fullest, times LIVE_FACTOR (measured by ``bench/session_memory.py``: a model in memory is
5-6 times its pickle, the frame with its three views of it about 15-18 times).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from ..errors import Busy

LIVE_FACTOR = 24  # in-memory bytes of (live model + frame) per byte of the largest pickled checkpoint


def deep_size(root: object) -> int:
    """Bytes held by ``root`` and everything it references (dicts, lists, tuples, sets, objects' attributes),
    each object counted once."""
    seen: set[int] = set()
    pending = [root]
    total = 0
    while pending:
        obj = pending.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, (str, bytes, bytearray, int, float, bool)) or obj is None:
            continue
        if isinstance(obj, dict):
            pending.extend(obj.keys())
            pending.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            pending.extend(obj)
        else:
            attributes = getattr(obj, "__dict__", None)
            if attributes is not None:
                pending.append(attributes)
            for name in getattr(type(obj), "__slots__", ()):
                if hasattr(obj, name):
                    pending.append(getattr(obj, name))
    return total


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, or None elsewhere (musl, macOS)."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        trim: Callable[[int], int] = libc.malloc_trim
        return trim
    except (OSError, AttributeError):
        return None


_TRIM = _malloc_trim()


def rss_bytes() -> int:
    """This process's resident memory now (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def release_memory(run: Callable[..., object] | None = None) -> bool:
    """Give freed memory back to the system after heavy sessions ended: a full garbage collection (their
    models hold reference cycles), then glibc's malloc_trim(0), which returns the free pages of every arena;
    without it the process stays at its peak RSS. True if malloc_trim ran. ``run(fn, *args)`` calls malloc_trim
    (the server's: on a native thread, since it works for tens of milliseconds with the GIL released)."""
    import gc

    gc.collect()
    if _TRIM is None:
        return False
    (run or _call)(_TRIM, 0)
    return True


def _call(fn: Callable[..., object], *args: object) -> object:
    return fn(*args)


class MemoryBudget:
    """What the sessions of a process hold, against a budget: ``most`` bytes in all, ``share`` bytes for the
    sessions of one client address. ``check`` before a session is built (it may take up to ``coming`` bytes),
    ``hold`` once it is (its bytes, under a key: its channel), ``drop`` when it goes. 0: no bound."""

    def __init__(self, most: int, share: int, settings: tuple[str, str] = ("MAX_SESSION_MEMORY",
                                                                             "MAX_SESSION_MEMORY_PER_ADDRESS")):
        self.most, self.share, self.settings = most, share, settings
        self._held: dict[str, tuple[str | None, int]] = {}  # key -> (its address, its bytes)

    @property
    def total(self) -> int:
        return sum(n for _, n in self._held.values())

    def of(self, address: str | None) -> int:
        return sum(n for a, n in self._held.values() if a == address)

    def check(self, address: str | None, coming: int) -> None:
        """Busy, in words naming the bound, if a session of up to ``coming`` bytes would pass the address's share
        or the process's budget (a refusal of the moment: the same upload loads once others have gone)."""
        mib = 1024 * 1024
        if self.share and address is not None and self.of(address) + coming > self.share:
            raise Busy(f"the sessions of your address hold {self.of(address) / mib:.0f} MiB; one more may need "
                           f"{coming / mib:.0f} MiB, over the {self.share / mib:.0f} MiB one address may hold "
                           f"({self.settings[1]}): close a tab or a window of this server, then load again")
        if self.most and self.total + coming > self.most:
            raise Busy(f"this server's sessions hold {self.total / mib:.0f} MiB; one more may need "
                           f"{coming / mib:.0f} MiB, over its {self.most / mib:.0f} MiB ({self.settings[0]}): try "
                           "again once others have left")

    def hold(self, key: str, address: str | None, nbytes: int) -> None:
        self._held[key] = (address, nbytes)

    def drop(self, key: str) -> bool:
        """Whether ``key`` held anything."""
        return self._held.pop(key, None) is not None

    def __len__(self) -> int:
        return len(self._held)
