"""The page and the SVG export draw the same scene alike: the same arrows, ending at the same place of the same
target and leaving from their pod's chip, in the same colours, in both themes.

The two lay the diagram out differently (the page by the browser's layout at the window's size, the export at
its fixed width), so the rule compares each arrow against what it points at, in each picture's own coordinates:

- its tip lies ARROW.below px under the bottom of its target's stack (the page draws an entry's labels above its
  box, the export under it: the stack's bottom is the box's on the page) and at the same slot of the spread across
  it (the first arrow to arrive at the middle, the next ones a spread either side in turn): within TOLERANCE px,
  the rounding of the drawn coordinates (0.05 px) and of the measured boxes;
- its tail lies 1 px out from a side of one of its pod's chips, at the chip's middle height (or, on the page, where
  each side has another chip in the way, 1 px over the chip's top at its middle), within TOLERANCE px;
- its line, head and tail are the tokens' marker colour (bug: a detached one) in both; and the page's background
  and each lane's colour bar are the export's.
"""

from __future__ import annotations

import pytest

from tests.e2e.test_stage import open_at, settled_reading
from webapp.export.svg import export_svg
from webapp.export.tokens import ARROW, THEMES
from webapp.scenario.resolve import resolve

TOLERANCE = 0.6  # px

# Per pane of the page: each arrow with its tip, tail, target's box, its pod's chips and its colours (diagram's
# coordinates: the pointer layer is laid over the diagram at its origin, at its size).
PAGE_JS = """() => [...document.querySelectorAll('#panes > [data-variant]')].map((pane) => {
  const diagram = pane.querySelector('[data-testid=diagram]');
  const origin = diagram.getBoundingClientRect();
  const rel = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left - origin.left, r.top - origin.top, r.right - origin.left, r.bottom - origin.top];
  };
  const target = (key) => key === 'front' ? diagram.querySelector('.front-slot')
    : key.startsWith('ghost:') ? diagram.querySelector(`[data-removed-id="${CSS.escape(key.slice(6))}"]`)
    : diagram.querySelector(`.inflight-list [data-id="${CSS.escape(key)}"]`);
  const arrows = [...diagram.querySelectorAll('svg.pointers g.pointer')].filter((g) => g.querySelector('.pointer-head'))
    .map((g) => {
      const to = target(g.dataset.key);
      const host = to.querySelector(':scope > .box, :scope > .front-mark') || to;
      const head = g.querySelector('.pointer-head'), tail = g.querySelector('.pointer-tail');
      const [, x, y] = head.getAttribute('d').match(/^M(\\S+) (\\S+)/).map(Number);
      return { pod: g.dataset.pod, key: g.dataset.key, tip: [x, y],
        tail: [+tail.getAttribute('cx'), +tail.getAttribute('cy')], box: rel(host), stack: rel(host),
        chips: [...diagram.querySelectorAll(`.chip[data-pod="${CSS.escape(g.dataset.pod)}"]`)].map(rel),
        colours: [getComputedStyle(g.querySelector('.pointer-line')).stroke, getComputedStyle(head).fill,
          getComputedStyle(tail).fill] };
    });
  const lanes = Object.fromEntries([...pane.querySelectorAll('[data-queue]')].map((lane) =>
    [lane.dataset.queue, getComputedStyle(lane).borderLeftColor]));
  return { variant: pane.dataset.variant, arrows, lanes, background: getComputedStyle(document.body).backgroundColor };
})"""

