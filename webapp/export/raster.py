"""SVG drawings to pixels, and pixels to an animated GIF or APNG: the animated exports' last two stages.

The rasterizer is resvg (the resvg-py wheel: self-contained, no system library). It reads the system's fonts; the
SVG export names ``system-ui, 'DejaVu Sans', sans-serif`` and ``monospace``, which resvg is told are DejaVu Sans and
DejaVu Sans Mono (Debian's fonts-dejavu-core, which fontconfig brings): a machine without them draws in its own
sans-serif. The encoder is Pillow. A GIF's frames share one palette, so a colour never shifts from one frame to
the next: the theme's token colours exactly, then the blends the frames hold most (their edges, antialiased text);
an APNG keeps every pixel (lossless). Both store each frame as the box that
changed from the one before (Pillow's own difference), which keeps a step's frames small."""

from __future__ import annotations

import io
import math
import re

import resvg_py
from PIL import Image

SANS, MONO = "DejaVu Sans", "DejaVu Sans Mono"
PALETTE_SAMPLE = 4  # the palette is made from every frame shrunk this many times (every colour is in large areas)


def height_at(svg: str, width: int) -> int:
    """The height in pixels of ``svg`` (the SVG export's: its viewBox ``0 0 w h``) drawn ``width`` pixels wide."""
    start = svg.index('viewBox="') + len('viewBox="')
    _, _, w, h = (float(n) for n in svg[start:svg.index('"', start)].split())
    return math.ceil(h * width / w)


def rasterized(svg: str, width: int, height: int, background: str) -> Image.Image:
    """``svg`` drawn ``width`` pixels wide, on a ``height`` tall canvas of ``background`` (its top aligned)."""
    png = resvg_py.svg_to_bytes(svg_string=svg, width=width, sans_serif_family=SANS, monospace_family=MONO)
    with Image.open(io.BytesIO(png)) as drawn:
        picture = drawn.convert("RGB")
    if picture.height == height:
        return picture
    canvas = Image.new("RGB", (width, height), background)
    canvas.paste(picture, (0, 0))
    return canvas


def encoded(frames: list[Image.Image], durations: list[int], kind: str, colours: list[str]) -> bytes:
    """The frames (one size, RGB) as an animation of ``kind`` ("gif" or "apng") that loops, each shown its
    duration in ms; ``colours``: the "#rrggbb" colours a GIF's palette holds exactly."""
    out = io.BytesIO()
    if kind == "gif":
        palette = _palette(frames, colours)
        shown = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
        shown[0].save(out, format="GIF", save_all=True, append_images=shown[1:], duration=durations, loop=0,
                      optimize=False, disposal=1)
    else:
        frames[0].save(out, format="PNG", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                       default_image=False, optimize=False, disposal=0, blend=0)
    return out.getvalue()


def _palette(frames: list[Image.Image], colours: list[str]) -> Image.Image:
    """One palette of 256 colours for all the frames: ``colours``, then the most of the rest (the frames shrunk,
    side by side, quantized)."""
    exact = sorted({bytes.fromhex(c[1:]) for c in colours if re.fullmatch("#[0-9a-fA-F]{6}", c)})[:128]
    small = [f.resize((max(1, f.width // PALETTE_SAMPLE), max(1, f.height // PALETTE_SAMPLE)), Image.Resampling.BOX)
             for f in frames]
    sheet = Image.new("RGB", (sum(s.width for s in small), max(s.height for s in small)))
    x = 0
    for s in small:
        sheet.paste(s, (x, 0))
        x += s.width
    rest = sheet.quantize(colors=256 - len(exact), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    palette = Image.new("P", (1, 1))
    found = rest.getpalette()
    if found is None:  # quantize always makes a palette image
        raise ValueError("the quantized sheet has no palette")
    palette.putpalette(b"".join(exact) + bytes(found[: 3 * (256 - len(exact))]))
    return palette
