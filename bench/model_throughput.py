"""Model throughput: operations per second replaying a generated scenario on each version.

Baseline (same process, same steps): a loop that dispatches every step to a no-op through the same
kind of table lookup, so the ratio says how many "empty steps" one model step costs. ``--cpu-time`` times the
process's CPU rather than the wall clock, for a machine others keep busy.
    python bench/model_throughput.py [--steps 1000000] [--repeat 3] [--cpu-time]
"""

from __future__ import annotations

import time

from common import generated_from_arguments, median, timed

from webapp.model.variant import OPERATIONS
from webapp.model.versions import VERSIONS


def main():
    args, scenario = generated_from_arguments(__doc__, 1_000_000, variants=tuple(VERSIONS), repeat=3)
    steps = scenario.steps
    noop = {op: (lambda q, s, r: None) for op in OPERATIONS}
    clock = time.process_time if args.cpu_time else time.perf_counter

    def baseline():
        for i, step in enumerate(steps):
            noop[step["op"]](None, step, {"step": i})

    base = median(timed(baseline, args.repeat, clock))
    print(f"{len(steps):,} generated steps; baseline loop {len(steps) / base:,.0f} steps/s (median of {args.repeat}"
          f"{', CPU time' if args.cpu_time else ''})")
    for variant in VERSIONS:
        def run(variant: str = variant) -> None:  # bound now: timed() calls it within this turn
            model = scenario.model(variant)
            for i, step in enumerate(steps):
                model.apply(i, step)

        t = median(timed(run, args.repeat, clock))
        print(f"{variant}: {len(steps) / t:,.0f} ops/s (median of {args.repeat}), {t / base:.1f}x the baseline loop")


if __name__ == "__main__":
    main()
