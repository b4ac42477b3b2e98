"""The periodic flushes' phase (``config.flush_phase``: the tickers fire at k·period - flush_phase). A flush move
the log states fixes it: a tick 1 µs before that line. Else the attempts of pods parked over the 300 s limit
(``Parked``) choose it: the 30 s flush (flushUnschedulablePodsLeftover) moves such a pod at its first tick past the
limit, so an attempt 300 to 330 s after the failure is that flush's doing when a tick falls between the two. One
phase must put a tick there for every such attempt; it is then chosen (a tick just before one of the attempts),
else the ticks stay at whole seconds from t = 0 (phase 0) and the mending assumes events instead (mend.py)."""

from __future__ import annotations

import bisect

from ...model.config import LEFTOVER_PERIOD
from .builder import MAX_IN_UNSCHEDULABLE, Builder, Parked

PERIOD = LEFTOVER_PERIOD // 1000  # µs


def flush_phase(b: Builder) -> tuple[float, list[Parked]]:
    """(flush_phase in seconds, the attempts it puts a 30 s tick just before, when it was chosen for them)."""
    if b.flush is not None:
        at, period, _ = b.flush
        return _phase(at - 1, period * 1_000_000), []
    windows = [w for w in map(_window, b.parked) if w is not None]
    allowed = _allowed(windows)
    if _inside(allowed, 0):  # phase 0 fits them all: the ticks stay at whole seconds from t = 0
        return 0, []
    for tick in (last % PERIOD for _, last, _ in windows):  # the tick just before an attempt
        if _inside(allowed, tick):
            return _phase(tick, PERIOD), [parked for _, _, parked in windows]
    return 0, []


def _phase(tick: int, period: int) -> float:
    """The phase (s) of a ``period`` ticker that fires at ``tick`` (µs)."""
    return (-tick % period) / 1e6


def _window(parked: Parked) -> tuple[int, int, Parked] | None:
    """(the first and last µs a 30 s tick may fall at to move the pod past the limit before its attempt, the
    attempt) when a tick there needs a phase: None when no tick can (the attempt is not past the limit by 2 µs)
    or every phase has one (the window holds a whole period)."""
    first, last = parked.failed + MAX_IN_UNSCHEDULABLE + 1, parked.attempt - 1
    return (first, last, parked) if 0 <= last - first < PERIOD - 1 else None


def _allowed(windows: list[tuple[int, int, Parked]]) -> list[tuple[int, int]]:
    """The ticks modulo the period (µs, [start, end] sorted) that fall in every window."""
    barred = []  # each window bars the ticks from its last µs + 1 round to its first - 1
    for first, last, _ in windows:
        start = (last + 1) % PERIOD
        end = start + PERIOD - (last - first + 1) - 1
        barred += [(start, min(end, PERIOD - 1))] + ([(0, end - PERIOD)] if end >= PERIOD else [])
    allowed, free = [], 0
    for start, end in sorted(barred):
        if start > free:
            allowed.append((free, start - 1))
        free = max(free, end + 1)
    return allowed + ([(free, PERIOD - 1)] if free < PERIOD else [])


def _inside(allowed: list[tuple[int, int]], tick: int) -> bool:
    i = bisect.bisect_right(allowed, (tick, PERIOD)) - 1
    return i >= 0 and allowed[i][0] <= tick <= allowed[i][1]
