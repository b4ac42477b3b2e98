"""webapp/export/geometry.py is the arrow geometry of static/js/pointers.js in Python: on the same generated inputs
(seeded random points, boxes and line widths, whole and fractional) the curve, the rounded corners, where an arrow
ends under its entry, its head and its tail come out the same in node and in Python, to 1e-9 px. (The detour and
the cut are held to their twins by test_route.py and test_cut.py.)"""

import math
import random

from tests.export.node import run_module, same
from webapp import ROOT
from webapp.export import geometry
from webapp.export.arrows import Arrow, lay_out

POINTERS_JS = (ROOT / "static" / "js" / "pointers.js").as_uri()

# Reads [[kind, …args], …] from stdin (points as [x, y]) and prints pointers.js's answer for each, points as [x, y].
HARNESS = f'\nimport {{ curve, endUnder, head, rounded, tailRadius }} from "{POINTERS_JS}";' + """
import { readFileSync } from "node:fs";
const point = ([x, y]) => ({ x, y });
const xy = (p) => [p.x, p.y];
const ask = {
  curve: (s, e) => curve(point(s), point(e)).map(xy),
  rounded: (corners) => rounded(corners.map(point)).map(xy),
  endUnder: (left, width, bottom, n) => xy(endUnder(left, width, bottom, n)),
  head: (tip, back, width) => head(point(tip), point(back), width).map(xy),
  tailRadius: (width) => tailRadius(width),
};
const cases = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify(cases.map(([kind, ...args]) => ask[kind](...args))));
"""

IN_PYTHON = {
    "curve": lambda s, e: [list(p) for p in geometry.curve(tuple(s), tuple(e))],
    "rounded": lambda corners: [list(p) for p in geometry.bends([tuple(c) for c in corners])],
    "endUnder": lambda left, width, bottom, n: list(geometry.end_under(left, width, bottom, n)),
    "head": lambda tip, back, width: [list(p) for p in geometry.head(tuple(tip), tuple(back), width)],
    "tailRadius": geometry.tail_radius,
}


def random_case(rng: random.Random) -> list:
    whole = rng.random() < 0.5
    q = (lambda v: float(round(v))) if whole else (lambda v: v)
    point = lambda: [q(rng.uniform(-50, 700)), q(rng.uniform(-50, 500))]  # noqa: E731
    kind = rng.choice(list(IN_PYTHON))
    if kind == "curve":  # up from a channel to an entry, or level, or (rarely) down
        s = point()
        e = [q(rng.uniform(-50, 700)), s[1] - q(rng.choice([0, rng.uniform(0, 10), rng.uniform(0, 400), -30]))]
        return [kind, s, e]
    if kind == "rounded":  # a detour's runs: alternately vertical and horizontal, some short, some of length 0
        corners = [point()]
        for k in range(rng.randint(1, 6)):
            x, y = corners[-1]
            step = q(rng.choice([0, rng.uniform(1, 16), rng.uniform(16, 300)])) * rng.choice([-1, 1])
            corners.append([x + step, y] if k % 2 else [x, y - abs(step)])
        return [kind, corners]
    if kind == "endUnder":
        return [kind, q(rng.uniform(0, 600)), q(rng.uniform(4, 200)), q(rng.uniform(20, 400)), rng.randint(0, 6)]
    if kind == "head":
        tip = point()
        back = rng.choice([[tip[0], tip[1] + 10], point()])
        return [kind, tip, back, rng.choice([2.5, 3.5, rng.uniform(1, 6)])]
    return [kind, rng.choice([2.5, 3.5, rng.uniform(0.5, 6)])]


CASES = [random_case(random.Random(seed)) for seed in range(600)]


def test_seeded_random_shapes_are_the_same_in_both():
    assert {case[0] for case in CASES} == set(IN_PYTHON)  # every shape asked
    js = run_module(HARNESS, CASES, "static/js/pointers.js")
    py = [IN_PYTHON[kind](*args) for kind, *args in CASES]
    differ = [(case, a, b) for case, a, b in zip(CASES, py, js) if not same(a, b)]
    assert differ == [], differ[:3]



