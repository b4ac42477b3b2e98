"""webapp/export/cut.py is the cut of static/js/pointers.js in Python: on the same lines (seeded random ones, hand-made
ones, and what the SVG export itself asks) ``place_cut`` puts a broken arrow's gap, bars and cross where
``placeCut`` puts them, with the same room. And the export's broken arrows keep their cuts off the other arrows and
the entries as the page's do (tests/e2e/test_stage.py two_broken_arrows_on_a_phone_keep_apart, in the detour test)."""

import math
import random
import xml.etree.ElementTree as ET

import pytest

from tests.export.drawn import path_pieces
from tests.export.node import run_module, same
from webapp import ROOT
from webapp.export import arrows, geometry, svg
from webapp.export.cut import ROOM, Cut, Measured, place_cut, to_segment
from webapp.scenario.resolve import resolve

POINTERS_JS = (ROOT / "static" / "js" / "pointers.js").as_uri()
SVG = "{http://www.w3.org/2000/svg}"

# Reads [[points, k, entries, others, crosses], …] from stdin (points [x, y]; the approach begins at points[k];
# entries [left, top, right, bottom]; others: the other arrows' lines as point lists; crosses: the crosses of the
# cuts placed before) and prints placeCut's answer for each: [gap, bars, cross, bent, room (null: -Infinity)].
HARNESS = f'\nimport {{ measured, placeCut }} from "{POINTERS_JS}";' + """
import { readFileSync } from "node:fs";
const point = ([x, y]) => ({ x, y });
const xy = (p) => [p.x, p.y];
const cases = JSON.parse(readFileSync(0, "utf8"));
const got = cases.map(([points, k, entries, others, crosses]) => {
  const pts = points.map(point);
  const line = { points: pts, path: measured(pts), from: measured(pts.slice(0, k + 1)).length };
  const cut = placeCut(line, entries.map(([left, top, right, bottom]) => ({ left, top, right, bottom })),
    others.map((o) => ({ points: o.map(point) })), crosses.map((c) => ({ cross: point(c) })));
  return [cut.gap, cut.bars.map(([a, b]) => [xy(a), xy(b)]), xy(cut.cross), cut.bent,
    Number.isFinite(cut.room) ? cut.room : null];
});
console.log(JSON.stringify(got));
"""


def in_node(cases: list) -> list:
    """pointers.js's cuts."""
    return run_module(HARNESS, cases, "static/js/pointers.js")


def answer(cut: Cut) -> list:
    return [list(cut.gap), [[list(a), list(b)] for a, b in cut.bars], list(cut.cross), cut.bent,
            cut.room if math.isfinite(cut.room) else None]


def in_python(cases: list) -> list:
    """cut.py's answers, in the harness's form."""
    out = []
    for points, k, entries, others, crosses in cases:
        line = Measured(points)
        cuts = [Cut((0, 0), [], tuple(c), False) for c in crosses]
        out.append(answer(place_cut(line, line.along[k], [tuple(b) for b in entries],
                                    [[tuple(p) for p in o] for o in others], cuts)))
    return out


# --- inputs ---------------------------------------------------------------------------------------------------
def leg(s: list) -> list:
    """The run out of a lane up to the approach's start ``s``: from the chip's side across to the channel, then up."""
    return [[s[0] - 40, s[1] + 40], [s[0], s[1] + 40]]


def curve(s: list, e: list) -> list:
    return [list(p) for p in geometry.curve(tuple(s), tuple(e))]


def runs(corners: list) -> list:
    return [list(p) for p in geometry.bends([tuple(c) for c in corners])]


def case(approach: list, entries: list, others: list = (), crosses: list = ()) -> list:
    s = approach[0]
    return [leg(s) + approach, 2, entries, list(others), list(crosses)]


# a straight approach up from (100, 300) to (100, 100): its middle at (100, 200)
UP = [[100, 300], [100, 100]]
HAND = {
    # nothing near: the middle
    "free": case(UP, [[60, 60, 140, 98]]),
    # an entry beside the middle (4 px off the line): the nearest place with room, above or below it
    "entry beside": case(UP, [[60, 60, 140, 98], [104, 185, 170, 215]]),
    # another arrow across the middle, and a cut placed before on the way up: the nearest place clear of both
    "crowded": case(UP, [[60, 60, 140, 98]], [[[40, 200], [160, 195]]], [[100, 240]]),
    # crowded all along (an arrow beside it the whole way): the place with the most room, however little
    "no room": case(UP, [[60, 60, 140, 98]], [[[106, 300], [106, 100]]]),
    # a corner in the middle of a detour's runs (100 px up, 200 px left, 300 px up): its gap would hide it
    "corner": case(runs([[300, 300], [300, 200], [100, 200], [100, -100]]), [[60, -140, 140, -102]]),
}


