"""A way around the list's entries for an arrow whose plain curve would run over one: the same algorithm as
static/js/route.js (``detour`` and its helpers, the same constants, from the tokens, the same heap and so the same
tie-breaking), so the SVG export and the page go round the entries by the same corners; tests/export/test_route.py
runs both on the same inputs and holds them to each other. Change one, change the other. (In form only, two things
differ: a state is an integer, and the tests of a run against the boxes and the other arrows are tables made once,
not scans, the same answers for a list of hundreds of entries in a second, not a minute: grid_test.)

The shortest path with the fewest bends, made of vertical and horizontal runs, from ``start`` (reached going up) to
just below ``end`` (a point on the bottom edge of the target's box), then straight up to it. The runs lie midway
between the edges of the entries (the rows' gaps, the gaps between entries of a row), never nearer an entry than
CLEAR px, and keep off the other arrows where they can.

Points are (x, y) tuples; rects (the entries', the frame) are (left, top, right, bottom) tuples.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from itertools import accumulate

from .geometry import Point, Rect
from .tokens import ROUTE

GridTest = Callable[[int, int, int, int], bool]  # (i, j, ni, nj): for the run from (xs[i], ys[j]) to (xs[ni], ys[nj])
Band = tuple[tuple[int, int], tuple[int, int]]  # the grid lines in a box's (a point's) reach: [first, stop) of xs, ys
State = tuple[int, bool]  # a search state (route.js's id) and whether it is the goal's last step

# The numbers are the tokens' (static/js/tokens.js "route", docs/rendering.md), the ones route.js reads.
CLEAR = ROUTE["clear"]  # px a run keeps off an entry
BEND = ROUTE["bend"]  # a bend costs as much as this many px of length
DOWN = ROUTE["down"]  # a px down costs as much as this many: an arrow climbs to its entry, it does not dip on the way
NEAR = ROUTE["near"]  # a run this near another arrow's point…
CROWDED = ROUTE["crowded"]  # …costs this much more
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # up, right, down, left (index: the direction)
# The search states one drawing's detours may take between them (``Budget``): past it, the arrows left keep their
# curves, so an export's work is bounded whatever the scenario.
BUDGET = ROUTE["budget"]


class Budget:
    """route.js's ``budget()``: what one drawing's detours may still take, shared in the order they are asked."""

    __slots__ = ("left",)

    def __init__(self, left: int | None = None) -> None:
        self.left = BUDGET if left is None else left


def detour(start: Point, end: Point, boxes: Sequence[Rect], frame: Rect, others: Sequence[Point] = (),
           spend: Budget | None = None) -> list[Point] | None:
    """The corners [start, …, end], or None when there is no way (or ``spend``, the drawing's budget, ran out
    first; what the search takes is deducted from it). ``boxes``: the entries' rects (the target's too); ``frame``:
    the rect the runs stay in; ``others``: points along the other arrows."""
    xs = middles([frame[0], frame[2], *(v for b in boxes for v in (b[0], b[2]))], [start[0], end[0]])
    ys = [y for y in middles([frame[1], frame[3], *(v for b in boxes for v in (b[1], b[3]))], [start[1]])
          if y <= start[1]]
    # the last run comes straight up from a row gap below the target: only the boxes below its row are in the way
    below = [b for b in boxes if b[3] > end[1] + CLEAR]
    goal = next((g for g in ((end[0], y) for y in ys if y > end[1] + CLEAR)
                 if not any(crosses(g, end, b) for b in below)), None)
    if goal is None:
        return None
    blocked = grid_test(xs, ys, [((bisect_right(xs, b[0] - CLEAR), bisect_left(xs, b[2] + CLEAR)),
                                  (bisect_right(ys, b[1] - CLEAR), bisect_left(ys, b[3] + CLEAR))) for b in boxes])
    xs_less, xs_more = [x - NEAR for x in xs], [x + NEAR for x in xs]
    ys_less, ys_more = [y - NEAR for y in ys], [y + NEAR for y in ys]
    crowded = grid_test(xs, ys, [((bisect_right(xs_more, o[0]), bisect_left(xs_less, o[0])),
                                  (bisect_right(ys_more, o[1]), bisect_left(ys_less, o[1]))) for o in others])
    path = cheapest(xs, ys, start, goal, blocked, crowded, Budget() if spend is None else spend)
    return straighten([*path, end]) if path else None


def grid_test(xs: Sequence[float], ys: Sequence[float], bands: Sequence[Band]) -> GridTest:
    """route.js's blocked (does a run come within CLEAR of a box?) or crowded (within NEAR of a point of another
    arrow?) for the runs the search makes, each from a grid node to its neighbour, answered from a table made once
    (a search over a long list makes hundreds of thousands of runs). ``bands``: per box (or point), the grid lines
    in its reach, as index ranges [first, stop) of xs and of ys, found by bisection with route.js's very
    comparisons (the xs with ``x > left - CLEAR`` begin at bisect_right(xs, left - CLEAR)…). A run along one of
    those rows, from node k to k + 1, reaches it when its end is past the first column and its start before the
    stop: k from first - 1 to stop - 1; the same for a run along one of those columns. Returns
    test(i, j, ni, nj): for the run from (xs[i], ys[j]) to (xs[ni], ys[nj])."""
    nx, ny = len(xs), len(ys)
    rows = [[0] * nx for _ in range(ny)]  # per row, per run along it: +1 where reached runs begin, -1 past them
    columns = [[0] * ny for _ in range(nx)]
    for (fx, sx), (fy, sy) in bands:
        k0, k1 = max(fx - 1, 0), min(sx, nx - 1)
        if k0 < k1:
            for j in range(fy, sy):
                rows[j][k0] += 1
                rows[j][k1] -= 1
        k0, k1 = max(fy - 1, 0), min(sy, ny - 1)
        if k0 < k1:
            for i in range(fx, sx):
                columns[i][k0] += 1
                columns[i][k1] -= 1
    rows, columns = [list(accumulate(r)) for r in rows], [list(accumulate(c)) for c in columns]

    def test(i: int, j: int, ni: int, nj: int) -> bool:
        return rows[j][min(i, ni)] > 0 if j == nj else columns[i][min(j, nj)] > 0

    return test


def js_round(v: float) -> float:
    """JavaScript's Math.round: to the nearest integer, halves up (toward +∞)."""
    whole = math.floor(v)
    return whole + 1 if v - whole >= 0.5 else whole


