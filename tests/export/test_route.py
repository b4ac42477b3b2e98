"""webapp/export/route.py is static/js/route.js in Python: on the same inputs (seeded random lists of entries and
hand-made cases) ``detour`` gives exactly the corners node gives, or None where it gives null, and takes as much
of a drawing's search budget. And the SVG export goes round the entries where the page does: its arrows' runs keep
off the entries they would have crossed, and its work is bounded on a list of hundreds of entries."""

import math
import random
import xml.etree.ElementTree as ET

import pytest

from tests.export.drawn import path_pieces
from tests.export.node import run_module
from webapp import ROOT
from webapp.export import arrows, svg
from webapp.export.geometry import curve
from webapp.export.route import BUDGET, CLEAR, NEAR, Budget, detour
from webapp.scenario.resolve import resolve

ROUTE_JS = (ROOT / "static" / "js" / "route.js").as_uri()
SVG = "{http://www.w3.org/2000/svg}"

# Reads [[from, to, boxes, frame, others, budget?], …] (points [x, y], rects [left, top, right, bottom]; budget: what
# the search may take, route.js's own BUDGET when left out) from stdin and prints route.js's answer for each:
# [corners as [[x, y], …] or null, what is left of the budget].
HARNESS = f'\nimport {{ BUDGET, detour }} from "{ROUTE_JS}";' + """
import { readFileSync } from "node:fs";
const point = ([x, y]) => ({ x, y });
const rect = ([left, top, right, bottom]) => ({ left, top, right, bottom });
const cases = JSON.parse(readFileSync(0, "utf8"));
const got = cases.map(([from, to, boxes, frame, others, left = BUDGET]) => {
  const spend = { left };
  const corners = detour(point(from), point(to), boxes.map(rect), rect(frame), others.map(point), spend);
  return [corners && corners.map((p) => [p.x, p.y]), spend.left];
});
console.log(JSON.stringify(got));
"""


def in_node(cases: list) -> list:
    """route.js's answers, [corners or None, budget left] per case."""
    return run_module(HARNESS, cases, "static/js/route.js")


def in_python(cases: list) -> list:
    """route.py's answers, in the harness's form."""
    out = []
    for start, end, boxes, frame, others, *left in cases:
        spend = Budget(*left)
        corners = detour(tuple(start), tuple(end), [tuple(b) for b in boxes], tuple(frame), [tuple(o) for o in others],
                         spend)
        out.append([corners and [list(p) for p in corners], spend.left])
    return out


# --- inputs ---------------------------------------------------------------------------------------------------
ROW = [[20, 40, 80, 80], [100, 40, 160, 80], [180, 40, 240, 80]]  # three entries in a row; the middle one the target
FRAME = [0, 0, 300, 100]


def shifted(case: list, dx: float, dy: float) -> list:
    start, end, boxes, frame, others = case
    move = lambda p: [p[0] + dx, p[1] + dy]  # noqa: E731
    rect = lambda r: [r[0] + dx, r[1] + dy, r[2] + dx, r[3] + dy]  # noqa: E731
    return [move(start), move(end), [rect(b) for b in boxes], rect(frame), [move(o) for o in others]]


PLAIN = [[200, 130], [130, 81.5], ROW, FRAME, []]
TIE = [[150, 180], [150, 81.5], [[120, 40, 180, 80], [110, 100, 190, 140]], [0, 0, 300, 200], []]
HAND = {
    # up out of the channel under the third entry, left under the row, up to the middle one
    "plain": PLAIN,
    # the same in negative, quarter-pixel coordinates: the edges round to half pixels as Math.round does
    "shifted": shifted(PLAIN, -100.25, -0.75),
    # the target with another entry right under it: left and right round it cost the same (the heap decides)
    "tie": TIE,
    # the same with another arrow up the left way: the right one it is
    "crowded": [*TIE[:4], [[55, y] for y in range(100, 170, 5)]],
    # …but points exactly NEAR px off its runs (beside the climb, under the bottom run, over the top one) do not
    "just clear": [*TIE[:4], [[x, y] for y in range(90 + NEAR, 171 - NEAR, 4) for x in (55 - NEAR, 55 + NEAR)]
                   + [[100, 170 + NEAR], [100, 90 - NEAR]]],
    # the channel comes up under the target itself: no bend at all
    "straight": [[130, 130], [130, 81.5], ROW, FRAME, []],
    # no way: an entry right under the target, so no run can come up to it
    "no goal": [[150, 180], [150, 81.5], [[120, 40, 180, 80], [110, 86, 190, 140]], [0, 0, 300, 200], []],
    # no way: the channel comes up under a wall of entries
    "walled in": [[150, 230], [150, 81.5], [[120, 40, 180, 80], [20, 100, 280, 196]], [0, 0, 300, 200], []],
}


