"""What an animated export weighs and costs: the lost marker's steps 1-6 (positions 0..6) as GIF and APNG, run as a
user runs it, through the CLI in a fresh process, in both themes and at several widths.

Reports, per file, its bytes (the same every run: the export is deterministic), its frames and the median wall time
of --repeat runs; the goal is the issue's: the GIF at 1280 px wide at most 2 MB.
    python bench/animation_size.py [--repeat 3] [--widths 1280,1920,640]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import median
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
GOAL = 2 * 1024 * 1024  # bytes of the 1280-px GIF


def exported(kind: str, theme: str, width: int, out: Path) -> float:
    """The seconds one ``inflight-scope export`` takes, the file written to ``out``."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "webapp.cli", "export", "lost-marker", "--from", "0", "--to", "6",
                    "--format", kind, "--theme", theme, "--width", str(width), "-o", str(out)],
                   cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--widths", default="1280,1920,640")
    args = ap.parse_args()
    print(f"{'file':<24} {'bytes':>11} {'frames':>6} {'median s':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for width in map(int, args.widths.split(",")):
            for kind in ("gif", "apng"):
                for theme in ("light", "dark"):
                    out = Path(folder) / f"lost-{width}-{theme}.{kind}"
                    seconds = median([exported(kind, theme, width, out) for _ in range(args.repeat)])
                    with Image.open(out) as image:
                        frames = image.n_frames
                    size = out.stat().st_size
                    goal = f"  (goal <= {GOAL:,}: {'met' if size <= GOAL else 'NOT met'})" \
                        if kind == "gif" and width == 1280 else ""
                    print(f"{kind} {width} {theme:<14} {size:>11,} {frames:>6} {seconds:>9.2f}{goal}")


if __name__ == "__main__":
    main()
