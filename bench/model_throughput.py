"""Model throughput: operations per second replaying a generated scenario on each variant.

Baseline (same process, same steps): a loop that dispatches every step to a no-op through the same
kind of table lookup, so the ratio says how many "empty steps" one model step costs.
    python bench/model_throughput.py [--steps 1000000] [--repeat 3]
"""

from __future__ import annotations

import argparse

from common import generated, median, timed

from webapp.model.variant import OPERATIONS, VARIANTS


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--duplicate-pops", action="store_true", help="let the v1.28.2 list grow (updates)")
    args = ap.parse_args()
    scenario = generated(args.steps, updates=args.duplicate_pops)
    steps = scenario.steps
    noop = {op: (lambda q, s, r: None) for op in OPERATIONS}

    def baseline():
        for i, step in enumerate(steps):
            noop[step["op"]](None, step, {"step": i})

    base = median(timed(baseline, args.repeat))
    print(f"{len(steps):,} generated steps; baseline loop {len(steps) / base:,.0f} steps/s (median of {args.repeat})")
    for variant in VARIANTS:
        def run():
            model = scenario.model(variant)
            for i, step in enumerate(steps):
                model.apply(i, step)

        t = median(timed(run, args.repeat))
        print(f"{variant}: {len(steps) / t:,.0f} ops/s (median of {args.repeat}), {t / base:.1f}x the baseline loop")


if __name__ == "__main__":
    main()
