"""The pictures' presets: how the SVG export lays a scene out for where it is shown.

``full`` is the page's picture: the panes side by side, the legend under them, the text at its own sizes (an
SVG's default). ``slide`` is the animated exports' default: a frame put on a slide, read from the back of a room.
Its panes stand one above the other and the legend is left out (the speaker names the shapes), so the picture is
half as wide and drawn twice as large; and no text is smaller than the tokens' ``type.slide`` pixels when the
frame is ``WIDTH`` pixels wide (draw.py raises every smaller size to it)."""

from __future__ import annotations

from dataclasses import dataclass

from .tokens import TYPE

WIDTH = 1280  # an animation's width in pixels unless asked (the slide's least text is measured at it)


@dataclass(frozen=True)
class Preset:
    """``stacked``: the panes one above the other; ``legend``: drawn under them; ``least_px``: the least text in
    pixels at WIDTH (None: the sizes as drawn)."""

    name: str
    stacked: bool
    legend: bool
    least_px: float | None

    def least_font(self, picture_width: float) -> float:
        """The least font size in the SVG's units of a picture ``picture_width`` units wide (0: no floor)."""
        return 0.0 if self.least_px is None else self.least_px * picture_width / WIDTH


FULL = Preset("full", stacked=False, legend=True, least_px=None)
SLIDE = Preset("slide", stacked=True, legend=False, least_px=TYPE["slide"])
PRESETS = {p.name: p for p in (SLIDE, FULL)}
