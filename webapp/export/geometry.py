"""An arrow's shapes, as static/js/pointers.js makes them, from the tokens' numbers (tokens.py ``CURVE``,
``ARROW``): the plain approach's curve, the rounded corners of a run of straight lines, where an arrow ends under
its entry and the head and tail it is drawn with. tests/export/test_geometry.py runs both, node and Python, on the
same generated inputs and holds them to each other (the detour and the cut: route.py, cut.py).

Points are (x, y) tuples."""

from __future__ import annotations

import math
from collections.abc import Sequence

from .tokens import ARROW, CURVE

Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # left, top, right, bottom


def bezier(p0: Point, p1: Point, p2: Point, p3: Point, t: float) -> Point:
    """The point at ``t`` of a cubic Bézier (pointers.js bezier's weights, in its order)."""
    u = 1 - t
    a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
    return (a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1])


def curve(s: Point, e: Point) -> list[Point]:
    """An arrow's plain approach, from the top of its channel (``s``) up to the item (``e``): points along a cubic
    whose controls rise CURVE["rise"] px at least (or ``bend`` of the height) above ``s`` and below ``e``."""
    dy = max(CURVE["rise"], abs(s[1] - e[1]) * CURVE["bend"])
    controls = (s, (s[0], s[1] - dy), (e[0], e[1] + dy), e)
    n = CURVE["samples"]
    return [bezier(*controls, i / n) for i in range(n + 1)]


def bends(corners: Sequence[Point]) -> list[Point]:
    """Points along a run of straight lines, each corner rounded: near enough a quarter of a circle, radius at most
    ARROW["corner"] px (pointers.js rounded)."""
    out: list[Point] = [corners[0]]
    steps = ARROW["cornerSteps"]
    for a, c, b in zip(corners, corners[1:], corners[2:]):
        la, lb = math.hypot(c[0] - a[0], c[1] - a[1]), math.hypot(b[0] - c[0], b[1] - c[1])
        if not la or not lb:
            out.append(c)
            continue
        r = min(ARROW["corner"], la / 2, lb / 2)
        start = (c[0] + (a[0] - c[0]) / la * r, c[1] + (a[1] - c[1]) / la * r)
        stop = (c[0] + (b[0] - c[0]) / lb * r, c[1] + (b[1] - c[1]) / lb * r)
        out += [bezier(start, c, c, stop, i / steps) for i in range(steps + 1)]
    out.append(corners[-1])
    return out


def end_under(left: float, width: float, bottom: float, n: int) -> Point:
    """Where the ``n``-th arrow (from 0) to arrive at an item ``width`` wide from ``left`` ends: just under its
    ``bottom``, the first at the middle and the others spread either side, in turn (pointers.js redraw)."""
    spread = min(ARROW["spread"], width * ARROW["spreadShare"])
    return (left + width / 2 + (1 if n % 2 else -1) * math.ceil(n / 2) * spread, bottom + ARROW["below"])


def runs_over(path: Sequence[Point], boxes: Sequence[Rect]) -> bool:
    """Does the path come within ARROW["overReach"] px of one of the rects (left, top, right, bottom)?
    (pointers.js runsOver, the target left out of ``boxes``)"""
    m = ARROW["overReach"]
    return any(any(b[0] - m < x < b[2] + m and b[1] - m < y < b[3] + m for x, y in path) for b in boxes)


def head(tip: Point, back: Point, line_width: float) -> list[Point]:
    """The arrow head's corners: the tip, then its two wings, aimed from ``back``; its size grows with the line's
    width (pointers.js drawArrow)."""
    angle = math.atan2(tip[1] - back[1], tip[0] - back[0])
    size = max(ARROW["head"], ARROW["headPerLine"] * line_width)
    return [tip, *((tip[0] - size * math.cos(angle + da), tip[1] - size * math.sin(angle + da))
                   for da in (ARROW["headAngle"], -ARROW["headAngle"]))]


def tail_radius(line_width: float) -> float:
    """The tail dot's radius for a line ``line_width`` wide (pointers.js drawArrow)."""
    return max(ARROW["tail"], ARROW["tailPerLine"] * line_width)
