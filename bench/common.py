"""Shared bits of the benchmarks: generated scenarios and medians (figures, not assertions)."""

from __future__ import annotations

import argparse
import queue
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webapp.model.variant import VARIANTS  # noqa: E402
from webapp.scenario.generate import generate  # noqa: E402
from webapp.scenario.scenario import from_valid_dict  # noqa: E402


def generated(steps: int, seed: int = 1, pods: int = 12, updates: bool = False, variants=VARIANTS):
    """updates=True lets pods be re-added while in flight: duplicate Pops, a growing v1.28.2 list.
    The scenario runs as written on every one of ``variants``."""
    return from_valid_dict(generate(random.Random(seed).choice, steps, pods=pods, updates=updates,
                                    variants=variants))


def generated_from_arguments(doc: str, steps: int, variants=VARIANTS, **numbers: int):
    """Parse ``--steps``, ``--duplicate-pops`` and the given integer options; return (args, scenario)."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--steps", type=int, default=steps)
    for name, default in numbers.items():
        ap.add_argument("--" + name.replace("_", "-"), type=int, default=default)
    ap.add_argument("--duplicate-pops", action="store_true", help="let the v1.28.2 list grow (updates)")
    ap.add_argument("--cpu-time", action="store_true",
                    help="time this process's CPU instead of the wall clock (on a machine others keep busy)")
    args = ap.parse_args()
    return args, generated(args.steps, updates=args.duplicate_pops, variants=variants)


def timed(fn, repeat: int, clock=time.perf_counter) -> list[float]:
    out = []
    for _ in range(repeat):
        t = clock()
        fn()
        out.append(clock() - t)
    return out


def median(xs):
    return statistics.median(xs)


def percentile(xs, q: float):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def gathered(out, expected: int, procs, wait: float) -> list:
    """The attackers' reports: up to ``expected`` read from the queue ``out`` (each within ``wait`` seconds, else
    those read so far), then every process in ``procs`` joined, and a second for the server to drain."""
    reports: list = []
    try:
        while len(reports) < expected:
            reports.append(out.get(timeout=wait))
    except queue.Empty:
        pass
    for p in procs:
        p.join(30)
    time.sleep(1.0)
    return reports