def middles(edges: Sequence[float], fixed: Sequence[float]) -> list[float]:
    """The sorted coordinates midway between neighbouring edges, and ``fixed`` ones."""
    ordered = sorted(dict.fromkeys(js_round(v * 2) / 2 for v in edges))
    mid = [(v + ordered[i]) / 2 for i, v in enumerate(ordered[1:])]
    return sorted(dict.fromkeys([*mid, *fixed]))


def crosses(p: Point, q: Point, b: Rect) -> bool:
    """Does the run p–q (vertical or horizontal) come within CLEAR of box b?"""
    return (max(p[0], q[0]) > b[0] - CLEAR and min(p[0], q[0]) < b[2] + CLEAR
            and max(p[1], q[1]) > b[1] - CLEAR and min(p[1], q[1]) < b[3] + CLEAR)


def cheapest(xs: Sequence[float], ys: Sequence[float], start: Point, goal: Point, blocked: GridTest,
             crowded: GridTest, spend: Budget) -> list[Point] | None:
    """Dijkstra on the grid xs × ys, a state being a node and the direction it was reached in; ``start`` is reached
    going up and left going up, and ``goal`` is left going up (a bend, unless it was reached going up). Returns
    the nodes of the path, or None. (A state is the integer route.js makes its id; ``blocked`` and ``crowded``
    are asked of grid steps, by index.)"""
    nx, ny = len(xs), len(ys)
    start_row = ys.index(start[1])
    first = (start_row * nx + xs.index(start[0])) * 4
    gi, gj = xs.index(goal[0]), ys.index(goal[1])
    cost: dict[int, float] = {first: 0}
    came: dict[int, int] = {}  # state -> the state before it
    open_ = Heap()
    open_.push(0, (first, False))
    while (item := open_.pop()) is not None:
        if spend.left <= 0:
            return None
        spend.left -= 1
        c, (state, finished) = item
        cell, d = divmod(state, 4)
        j, i = divmod(cell, nx)
        if finished:
            nodes: list[Point] = []
            s: int | None = state
            while s is not None:
                nodes.insert(0, (xs[s // 4 % nx], ys[s // 4 // nx]))
                s = came.get(s)
            return nodes
        if c > cost[state]:
            continue
        if i == gi and j == gj:  # then up to the target
            open_.push(c + (0 if d == 0 else BEND), (state, True))
        for nd, (di, dj) in enumerate(STEPS):
            ni, nj = i + di, j + dj
            if ni < 0 or nj < 0 or ni >= nx or nj >= ny or (nd + 2) % 4 == d:
                continue
            if c == 0 and nd != 0:  # up out of the channel first…
                continue
            if nj == start_row and (ni, nj) != (gi, gj):  # …and never back down to its top (no run along the
                continue  # lanes' tops), unless the goal is there
            if blocked(i, j, ni, nj):
                continue
            nc = (c + abs(xs[ni] - xs[i]) + abs(ys[nj] - ys[j]) * (DOWN if nd == 2 else 1) + (0 if nd == d else BEND)
                  + (CROWDED if crowded(i, j, ni, nj) else 0))
            to = (nj * nx + ni) * 4 + nd
            if nc >= cost.get(to, math.inf):
                continue
            cost[to] = nc
            came[to] = state
            open_.push(nc, (to, False))
    return None


def straighten(points: Sequence[Point]) -> list[Point]:
    """The corners only: points in line with their neighbours go."""
    return [p for k, p in enumerate(points)
            if k == 0 or k == len(points) - 1
            or not ((points[k - 1][0] == p[0] == points[k + 1][0]) or (points[k - 1][1] == p[1] == points[k + 1][1]))]


class Heap:
    """route.js's binary min-heap of [cost, value], step for step (heapq breaks ties in another order)."""

    def __init__(self) -> None:
        self.items: list[tuple[float, State]] = []

    def push(self, c: float, value: State) -> None:
        items = self.items
        items.append((c, value))
        k = len(items) - 1
        while k > 0 and items[(k - 1) >> 1][0] > items[k][0]:
            items[k], items[(k - 1) >> 1] = items[(k - 1) >> 1], items[k]
            k = (k - 1) >> 1

    def pop(self) -> tuple[float, State] | None:
        items = self.items
        if not items:
            return None
        top = items[0]
        last = items.pop()
        n = len(items)
        if n:
            items[0] = last
            k = 0
            while True:
                left, right = 2 * k + 1, 2 * k + 2
                m = k
                if left < n and items[left][0] < items[m][0]:
                    m = left
                if right < n and items[right][0] < items[m][0]:
                    m = right
                if m == k:
                    break
                items[k], items[m] = items[m], items[k]
                k = m
        return top
