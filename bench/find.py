"""How often the search finds the lost marker within 2 s from random seeds, and how small the shrinker makes it.

    python bench/find.py [--seeds 30] [--budget 2]

For each seed and target (invariant: in_flight_boundary breaks, i.e. v1.28.1 loses a marker; divergence: the
versions place a pod differently) it runs `Search.search` with the budget, then `shrink`, and prints how many
seeds found one, the median time to find and to shrink, and the distribution of shrunk sizes.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from common import median

from webapp.engine.find import Search, size


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=30)
    ap.add_argument("--budget", type=float, default=2.0)
    args = ap.parse_args()
    for target in ("invariant", "divergence"):
        search = Search(target, invariant="in_flight_boundary")
        finds, shrinks, sizes, tries = [], [], Counter(), []
        for seed in range(1, args.seeds + 1):
            started = time.perf_counter()
            found = search.search(seed, args.budget)
            if found is None:
                continue
            finds.append(time.perf_counter() - started)
            raw, _, n = found
            tries.append(n)
            started = time.perf_counter()
            small = search.shrink(raw)
            shrinks.append(time.perf_counter() - started)
            s = size(small)
            sizes[(s["steps"], s["pods"], s["events"])] += 1
        print(f"{target}: found from {len(finds)}/{args.seeds} seeds within {args.budget:g} s; "
              f"median {median(finds) * 1000:.0f} ms to find ({median(tries):.0f} scenarios tried), "
              f"{median(shrinks) * 1000:.0f} ms to shrink")
        for (steps, pods, events), n in sorted(sizes.items()):
            print(f"  shrunk to {steps} steps, {pods} pods, {events} events: {n} seeds")


if __name__ == "__main__":
    main()