# The same of the export, drawn in the browser (getBBox: the SVG's own coordinates). An item's stack: its shapes
# but the walked or reached halo round its box; its box: the first of them.
SVG_JS = """() => [...document.querySelectorAll('svg > g[data-variant]')].map((pane) => {
  const rect = (el) => {
    const b = el.getBBox();
    return [b.x, b.y, b.x + b.width, b.y + b.height];
  };
  const union = (rs) => [Math.min(...rs.map((r) => r[0])), Math.min(...rs.map((r) => r[1])),
    Math.max(...rs.map((r) => r[2])), Math.max(...rs.map((r) => r[3]))];
  const items = [...pane.querySelectorAll('g[data-key]:not([data-pointer])')];
  const arrows = [...pane.querySelectorAll('g[data-pointer]')].filter((g) => g.querySelector('path[data-head]'))
    .map((g) => {
      const item = items.find((it) => it.dataset.key === g.dataset.key);
      const shapes = [...item.children].filter((el) => el.tagName !== 'title' && !el.hasAttribute('data-walk')
        && !el.hasAttribute('data-reach-by'));
      const head = g.querySelector('path[data-head]'), tail = g.querySelector('circle');
      const [, x, y] = head.getAttribute('d').match(/^M(\\S+) (\\S+)/).map(Number);
      return { pod: g.dataset.pod, key: g.dataset.key, detached: g.dataset.detached === 'true', tip: [x, y],
        tail: [+tail.getAttribute('cx'), +tail.getAttribute('cy')], box: rect(shapes[0]),
        stack: union(shapes.map(rect)),
        chips: [...pane.querySelectorAll(`g[data-queue] > g[data-pod="${CSS.escape(g.dataset.pod)}"] > path`)]
          .map(rect),
        colours: [g.querySelector('path[data-line]').getAttribute('stroke'), head.getAttribute('fill'),
          tail.getAttribute('fill')] };
    });
  const lanes = Object.fromEntries([...pane.querySelectorAll('g[data-queue]')].map((lane) =>
    [lane.dataset.queue, lane.querySelectorAll(':scope > rect')[1].getAttribute('fill')]));
  const background = document.querySelector('svg > rect').getAttribute('fill');
  return { variant: pane.dataset.variant, arrows, lanes, background };
})"""


