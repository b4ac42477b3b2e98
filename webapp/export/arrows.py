"""The pane's pointers as arrows, laid out (``lay_out``, pointers.js layOut's twin) and drawn as static/js/pointers.js
lays them out and draws them: from the pod's chip (the in-flight one for a live pointer, where the pod went for a
decided one) out of the lane by its channel, then a curve up to the bottom of its list item's stack, or, where the
curve would run over another entry, the way round the entries (route.py); a detached one dashed and cut where it has
room (cut.py). The shapes and their numbers: geometry.py and the tokens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cut import Cut, Measured, place_cut
from .draw import node, paint
from .geometry import bends, curve, end_under, head, runs_over, tail_radius
from .route import Budget, detour
from .tokens import ARROW

if TYPE_CHECKING:
    from .pane import Pane


def draw_pointers(layer, pane: Pane) -> None:
    """One arrow per pointer of ``pane``'s scene, in ``layer``."""
    arriving: dict[str, int] = {}
    arrows: list[dict] = []
    for p in pane.scene.get("pointers", []):
        g = node(layer, "g", data_pointer=p["pod"], data_pod=p["pod"], data_target=p["target"], data_key=p["key"],
                 data_detached=str(p["detached"]).lower(), data_decided=str(p["decided"]).lower())
        node(g, "title", p.get("title") or p["text"])
        chip, place = chip_of(pane.chips, p["pod"], p["decided"]), pane.places.get(p["key"])
        if chip is None or place is None:
            continue
        _, queue, cx, cy, cw, ch = chip
        lane_x, lane_top, lane_w = pane.lane_boxes[queue]
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
        arrows.append({"g": g, "p": p, "key": p["key"], "detached": p["detached"], "tail": (cx + cw + 1, cy + ch / 2),
                       "via": (channel, cy + ch / 2), "s": s, "end": end})
    lay_out(arrows, pane.entries, pane.list_frame)
    for a in arrows:
        a["g"].set("data-route", "curve" if a["corners"] is None else "detour")
        arrow(a["g"], a["measured"], a["corners"] is not None, a["detached"], a["p"]["decided"], a["cut"])


def lay_out(arrows: list[dict], entries: list[tuple], frame: tuple) -> None:
    """The arrows' lines from where they leave the lanes, as pointers.js layOut lays them (its twin:
    tests/export/test_geometry.py runs both). Each arrow: its ``tail`` on the chip, the corner ``via`` which it
    turns up its channel, ``s`` the channel's top, ``end`` under its item, the item's ``key`` and whether it is
    ``detached``, in the pointers' order; ``entries``: (rect, item key or None) per list item, ``frame``: the rect a
    detour stays in. Each one's approach is a curve from ``s`` up to ``end``, or where the curve would run over
    another entry, the way round the entries (route.py: off the other arrows as laid so far; if there is no way
    round, the curve it is); then its whole line and, for a detached one, its cut (cut.py: its gap, two bars and
    cross) where it has room, off the entries, the other arrows and the cuts placed before it. Sets ``path``,
    ``corners`` (None: the curve), ``measured`` (the whole line) and ``cut`` (None: not detached) on each."""
    boxes = [rect for rect, _ in entries]
    for a in arrows:
        a["path"], a["corners"], a["cut"] = curve(a["s"], a["end"]), None, None
    spend = Budget()
    for a in arrows:
        if not runs_over(a["path"], [rect for rect, key in entries if key != a["key"]]):
            continue
        others = [q for b in arrows if b is not a for q in b["path"]]
        corners = detour(a["s"], a["end"], boxes, frame, others, spend)
        if corners:
            a["corners"], a["path"] = corners, bends(corners)
    for a in arrows:  # the run out of the lane (its corner rounded), then the approach (pointers.js lineOf)
        a["leg"] = bends([a["tail"], a["via"], a["s"]])
        a["measured"] = Measured([*a["leg"], *a["path"][1:]])
    cuts: list[Cut] = []
    for a in arrows:
        if a["detached"]:
            others = [b["measured"].points for b in arrows if b is not a]
            a["cut"] = place_cut(a["measured"], Measured(a["leg"]).length, boxes, others, cuts)
            cuts.append(a["cut"])


def chip_of(chips: list, pod: str, decided: bool) -> tuple | None:
    """The chip an arrow leaves from (pointers.js chipOf): a live pointer's from the in-flight lane, a decided
    one's from wherever the pod went."""
    mine = [c for c in chips if c[0] == pod]
    preferred = [c for c in mine if (c[1] != "inFlight") == decided]
    return (preferred or mine or [None])[0]


def arrow(g, line: Measured, detoured: bool, detached: bool, decided: bool, cut: Cut | None = None) -> None:
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