def random_case(rng: random.Random) -> list:
    """A line up from below a few entries to one of them (a curve, or a detour's runs), other arrows' lines among
    the entries, and the crosses of cuts placed before; coordinates whole or any."""
    whole = rng.random() < 0.5
    q = (lambda v: float(round(v))) if whole else (lambda v: v)
    entries = []
    for _ in range(rng.randint(1, 8)):
        x, y = q(rng.uniform(0, 560)), q(rng.uniform(0, 160))
        entries.append([x, y, x + q(rng.uniform(30, 140)), y + q(rng.uniform(20, 70))])
    target = rng.choice(entries)
    e = [(target[0] + target[2]) / 2, target[3] + 1.5]
    s = [q(rng.uniform(0, 640)), q(rng.uniform(200, 320))]
    if rng.random() < 0.5:
        approach = curve(s, e)
    else:
        y = q(rng.uniform(e[1] + 4, s[1] - 4))
        corners = [s, [s[0], y], [e[0], y], e]
        if rng.random() < 0.5:
            x = q(rng.uniform(0, 640))
            y2 = q(rng.uniform(e[1] + 2, y - 2))
            corners = [s, [s[0], y], [x, y], [x, y2], [e[0], y2], e]
        approach = runs(corners)
    others = []
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        b = rng.choice(entries)
        o = [q(rng.uniform(0, 640)), q(rng.uniform(200, 320))]
        others.append(leg(o) + curve(o, [(b[0] + b[2]) / 2, b[3] + 1.5]))
    crosses = [[q(rng.uniform(0, 640)), q(rng.uniform(60, 320))] for _ in range(rng.choice([0, 0, 1, 2]))]
    return case(approach, entries, others, crosses)


RANDOM = [random_case(random.Random(seed)) for seed in range(150)]


# --- the two implementations agree -----------------------------------------------------------------------------
def test_hand_made_and_seeded_random_lines_are_cut_in_the_same_place_in_both():
    names = list(HAND)
    cases = list(HAND.values()) + RANDOM
    js, py = in_node(cases), in_python(cases)
    for k, (a, b) in enumerate(zip(py, js)):
        assert same(a, b), f"case {names[k] if k < len(names) else k - len(names)}: cut.py {a}, pointers.js {b}"
    got = dict(zip(names, py))
    # the approach starts 40 + 40 px along the line (the run out of the lane) and is 200 px long
    assert got["free"][2] == [100, 200] and got["free"][0] == [160, 200] and got["free"][4] == ROOM
    assert [b[0][1] for b in got["free"][1]] == [215, 185]  # the bars 15 px either side (8 % would be 16)
    # beside the entry (y 185-215): nearest the middle (55 %, 45 %, 60 %, … 25 %, 75 %) with its marks 12 px off
    # it: 25 % of the approach, its bars 20 px under the entry (at 30 %, 10 px)
    assert got["entry beside"][2] == [100, 250] and got["entry beside"][4] == ROOM
    # off the arrow across at y 195-200 and the cross at y 240, nearest the middle: 35 % of the approach (y 230)
    # would put its bar 6 px from the other cross; 30 % (y 240) on it; 65 % (y 170): room
    assert got["crowded"][2] == [100, 170] and got["crowded"][4] == ROOM
    # 6 px from the other arrow all along (the bars cross it): no place has more room, so the middle
    assert got["no room"][2] == [100, 200] and got["no room"][4] == 6 - 9  # the cross's edge 3 px over it
    # the corner at 50 % (its rounding 8 px either side): the gap would take it in, so 45 %, the gap ending 2 px
    # short of the rounding
    assert got["corner"][3] is False and got["corner"][4] == ROOM
    assert got["corner"][2] == pytest.approx([129.84, 200], abs=0.01)
    # the seeded lines exercise every kind of answer
    placed = py[len(names):]
    assert sum(c[2] != py_mid for c, py_mid in zip(placed, middles(RANDOM))) > 30  # moved off the middle
    assert any(c[4] is not None and c[4] < ROOM for c in placed)  # nowhere with full room
    assert all(c[4] is not None for c in placed) and not any(c[3] for c in placed)  # never on a corner


