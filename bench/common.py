"""Shared bits of the benchmarks: generated scenarios and medians (figures, not assertions)."""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webapp.scenario.generate import generate  # noqa: E402
from webapp.scenario.scenario import from_valid_dict  # noqa: E402


def generated(steps: int, seed: int = 1, pods: int = 12, updates: bool = False):
    """updates=True lets pods be re-added while in flight: duplicate Pops, a growing v1.28.2 list."""
    return from_valid_dict(generate(random.Random(seed).choice, steps, pods=pods, updates=updates))


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def median(xs):
    return statistics.median(xs)


def percentile(xs, q: float):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]
