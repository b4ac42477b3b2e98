"""What one heavy `load` costs everybody else on the same server process.

Starts `inflight-scope serve` (eventlet unless --async-mode threading). A stepper connection does step round
trips back to back for the whole run; its latencies are the figures. Baseline (same process, same stepper):
the seconds before any heavy load. Then a second connection loads, one after another, the heaviest scenarios
one message may carry: a generated one that fills the 1 MiB message limit (accepted), and "one pod in flight,
then events" at the same size (its checkpoints outgrow the session memory cap, so it is refused after the
work). Reported: the stepper's p50 / p99 / max during the baseline and during the loads, and each load's time.
    python bench/heavy_load.py [--async-mode eventlet|threading] [--loads 4] [--baseline-seconds 3]
"""

from __future__ import annotations

import argparse
import json
import random
import threading
import time

from common import median, percentile
from round_trip import Client
from server import Server
from session_memory import worst_case

from webapp.scenario.generate import generate

MESSAGE_LIMIT = 1024 * 1024


def generated_to_limit() -> dict:
    """A generated scenario whose compact JSON just fits in one message."""
    steps = 30_000
    while True:
        raw = generate(random.Random(1).choice, steps, pods=12)
        if len(json.dumps({"scenario": raw}, separators=(",", ":"))) < MESSAGE_LIMIT - 1024:
            return raw
        steps -= 1_000


class Stepper(threading.Thread):
    """Steps (seeking back to 0 at the end) until stopped; records (send time, round-trip ms)."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.client = Client(url)
        self.client.call("load", {"scenario": "three-pod-cascade"})
        self.total = self.client.last[1]["total"]
        self.samples: list[tuple[float, float]] = []
        self.stopped = threading.Event()

    def run(self):
        while not self.stopped.is_set():
            if self.client.last[1]["position"] == self.total:
                self.client.call("seek", {"position": 0})
            sent = time.perf_counter()
            self.samples.append((sent, self.client.call("step")))

    def between(self, start: float, end: float) -> list[float]:
        return [ms for sent, ms in self.samples if start <= sent < end]


def figures(xs: list[float]) -> str:
    return f"p50 {median(xs):.1f} ms, p99 {percentile(xs, 0.99):.1f} ms, max {max(xs):.0f} ms ({len(xs)} steps)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--async-mode", default="eventlet", choices=("eventlet", "threading"))
    ap.add_argument("--loads", type=int, default=4, help="heavy loads of each kind")
    ap.add_argument("--baseline-seconds", type=float, default=3.0)
    args = ap.parse_args()
    heavy = {"generated (accepted)": generated_to_limit(),
             "one pod in flight, then events (refused by the memory cap)": worst_case(1, MESSAGE_LIMIT - 1024)}
    server = Server(args.async_mode, {"INFLIGHT_SCOPE_RATE_LIMIT_PER_SECOND": "0"})
    try:
        stepper = Stepper(server.url)
        loader = Client(server.url)
        stepper.start()
        time.sleep(args.baseline_seconds)
        start = time.perf_counter()
        load_times = {name: [] for name in heavy}
        answers = {name: set() for name in heavy}
        for _ in range(args.loads):
            for name, raw in heavy.items():
                load_times[name].append(loader.call("load", {"scenario": raw}, expect=("scenario", "error")))
                answers[name].add(loader.last[0])
        end = time.perf_counter()
        stepper.stopped.set()
        stepper.join(15)
    finally:
        server.stop()
    print(f"async mode {args.async_mode}; one server process; stepper = step round trips back to back")
    for name, raw in heavy.items():
        print(f"heavy load {name}: {len(raw['steps']):,} steps; answered {sorted(answers[name])}; "
              f"load time median {median(load_times[name]) / 1000:.2f} s over {args.loads}")
    baseline = stepper.between(0, start)
    during = stepper.between(start, end)
    print(f"stepper, baseline ({args.baseline_seconds:g} s alone): {figures(baseline)}")
    print(f"stepper, during {args.loads * len(heavy)} heavy loads ({end - start:.1f} s): {figures(during)}")
    print(f"ratio during / baseline: p50 {median(during) / median(baseline):.1f}x, "
          f"p99 {percentile(during, 0.99) / percentile(baseline, 0.99):.1f}x")


if __name__ == "__main__":
    main()
