"""What an SVG export costs, where its arrows go round the list's entries (webapp/export/route.py).

Exports every position of every built-in scenario, then the last position of a scenario with three pods in flight
over a 600-entry v1.28.2 list (and as many on v1.28.1); reports the median wall time of each (median of --repeat
runs), and per drawing how many detours were searched and the search states they took (one drawing's detours
share route.BUDGET states; past it an arrow keeps its curve). --budget N runs the same with another budget
(0: none), to compare the bounded search with an unbounded one in one run.
    python bench/export_cost.py [--repeat 3] [--budget N]
"""

from __future__ import annotations

import argparse
import time

from common import median

from webapp.export import arrows, route, svg
from webapp.scenario import builtin
from webapp.scenario.resolve import resolve


def long_list(events: int = 300) -> dict:
    events_ = [{"op": "event", "event": "NodeAdd"}] * events
    steps = ([{"op": "pop", "expect": "A"}] + events_
             + [{"op": "pop", "expect": "B"}, {"op": "pop", "expect": "C"}] + events_)
    return {"schema": 1, "name": f"{2 * events} entries", "pods": [{"name": n} for n in "ABC"],
            "initial_active": list("ABC"), "steps": steps}


class Counted:
    """arrows.detour, counting the searches and the states each drawing's searches took."""

    def __init__(self):
        self.searches, self.taken = 0, {}  # the drawing's budget -> states its detours took

    def __call__(self, *args):
        spend = args[5]
        before = spend.left
        try:
            return route.detour(*args)
        finally:
            self.searches += 1
            self.taken[spend] = self.taken.get(spend, 0) + before - spend.left  # kept: no id reused


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--budget", type=int, default=route.BUDGET, help="search states per drawing (0: no bound)")
    args = ap.parse_args()
    route.BUDGET = args.budget or 10**12
    counted = arrows.detour = Counted()
    built_ins = [(resolve(i)[0], p) for i in builtin.ids() for p in range(builtin.step_count(i) + 1)]
    t = timed(lambda: [svg.export_svg(scenario, p) for scenario, p in built_ins], args.repeat)
    print(f"budget {args.budget or 'none'}: every built-in position ({len(built_ins)} exports): {t:.2f} s in all, "
          f"{counted.searches // args.repeat} detours searched, at most {max(counted.taken.values())} states a drawing")
    long = resolve(long_list())[0]
    counted.taken.clear()
    t = timed(lambda: svg.export_svg(long, len(long.steps)), args.repeat)
    print(f"budget {args.budget or 'none'}: three pods over a 600-entry list: {t:.2f} s an export, "
          f"states per drawing {sorted(set(counted.taken.values()))}")


if __name__ == "__main__":
    main()
