"""What one start of `python -m webapp.cli serve` costs until /healthz answers, per async mode: the server
process's CPU seconds, the wall time from the spawn, and the modules it has loaded by then (counted in a start of
its own under ``-X importtime``, whose overhead the timed starts do not carry).

    python bench/server_start.py [--starts 15] [--baseline DIR] [--modes eventlet,threading] [--which]

With --baseline DIR (another checkout: the code before a change, e.g. `git worktree add /tmp/base main`) both trees
start alternately, so a busy machine weighs on both alike, and the ratio baseline / this tree is printed. --which
lists the modules one tree loads and the other does not. Figures, not assertions: medians of the starts.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from common import median
from server import HOST, ROOT, cpu_seconds, free_port

POLL = 0.01  # seconds between two asks of /healthz while the server starts
DEADLINE = 60.0  # against a hang only


def started(root: Path, mode: str, importtime: bool = False) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, its stderr) of one server of ``root`` in ``mode`` until /healthz answers."""
    port = free_port()
    command = [sys.executable, *(["-X", "importtime"] if importtime else []), "-m", "webapp.cli", "serve",
               "--host", HOST, "--port", str(port), "--async-mode", mode]
    env = {k: v for k, v in os.environ.items() if not k.startswith("INFLIGHT_SCOPE_")}
    with tempfile.TemporaryFile() as err:
        began = time.perf_counter()
        proc = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=err)
        try:
            while True:
                try:
                    with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=DEADLINE) as r:
                        if json.load(r)["async_mode"] != mode:
                            raise RuntimeError("the server answered in another async mode")
                    break
                except OSError:
                    if proc.poll() is not None or time.perf_counter() - began > DEADLINE:
                        err.seek(0)
                        raise RuntimeError(f"{root}: the server did not start:\n{err.read().decode()[-3000:]}") \
                            from None
                    time.sleep(POLL)
            wall, cpu = time.perf_counter() - began, cpu_seconds(proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)
        err.seek(0)
        return cpu, wall, err.read().decode(errors="replace")


def loaded(root: Path, mode: str) -> list[str]:
    """The modules a start of ``root`` in ``mode`` has imported when /healthz answers (-X importtime's lines)."""
    lines = started(root, mode, importtime=True)[2].splitlines()
    return [line.rsplit("|", 1)[1].strip() for line in lines
            if line.startswith("import time:") and not line.rstrip().endswith("imported package")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--starts", type=int, default=15, help="timed starts per tree and mode")
    ap.add_argument("--baseline", type=Path, help="another checkout, started alternately with this one")
    ap.add_argument("--modes", default="eventlet,threading")
    ap.add_argument("--which", action="store_true", help="list the modules only one of the trees loads")
    args = ap.parse_args()
    trees = {"this tree": ROOT} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    for mode in args.modes.split(","):
        cpu: dict[str, list[float]] = {name: [] for name in trees}
        wall: dict[str, list[float]] = {name: [] for name in trees}
        for _ in range(args.starts):
            for name, root in trees.items():  # alternated: both trees see the machine alike
                c, w, _err = started(root, mode)
                cpu[name].append(c)
                wall[name].append(w)
        modules = {name: loaded(root, mode) for name, root in trees.items()}
        print(f"{mode}: medians of {args.starts} starts until /healthz answers")
        for name in trees:
            print(f"  {name:10} CPU {median(cpu[name]):6.3f} s  wall {median(wall[name]):6.3f} s"
                  f"  modules {len(modules[name]):5d}")
        if args.baseline:
            base, this = "baseline", "this tree"
            print(f"  ratio      CPU {median(cpu[base]) / median(cpu[this]):.2f}x"
                  f"  wall {median(wall[base]) / median(wall[this]):.2f}x"
                  f"  modules {len(modules[base]) / len(modules[this]):.2f}x (baseline / this tree)")
            if args.which:
                for one, other in ((this, base), (base, this)):
                    only = sorted(set(modules[one]) - set(modules[other]))
                    print(f"  only {one} loads {len(only)}: {' '.join(only)}")


if __name__ == "__main__":
    main()
