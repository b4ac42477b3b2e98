"""Model throughput: operations per second replaying a generated scenario on each version.

Baseline (same process, same steps): a loop that dispatches every step to a no-op through the same
kind of table lookup, so the ratio says how many "empty steps" one model step costs.
    python bench/model_throughput.py [--steps 1000000] [--repeat 3]
"""

from __future__ import annotations

from common import generated_from_arguments, median, timed

from webapp.model.variant import OPERATIONS
from webapp.model.versions import VERSIONS


def main():
    args, scenario = generated_from_arguments(__doc__, 1_000_000, variants=tuple(VERSIONS), repeat=3)
    steps = scenario.steps
    noop = {op: (lambda q, s, r: None) for op in OPERATIONS}

    def baseline():
        for i, step in enumerate(steps):
            noop[step["op"]](None, step, {"step": i})

    base = median(timed(baseline, args.repeat))
    print(f"{len(steps):,} generated steps; baseline loop {len(steps) / base:,.0f} steps/s (median of {args.repeat})")
    for variant in VERSIONS:
        def run(variant: str = variant) -> None:  # bound now: timed() calls it within this turn
            model = scenario.model(variant)
            for i, step in enumerate(steps):
                model.apply(i, step)

        t = median(timed(run, args.repeat))
        print(f"{variant}: {len(steps) / t:,.0f} ops/s (median of {args.repeat}), {t / base:.1f}x the baseline loop")


if __name__ == "__main__":
    main()
