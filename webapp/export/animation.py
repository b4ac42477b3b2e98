"""export_animation(): a step range of a scenario as an animated GIF or APNG, for slides and READMEs.

Frames, then pixels, then the file. The frames are the SVG export's pictures (svg.py ``render``: the same scene,
renderer and tokens): the range's first position, then for each step forward the climax's beats on its new picture
(beats.py: the walk's sweep with what Done removed still solid, the hold) and the settled picture, held ``HOLD_MS``
to be read (the last ``LAST_HOLD_MS``, before the loop starts again). Consecutive identical pictures are one frame.
raster.py draws them ``width`` pixels wide, each on a canvas as tall as the tallest, and encodes them.

Bounded as the other exports are: the simulation's memory by ``max_bytes``, the work by at most ``MAX_STEPS``
steps and ``MAX_PIXELS`` pixels in all the frames (checked before any is drawn), the width by ``WIDTHS``."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from ..engine.simulation import Simulation
from ..errors import Invalid, TooLarge
from ..presenter import state_message
from .beats import beats, drawn
from .pane import PANE_WIDTH
from .raster import encoded, height_at, rasterized
from .svg import GAP, MARGIN, THEMES, render

KINDS = ("gif", "apng")  # the animated formats, each a file's extension
MIME = {"gif": "image/gif", "apng": "image/apng"}
WIDTHS = (320, 1920)  # the pictures' width in pixels, least and most
DEFAULT_WIDTH = 1280
MAX_STEPS = 30  # steps in one animation (a few frames each)
MAX_PIXELS = 80_000_000  # in all the frames together (about 90 frames of 1280 x 700): the memory and time of one
HOLD_MS, LAST_HOLD_MS = 2500, 5000
FONT_SIZE = 12  # the SVG's ordinary text (svg.py's font-size)
READABLE_PX = 9.0  # drawn smaller than this, the ordinary text is hard to read: the CLI warns


@dataclass(frozen=True)
class Request:
    """What to export: positions ``start``..``end`` (both drawn), ``kind`` (one of KINDS), the theme, the width."""

    start: int
    end: int
    kind: str
    theme: str = "light"
    width: int = DEFAULT_WIDTH


def check_options(kind: str, theme: str, width: int) -> None:
    """Invalid, with a sentence naming the option, for a format, theme or width an animation cannot have."""
    if kind not in KINDS:
        raise Invalid(f"format must be one of {', '.join(KINDS)}, not {kind[:40]!r}")
    if theme not in THEMES:
        raise Invalid(f"theme must be one of {', '.join(THEMES)}, not {theme[:40]!r}")
    if not WIDTHS[0] <= width <= WIDTHS[1]:
        raise Invalid(f"width must be {WIDTHS[0]} to {WIDTHS[1]} pixels, got {width}")


def check_range(start: int, end: int, total: int, most: int | None = MAX_STEPS) -> None:
    """Invalid unless 0 <= start <= end <= total; TooLarge past ``most`` steps (None: any number)."""
    if not 0 <= start <= total or not 0 <= end <= total:
        raise Invalid(f"the range must lie within positions 0..{total} of this scenario, got {start}..{end}")
    if start > end:
        raise Invalid(f"the range's start comes after its end: {start}..{end}")
    if most is not None and end - start > most:
        raise TooLarge(f"an animation holds at most {most} steps, not {end - start}: export a shorter range")


def text_height(width: int, panes: int) -> float:
    """The height in pixels of the picture's ordinary text (12 px in the SVG) drawn ``width`` pixels wide, with
    ``panes`` versions side by side (svg.py lays them out at a fixed width)."""
    return FONT_SIZE * width / (2 * MARGIN + panes * PANE_WIDTH + (panes - 1) * GAP)


def default_start(end: int) -> int:
    """Where a range that names only its end starts: as far back as an animation may go."""
    return max(0, end - MAX_STEPS)


def export_animation(scenario, request: Request, max_bytes: int | None = None, versions=None) -> bytes:
    """The animation's file. Raises Invalid for a bad request, TooLarge past the bounds."""
    check_options(request.kind, request.theme, request.width)
    check_range(request.start, request.end, len(scenario.steps))
    pictures = frames(scenario, request.start, request.end, request.theme, max_bytes, versions)
    height = max(height_at(svg, request.width) for svg, _ in pictures)
    if len(pictures) * request.width * height > MAX_PIXELS:
        raise TooLarge(f"this animation would be {len(pictures)} frames of {request.width} x {height} pixels, over "
                       f"{MAX_PIXELS:,} pixels in all: export a shorter range or a narrower width")
    background = THEMES[request.theme]["bg"]
    images = [rasterized(svg, request.width, height, background) for svg, _ in pictures]
    return encoded(images, [ms for _, ms in pictures], request.kind, list(THEMES[request.theme].values()))


def frames(scenario, start: int, end: int, theme: str = "light", max_bytes: int | None = None,
           versions=None) -> list[tuple[str, int]]:
    """The pictures as SVG documents, each with how long it shows (ms)."""
    sim = Simulation(scenario, versions or scenario.versions, max_bytes=max_bytes)
    sim.seek(start)
    out = [(render(scenario.name, _scene(sim), theme), HOLD_MS)]
    while sim.position < end:
        sim.step()
        scene = _scene(sim)
        tree = ET.fromstring(render(scenario.name, scene, theme))
        out += [(_document(drawn(tree, beat, theme)), beat.ms) for beat in beats(scene)]
        out.append((_document(tree), HOLD_MS))  # written as the beats are, so an unchanged picture merges
    out[-1] = (out[-1][0], LAST_HOLD_MS)
    return _merged(out)


def _scene(sim: Simulation) -> dict:
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