def rgb(colour: str) -> str:
    """A #rrggbb colour as the browser's computed style writes it."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def placed(arrow: dict) -> dict:
    """Where an arrow's ends are, against what they touch: the tip's drop under its target's stack and its slot of
    the spread across the box; the tail's distance from the nearest place 1 px beside one of the pod's chips."""
    left, _, right, _ = arrow["box"]
    spread = min(ARROW["spread"], (right - left) * ARROW["spreadShare"])
    tx, ty = arrow["tail"]
    off_chip = min(min(min(abs(tx - (c[0] - 1)), abs(tx - (c[2] + 1))) + abs(ty - (c[1] + c[3]) / 2),
                       abs(tx - (c[0] + c[2]) / 2) + abs(ty - (c[1] - 1))) for c in arrow["chips"])
    return {"drop": arrow["tip"][1] - arrow["stack"][3], "slot": (arrow["tip"][0] - (left + right) / 2) / spread,
            "off chip": off_chip, "spread": spread}


@pytest.mark.parametrize("scenario,position,theme", [
    ("lost-marker", 6, "light"), ("lost-marker", 6, "dark"),  # a detached arrow and a decided one
    ("three-pod-cascade", 8, "light"),  # two broken arrows, cut where they have room
    ("duplicate-pop-growth", 10, "dark"),  # two arrows at one entry: the spread
    ("force-activate", 3, "light"),  # v1.32.0: a ForceActivate entry with its pod's tag
    ("pop-discards-duplicate", 4, "dark"),  # v1.32.0: the discarded record drawn faint in activeQ
    ("error-backoffq", 8, "light"),  # v1.36.2: popped from backoffQ; the error heap and a window's rule
    ("pop-specific", 4, "dark"),  # one pane, two chips side by side in the last lane: C's arrow leaves by its top
])
def test_the_page_and_the_svg_export_draw_the_same_arrows(make_page, scenario, position, theme):
    page = make_page(color_scheme=theme)
    open_at(page, scenario, position)
    drawn = {p["variant"]: p for p in settled_reading(page.locator("#panes"), PAGE_JS)}
    picture = make_page(color_scheme=theme)  # another page: the app's scripts go on running in the first
    picture.set_content(export_svg(resolve(scenario)[0], position, theme=theme).split("?>", 1)[1])
    exported = {p["variant"]: p for p in picture.evaluate(SVG_JS)}
    assert drawn.keys() == exported.keys() and len(drawn) == len(resolve(scenario)[0].versions)
    colours = THEMES[theme]
    first = next(iter(drawn))
    assert drawn[first]["background"] == rgb(exported[first]["background"]) == rgb(colours["bg"])
    count = 0
    for variant, on_page in drawn.items():
        in_svg = exported[variant]
        assert {q: rgb(c) for q, c in in_svg["lanes"].items()} == on_page["lanes"], variant
        assert [(a["pod"], a["key"]) for a in on_page["arrows"]] == [(a["pod"], a["key"]) for a in in_svg["arrows"]]
        for a, b in zip(on_page["arrows"], in_svg["arrows"]):
            where = (variant, a["pod"], a["key"])
            page_at, svg_at = placed(a), placed(b)
            assert abs(page_at["drop"] - ARROW["below"]) <= TOLERANCE, (where, page_at)
            assert abs(svg_at["drop"] - ARROW["below"]) <= TOLERANCE, (where, svg_at)
            assert round(page_at["slot"]) == round(svg_at["slot"]), (where, page_at, svg_at)
            assert abs(page_at["slot"] - round(page_at["slot"])) * page_at["spread"] <= TOLERANCE, (where, page_at)
            assert abs(svg_at["slot"] - round(svg_at["slot"])) * svg_at["spread"] <= TOLERANCE, (where, svg_at)
            assert page_at["off chip"] <= TOLERANCE and svg_at["off chip"] <= TOLERANCE, (where, page_at, svg_at)
            assert [rgb(c) for c in b["colours"]] == a["colours"], where
            assert set(b["colours"]) == {colours["bug" if b["detached"] else "marker"]}, where
            count += 1
    assert count >= 2


# What 1.32+ adds, as each picture draws it: per pane, each chip's lane, pod, marks and whether it is faint, the
# windows' rules in backoffQ, and the tags over entries naming the pod they are for.
PAGE_MARKS_JS = """() => Object.fromEntries([...document.querySelectorAll('#panes > [data-variant]')].map((pane) =>
  [pane.dataset.variant, {
    chips: [...pane.querySelectorAll('[data-queue] .chip')].map((c) => [c.closest('[data-queue]').dataset.queue,
      c.dataset.pod, [...c.querySelectorAll('[data-mark]')].map((m) => m.textContent), c.dataset.ghost === 'true']),
    windows: [...pane.querySelectorAll('.window-rule')].map((w) => w.textContent),
    for: [...pane.querySelectorAll('.for-tag')].map((t) => t.textContent)}]))"""
SVG_MARKS_JS = """() => Object.fromEntries([...document.querySelectorAll('svg > g[data-variant]')].map((pane) =>
  [pane.dataset.variant, {
    chips: [...pane.querySelectorAll('g[data-queue] > g[data-pod]')].map((c) => [c.parentNode.dataset.queue,
      c.dataset.pod, [...c.querySelectorAll('g[data-mark] > text')].map((m) => m.textContent),
      c.dataset.ghost === 'true']),
    windows: [...pane.querySelectorAll('g[data-window] > text')].map((w) => w.textContent),
    for: [...pane.querySelectorAll('rect[data-tag="for"] + text')].map((t) => t.textContent)}]))"""


@pytest.mark.parametrize("scenario,position,theme", [
    ("force-activate", 3, "dark"), ("pop-discards-duplicate", 4, "light"), ("error-backoffq", 8, "dark"),
    ("backoff-windows", 6, "light"), ("gated-pods", 1, "dark"), ("pod-group-backoff", 4, "light"),
])
def test_the_page_and_the_svg_export_draw_the_same_marks(make_page, scenario, position, theme):
    page = make_page(color_scheme=theme)
    open_at(page, scenario, position)
    drawn = page.evaluate(PAGE_MARKS_JS)
    picture = make_page(color_scheme=theme)
    picture.set_content(export_svg(resolve(scenario)[0], position, theme=theme).split("?>", 1)[1])
    assert picture.evaluate(SVG_MARKS_JS) == drawn
    assert any(p["windows"] or p["for"] or any(c[2] for c in p["chips"]) for p in drawn.values())  # something new
