"""What a session holds in memory, counted against MAX_SESSION_BYTES (no I/O, no Flask).

``deep_size`` walks an object graph without recursion (a scenario can nest 20 levels and hold 200,000 steps)
and counts each object once (``sys.getsizeof``): it measures a scenario's source and parsed steps once, at load.
The live part of a simulation (each variant's model at the cursor, the frame built from it: state, views,
the view before the step) is not walked at every step; it is estimated from the largest checkpoint, the
pickled model at its fullest, times LIVE_FACTOR (measured by ``bench/session_memory.py``: a model in memory is
5-6 times its pickle, the frame with its three views of it about 15-18 times).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

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
