"""The pane's pointers as arrows, laid out (``lay_out``, pointers.js layOut's twin) and drawn as static/js/pointers.js
lays them out and draws them: from the pod's chip (the in-flight one for a live pointer, where the pod went for a
decided one) out of the lane by its channel, then a curve up to the bottom of its list item's stack, or, where the
curve would run over another entry, the way round the entries (route.py); a detached one dashed and cut where it has
room (cut.py). The shapes and their numbers: geometry.py and the tokens."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..presenter.shapes import Pointer
from .cut import Cut, Measured, place_cut
from .draw import node, paint
from .geometry import Point, Rect, bends, curve, end_under, head, runs_over, tail_radius
from .route import Budget, detour
from .tokens import ARROW

Place = tuple[float, float, float, float, float]  # a list item's box: x, y, width, height, and its stack's bottom
ChipBox = tuple[str, str, float, float, float, float]  # a chip: pod, queue, x, y, width, height
LaneBox = tuple[float, float, float]  # a lane: x, top, width


@dataclass
class Marks:
    """Where a pane drew what its arrows join (filled as it draws its list and its lanes)."""

    places: dict[str, Place] = field(default_factory=dict)  # by list item key
    entries: list[tuple[Rect, str | None]] = field(default_factory=list)  # the list's items and "→"s: (rect, key)
    list_frame: Rect = (0.0, 0.0, 0.0, 0.0)  # the rect a pointer's detour stays in (the page's .inflight-list)
    chips: list[ChipBox] = field(default_factory=list)
    lane_boxes: dict[str, LaneBox] = field(default_factory=dict)  # by queue


@dataclass
class Arrow:
    """One arrow to lay out (``lay_out``): its ``tail`` on the chip, the corner ``via`` where it turns up its
    channel, ``s`` the channel's top, ``end`` under its item, the item's ``key`` and whether it is ``detached``;
    then what ``lay_out`` finds: its approach (``path``; ``corners``: a detour's, None for the curve), the run out
    of the lane (``leg``), the whole line (``measured``) and the cut (None: not detached)."""

    tail: Point
    via: Point
    s: Point
    end: Point
    key: str
    detached: bool
    path: list[Point] = field(default_factory=list)
    corners: list[Point] | None = None
    leg: list[Point] = field(default_factory=list)
    measured: Measured = field(default_factory=lambda: Measured([(0.0, 0.0)]))
    cut: Cut | None = None


def draw_pointers(layer: ET.Element, pointers: Sequence[Pointer], marks: Marks) -> None:
    """One arrow per pointer of a pane's scene, in ``layer``, joining what the pane drew (``marks``)."""
    arriving: dict[str, int] = {}
    drawn: list[tuple[ET.Element, Pointer, Arrow]] = []
    for p in pointers:
        g = node(layer, "g", data_pointer=p["pod"], data_pod=p["pod"], data_target=p["target"], data_key=p["key"],
                 data_detached=str(p["detached"]).lower(), data_decided=str(p["decided"]).lower())
        node(g, "title", p.get("title") or p["text"])
        chip, place = chip_of(marks.chips, p["pod"], p["decided"]), marks.places.get(p["key"])
        if chip is None or place is None:
            continue
        _, queue, cx, cy, cw, ch = chip
        lane_x, lane_top, lane_w = marks.lane_boxes[queue]
        lanes_out = arriving.setdefault(f"lane:{queue}", 0)  # arrows leaving this lane so far
        arriving[f"lane:{queue}"] += 1
        channel = min(cx + cw + 6 + ARROW["channelStep"] * lanes_out, lane_x + lane_w - 4)
        x, _, width, _, stack_bottom = place
        n = arriving.get(p["key"], 0)
        arriving[p["key"]] = n + 1
        # under the stack (the page: under the box), so a detour can come up to it out of a row gap
        end = end_under(x, width, stack_bottom, n)
        # out of the chip's right side into the lane's channel, up out of the lane, then on to the item
        s = (channel, lane_top - ARROW["aboveLanes"])
        drawn.append((g, p, Arrow(tail=(cx + cw + 1, cy + ch / 2), via=(channel, cy + ch / 2), s=s, end=end,
                                  key=p["key"], detached=p["detached"])))
    lay_out([a for _, _, a in drawn], marks.entries, marks.list_frame)
    for g, p, a in drawn:
        g.set("data-route", "curve" if a.corners is None else "detour")
        arrow(g, a.measured, a.corners is not None, a.detached, p["decided"], a.cut)


def lay_out(arrows: Sequence[Arrow], entries: Sequence[tuple[Rect, str | None]], frame: Rect) -> None:
    """The arrows' lines from where they leave the lanes, as pointers.js layOut lays them (its twin:
    tests/export/test_geometry.py runs both), in the pointers' order; ``entries``: (rect, item key or None) per
    list item, ``frame``: the rect a detour stays in. Each one's approach is a curve from ``s`` up to ``end``, or
    where the curve would run over another entry, the way round the entries (route.py: off the other arrows as laid
    so far; if there is no way round, the curve it is); then its whole line and, for a detached one, its cut (cut.py:
    its gap, two bars and cross) where it has room, off the entries, the other arrows and the cuts placed before it.
    Sets ``path``, ``corners``, ``leg``, ``measured`` and ``cut`` on each (``Arrow``)."""
    boxes = [rect for rect, _ in entries]
    for a in arrows:
        a.path, a.corners, a.cut = curve(a.s, a.end), None, None
    spend = Budget()
    for a in arrows:
        if not runs_over(a.path, [rect for rect, key in entries if key != a.key]):
            continue
        others = [q for b in arrows if b is not a for q in b.path]
        corners = detour(a.s, a.end, boxes, frame, others, spend)
        if corners:
            a.corners, a.path = corners, bends(corners)
    for a in arrows:  # the run out of the lane (its corner rounded), then the approach (pointers.js lineOf)
        a.leg = bends([a.tail, a.via, a.s])
        a.measured = Measured([*a.leg, *a.path[1:]])
    cuts: list[Cut] = []
    for a in arrows:
        if a.detached:
            others_lines = [b.measured.points for b in arrows if b is not a]
            a.cut = place_cut(a.measured, Measured(a.leg).length, boxes, others_lines, cuts)
            cuts.append(a.cut)


def chip_of(chips: Sequence[ChipBox], pod: str, decided: bool) -> ChipBox | None:
    """The chip an arrow leaves from (pointers.js chipOf): a live pointer's from the in-flight lane, a decided
    one's from wherever the pod went."""
    mine = [c for c in chips if c[0] == pod]
    preferred = [c for c in mine if (c[1] != "inFlight") == decided]
    found = preferred or mine
    return found[0] if found else None


def arrow(g: ET.Element, line: Measured, detoured: bool, detached: bool, decided: bool, cut: Cut | None = None) -> None:
    """The arrow along ``line`` (from the chip's side out of the lane, then the curve or the detour up to the item)
    as pointers.js drawArrow draws it: the tail's dot, the line stopping short of the tip (under the head), a
    detached one dashed and cut where ``cut`` says (cut.py: a gap with two bars across it and a cross), and a head
    aimed from a little way back along the line (a detour's straight up: its last run may be short)."""
    colour = paint("bug" if detached else "marker")
    width = ARROW["decidedLine"] if decided else ARROW["line"]
    style = {"fill": "none", "stroke": colour, "stroke_width": width, "stroke_linecap": "round",
             "stroke_dasharray": " ".join(f"{d:g}" for d in ARROW["dash"]) if detached else None, "data_line": "true"}
    tail, end = line.points[0], line.length - ARROW["stopShort"]
    node(g, "circle", cx=f"{tail[0]:.1f}", cy=f"{tail[1]:.1f}", r=f"{tail_radius(width):.1f}", fill=colour)
    for d0, d1 in ((0, cut.gap[0]), (cut.gap[1], end)) if cut else ((0, end),):
        pts = line.between(d0, d1)
        node(g, "path", d=" ".join(f"{'L' if i else 'M'}{x:.1f} {y:.1f}" for i, (x, y) in enumerate(pts)), **style)
    if cut:
        for (ax, ay), (bx, by) in cut.bars:
            node(g, "path", d=f"M{ax:.1f} {ay:.1f} L{bx:.1f} {by:.1f}", stroke=colour, stroke_width=3,
                 stroke_linecap="round", data_break="true")
        mx, my = cut.cross
        node(g, "text", "✕", x=f"{mx:.1f}", y=f"{my + 5:.1f}", text_anchor="middle", font_size=16, font_weight="bold",
             fill=colour)
    tip = line.point(line.length)
    back = (tip[0], tip[1] + ARROW["headAim"]) if detoured else line.point(line.length - ARROW["headAim"])
    corners = head(tip, back, width)
    node(g, "path", d=" ".join(f"{'L' if i else 'M'}{x:.1f} {y:.1f}" for i, (x, y) in enumerate(corners)) + " Z",
         fill=colour, data_head="true")
