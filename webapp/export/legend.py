"""The SVG export's legend: each of the scene's keys drawn in its shape and colour, with its words."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from ..presenter.shapes import LegendItem
from .draw import BOLD_WIDTH, node, paint, short, stripes, wrap

LEGEND_COLUMNS = 3


def legend(svg: ET.Element, items: Sequence[LegendItem], left: float, top: float, width: float) -> float:
    """The scene's legend: each key drawn in its shape and colour, with its words; returns the bottom edge."""
    if not items:
        return top
    g = node(svg, "g", data_testid="legend")
    column = width / LEGEND_COLUMNS
    y = top
    for row in range(0, len(items), LEGEND_COLUMNS):
        height = 24.0
        for i, it in enumerate(items[row:row + LEGEND_COLUMNS]):
            x = left + i * column
            entry = node(g, "g", data_legend=it["key"])
            swatch(entry, it["key"], it["label"], x, y)
            lines = wrap(it["text"], (column - 130) / 6.0)
            text = node(entry, "text", None, x=x + 122, y=y + 15, font_size=11, fill=paint("fg"))
            for j, line in enumerate(lines):
                node(text, "tspan", line, x=x + 122, dy=0 if j == 0 else 14)
            height = max(height, 14 * len(lines) + 10)
        y += height + 4
    return y


def swatch(g: ET.Element, key: str, label: str, x: float, y: float) -> None:
    label = short(label, 14)
    if key in ("marker", "detached"):
        colour = paint("bug" if key == "detached" else "marker")
        node(g, "circle", cx=x + 3, cy=y + 11, r=3, fill=colour)
        dash = "5 3" if key == "detached" else None
        parts = ("M3 11 L16 11", "M26 11 L38 11") if key == "detached" else ("M3 11 L38 11",)
        for d in parts:
            node(g, "path", d=d, transform=f"translate({x:g} {y:g})", fill="none", stroke=colour, stroke_width=2.5,
                 stroke_dasharray=dash)
        if key == "detached":
            node(g, "path", d="M19 5 L17 17 M25 5 L23 17", transform=f"translate({x:g} {y:g})", stroke=colour,
                 stroke_width=2.5)
        node(g, "path", d="M46 11 L37 6 L37 16 Z", transform=f"translate({x:g} {y:g})", fill=colour)
        node(g, "text", label, x=x + 52, y=y + 15, font_size=11, font_weight="bold", fill=colour)
        return
    if key in ("wait", "backoff"):
        colour = paint("unsched" if key == "wait" else "backoff")
        cx, cy, r = x + 9, y + 11, 6.0
        around = 2 * math.pi * r
        node(g, "circle", cx=cx, cy=cy, r=r, fill="none", stroke=paint("ring-track"), stroke_width=3)
        node(g, "circle", cx=cx, cy=cy, r=r, fill="none", stroke=colour, stroke_width=3,
             stroke_dasharray=f"{(0.35 if key == 'wait' else 0.65) * around:.2f} {around:.2f}",
             transform=f"rotate(-90 {cx:g} {cy:g})")
        node(g, "text", label, x=x + 20, y=y + 15, font_size=11, font_weight="bold", fill=paint("fg"))
        return
    fill, stroke, dash, text, radius = {
        "event": ("event-bg", "event-border", None, "fg", 4), "pod-entry": ("pod-bg", "pod-border", None, "fg", 10),
        "walk": ("walk-bg", "walk", None, "fg", 4), "unseen": ("unseen-b", "bug", None, "bug", 4),
        "ghost": ("panel", "ghost", "4 3", "ghost", 4), "tag": ("panel", "marker", None, "marker", 4),
        "front": ("panel", "marker", "4 3", "marker", 10), "head": ("head-bg", "active", None, "fg", 10),
        "reach": ("event-bg", "event-border", None, "fg", 4)}.get(key, ("panel", "border", None, "fg", 4))
    width = len(label) * BOLD_WIDTH * 0.92 + 14
    if key == "walk":
        node(g, "rect", x=x - 3, y=y - 1, width=width + 6, height=26, rx=6, fill=paint("walk"))
    if key == "reach":  # the dotted outline of an entry a walk would visit (app.css .entry.in-reach)
        node(g, "rect", x=x - 3, y=y - 1, width=width + 6, height=26, rx=6, fill="none", stroke=paint("marker"),
             stroke_dasharray="2 2")
    node(g, "rect", x=x, y=y + 2, width=width, height=20, rx=radius, fill=paint(fill), stroke=paint(stroke),
         stroke_width=2, stroke_dasharray=dash)
    if key == "unseen":
        stripes(g, x + 2, y + 4, width - 4, 16, 11.0)
        node(g, "rect", x=x, y=y + 2, width=width, height=20, rx=radius, fill="none", stroke=paint(stroke),
             stroke_width=2)
    node(g, "text", label, x=x + width / 2, y=y + 16, font_size=11, font_weight="bold", text_anchor="middle",
         fill=paint(text))
