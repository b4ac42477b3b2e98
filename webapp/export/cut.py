"""Where a detached (broken) arrow is cut: static/js/pointers.js's ``measured``, ``cutAt``, ``placeCut`` and
``toSegment`` in Python, the same constants (the tokens') and steps (tests/export/test_cut.py runs both, node and
Python, on the same lines and compares).

An arrow's line is a polyline measured along its length; ``start`` is where its approach to the entry begins (the
run out of the lanes comes before it). The cut — a gap in the line, two bars across it and a cross between them —
goes in the middle of the approach unless its marks come nearer than ROOM px to an entry (its box, tags and
markers), another arrow's line or another cut's cross, or its gap would take in a corner of the line; then the place
nearest the middle (STEP of the approach at a time either side of it, TRIES places) with the most room.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .geometry import Point, Rect
from .tokens import CUT

# The numbers are the tokens' (static/js/tokens.js "cut", docs/rendering.md), the ones pointers.js reads.
ROOM = CUT["room"]  # px a cut's marks keep off the entries, the other arrows and the other cuts' crosses
CROSS = CUT["cross"]  # the cross's half size
HALF_GAP, MAX_GAP = CUT["gap"], CUT["maxGap"]  # the gap each side of the cross: a share of the approach, at most px
BAR, MAX_BAR = CUT["bar"], CUT["maxBar"]  # the bars from the cross: a share of the approach, at most px
BAR_HALF = CUT["barHalf"]  # a bar's half length, across the line
STEP, TRIES = CUT["step"], CUT["tries"]  # the places tried: the middle, then STEP of the approach either side, in turn
BENT = CUT["bent"]  # radians: a gap whose ends turn more than this from the cut's heading takes in a corner


class Measured:
    """A polyline measured along its length (pointers.js ``measured``): the point at distance ``d``, and the points
    between two distances."""

    def __init__(self, points: Sequence[Sequence[float]]) -> None:
        self.points: list[Point] = [(p[0], p[1]) for p in points]
        self.along = [0.0]
        for p, q in zip(self.points, self.points[1:]):
            self.along.append(self.along[-1] + math.hypot(q[0] - p[0], q[1] - p[1]))
        self.length = self.along[-1]

    def point(self, d: float) -> Point:
        found = next((i for i, v in enumerate(self.along) if v >= d), len(self.along) - 1)
        i = max(1, found)
        (px, py), (qx, qy), a, b = self.points[i - 1], self.points[i], self.along[i - 1], self.along[i]
        t = (d - a) / (b - a) if b > a else 0
        return (px + (qx - px) * t, py + (qy - py) * t)

    def between(self, d0: float, d1: float) -> list[Point]:
        return [self.point(d0), *(p for p, d in zip(self.points, self.along) if d0 < d < d1), self.point(d1)]


@dataclass
class Cut:
    gap: tuple[float, float]  # (from, to): distances along the line
    bars: list[tuple[Point, Point]]  # two bars
    cross: Point
    bent: bool  # the gap takes in a corner of the line
    room: float = 0.0


def cut_at(path: Measured, start: float, f: float) -> Cut:
    """The cut centred at ``f`` of the approach (``start`` to the end of ``path``; 0.5: its middle)."""
    span = path.length - start
    mid = start + span * f
    half, bar = min(span * HALF_GAP, MAX_GAP), min(span * BAR, MAX_BAR)

    def heading(d0: float, d1: float) -> float:
        (px, py), (qx, qy) = path.point(d0), path.point(d1)
        return math.atan2(qy - py, qx - px)

    ang = heading(mid - bar / 2, mid + bar / 2)
    nx, ny = -math.sin(ang) * BAR_HALF, math.cos(ang) * BAR_HALF
    bars: list[tuple[Point, Point]] = []
    for off in (-bar, bar):
        qx, qy = path.point(mid + off)
        bars.append(((qx - nx, qy - ny), (qx + nx, qy + ny)))

    def turn(a: float, b: float) -> float:
        return abs(math.atan2(math.sin(a - b), math.cos(a - b)))

    ends = (heading(mid - half, mid - half + 3), heading(mid + half - 3, mid + half))
    bent = max(turn(ends[0], ang), turn(ends[1], ang)) > BENT
    return Cut((mid - half, mid + half), bars, path.point(mid), bent)


def place_cut(path: Measured, start: float, entries: Sequence[Rect], others: Sequence[Sequence[Point]],
              cuts: Sequence[Cut]) -> Cut:
    """Where along its approach a detached arrow is cut. ``entries``: rects (left, top, right, bottom); ``others``:
    the other arrows' lines as point lists; ``cuts``: the cuts placed before this one."""
    segments = [(a, b) for line in others for a, b in zip(line, line[1:])]
    crosses = [c.cross for c in cuts]

    def room(q: Point) -> float:
        x, y = q
        return min([*(math.hypot(max(b[0] - x, 0, x - b[2]), max(b[1] - y, 0, y - b[3])) for b in entries),
                    *(to_segment(q, a, b) for a, b in segments),
                    *(math.hypot(x - c[0], y - c[1]) - CROSS for c in crosses)], default=math.inf)

    best: Cut | None = None
    for k in range(TRIES + 1):
        f = 0.5 + (-1 if k % 2 else 1) * math.ceil(k / 2) * STEP
        cut = cut_at(path, start, f)
        marks = [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) for a, b in cut.bars
                 for t in (0, 0.25, 0.5, 0.75, 1)]
        cut.room = -math.inf if cut.bent else min(ROOM, room(cut.cross) - CROSS, *map(room, marks))
        if best is None or cut.room > best.room + 0.5:
            best = cut
        if best.room >= ROOM:
            break
    assert best is not None  # TRIES + 1 >= 1 places tried
    return best


def to_segment(q: Point, a: Point, b: Point) -> float:
    """The distance from point q to the segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0, min(1, ((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / (dx * dx + dy * dy))) if dx or dy else 0
    return math.hypot(q[0] - a[0] - t * dx, q[1] - a[1] - t * dy)
