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

from ..errors import Busy, TooLarge


class OverBudget(TooLarge):
    """Work that used more CPU time than its budget allows."""

    kind = TooLarge.kind


class _Spent(BaseException):  # not an Exception: no ``except Exception`` in the work can swallow it
    pass


def _spent(signum, frame):
    raise _Spent


def cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def budgeted(fn, seconds: float, what: str, setting: str, args: tuple = (), kwargs: dict | None = None):
    """``(fn(*args, **kwargs), CPU seconds it used)``, in the main thread of a worker process; OverBudget once it
    has used ``seconds`` of CPU (``what`` and ``setting`` name the work and its budget in the refusal). An
    exception carries the CPU seconds used as ``cpu_used``."""
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
        over.cpu_used = cpu_used() - start
        raise over from None
    except Exception as err:  # refused all the same: what it used still counts
        err.cpu_used = cpu_used() - start
        raise
    finally:
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
        signal.signal(signal.SIGXCPU, previous)


class Allowance:
    """CPU seconds a kind of work may use per minute in this process, as a bucket that refills at ``per_minute``
    a minute: work starts while the bucket is not empty, and what it used is taken out when it ends."""

    def __init__(self, per_minute: float, what: str, setting: str, clock=time.monotonic):
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
