"""export_animation(): a step range of a scenario as an animated GIF or APNG or an MP4 video, for slides and READMEs.

Frames, then pixels, then the file. The frames are the SVG export's pictures (svg.py ``render``: the same scene,
renderer and tokens): the range's first position, then for each step forward the climax's beats on its new picture
(beats.py: the walk's sweep with what Done removed still solid, the hold) and the settled picture, held ``HOLD_MS``
to be read (the last ``LAST_HOLD_MS``, before the loop starts again). Consecutive identical pictures are one frame.
raster.py draws them ``width`` pixels wide, each on a canvas as tall as the tallest, and encodes them (video.py an
MP4). They are laid out as the request's preset says (preset.py: a slide's by default).

Bounded as the other exports are: the simulation's memory by ``max_bytes``, the work by at most ``MAX_STEPS``
steps and ``MAX_PIXELS`` pixels in all the frames, the width by ``WIDTHS``, and the pixels' memory by
``PIXEL_BYTES_MOST`` (``pixel_bytes``: from memory measured, so a worker's RSS stays under ``WORKER_RSS_MOST``);
the frames' size is checked before any is drawn (``check_pixels``)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from ..engine.simulation import Simulation
from ..errors import TooLarge
from ..presenter import state_message
from ..presenter.shapes import Scene
from ..scenario.scenario import Scenario
from . import video
from .beats import beats, drawn
from .preset import PRESETS, SLIDE, Preset
from .raster import encoded, height_at, rasterized
from .request import WIDTHS, Request, check_options, check_range
from .svg import THEMES, render

MAX_PIXELS = 80_000_000  # in all the frames together (about 90 frames of 1280 x 700): the time of one
# The memory an export's pixels take, measured by bench/frame_memory.py (docs/benchmarks.md, "Frame memory"): a
# worker's RSS grows by DRAW_BYTES per pixel of its largest frame while that is drawn (resvg's RGBA pixmap, its PNG,
# Pillow's decoding and RGB copy of it), and by HELD_BYTES per pixel of all the frames while they are held and
# encoded (Pillow keeps a copy of each, and a GIF its palette image); the larger of the two is the export's.
DRAW_BYTES = 9.0  # measured 8.5-8.9 for single frames of 8 to 73 million pixels, GIF and APNG alike
HELD_BYTES = {"gif": 7.0, "apng": 9.5,  # measured 6.3-6.6 and 8.8-9.1 for 36 frames of 12.5 to 50 million pixels
              "mp4": 9.5}  # not measured: the APNG's (the frames held as RGB, each made YUV as it is encoded)
MIB = 1024 * 1024
WORKER_RSS_MOST = 512 * MIB  # what a worker's RSS stays under during an animated export (and the CLI's)
# Its RSS before the pixels: the interpreter and libraries (33-41 MB measured), the simulation (MAX_SESSION_BYTES,
# 32 MiB by default) and the pictures' SVG text.
WORKER_BASE = 96 * MIB
PIXEL_BYTES_MOST = WORKER_RSS_MOST - WORKER_BASE
VIDEO_SIDE = 16_384  # libx264's tallest frame (pixels): an MP4 taller cannot be encoded (width is at most 1920)
HOLD_MS, LAST_HOLD_MS = 2500, 5000


def export_animation(scenario: Scenario, request: Request, max_bytes: int | None = None,
                     versions: Sequence[str] | None = None) -> bytes:
    """The animation's file. Raises Invalid for a bad request, TooLarge past the bounds."""
    check_options(request.kind, request.theme, request.width, request.preset)
    check_range(request.start, request.end, len(scenario.steps))
    pictures = frames(scenario, request.start, request.end, request.theme, max_bytes, versions,
                      PRESETS[request.preset])
    height = max(height_at(svg, request.width) for svg, _ in pictures)
    check_pixels(len(pictures), request.width, height, request.kind)
    return pixels(pictures, request, height)


def check_pixels(count: int, width: int, height: int, kind: str) -> None:
    """TooLarge, naming the width and what would fit, for ``count`` frames of ``width`` x ``height`` pixels over
    MAX_PIXELS in all, an MP4's frames over VIDEO_SIDE tall, or over PIXEL_BYTES_MOST of memory."""
    size = f"{count} frames of {width} x {height} pixels"
    if count * width * height > MAX_PIXELS:
        raise TooLarge(f"this animation would be {size}, over {MAX_PIXELS:,} pixels in all: export a shorter "
                       "range or a narrower width")
    needed = pixel_bytes(count, width, height, kind)
    # the frames' height grows with their width: the bytes with its square
    widest = int(width * math.sqrt(PIXEL_BYTES_MOST / needed))
    if kind == "mp4" and height > VIDEO_SIDE:
        widest = min(widest, int(width * VIDEO_SIDE / height))
        raise TooLarge(f"width: {size} would be taller than the {VIDEO_SIDE:,} pixels an MP4's frame may be; "
                       f"expected {_instead(widest)}")
    if needed <= PIXEL_BYTES_MOST:
        return
    raise TooLarge(f"width: {size} would take about {needed // MIB:,} MiB to draw, over the "
                   f"{PIXEL_BYTES_MOST // MIB:,} MiB an animation's pixels may take (an export stays under "
                   f"{WORKER_RSS_MOST // MIB:,} MiB); expected {_instead(widest)}")


def _instead(widest: int) -> str:
    return (f"at most {widest} pixels wide for this range" if widest >= WIDTHS[0]
            else "no width fits this range: export a shorter one")


def pixel_bytes(count: int, width: int, height: int, kind: str) -> int:
    """The bytes a worker's RSS grows by to draw and encode ``count`` frames of ``width`` x ``height`` as ``kind``."""
    frame = width * height
    return math.ceil(max(frame * DRAW_BYTES, count * frame * HELD_BYTES[kind]))


def pixels(pictures: list[tuple[str, int]], request: Request, height: int) -> bytes:
    """The pictures drawn ``request.width`` x ``height`` and encoded: the export's last two stages."""
    background = THEMES[request.theme]["bg"]
    images = [rasterized(svg, request.width, height, background) for svg, _ in pictures]
    durations = [ms for _, ms in pictures]
    if request.kind == "mp4":
        return video.encoded(images, durations)
    return encoded(images, durations, request.kind, list(THEMES[request.theme].values()))




def frames(scenario: Scenario, start: int, end: int, theme: str = "light", max_bytes: int | None = None,
           versions: Sequence[str] | None = None, preset: Preset = SLIDE) -> list[tuple[str, int]]:
    """The pictures as SVG documents, each with how long it shows (ms)."""
    sim = Simulation(scenario, versions or scenario.versions, max_bytes=max_bytes)
    sim.seek(start)
    out = [(render(scenario.name, _scene(sim), theme, preset), HOLD_MS)]
    while sim.position < end:
        sim.step()
        scene = _scene(sim)
        tree = ET.fromstring(render(scenario.name, scene, theme, preset))
        out += [(_document(drawn(tree, beat, theme)), beat.ms) for beat in beats(scene)]
        out.append((_document(tree), HOLD_MS))  # written as the beats are, so an unchanged picture merges
    out[-1] = (out[-1][0], LAST_HOLD_MS)
    return _merged(out)


def _scene(sim: Simulation) -> Scene:
    return state_message(sim.frame())["scene"]


def _document(root: ET.Element) -> str:
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _merged(pictures: list[tuple[str, int]]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for svg, ms in pictures:
        if out and out[-1][0] == svg:
            out[-1] = (svg, out[-1][1] + ms)
        else:
            out.append((svg, ms))
    return out
