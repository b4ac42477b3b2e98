"""Memory one session can hold: the pickled checkpoints of the largest scenario a client can load.

A session's simulation keeps, per variant, a checkpoint (the pickled model) every ~sqrt(n) steps. What makes a
checkpoint big is the in-flight list, and the list grows fastest with events recorded while a pod stays in
flight: so the worst case is "pop, then as many events as fit", with 1 or 1,000 pods in flight. A client can
send at most MAX_MESSAGE_BYTES (1 MiB) in one Socket.IO message; the scenario loader's own limit is 2 MiB
(Limits.max_bytes, the HTTP routes). Each scenario is sized to its byte limit as compact JSON and loaded like
`load` does (both variants); the figures are the summed checkpoint bytes, the load time and the process's
peak RSS growth.
    python bench/session_memory.py [--limit-bytes 1048576 2097152]

With --server, the same scenarios go to a real server (eventlet) over Socket.IO instead: its RSS (VmRSS) is
read before, while --sessions connections each hold one (a private session, or a room with --rooms) and
after they all disconnected, to show whether the process gives the memory back (engine/memory.py,
release_memory). --root runs another checkout's server (e.g. a git worktree of an older commit).
    python bench/session_memory.py --server [--sessions 3] [--limit-bytes 524288] [--rooms] [--root DIR]
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


def server_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS (Linux only)")


def measure_server(args) -> None:
    import server as bench_server
    import socketio

    if args.root:
        bench_server.ROOT = Path(args.root).resolve()
    env = {"INFLIGHT_SCOPE_MAX_SESSION_BYTES": str(1024 ** 3), "INFLIGHT_SCOPE_RATE_LIMIT_PER_SECOND": "0",
           "INFLIGHT_SCOPE_ROOM_EMPTY_GRACE_SECONDS": "1", "INFLIGHT_SCOPE_SWEEP_SECONDS": "1"}
    srv = bench_server.Server("eventlet", env)
    try:
        pid = srv.proc.pid
        warm = socketio.Client()
        warm.connect(srv.url, transports=["websocket"])
        warm.call("load", {"scenario": "lost-marker"}, timeout=30)
        warm.disconnect()
        time.sleep(2)
        before = server_rss_mib(pid)
        limit = args.limit_bytes[0]
        clients = []
        t = time.perf_counter()
        for _ in range(args.sessions):
            c = socketio.Client()
            c.connect(srv.url, transports=["websocket"])
            payload = {"scenario": worst_case(1, limit)}
            if args.rooms:
                payload.update(c.call("create_room", {}, timeout=30))
            c.call("load", payload, timeout=600)
            clients.append(c)
        during = server_rss_mib(pid)
        seconds = time.perf_counter() - t
        for c in clients:
            c.disconnect()
        time.sleep(args.settle)
        after = server_rss_mib(pid)
        kind = "rooms" if args.rooms else "sessions"
        print(f"{args.sessions} {kind} of a {limit / 2**20:g} MiB scenario "
              f"(1 pod in flight; loaded in {seconds:.0f} s): "
              f"server RSS before {before:.0f} MiB, during {during:.0f} MiB, {args.settle:g} s after the last "
              f"disconnect {after:.0f} MiB ({args.root or 'this checkout'})")
    finally:
        srv.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit-bytes", type=int, nargs="+", default=None)
    ap.add_argument("--server", action="store_true", help="measure a real server's RSS before, during, after")
    ap.add_argument("--sessions", type=int, default=3)
    ap.add_argument("--rooms", action="store_true", help="each connection loads into a room it created")
    ap.add_argument("--settle", type=float, default=5.0, help="seconds to wait after the last disconnect")
    ap.add_argument("--root", help="the checkout whose server to run (default: this one)")
    args = ap.parse_args()
    if args.server:
        args.limit_bytes = args.limit_bytes or [512 * 1024]
        return measure_server(args)
    args.limit_bytes = args.limit_bytes or [1024 * 1024, 2 * 1024 * 1024]
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