def middles(cases: list) -> list:
    out = []
    for points, k, *_ in cases:
        line = Measured(points)
        out.append(list(line.point(line.along[k] + (line.length - line.along[k]) / 2)))
    return out


def test_the_exports_own_cuts_are_placed_as_the_page_places_them(monkeypatch):
    """What the SVG export asks of place_cut at the positions below (the built-ins' broken arrows: curves and
    detours, two in one pane, beside other arrows), pointers.js answers the same."""
    asked, answers = [], []

    def recorded(line, start, entries, others, cuts):
        cut = place_cut(line, start, entries, others, cuts)
        asked.append([[list(p) for p in line.points], line.along.index(start), [list(b) for b in entries],
                      [[list(p) for p in o] for o in others], [list(c.cross) for c in cuts]])
        answers.append(answer(cut))
        return cut

    monkeypatch.setattr(arrows, "place_cut", recorded)
    positions = [("three-pod-cascade", 7), ("three-pod-cascade", 8), ("lost-marker", 6), ("front-cleanup", 11)]
    for name, position in positions:
        svg.export_svg(resolve(name)[0], position)
    assert len(asked) == 5 and [len(c[4]) for c in asked] == [0, 0, 1, 0, 0]  # at 8 the second cut knows the first
    js = in_node(asked)
    assert all(same(a, b) for a, b in zip(answers, js)), (answers, js)


# --- the export's cuts keep off the other arrows -----------------------------------------------------------------


def test_two_broken_arrows_keep_their_cuts_off_each_other(client):
    """three-pod-cascade 8, v1.28.1: B's and C's broken arrows come up beside each other above the lanes (B's a
    detour along the bottom of the list, C's curve over it). Cut in their middles, C's bar lay on B's line (0.1 px)
    and B's beside C's curve (1.7 px); now each cut goes where it has room, as on the page: its cross and bars 8 px
    or more from the other arrow's line and from the entries (C 24.2 and 59.9 px, B 126.6 and 27.1 px)."""
    got = client.get("/export/three-pod-cascade.svg?position=8")
    assert got.status_code == 200
    root = ET.fromstring(got.data)
    [pane] = [g for g in root.iter(f"{SVG}g") if g.get("data-variant") == "v1.28.1"]
    arrows = {g.get("data-pointer"): g for g in pane.iter(f"{SVG}g") if g.get("data-pointer")}
    broken = sorted(pod for pod, g in arrows.items() if g.get("data-detached") == "true")
    assert broken == ["B", "C"]
    boxes = [tuple(float(r.get(k)) for k in ("x", "y", "width", "height")) for g in pane.iter(f"{SVG}g")
             if g.get("data-key") and g.get("data-pointer") is None for r in g.iter(f"{SVG}rect")
             if r.get("data-walk") is None and r.get("data-reach-by") is None]
    boxes = [(x, y, x + w, y + h) for x, y, w, h in boxes]
    for pod in broken:
        g = arrows[pod]
        [text] = [t for t in g.iter(f"{SVG}text") if t.text == "✕"]
        marks = [(float(text.get("x")), float(text.get("y")) - 5)]  # the cross's centre (its baseline 5 px under)
        for bar in (p for p in g.iter(f"{SVG}path") if p.get("data-break")):
            (a, b), = path_pieces(bar.get("d"))
            marks += [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) for t in (0, 0.25, 0.5, 0.75, 1)]
        lines = [piece for pod2, o in arrows.items() if pod2 != pod for p in o.iter(f"{SVG}path") if p.get("data-line")
                 for piece in path_pieces(p.get("d"))]
        to_lines = min(to_segment(m, a, b) for m in marks for piece in lines for a, b in zip(piece, piece[1:]))
        to_boxes = min(math.hypot(max(b[0] - x, 0, x - b[2]), max(b[1] - y, 0, y - b[3])) for x, y in marks
                       for b in boxes)
        assert to_lines >= 8 and to_boxes >= 8, (pod, to_lines, to_boxes)
