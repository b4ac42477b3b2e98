"""A call bounded in CPU time, in the worker process that runs it (``budgeted``), and the CPU a process's imports
may use in a minute (``Allowance``).

``budgeted`` sets the worker's soft RLIMIT_CPU to what it has used plus the budget (whole seconds, as the kernel
counts them) and turns the SIGXCPU the kernel sends past it into ``OverBudget``, a clear refusal naming the
budget; the limit is put back after the call, so the worker serves the next one. The work is interrupted between
two bytecodes wherever it is: no check inside it is needed.
"""

from __future__ import annotations

import math
import resource
import signal
import threading
import time
from collections.abc import Callable, Mapping
from types import FrameType
from typing import TypeVar

from ..errors import Busy, TooLarge


class OverBudget(TooLarge):
    """Work that used more CPU time than its budget allows."""

    kind = TooLarge.kind


T = TypeVar("T")
_CPU_USED = "cpu_used"  # the attribute of an exception raised by budgeted work: the CPU seconds it used


def charge(err: BaseException, seconds: float) -> None:
    """Mark ``err`` with the CPU seconds its work used; it travels in the exception's ``__dict__`` (a worker sends
    that back, workers._rebuilt)."""
    setattr(err, _CPU_USED, seconds)


def charged(err: BaseException) -> float:
    """The CPU seconds the work that raised ``err`` used (``charge``), 0 if none was marked."""
    used = getattr(err, _CPU_USED, 0.0)
    return float(used) if isinstance(used, int | float) else 0.0


class _Spent(BaseException):  # not an Exception: no ``except Exception`` in the work can swallow it
    pass


def _spent(signum: int, frame: FrameType | None) -> None:
    raise _Spent


def cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def budgeted(fn: Callable[..., T], seconds: float, what: str, setting: str, args: tuple[object, ...] = (),
             kwargs: Mapping[str, object] | None = None) -> tuple[T, float]:
    """``(fn(*args, **kwargs), CPU seconds it used)``, in the main thread of a worker process; OverBudget once it
    has used ``seconds`` of CPU (``what`` and ``setting`` name the work and its budget in the refusal). An
    exception carries the CPU seconds used (``charged``)."""
    start = cpu_used()
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    limit = math.ceil(start + seconds)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    previous = signal.signal(signal.SIGXCPU, _spent)
    resource.setrlimit(resource.RLIMIT_CPU, (limit, hard))
    try:
        return fn(*args, **(kwargs or {})), cpu_used() - start
    except _Spent:
        over = OverBudget(f"{what} used more than its {seconds:g} s of CPU time ({setting}) and was stopped; "
                          "a shorter log, or one cut to the minutes around the incident, fits")
        charge(over, cpu_used() - start)
        raise over from None
    except Exception as err:  # refused all the same: what it used still counts
        charge(err, cpu_used() - start)
        raise
    finally:
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
        signal.signal(signal.SIGXCPU, previous)


class Allowance:
    """CPU seconds a kind of work may use per minute in this process, as a bucket that refills at ``per_minute``
    a minute: work starts while the bucket is not empty, and what it used is taken out when it ends."""

    def __init__(self, per_minute: float, what: str, setting: str, clock: Callable[[], float] = time.monotonic):
        self.per_minute, self.what, self.setting, self.clock = float(per_minute), what, setting, clock
        self._left = self.per_minute
        self._at = clock()
        self._lock = threading.Lock()

    def _refill(self) -> None:
        now = self.clock()
        self._left = min(self.per_minute, self._left + (now - self._at) * self.per_minute / 60)
        self._at = now

    def check(self) -> None:
        """Busy, with the seconds to wait, if the minute's CPU is spent."""
        if self.per_minute <= 0:
            return
        with self._lock:
            self._refill()
            if self._left > 0:
                return
            wait = math.ceil(-self._left * 60 / self.per_minute) or 1
        raise Busy(f"{self.what} of this server have used their {self.per_minute:g} s of CPU time for this minute "
                   f"({self.setting}); try again in {wait} s")

    def spend(self, seconds: float) -> None:
        with self._lock:
            self._refill()
            self._left -= seconds
