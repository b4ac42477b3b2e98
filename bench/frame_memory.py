"""The memory an animated export's pixels take: a worker's RSS for frames of several sizes, the figures
webapp/export/animation.py's memory bound is derived from (docs/benchmarks.md, "Frame memory").

Each case runs in a fresh process: a generated scenario (``--steps`` steps, the case's pods: more pods, a taller
picture) is turned into its pictures (SVG), the process's RSS is read, its peak reset (/proc/self/clear_refs), then
the pictures are drawn and encoded as the export does (``animation.pixels``) and the peak RSS read again. Reported:
frames, width x height, the pixels of one frame and of all, the RSS before and its peak during the pixels, the
growth per pixel of all the frames, and what ``animation.pixel_bytes`` estimates for the case (the bound's model).
    python bench/frame_memory.py [--steps 40]
Linux only (/proc)."""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

import common  # noqa: F401 - puts this checkout's webapp first on the path

ROOT = Path(__file__).resolve().parent.parent
# (pods, width, range of steps, kind): one tall frame, then many small ones
CASES = [(100, 1800, 0, "gif"), (100, 1800, 0, "apng"), (400, 1800, 0, "gif"), (400, 1800, 0, "apng"),
         (1000, 1800, 0, "gif"), (1000, 1800, 0, "apng"), (12, 1280, 30, "gif"), (12, 1280, 30, "apng"),
         (12, 640, 30, "gif"), (12, 640, 30, "apng")]


def rss_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def one(pods: int, width: int, steps: int, span: int, kind: str) -> dict:
    from webapp.export.animation import frames, pixel_bytes, pixels
    from webapp.export.raster import height_at
    from webapp.export.request import Request
    from webapp.scenario.generate import generate
    from webapp.scenario.resolve import resolve

    scenario = resolve(generate(random.Random(2).choice, steps, pods=pods))[0]
    end = len(scenario.steps)
    request = Request(end - span, end, kind, "light", width)
    pictures = frames(scenario, request.start, request.end, request.theme)
    height = max(height_at(svg, width) for svg, _ in pictures)
    before = rss_kb("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")  # the peak (VmHWM) from here on
    pixels(pictures, request, height)
    peak = rss_kb("VmHWM")
    return {"frames": len(pictures), "width": width, "height": height, "before": before * 1024,
            "peak": peak * 1024, "estimate": pixel_bytes(len(pictures), width, height, kind)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--one", help=argparse.SUPPRESS)  # pods,width,span,kind: one case, in this process
    args = ap.parse_args()
    if args.one:
        pods, width, span, kind = args.one.split(",")
        print(json.dumps(one(int(pods), int(width), args.steps, int(span), kind)))
        return
    print(f"{'kind':<5} {'frames':>6} {'w x h':>12} {'frame Mpx':>9} {'all Mpx':>8} {'RSS before MB':>13} "
          f"{'peak MB':>8} {'growth MB':>9} {'B/px all':>8} {'estimate MB':>11}")
    for pods, width, span, kind in CASES:
        out = subprocess.run([sys.executable, __file__, "--steps", str(args.steps), "--one",
                              f"{pods},{width},{span},{kind}"], cwd=ROOT, check=True, capture_output=True, text=True)
        r = json.loads(out.stdout)
        frame, total = r["width"] * r["height"], r["frames"] * r["width"] * r["height"]
        growth = r["peak"] - r["before"]
        print(f"{kind:<5} {r['frames']:>6} {r['width']:>5} x {r['height']:<6} {frame / 1e6:>9.1f} {total / 1e6:>8.1f} "
              f"{r['before'] / 2**20:>13.0f} {r['peak'] / 2**20:>8.0f} {growth / 2**20:>9.0f} "
              f"{growth / total:>8.1f} {r['estimate'] / 2**20:>11.0f}", flush=True)


if __name__ == "__main__":
    main()
