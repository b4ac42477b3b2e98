"""webapp/export/geometry.py is the arrow geometry of static/js/pointers.js in Python: on the same generated inputs
(seeded random points, boxes and line widths, whole and fractional) the curve, the rounded corners, where an arrow
ends under its entry, its head and its tail come out the same in node and in Python, to 1e-9 px. (The detour and
the cut are held to their twins by test_route.py and test_cut.py.)"""

import random

from tests.export.node import run_module, same
from webapp import ROOT
from webapp.export import geometry

POINTERS_JS = (ROOT / "static" / "js" / "pointers.js").as_uri()

# Reads [[kind, …args], …] from stdin (points as [x, y]) and prints pointers.js's answer for each, points as [x, y].
HARNESS = """
import { curve, endUnder, head, rounded, tailRadius } from "%s";
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
""" % POINTERS_JS

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

