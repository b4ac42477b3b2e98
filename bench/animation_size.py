"""What an animated export weighs and costs: the lost marker's steps 1-6 (positions 0..6) as GIF, APNG and MP4,
run as a user runs it, through the CLI in a fresh process, in both themes, at several widths and in both presets.

Reports, per file, its bytes (the same every run: the export is deterministic), its frames, its size in pixels,
the smallest text it draws (measured in the SVG pictures the export draws: each text's font size times the
picture's scale) and the median wall time of --repeat runs; the goals are the issue's: the GIF at 1280 px wide at
most 2 MB, and a slide's text at least 24 px at 1280 px (the tokens' type.slide). The MP4 needs PyAV
(`pip install 'inflight-scope[video]'`).
    python bench/animation_size.py [--repeat 3] [--widths 1280,1920,640] [--presets slide,full] [--kinds gif,apng,mp4]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import av
from common import median
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.export.drawn import font_sizes  # noqa: E402
from webapp.export.animation import frames  # noqa: E402
from webapp.export.preset import PRESETS  # noqa: E402
from webapp.export.tokens import TYPE  # noqa: E402
from webapp.scenario import builtin  # noqa: E402
from webapp.scenario.load import load_scenario  # noqa: E402

GOAL = 2 * 1024 * 1024  # bytes of the 1280-px GIF
EXTENSION = {"gif": "gif", "apng": "png", "mp4": "mp4"}


def exported(kind: str, theme: str, width: int, preset: str, out: Path) -> float:
    """The seconds one ``inflight-scope export`` takes, the file written to ``out``."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "webapp.cli", "export", "lost-marker", "--from", "0", "--to", "6",
                    "--format", kind, "--theme", theme, "--width", str(width), "--preset", preset, "-o", str(out)],
                   cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


def decoded(kind: str, out: Path) -> tuple[int, tuple[int, int]]:
    """The file's frames and their size, read back (Pillow; PyAV for a video)."""
    if kind == "mp4":
        with av.open(str(out)) as container:
            pictures = list(container.decode(video=0))
        return len(pictures), (pictures[0].width, pictures[0].height)
    with Image.open(out) as image:
        return image.n_frames, image.size


def least_text(preset: str, theme: str, width: int) -> float:
    """The smallest text (px) in the pictures the export draws, ``width`` px wide."""
    scenario = load_scenario(builtin.get("lost-marker"))
    return min(min(font_sizes(svg, width))[0] for svg, _ in frames(scenario, 0, 6, theme, preset=PRESETS[preset]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--widths", default="1280,1920,640")
    ap.add_argument("--presets", default="slide,full")
    ap.add_argument("--kinds", default="gif,apng,mp4")
    args = ap.parse_args()
    print(f"{'file':<24} {'bytes':>11} {'frames':>6} {'size':>11} {'least px':>8} {'median s':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for preset in args.presets.split(","):
            for width in map(int, args.widths.split(",")):
                for kind in args.kinds.split(","):
                    for theme in ("light", "dark"):
                        out = Path(folder) / f"lost-{width}-{theme}.{EXTENSION[kind]}"
                        seconds = median([exported(kind, theme, width, preset, out) for _ in range(args.repeat)])
                        count, (w, h) = decoded(kind, out)
                        least = least_text(preset, theme, width)
                        size = out.stat().st_size
                        goals = []
                        if kind == "gif" and width == 1280:
                            goals.append(f"goal <= {GOAL:,}: {'met' if size <= GOAL else 'NOT met'}")
                        if preset == "slide" and width == 1280:
                            met = "met" if least >= TYPE["slide"] else "NOT met"
                            goals.append(f"text >= {TYPE['slide']:g} px: {met}")
                        said = f"  ({'; '.join(goals)})" if goals else ""
                        print(f"{kind} {width} {preset} {theme:<10} {size:>11,} {count:>6} {f'{w}x{h}':>11} "
                              f"{least:>8.1f} {seconds:>9.2f}{said}", flush=True)


if __name__ == "__main__":
    main()