# --- the whole layout: approaches, detours, lines and cuts, in order --------------------------------------------
# Reads [[entries, frame, arrows], …] (entries [left, top, right, bottom, key or null]; frame [left, top, right,
# bottom]; arrows [start, turn, up, end, key, detached], points [x, y]) and prints, per arrow of each, pointers.js
# layOut's answer: [detoured, line points, cut as [gap, bars, cross, bent, room (null: -Infinity)] or null].
LAYOUT_HARNESS = f'\nimport {{ layOut }} from "{POINTERS_JS}";' + """
import { readFileSync } from "node:fs";
const point = ([x, y]) => ({ x, y });
const xy = (p) => [p.x, p.y];
const cases = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify(cases.map(([entries, [left, top, right, bottom], arrows]) => {
  const boxes = entries.map(([left, top, right, bottom, li]) => ({ left, top, right, bottom, li }));
  const laid = arrows.map(([start, turn, up, end, to, detached]) => ({
    route: { start: point(start), turn: point(turn), up: point(up) }, end: point(end), to, p: { detached } }));
  layOut(laid, boxes, { left, top, right, bottom });
  const cut = (c) => [c.gap, c.bars.map(([p, q]) => [xy(p), xy(q)]), xy(c.cross), c.bent,
    Number.isFinite(c.room) ? c.room : null];
  return laid.map((a) => [!!a.detoured, a.line.points.map(xy), a.cut ? cut(a.cut) : null]);
})));
"""


def laid_in_python(case: list) -> list:
    """arrows.py lay_out's answers, in the harness's form."""
    entries, frame, arrows = case
    laid = [Arrow(tail=tuple(start), via=tuple(turn), s=tuple(up), end=tuple(end), key=key, detached=detached)
            for start, turn, up, end, key, detached in arrows]
    lay_out(laid, [(tuple(e[:4]), e[4]) for e in entries], tuple(frame))
    return [[a.corners is not None, [list(p) for p in a.measured.points],
             a.cut and [list(a.cut.gap), [[list(p), list(q)] for p, q in a.cut.bars], list(a.cut.cross),
                        a.cut.bent, a.cut.room if math.isfinite(a.cut.room) else None]] for a in laid]


def random_layout(rng: random.Random) -> list:
    """Rows of entries (an "→" glyph before some: no key) in a list's frame, and one to five arrows coming up from
    the lanes below it to entries (some to the same one: the spread), some detached; coordinates whole or any."""
    whole = rng.random() < 0.5
    q = (lambda v: float(round(v))) if whole else (lambda v: v)
    left, right = q(rng.uniform(0, 40)), q(rng.uniform(400, 640))
    entries, y = [], q(rng.uniform(10, 40))
    for _ in range(rng.randint(1, 3)):
        x, height = left + 8, q(rng.uniform(30, 70))
        while True:
            width = q(rng.uniform(36, 130))
            if x + width > right - 8 and len(entries):
                break
            if entries and rng.random() < 0.5:
                entries.append([x, y + 8, x + 14, y + 26, None])
                x += 22
            entries.append([x, y, x + width, y + q(rng.uniform(20, height)), f"e{len(entries)}"])
            x += width + q(rng.uniform(8, 30))
        y += height + q(rng.uniform(10, 24))
    frame = [left, 0.0, right, y + 20]
    targets = [e for e in entries if e[4]]
    arriving: dict = {}
    arrows = []
    for _ in range(rng.randint(1, 5)):
        target = rng.choice(targets)
        n = arriving[target[4]] = arriving.get(target[4], -1) + 1
        end = list(geometry.end_under(target[0], target[2] - target[0], target[3], n))
        channel = q(rng.choice([rng.uniform(left - 20, right + 20), end[0]]))
        chip_y, top = frame[3] + q(rng.uniform(40, 100)), frame[3] + q(rng.uniform(4, 30))
        arrows.append([[channel - q(rng.uniform(10, 80)), chip_y], [channel, chip_y], [channel, top], end, target[4],
                       rng.random() < 0.4])
    return [entries, frame, arrows]


LAYOUTS = [random_layout(random.Random(seed)) for seed in range(200)]
DETOURED, CUT = 200, 240  # of their 635 arrows, at least this many go round the entries, are cut (234, 268)


def test_seeded_random_layouts_are_laid_out_the_same_in_both():
    """The whole drawing from the lanes up, in the pointers' order: which arrows go round the entries (sharing one
    budget, keeping off the arrows laid before), their lines, and where the detached ones are cut."""
    py = [laid_in_python(case) for case in LAYOUTS]
    detoured, cut = sum(a[0] for arrows in py for a in arrows), sum(a[2] is not None for arrows in py for a in arrows)
    assert detoured >= DETOURED and cut >= CUT, (detoured, cut)  # the cases reach the detour and the cut
    js = run_module(LAYOUT_HARNESS, LAYOUTS, "static/js/pointers.js")
    differ = [(case, mine, theirs) for case, mine, theirs in zip(LAYOUTS, py, js) if not same(mine, theirs)]
    assert differ == [], differ[:1]
