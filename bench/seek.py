"""Seek time on a long scenario: both variants in lockstep, random targets; a seek is timed up to its frame
(``seek`` only moves the cursor: the timelines move, and the frame is built, when the frame is asked for).

Baseline (same process): replaying from step 0 to the target, which is what checkpoints avoid.
    python bench/seek.py [--steps 100000] [--seeks 2000]
"""

from __future__ import annotations

import random
import time

from common import generated_from_arguments, median, percentile

from webapp.engine.simulation import Simulation


def main():
    args, scenario = generated_from_arguments(__doc__, 100_000, seeks=2000)
    t = time.perf_counter()
    sim = Simulation(scenario)
    load = time.perf_counter() - t
    line = next(iter(sim.timelines.values()))
    print(f"{args.steps:,} steps, both variants: load {load:.2f} s, checkpoint every {line.interval} steps, "
          f"{line.checkpoints} checkpoints per variant")

    rng = random.Random(7)
    times = []
    for _ in range(args.seeks):
        target = rng.randint(0, sim.total)
        t = time.perf_counter()
        sim.seek(target)
        sim.frame()
        times.append((time.perf_counter() - t) * 1000)
    backs = []
    sim.seek(sim.total // 2)
    for _ in range(500):
        t = time.perf_counter()
        sim.back()
        sim.frame()
        backs.append((time.perf_counter() - t) * 1000)

    replays = []
    for target in (sim.total // 4, sim.total // 2, sim.total):
        t = time.perf_counter()
        for variant in sim.variants:
            model = scenario.model(variant)
            for i in range(target):
                model.apply(i, scenario.steps[i])
        replays.append((time.perf_counter() - t) * 1000 / target * (sim.total / 2))
    print(f"random seek (incl. frame): median {median(times):.2f} ms, p99 {percentile(times, 0.99):.2f} ms, "
          f"max {max(times):.2f} ms over {args.seeks} seeks")
    print(f"back() (incl. frame): median {median(backs):.2f} ms, p99 {percentile(backs, 0.99):.2f} ms")
    print(f"baseline replay-from-0 to the middle: {median(replays):.0f} ms "
          f"({median(replays) / median(times):.0f}x the median seek)")


if __name__ == "__main__":
    main()
