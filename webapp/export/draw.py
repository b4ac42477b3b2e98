"""The SVG export's drawing kit: elements made safe (``node``), the theme being drawn (``paint``, a request's own),
the text measures of its layout, words cut and wrapped, boxes placed in rows, rounded rectangles and the unseen
shading."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from .tokens import THEMES

CHAR_WIDTH = 7.0  # of the 12 px sans-serif text, for layout
BOLD_WIDTH = 7.6  # of the 12 px bold text
MAX_LABEL = 40  # longer texts are cut with an ellipsis (the hooks and the <title> keep the full name)
ROW_GAP = 14
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_palette: ContextVar[dict[str, str]] = ContextVar("palette", default=THEMES["light"])  # the theme being drawn
_least_font: ContextVar[float] = ContextVar("least_font", default=0.0)  # the preset's least text (SVG units)


def paint(name: str) -> str:
    """The colour ``name`` in the theme being drawn."""
    return _palette.get()[name]


@contextmanager
def theme(name: str) -> Iterator[None]:
    """Draw in the colours of theme ``name`` (a key of tokens.THEMES) within the block."""
    token = _palette.set(THEMES[name])
    try:
        yield
    finally:
        _palette.reset(token)


@contextmanager
def least_font(size: float) -> Iterator[None]:
    """Within the block, every font size drawn smaller than ``size`` (SVG units) is drawn at ``size``."""
    token = _least_font.set(size)
    try:
        yield
    finally:
        _least_font.reset(token)


def font(size: float) -> float:
    """The font size drawn for ``size``: at least the block's least (``least_font``)."""
    return max(size, _least_font.get())


def grown(size: float) -> float:
    """How many times larger than ``size`` text of that size is drawn (the layout's widths grow with it)."""
    return font(size) / size


def node(parent: ET.Element, tag: str, text: str | None = None, /, **attrs: object) -> ET.Element:
    """A child element; attribute names use '_' for '-'; None attributes are left out; text is XML-safe; a
    font_size is drawn at least the block's least (``least_font``)."""
    if attrs.get("font_size") is not None:
        attrs["font_size"] = f"{font(float(str(attrs['font_size']))):g}"
    element = ET.SubElement(parent, tag, {
        name.replace("_", "-"): xml_safe(str(value)) for name, value in attrs.items() if value is not None})
    if text is not None:
        element.text = xml_safe(text)
    return element


def xml_safe(text: str) -> str:
    return NOT_XML.sub("\ufffd", text)


def wrap(text: str, chars: float) -> list[str]:
    """Words into lines of at most ``chars`` characters (a longer word is cut)."""
    limit = max(int(chars), 8)
    lines: list[str] = []
    for word in text.split():
        word = short(word, limit)
        if lines and len(lines[-1]) + 1 + len(word) <= limit:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def short(text: str, limit: int = MAX_LABEL) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Flow:
    """Places boxes left to right, wrapping onto a new row at ``right``."""

    def __init__(self, left: float, right: float, top: float) -> None:
        self.left, self.right = left, right
        self.x, self.y, self.row_height = left, top, 0.0

    def place(self, width: float, height: float) -> tuple[float, float]:
        if self.x > self.left and self.x + width > self.right:
            self.x, self.y, self.row_height = self.left, self.y + self.row_height + ROW_GAP, 0.0
        position = (self.x, self.y)
        self.x += width + 8
        self.row_height = max(self.row_height, height)
        return position

    def bottom(self) -> float:
        return self.y + self.row_height


def rounded(x: float, y: float, w: float, h: float, corners: Sequence[float]) -> str:
    """A rectangle's path with its own radius per corner (top-left, top-right, bottom-right, bottom-left)."""
    tl, tr, br, bl = (min(r, w / 2, h / 2) for r in corners)
    return (f"M{x + tl:.1f} {y:.1f} H{x + w - tr:.1f} A{tr} {tr} 0 0 1 {x + w:.1f} {y + tr:.1f} "
            f"V{y + h - br:.1f} A{br} {br} 0 0 1 {x + w - br:.1f} {y + h:.1f} H{x + bl:.1f} "
            f"A{bl} {bl} 0 0 1 {x:.1f} {y + h - bl:.1f} V{y + tl:.1f} A{tl} {tl} 0 0 1 {x + tl:.1f} {y:.1f} Z")


def stripes(g: ET.Element, x: float, y: float, width: float, height: float, step: float = 17.0) -> None:
    """The unseen shading (app.css --unseen-bg: 135° stripes, 6 px of each colour) as line segments clipped
    to the box (``step`` apart along an edge: the stripe and its gap are step / 2√2 wide)."""
    c = step / 2
    while c < width + height:
        # the line x' + y' = c in box coordinates, clipped to [0, width] x [0, height]
        x0, y0 = min(c, width), c - min(c, width)
        x1, y1 = c - min(c, height), min(c, height)
        node(g, "line", x1=f"{x + x0:.1f}", y1=f"{y + y0:.1f}", x2=f"{x + x1:.1f}", y2=f"{y + y1:.1f}",
             stroke=paint("unseen-a"), stroke_width=f"{step / (2 * math.sqrt(2)):.1f}")
        c += step
