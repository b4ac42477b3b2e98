"""Memory one session can hold: the pickled checkpoints of the largest scenario a client can load.

A session's simulation keeps, per variant, a checkpoint (the pickled model) every ~sqrt(n) steps. What makes a
checkpoint big is the in-flight list, and the list grows fastest with events recorded while a pod stays in
flight: so the worst case is "pop, then as many events as fit", with 1 or 1,000 pods in flight. A client can
send at most MAX_MESSAGE_BYTES (1 MiB) in one Socket.IO message; the scenario loader's own limit is 2 MiB
(Limits.max_bytes, the HTTP routes). Each scenario is sized to its byte limit as compact JSON and loaded like
`load` does (both variants); the figures are the summed checkpoint bytes, the load time and the process's
peak RSS growth.
    python bench/session_memory.py [--limit-bytes 1048576 2097152]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webapp.engine.simulation import Simulation  # noqa: E402
from webapp.model.variant import VARIANTS  # noqa: E402
from webapp.scenario.load import load_scenario  # noqa: E402
from webapp.scenario.validate import Limits  # noqa: E402

EVENT = {"op": "event", "event": "PvAdd"}  # the shortest event step


def worst_case(pods: int, limit_bytes: int) -> dict:
    """``pods`` pods popped (all in flight, never done), then as many PvAdd events as fit in ``limit_bytes``."""
    names = [f"p{i}" for i in range(pods)]
    raw = {"schema": 1, "name": "w", "pods": [{"name": n} for n in names], "initial_active": names,
           "steps": [{"op": "pop"} for _ in names]}
    head = len(json.dumps(raw, separators=(",", ":")))
    per_step = len(json.dumps(EVENT, separators=(",", ":"))) + 1
    raw["steps"] += [EVENT] * ((limit_bytes - head) // per_step)
    limits = Limits()
    raw["steps"] = raw["steps"][:limits.max_steps]
    assert len(json.dumps(raw, separators=(",", ":")).encode()) <= limit_bytes
    return raw


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(raw: dict) -> dict:
    scenario = load_scenario(raw)
    before = rss_mib()
    t = time.perf_counter()
    sim = Simulation(scenario, VARIANTS)
    seconds = time.perf_counter() - t
    line_bytes = {v: sum(len(b) for b in line._checkpoints.values()) for v, line in sim.timelines.items()}
    largest = max(len(b) for line in sim.timelines.values() for b in line._checkpoints.values())
    return {"steps": len(scenario.steps), "checkpoints": sum(line.checkpoints for line in sim.timelines.values()),
            "bytes": line_bytes, "largest": largest, "seconds": seconds, "rss_growth_mib": rss_mib() - before}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit-bytes", type=int, nargs="+", default=[1024 * 1024, 2 * 1024 * 1024])
    args = ap.parse_args()
    for limit in args.limit_bytes:
        for pods in (1, 1000):
            r = measure(worst_case(pods, limit))
            total = sum(r["bytes"].values())
            per = ", ".join(f"{v} {b / 2**20:.1f} MiB" for v, b in r["bytes"].items())
            print(f"{limit / 2**20:g} MiB scenario, {pods} pod(s) in flight, {r['steps']:,} steps: "
                  f"{r['checkpoints']} checkpoints, {total:,} bytes pickled ({total / 2**20:.1f} MiB: {per}); "
                  f"largest checkpoint {r['largest'] / 2**20:.2f} MiB; load {r['seconds']:.1f} s; "
                  f"peak RSS +{r['rss_growth_mib']:.0f} MiB")


if __name__ == "__main__":
    main()