def random_case(rng: random.Random, rows: tuple = (1, 3)) -> list:
    """Rows of entries with gaps (bottom-aligned as on the page, or top-aligned as in the SVG), a target and its
    end under it, a channel below the list, and points along other arrows; coordinates whole, half, quarter,
    tenth or any."""
    grain = rng.choice([1, 0.5, 0.25, 0.1, None])
    q = (lambda v: v) if grain is None else (lambda v: round(v / grain) * grain)
    left, top = q(rng.uniform(-60, 60)), q(rng.uniform(-40, 40))
    right = left + q(rng.uniform(160, 520))
    boxes, y, bottom_aligned = [], top + q(rng.uniform(4, 30)), rng.random() < 0.5
    for _ in range(rng.randint(*rows)):
        x, tallest, row = left + q(rng.uniform(4, 20)), 0.0, []
        while True:
            w, h = q(rng.uniform(12, 110)), q(rng.uniform(12, 60))
            if x + w > right - 4 and row:
                break
            row.append((x, w, h))
            tallest = max(tallest, h)
            x += w + q(rng.choice([2, 4, 6, 8, 8, 10, 14, 20, 30]) + rng.uniform(0, 3))
        boxes += [[bx, y + (tallest - h if bottom_aligned else 0), bx + w, y + (tallest if bottom_aligned else h)]
                  for bx, w, h in row]
        y += tallest + q(rng.uniform(6, 30))
    frame = [left, top, right, y + q(rng.uniform(0, 30))]
    target = rng.choice(boxes)
    spread = min(14, (target[2] - target[0]) / 4)
    end = [(target[0] + target[2]) / 2 + rng.choice([0, -1, 1, 2]) * spread, target[3] + rng.choice([1.5, 3])]
    start = [q(rng.uniform(left - 40, right + 40)), frame[3] + q(rng.uniform(4, 60))]
    if rng.random() < 0.2:
        start[0] = rng.choice([end[0], boxes[0][0], boxes[-1][2]])  # on a fixed coordinate or an edge
    others = []
    # other arrows: curves from below the list up to an entry
    for _ in range(rng.choice([0, 0, 1, 2, 3]) * (1 + rows[1] // 8)):
        b = rng.choice(boxes)
        p0, p3 = (rng.uniform(left, right), frame[3] + 20), ((b[0] + b[2]) / 2, b[3] + 1.5)
        others += [list(p) for p in curve(p0, p3)]
    if rng.random() < 0.5:  # on the grain too: points exactly NEAR px off a run
        others = [[q(x), q(y)] for x, y in others]
    return [start, end, boxes, frame, others]


RANDOM = [random_case(random.Random(seed)) for seed in range(300)]
LONG = [random_case(random.Random(seed), (6, 15)) for seed in range(1000, 1010)]  # long lists, many arrows


# --- the two implementations agree -----------------------------------------------------------------------------
def test_hand_made_cases_give_the_same_corners_in_both():
    names, cases = list(HAND), list(HAND.values())
    js, py = in_node(cases), in_python(cases)
    assert dict(zip(names, py)) == dict(zip(names, js))
    got = {name: corners for name, (corners, _) in zip(names, py)}
    assert got["plain"] == [[200, 130], [200, 90], [130, 90], [130, 81.5]]
    # the row's bottom edge, 79.25, and the frame's, 99.25, round up to 79.5 and 99.5 (Python's round: 79, 99)
    assert got["shifted"] == [[99.75, 129.25], [99.75, 89.5], [29.75, 89.5], [29.75, 80.75]]
    assert got["tie"] == [[150, 180], [150, 170], [55, 170], [55, 90], [150, 90], [150, 81.5]]
    assert got["crowded"] == [[150, 180], [150, 170], [245, 170], [245, 90], [150, 90], [150, 81.5]]
    assert got["just clear"] == got["tie"]
    assert got["straight"] == [[130, 130], [130, 81.5]]
    assert got["no goal"] is None and got["walled in"] is None


def test_seeded_random_lists_give_the_same_corners_in_both():
    js, py = in_node(RANDOM + LONG), in_python(RANDOM + LONG)
    for k, (a, b) in enumerate(zip(py, js)):
        assert a == b, f"case {k}: route.py {a}, route.js {b}"
    ways = sum(corners is not None for corners, _ in py)
    assert 0.3 * len(py) < ways < len(py)  # both kinds of answer are exercised
    assert any(corners and len(corners) >= 5 for corners, _ in py)  # and ways with several bends
    assert all(left < BUDGET for _, left in py if _ is not None)  # every search takes some of the budget


def test_the_exports_own_inputs_give_the_same_corners_in_both(monkeypatch):
    """What the SVG export asks of detour at the positions below, route.js answers the same."""
    asked = []
    monkeypatch.setattr(arrows, "detour", lambda *args: asked.append([list(args[0]), list(args[1]),
                                                                   [list(b) for b in args[2]], list(args[3]),
                                                                   [list(o) for o in args[4]]]))
    for name, position in dict.fromkeys((name, position) for name, position, _, _ in DETOURS):
        svg.export_svg(resolve(name)[0], position)
    assert len(asked) >= len(DETOURS)
    assert in_python(asked) == in_node(asked)


# --- the export goes round the entries -------------------------------------------------------------------------


def item_rects(pane) -> dict:
    """Each list item's extent as drawn (its box, tags and markers, not the walk's or reach's halo), by data-key."""
    out = {}
    for g in pane.iter(f"{SVG}g"):
        key = g.get("data-key")
        if not key or g.get("data-pointer") is not None:
            continue
        rects = [(float(r.get("x")), float(r.get("y")), float(r.get("x")) + float(r.get("width")),
                  float(r.get("y")) + float(r.get("height"))) for r in g.iter(f"{SVG}rect")
                 if r.get("data-walk") is None and r.get("data-reach-by") is None]
        rects += [(float(c.get("cx")) - float(c.get("r")), float(c.get("cy")) - float(c.get("r")),
                   float(c.get("cx")) + float(c.get("r")), float(c.get("cy")) + float(c.get("r")))
                  for c in g.iter(f"{SVG}circle")]
        out[key] = (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects),
                    max(r[3] for r in rects))
    return out


def near(p: tuple, q: tuple, b: tuple, clear: float) -> bool:
    """Does the segment p–q come within ``clear`` of rect b (its bounding box, as route.py's crosses)?"""
    return (max(p[0], q[0]) > b[0] - clear and min(p[0], q[0]) < b[2] + clear
            and max(p[1], q[1]) > b[1] - clear and min(p[1], q[1]) < b[3] + clear)


# A line's first points: its tail on the chip, the corner into the lane's channel (rounded: seven points), the top
# of the channel, where the approach starts (pointers.js lineOf).
LEG = 9

# (scenario, position, variant, pod): arrows whose curve would run over another entry, drawn round them
DETOURS = [("front-cleanup", 9, "v1.28.1", "A"), ("front-cleanup", 9, "v1.28.2", "A"),
           ("front-cleanup", 9, "v1.28.2", "B"), ("queueing-hints", 7, "v1.28.2", "B"),
           ("three-pod-cascade", 8, "v1.28.1", "B")]


@pytest.mark.parametrize("name, position, variant, pod", DETOURS)
def test_the_export_draws_an_arrow_round_the_entries_it_would_cross(name, position, variant, pod):
    root = ET.fromstring(svg.export_svg(resolve(name)[0], position).encode("utf-8"))
    [pane] = [g for g in root.iter(f"{SVG}g") if g.get("data-variant") == variant]
    [arrow] = [g for g in pane.iter(f"{SVG}g") if g.get("data-pointer") == pod]
    rects = item_rects(pane)
    others = [r for key, r in rects.items() if key != arrow.get("data-key")]
    pieces = [piece for line in arrow.iter(f"{SVG}path") if line.get("data-line")
              for piece in path_pieces(line.get("d"))]
    start = pieces[0][LEG - 1]
    pieces[0] = pieces[0][LEG - 1:]  # the approach: from the top of the channel (the run in the lane is not routed)
    [head] = [h for h in arrow.iter(f"{SVG}path") if h.get("data-head")]
    tip, *wings = path_pieces(head.get("d"))[0]
    # the plain curve would have run over another entry (pointers.js runsOver)…
    assert any(near(p, p, r, 2) for p in curve(start, tip) for r in others)
    # …the drawn one is orthogonal runs joined by corners rounded within 8 px, at least two bends
    runs = [(p, q) for piece in pieces for p, q in zip(piece, piece[1:]) if math.dist(p, q) > 8.5]
    assert all(abs(p[0] - q[0]) < 0.15 or abs(p[1] - q[1]) < 0.15 for p, q in runs), runs
    assert {abs(p[0] - q[0]) < 0.15 for p, q in runs} == {True, False}
    # the runs keep CLEAR px off every other entry (0.1 px: the path's rounding), the corners off them all
    assert not [(p, q, r) for p, q in runs for r in others if near(p, q, r, CLEAR - 0.1)]
    assert not [(p, r) for piece in pieces for p in piece for r in others if near(p, p, r, 0)]
    # the head lands on the bottom of the target's stack, pointing straight up; the line stops under it
    target = rects[arrow.get("data-key")]
    assert target[0] < tip[0] < target[2] and tip[1] == pytest.approx(target[3] + 1.5, abs=0.6)
    assert all(w[1] > tip[1] + 8 for w in wings) and sum(w[0] for w in wings) / 2 == pytest.approx(tip[0], abs=0.15)
    last = pieces[-1][-1]
    assert last[1] > tip[1] and math.dist(last, tip) < 10


def test_an_arrow_whose_curve_runs_over_nothing_keeps_its_curve():
    """front-cleanup position 9, v1.28.1: D's curve to e3 passes between the entries: a curve, no runs."""
    root = ET.fromstring(svg.export_svg(resolve("front-cleanup")[0], 9).encode("utf-8"))
    [pane] = [g for g in root.iter(f"{SVG}g") if g.get("data-variant") == "v1.28.1"]
    [arrow] = [g for g in pane.iter(f"{SVG}g") if g.get("data-pointer") == "D"]
    [line] = [p for p in arrow.iter(f"{SVG}path") if p.get("data-line")]
    approach = path_pieces(line.get("d"))[0][LEG:]
    assert len(approach) > 56  # the cubic's 64 samples, up to 4 px short of the tip
    assert sum(abs(p[0] - q[0]) > 0.15 and abs(p[1] - q[1]) > 0.15 for p, q in zip(approach, approach[1:])) > 12


# --- the search is bounded -------------------------------------------------------------------------------------
def long_list_case(rows: int = 40) -> list:
    """A list of ``rows`` rows of six entries, the target in the first row, the channel coming up under the last:
    the way round has to climb through every row gap."""
    boxes = [[20 + 70 * k, 40 + 54 * r, 80 + 70 * k, 80 + 54 * r] for r in range(rows) for k in range(6)]
    frame = [0, 0, 450, 90 + 54 * rows]
    return [[225, frame[3] + 20], [190, 81.5], boxes, frame, []]


def test_a_search_stops_when_the_drawings_budget_is_spent_in_both():
    case = long_list_case()
    (corners, left), = in_python([case])
    assert corners is not None and BUDGET - left > 0  # with the whole budget: a way round
    taken = BUDGET - left
    # the same search with one state less than it takes: no way, nothing left; with exactly enough: the same way
    short, enough = [*case, taken - 1], [*case, taken]
    assert in_python([short, enough]) == in_node([short, enough]) == [[None, 0], [corners, 0]]


def test_one_budget_is_shared_by_a_drawings_detours():
    case = long_list_case()
    (_, left), = in_python([case])
    taken = BUDGET - left
    spend = Budget(2 * taken - 1)
    first = detour(*map(tuple, case[:2]), [tuple(b) for b in case[2]], tuple(case[3]), (), spend)
    second = detour(*map(tuple, case[:2]), [tuple(b) for b in case[2]], tuple(case[3]), (), spend)
    assert first is not None and second is None and spend.left == 0


def test_an_export_of_a_list_of_hundreds_of_entries_is_bounded(monkeypatch):
    """Three pods in flight over a 600-entry v1.28.2 list: each pane's detours stop at the budget (unbounded, a
    pane's took 81,000 to 220,000 search states, 2.2 s for the export) and the export still draws every arrow."""
    steps = ([{"op": "pop", "expect": "A"}] + [{"op": "event", "event": "NodeAdd"}] * 300
             + [{"op": "pop", "expect": "B"}, {"op": "pop", "expect": "C"}]
             + [{"op": "event", "event": "NodeAdd"}] * 300)
    scenario = {"schema": 1, "name": "600 entries", "pods": [{"name": n} for n in "ABC"], "initial_active": list("ABC"),
                "steps": steps}
    spent: dict = {}  # the drawing's budget -> what its detours took

    def counted(*args):
        spend = args[5]
        before = spend.left
        corners = detour(*args)
        spent[spend] = spent.get(spend, 0) + before - spend.left
        return corners

    monkeypatch.setattr(arrows, "detour", counted)
    root = ET.fromstring(svg.export_svg(resolve(scenario)[0], len(steps)).encode("utf-8"))
    assert max(spent.values()) == BUDGET  # a pane's search ran into the budget…
    assert all(taken <= BUDGET for taken in spent.values())  # …and none went past it
    assert len([g for g in root.iter(f"{SVG}g") if g.get("data-pointer")]) == 6  # every arrow still drawn


def test_no_way_round_runs_along_the_top_of_the_lanes_it_leaves():
    """The start is the top of the arrow's channel, just above the lanes: a route goes up from it and never comes
    back to run along that line (over the lanes' titles), unless the target's row gap is there."""
    runs = 0
    for (corners, _), (start, end, *_) in zip(in_python(RANDOM + LONG), RANDOM + LONG):
        if corners is None or len(corners) < 3:
            continue
        assert corners[1][0] == start[0] and corners[1][1] < start[1]  # up first
        along = [(p, q) for p, q in zip(corners[1:], corners[2:]) if p[1] == q[1] == start[1]]
        assert all(q[0] == end[0] for _, q in along), (start, corners)  # only a last run to the goal below the target
        runs += len(corners) - 1
    assert runs > 300


def test_a_way_that_dips_costs_more_than_one_that_climbs():
    """Seeded list 30: a way across under the target's row (through other arrows' points) or one over the top of
    the list and back down to it; a px down costs DOWN times a px otherwise, so the arrow climbs across (8 corners
    before, over the list's top and back down; 4 with other arrows kept NEAR = 6 px off, 6 now that they are kept
    14 px off: a step up under the target's row, still climbing all the way)."""
    (corners, _), = in_python([RANDOM[30]])
    assert len(corners) <= 6 and all(q[1] <= p[1] for p, q in zip(corners, corners[1:]))
    assert in_node([RANDOM[30]]) == in_python([RANDOM[30]])
