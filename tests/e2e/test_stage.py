"""The stage (issue 9) measured in a real browser: the diagram's share of a projected screen, nothing clipped
at 1024x768, a phone's stacked panes and bottom bar, the lost marker's decisive frame (pointers, walked,
unseen and ghost entries) and the same after stepping back and forth, the chip timers, reduced motion.

The expected pointers come from the scene itself (webapp/presenter/scene.py, built in-process), so a count
on the page is compared with what the presenter asked to draw, not with a number copied here.
"""

from __future__ import annotations

import functools
import re
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import MOTION
from tests.e2e.shown import POSITION, counted, shown
from tests.e2e.test_browser import built_in_json, inline_value, settle
from webapp.engine.simulation import Simulation
from webapp.model.variant import VARIANTS
from webapp.presenter.scene import present
from webapp.scenario.resolve import resolve

V1, V2 = '[data-variant="v1.28.1"]', '[data-variant="v1.28.2"]'
PANES = "#panes > [data-variant]"


# --- helpers ----------------------------------------------------------------------------------------------
def at(page, position):
    shown(page, POSITION, re.compile(rf"^{position} / \d+"))


def open_at(page, scenario, position, query=""):
    page.goto(f"/?scenario={scenario}&position={position}{query}")
    counted(page, PANES, len(resolve(scenario)[0].versions))
    at(page, position)
    settle(page)


@functools.cache
def scene(scenario: str, position: int) -> dict:
    sim = Simulation(resolve(scenario)[0], list(VARIANTS))
    sim.seek(position)
    return present(sim.frame(), sim.preview())


def stepped_through(page, scenario, positions, presenting=False):
    """Opens ``scenario`` at the first of ``positions`` (its permalink; in presentation mode if asked) and steps on
    to each next one with the arrow key, as a speaker does (a load costs the browser about five times a step);
    yields each position once it is drawn, settled and refitted."""
    for i, position in enumerate(positions):
        if i == 0:
            open_at(page, scenario, position)
            if presenting:
                present_mode(page)
        else:
            for here in range(positions[i - 1] + 1, position + 1):
                page.keyboard.press("ArrowRight")
                at(page, here)
            settle(page)
            refitted(page)
        yield position


def walked(page, positions):
    """Steps from where the page is to each of ``positions`` in turn with the arrow keys (either way); yields each
    position once it is drawn, settled and refitted."""
    here = int(page.get_by_test_id("position").text_content().split("/")[0])  # "4 / 6 ..." (at() has waited)
    for position in positions:
        key, by = ("ArrowRight", 1) if position > here else ("ArrowLeft", -1)
        while here != position:
            page.keyboard.press(key)
            here += by
            at(page, here)
        settle(page)
        refitted(page)
        yield position


def resize(page, width, height):
    """The window made ``width`` x ``height`` within the one load (a load costs the browser several relayouts):
    returns once the page has refitted to it (its lists' reading two frames apart agrees)."""
    page.set_viewport_size({"width": width, "height": height})
    settled_reading(page.locator("body"), READABLE_JS)


def refitted(page):
    # the lists refit when their areas' new size is observed, after the frame's layout: two frames on, it is done
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def present_mode(page):
    page.keyboard.press("p")
    expect(page.locator("#app.presenting")).to_have_count(1)
    settle(page)
    refitted(page)


# Sum of each diagram's box clipped to the viewport, over the viewport's area.
DIAGRAM_SHARE_JS = """() => {
  const W = innerWidth, H = innerHeight;
  let area = 0;
  const boxes = [];
  for (const d of document.querySelectorAll('[data-testid=diagram]')) {
    const r = d.getBoundingClientRect();
    const w = Math.max(0, Math.min(r.right, W) - Math.max(r.left, 0));
    const h = Math.max(0, Math.min(r.bottom, H) - Math.max(r.top, 0));
    area += w * h;
    boxes.push([Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]);
  }
  return { share: area / (W * H), boxes };
}"""

# Everything drawn inside a pane that sticks out of it sideways, or whose own content is cut off sideways
# (scrollWidth beyond clientWidth with overflow other than visible); every lane chip outside its lane; the
# lanes' tops (one row: one top).
CLIPPING_JS = """() => {
  const out = { outside: [], cut: [], chips: [], tops: {} };
  const name = (el) => `${el.tagName.toLowerCase()}`
    + `${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : ''}`
    + `${el.dataset && el.dataset.id ? '#' + el.dataset.id : ''}`
    + `${el.textContent ? ' "' + el.textContent.trim().slice(0, 30) + '"' : ''}`;
  for (const pane of document.querySelectorAll('#panes > [data-variant]')) {
    const v = pane.dataset.variant;
    const p = pane.getBoundingClientRect();
    for (const el of pane.querySelectorAll('*')) {
      if (el.closest('svg.pointers') || el.closest('.leaving')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.left < p.left - 1 || r.right > p.right + 1)
        out.outside.push(`${v}: ${name(el)} [${Math.round(r.left)}..${Math.round(r.right)}]`
          + ` outside [${Math.round(p.left)}..${Math.round(p.right)}]`);
      const style = getComputedStyle(el);
      if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1 && !(el instanceof SVGElement))
        out.cut.push(`${v}: ${name(el)} scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}`
          + ` (overflow-x ${style.overflowX})`);
    }
    const tops = [];
    for (const lane of pane.querySelectorAll('[data-queue]')) {
      const l = lane.getBoundingClientRect();
      tops.push(Math.round(l.top));
      for (const chip of lane.querySelectorAll('[data-pod].chip')) {
        const c = chip.getBoundingClientRect();
        if (c.left < l.left - 0.5 || c.right > l.right + 0.5 || c.top < l.top - 0.5 || c.bottom > l.bottom + 0.5)
          out.chips.push(`${v}: chip ${chip.dataset.pod} [${Math.round(c.left)}..${Math.round(c.right)}]`
            + ` outside lane ${lane.dataset.queue} [${Math.round(l.left)}..${Math.round(l.right)}]`);
      }
    }
    out.tops[v] = tops;
  }
  return out;
}"""


def assert_nothing_clipped(page, label, one_row=True):
    got = page.evaluate(CLIPPING_JS)
    problems = got["outside"] + got["cut"] + got["chips"]
    assert not problems, f"{label}: clipped:\n" + "\n".join(problems[:30])
    for variant, tops in got["tops"].items():
        assert len(tops) == 4, f"{label} {variant}: {len(tops)} lanes"
        if one_row:
            assert max(tops) - min(tops) <= 1, f"{label} {variant}: the 4 lanes are not on one row (tops {tops})"


# --- 1. the picture first: presentation mode --------------------------------------------------------------
# Per pane: the union box of the list's items against the list area (the dashed frame), and the smallest
# entry-name type (an event's name, a pod entry's [pod], a removed element's id).
LIST_FILL_JS = """() => [...document.querySelectorAll('#panes > [data-variant]')].map((pane) => {
  const area = pane.querySelector('.list-area').getBoundingClientRect();
  let l = Infinity, t = Infinity, r = -Infinity, b = -Infinity;
  for (const li of pane.querySelectorAll('.inflight-list > li')) {
    const c = li.getBoundingClientRect();
    if (!c.width || !c.height) continue;
    l = Math.min(l, c.left); t = Math.min(t, c.top); r = Math.max(r, c.right); b = Math.max(b, c.bottom);
  }
  const names = [...pane.querySelectorAll(
    '.inflight-list .ename, .inflight-list .pod-name, .inflight-list .ghost .eid')]
    .map((e) => parseFloat(getComputedStyle(e).fontSize));
  return { variant: pane.dataset.variant, width: (r - l) / area.width, height: (b - t) / area.height,
           area: ((r - l) * (b - t)) / (area.width * area.height), name: Math.min(...names) };
})"""

# The list fills its frame (issue 9 review: it filled ~16 % of it, names 19 px / 27 px). Thresholds met with
# margin (measured: width 0.70-0.96, area 0.40-0.73; names 30 px at 1280x720, >= 45 px at 1920x1080).
LIST_WIDTH_SHARE = 0.5   # the items' union box spans at least half the list area's width
LIST_AREA_SHARE = 0.25   # and a quarter of its area
NAME_PX = {(1280, 720): 24, (1920, 1080): 36}


@pytest.mark.parametrize("width,height", [(1280, 720), (1920, 1080)])
def test_presentation_mode_draws_the_picture_large_in_even_rows(make_page, width, height):
    """The diagrams take most of the screen, and the list fills its own frame with large names; a list too long
    for one row at a large size wraps into even rows (before: 3 + 1 at 1280x720, a lone entry under the rest, at
    position 4). At 1280x720 the panes' lanes line up, and each arrow ends on its target's box and runs over no
    lane title and no other entry's box (before: at position 4, v1.28.2's A arrow crossed [B]'s box on its way to
    [A]); at 1920x1080 the arrows do so in the normal view, walked before the page turns to presentation mode."""
    page = make_page(width=width, height=height)
    if width == 1280:
        positions = stepped_through(page, "lost-marker", (4, 5, 6), presenting=True)
    else:
        for position in stepped_through(page, "lost-marker", (4, 5, 6)):
            arrows_end_on_boxes(page, width, height, position)
        present_mode(page)
        positions = walked(page, (6, 5, 4))
    for position in positions:
        if position != 5:
            picture_is_large(page, width, height, position)
        for got in settled_reading(page.locator("#panes"), ROWS_JS):
            rows = got["rows"]
            assert max(rows) - min(rows) <= 1, f"{width}x{height} at {position} {got['variant']}: items per row {rows}"
        if width == 1280:
            (top1, h1), (top2, h2) = page.evaluate(LANES_JS)
            assert abs(top1 - top2) <= 1 and abs(h1 - h2) <= 1, (
                f"position {position}: lanes at {top1:.0f}+{h1:.0f} and {top2:.0f}+{h2:.0f}")
            arrows_end_on_boxes(page, width, height, position)


def picture_is_large(page, width, height, position):
    got = page.evaluate(DIAGRAM_SHARE_JS)
    print(f"{width}x{height} position {position}: diagrams cover {got['share']:.1%} ({got['boxes']})")
    assert len(got["boxes"]) == 2, got
    assert got["share"] >= 0.55, (f"{width}x{height} position {position}: the diagrams cover {got['share']:.0%} of the "
                                  f"viewport (boxes x,y,w,h: {got['boxes']}), want >= 55%")
    for got in page.evaluate(LIST_FILL_JS):
        label = f"{width}x{height} position {position} {got['variant']}"
        print(f"{label}: list width {got['width']:.0%}, area {got['area']:.0%}, names {got['name']:.1f} px")
        assert got["width"] >= LIST_WIDTH_SHARE, f"{label}: the list spans {got['width']:.0%} of its area's width"
        assert got["area"] >= LIST_AREA_SHARE, f"{label}: the list covers {got['area']:.0%} of its area"
        assert got["name"] >= NAME_PX[(width, height)], f"{label}: entry names are {got['name']:.1f} px"
    for got in page.evaluate(ARROW_SHAPE_JS):
        assert got["head"] >= 4 * got["line"] and got["tail"] >= 2.5 * got["line"], (
            f"{width}x{height} position {position}: {got['pod']}'s arrow is out of proportion with its line "
            f"({got['line']:.1f} px): head {got['head']:.1f} px, tail {got['tail']:.1f} px")


# Each arrow's line width, its head's larger side and its tail's diameter, in px.
ARROW_SHAPE_JS = """() => [...document.querySelectorAll('[data-pointer]')]
  .filter((g) => g.querySelector('.pointer-head'))
  .map((g) => {
    const head = g.querySelector('.pointer-head').getBoundingClientRect();
    return { pod: g.dataset.pod, line: parseFloat(getComputedStyle(g.querySelector('.pointer-line')).strokeWidth),
             head: Math.max(head.width, head.height),
             tail: g.querySelector('.pointer-tail').getBoundingClientRect().width };
  })"""


# Per pane: how many of the list's items (entries, the front, removed elements; not the arrows) sit on each row.
ROWS_JS = """() => [...document.querySelectorAll('#panes > [data-variant]')].map((pane) => {
  const rows = new Map();
  for (const li of pane.querySelectorAll('.inflight-list > li:not(.arrow)')) {
    const bottom = Math.round(li.getBoundingClientRect().bottom / 4);
    rows.set(bottom, (rows.get(bottom) || 0) + 1);
  }
  return { variant: pane.dataset.variant, rows: [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n) };
})"""


def test_a_list_that_fits_one_row_at_much_the_same_size_stays_on_one(make_page):
    """The embed at 900x600, position 2: v1.28.1's front and e1 fit one row at 81 % of the size two rows allow;
    before, the front sat above e1 and A's arrow crossed e1's box."""
    page = make_page(width=900, height=600)
    page.goto("/embed?scenario=lost-marker&from=2&to=6")
    at(page, 2)
    settle(page)
    assert [got["rows"] for got in settled_reading(page.locator("#panes"), ROWS_JS)] == [[2], [2]]


# Each pane's lane row: top and height (the panes' lanes line up).
LANES_JS = """() => [...document.querySelectorAll('#panes > [data-variant] .lanes')].map((l) => {
  const r = l.getBoundingClientRect(); return [r.top, r.height]; })"""


# Where each pointer's head ends: on the bottom edge of its target's box (not on a label under it).
HEAD_ON_BOX_JS = """(pane) => [...pane.querySelectorAll('[data-pointer]')].map((g) => {
  const key = g.dataset.key;
  const to = key === 'front' ? pane.querySelector('.front-slot')
    : key && key.startsWith('ghost:') ? pane.querySelector(`[data-removed-id="${CSS.escape(key.slice(6))}"]`)
    : pane.querySelector(`.inflight-list [data-id="${CSS.escape(key)}"]`);
  const box = (to.querySelector(':scope > .box, :scope > .front-mark') || to).getBoundingClientRect();
  const head = g.querySelector('.pointer-head').getBoundingClientRect();
  const tipY = head.top;  // the arrows come up from the lanes: the tip is the head's top
  return { pod: g.dataset.pod, dy: tipY - box.bottom,
           inside: head.left >= box.left - 2 && head.right <= box.right + 2 };
})"""

# What the arrows run over: for each arrow, the lane titles and the list's boxes other than its target's that
# points along its path fall inside (a box: an entry's or a removed element's, or the front's mark).
CROSSINGS_JS = """(pane) => {
  const named = (selector, name) => [...pane.querySelectorAll(selector)]
    .map((el) => ({ el, name: name(el), r: el.getBoundingClientRect() }));
  const titles = named('.lane-name', (el) => el.textContent.trim());
  const boxes = named('.inflight-list > li > .box, .inflight-list .front-mark',
    (el) => el.parentElement.dataset.id || el.parentElement.dataset.removedId || 'front');
  const hits = (items, x, y) => items.filter(({ r }) => x > r.left + 1 && x < r.right - 1
    && y > r.top + 1 && y < r.bottom - 1);
  const out = [];
  for (const g of pane.querySelectorAll('[data-pointer]')) {
    const key = g.dataset.key;
    const crossed = new Set();
    for (const path of g.querySelectorAll('.pointer-line')) {
      const svgRect = path.ownerSVGElement.getBoundingClientRect();
      const len = path.getTotalLength();
      for (let i = 0; i <= 200; i++) {
        const p = path.getPointAtLength((len * i) / 200);
        const x = svgRect.left + p.x, y = svgRect.top + p.y;
        for (const t of hits(titles, x, y)) crossed.add(`lane title ${t.name}`);
        for (const b of hits(boxes, x, y))
          if (b.name !== key && `ghost:${b.name}` !== key) crossed.add(`box ${b.name}`);
      }
    }
    if (crossed.size) out.push(`${g.dataset.pod} -> ${key}: ${[...crossed].join(', ')}`);
  }
  return out;
}"""


def settled_reading(locator, js, bound_s=30.0):
    """``js`` read on ``locator`` once two readings two frames apart agree: the list refits and the arrows redraw
    a frame or two after a layout change (presentation mode, a resize), as they should. ``bound_s``: against a
    hang only (a reading that never settles fails)."""
    deadline = time.monotonic() + bound_s
    last = locator.evaluate(js)
    while time.monotonic() < deadline:
        refitted(locator.page)
        now = locator.evaluate(js)
        if now == last:
            return now
        last = now
    raise AssertionError(f"{js[:60]}... still changing after {bound_s} s: {last}")


def arrows_end_on_boxes(page, width, height, position):
    for pane in (V1, V2):
        for got in settled_reading(page.locator(pane), HEAD_ON_BOX_JS):
            assert -1 <= got["dy"] <= 4 and got["inside"], (
                f"{pane} {width}x{height} at {position}: {got['pod']}'s arrow ends {got['dy']:.1f} px off its box")
        crossing = page.locator(pane).evaluate(CROSSINGS_JS)
        assert not crossing, f"{pane} {width}x{height} at {position}: arrows run over {crossing}"


# Each detoured arrow's head: its tip and the middle of its wings' base (a head pointing straight up has them one
# above the other), and the last piece of its line (a detour ends with a straight run up to the entry).
DETOUR_HEADS_JS = """(pane) => [...pane.querySelectorAll('[data-pointer][data-route="detour"]')].map((g) => {
  const numbers = (d) => d.replace(/[MLZ]/g, ' ').trim().split(/\\s+/).map(Number);
  const [tx, ty, ax, ay, bx, by] = numbers(g.querySelector('.pointer-head').getAttribute('d'));
  const lines = [...g.querySelectorAll('.pointer-line')];
  const line = numbers(lines[lines.length - 1].getAttribute('d'));
  const [px, py, qx, qy] = line.slice(-4);
  return { pod: g.dataset.pod, tilt: (ax + bx) / 2 - tx, below: Math.min(ay, by) - ty, lastRun: [qx - px, qy - py] };
})"""


@pytest.mark.parametrize("width,height,scenario,position", [(1920, 1080, "three-pod-cascade", 6),
                                                             (390, 844, "queueing-hints", 6)])
def test_a_detoured_arrow_goes_round_the_entries_and_lands_pointing_up(make_page, width, height, scenario, position):
    """Where arrows' curves would run over other entries, they go round them (data-route="detour"), cross no other
    box, end on their own, and each head points straight up (before: aimed from 10 px back along the path, so a
    short last run tilted it into the corner before it: 4.5 px off at 390x844, queueing-hints 7, B; there the
    entries are one row now, the arrows going round them at step 6). After three-pod-cascade 6, the window made a
    phone's and stepped on to 8: the two broken arrows there keep apart."""
    page = make_page(width=width, height=height)
    open_at(page, scenario, position)
    heads = [got for pane in (V1, V2) for got in settled_reading(page.locator(pane), DETOUR_HEADS_JS)]
    assert heads, "no arrow went round the entries at this size and position"
    for got in heads:
        assert abs(got["tilt"]) < 0.15 and got["below"] > 8, got
        assert abs(got["lastRun"][0]) < 0.15 and got["lastRun"][1] < 0, got  # the line ends going straight up
    arrows_end_on_boxes(page, width, height, position)
    if scenario == "three-pod-cascade":  # then on a phone, at 8
        resize(page, 390, 844)
        for _ in walked(page, (8,)):
            two_broken_arrows_on_a_phone_keep_apart(page)


# Each detached (broken) arrow of a pane: how near its cut's marks (the cross, the bars' ends and middles) come to
# another arrow's line and to an entry (its box and labels), and how much of its line above the lanes runs within
# 10 px of another arrow's (px, sampled every 2 px).
CUTS_JS = """(pane) => {
  const samples = (path) => { const r = path.ownerSVGElement.getBoundingClientRect();
    const n = Math.ceil(path.getTotalLength() / 2);
    return Array.from({ length: n + 1 }, (_, i) => {
      const p = path.getPointAtLength(path.getTotalLength() * i / n);
      return { x: r.left + p.x, y: r.top + p.y };
    }); };
  const ends = (path) => { const r = path.ownerSVGElement.getBoundingClientRect(); const L = path.getTotalLength();
    return [0, 0.5, 1].map((t) => {
      const p = path.getPointAtLength(L * t); return { x: r.left + p.x, y: r.top + p.y }; }); };
  const boxes = [...pane.querySelectorAll('.inflight-list > li')].map((li) => li.getBoundingClientRect());
  const toRect = (q, b) => Math.hypot(Math.max(b.left - q.x, 0, q.x - b.right),
                                      Math.max(b.top - q.y, 0, q.y - b.bottom));
  const gs = [...pane.querySelectorAll('[data-pointer]')];
  const lines = new Map(gs.map((g) => [g, [...g.querySelectorAll('.pointer-line')].flatMap(samples)]));
  const out = [];
  for (const g of gs.filter((g) => g.classList.contains('detached'))) {
    const t = g.querySelector('.pointer-cross').getBoundingClientRect();
    const cross = { x: (t.left + t.right) / 2, y: (t.top + t.bottom) / 2 };
    const marks = [cross, ...[...g.querySelectorAll('.pointer-break')].flatMap(ends)];
    const others = gs.filter((o) => o !== g).flatMap((o) => lines.get(o));
    const toLines = Math.min(...marks.flatMap((m) => others.map((o) => Math.hypot(m.x - o.x, m.y - o.y))));
    const toBoxes = Math.min(...marks.flatMap((m) => boxes.map((b) => toRect(m, b))));
    const top = pane.querySelector('.lanes').getBoundingClientRect().top;
    const together = 2 * lines.get(g)
      .filter((q) => q.y < top && others.some((o) => Math.hypot(q.x - o.x, q.y - o.y) < 10)).length;
    out.push({ together, pod: g.dataset.pod, cross: [Math.round(cross.x), Math.round(cross.y)],
               toLines: +toLines.toFixed(1), toBoxes: +toBoxes.toFixed(1) });
  }
  return out;
}"""


def two_broken_arrows_on_a_phone_keep_apart(page):
    """390x844, three-pod-cascade 8, v1.28.1: B's and C's broken arrows come up the one channel between the lanes.
    B's line went on up beside C's curve and both were cut in their middles: C's bar touched B's line (0.8 px) and
    the two ran within 10 px of each other for 76-80 px, beside e3. Now B keeps 14 px off C's line (route.js NEAR)
    and each cut goes where it has room (pointers.js): 11.6 px or more, 42 px together (the channel's top)."""
    cuts = settled_reading(page.locator(V1), CUTS_JS)
    assert sorted(c["pod"] for c in cuts) == ["B", "C"], cuts
    for got in cuts:
        assert got["toLines"] >= 8 and got["toBoxes"] >= 8 and got["together"] <= 50, got
    arrows_end_on_boxes(page, 390, 844, 8)


# On a short screen: how large the lists' text is drawn (the smallest of the panes), whether any entry (with its
# tags) runs below its list's area into the lanes, and whether the Step button is on screen.
READABLE_JS = """() => {
  const panes = [...document.querySelectorAll('#panes > [data-variant]')];
  const step = document.querySelector('#btn-step').getBoundingClientRect();
  return {
    font: Math.min(...panes.map((p) => parseFloat(getComputedStyle(p.querySelector('.inflight-list')).fontSize))),
    spills: panes.flatMap((p) => {
      const bottom = p.querySelector('.list-area').getBoundingClientRect().bottom;
      return [...p.querySelectorAll('.inflight-list > li')]
        .filter((li) => li.getBoundingClientRect().bottom > bottom + 1)
        .map((li) => li.dataset.id || li.textContent.trim().slice(0, 20));
    }),
    stepOnScreen: step.top >= 0 && step.bottom <= innerHeight,
  };
}"""


STEP_INFO_UNDER_CONTROLS_JS = """() => {
  const controls = document.querySelector('#app > .controls').getBoundingClientRect();
  return [...document.querySelectorAll('.stepinfo > :not([hidden])')].filter((el) => el.getClientRects().length)
    .filter((el) => el.getBoundingClientRect().bottom > controls.top + 0.5).map((el) => el.className || el.id);
}"""


# Per page load: the screens it is measured at in turn (the window resized), and what is checked on each: "readable"
# (the lists at 12 px or more, no entry spilling, Step on the screen), "step info" (the page unscrolled, the step
# note and the outcomes above the pinned controls), "projector" (the lists at 11 px or more and nothing clipped,
# then the same in presentation mode with the controls on the screen: a load's last), "room" (after "projector", in
# presentation mode: a step on and back never gives the controls back the height they gave up).
SHORT_SCREENS = {
    "scenario=three-pod-cascade&position=8": (((1280, 720), ("readable", "step info")), ((1001, 768), ("readable",)),
                                              ((1366, 768), ("step info",)), ((1024, 768), ("projector",)),
                                              ((1280, 720), ("room",))),
    "scenario=queueing-hints&position=7": (((905, 700), ("readable",)), ((1280, 720), ("step info",)),
                                           ((1366, 768), ("step info",)), ((1024, 768), ("projector",))),
    "scenario=queueing-hints&versions=v1.28.1,v1.28.2,v1.31.13&position=7": (((1280, 720), ("readable",)),),
    "scenario=lost-marker&versions=v1.28.1,v1.28.2,v1.29.9,v1.31.13&position=6": (((1280, 720), ("readable",)),),
    "scenario=queueing-hints&position=11": (((1440, 820), ("readable",)), ((1180, 820), ("readable",))),
}


@pytest.mark.parametrize("query", list(SHORT_SCREENS), ids=lambda q: q.replace("scenario=", ""))
def test_short_screens_keep_the_lists_readable_and_the_step_info_above_the_controls(make_page, query):
    """1280x720 with the page's chrome: a frame with many tags (three-pod-cascade 8) or three versions drew its
    lists at fit.js's floor, 6.3 px, the tags keeping their readable size; now the panes keep their room and the
    page scrolls, the controls pinned at its bottom (14.6 px here). Three versions in a row put queueing-hints 7 at
    the floor, its entries spilling, and four in two rows of two (a row's list had 12rem) every list, on every screen
    under 1700 px wide; now both are two rows of two, each list's row at least 17rem (16.3 and 20.9 px here). Just
    over 800 px tall the panes were squeezed as before (queueing-hints 11: 6.7 px at 1440x820, four entries spilling;
    6.3 px at 1180x820, nine): the panes keep their room at any height (14.2 and 13.8 px). At 901 to 1009 px wide
    the top bar and the pane heads wrap onto more lines and the lists fell to 6.3-8.3 px: the lists' row keeps
    18rem (12.5 px at 1001x768).

    At 1280x720 the step note's second line and the outcomes went under the pinned controls until the page was
    scrolled: on a short screen the note is one line (its whole text on hover or focus).

    1024x768, a speaker's old projector: each pane under 500 px wide, the frames with the most labels wrapped
    their entries onto rows of 12-px label stacks and drew them at fit.js's floor, 6.3 px (queueing-hints 7) and
    9.2 px (three-pod-cascade 8); now the labels wrap narrower where that buys the entries size (fit.js) and the
    panes take the room down to the pinned controls (17.5 and 13.3 px here). In presentation mode, in a 16:9 band
    across the screen, they were at 7 px, queueing-hints 7's spilling over the lanes; now it takes the screen's
    height (19.4 and 22.2 px), the controls still on it."""
    screens = SHORT_SCREENS[query]
    page = make_page(*screens[0][0])
    page.goto(f"/?{query}")
    at(page, int(query.rsplit("=", 1)[1]))
    settle(page)
    for (width, height), checks in screens:
        label = f"{width}x{height} {query}"
        resize(page, width, height)
        got = settled_reading(page.locator("body"), READABLE_JS)
        if "readable" in checks:
            assert got["font"] >= 12 and got["spills"] == [] and got["stepOnScreen"], f"{label}: {got}"
        if "step info" in checks:
            assert page.evaluate("scrollY") == 0 and page.evaluate(STEP_INFO_UNDER_CONTROLS_JS) == [], label
        if "projector" in checks:
            assert got["font"] >= 11 and got["spills"] == [] and got["stepOnScreen"], f"{label}: {got}"
            assert_nothing_clipped(page, label)
            present_mode(page)
            got = settled_reading(page.locator("body"), READABLE_JS)
            assert got["font"] >= 11 and got["spills"] == [], f"{label} presenting: {got}"
            assert_nothing_clipped(page, f"{label} presenting")
            controls = page.locator(".controls").bounding_box()
            assert controls["y"] + controls["height"] <= height + 0.5, controls
        if "room" in checks:
            position = int(query.rsplit("=", 1)[1])
            heights = [settled_reading(page.locator(".controls"), CONTROLS_HEIGHT_JS)]
            for key, now in (("ArrowRight", position + 1), ("ArrowLeft", position)):
                page.keyboard.press(key)
                at(page, now)
                settle(page)
                heights.append(settled_reading(page.locator(".controls"), CONTROLS_HEIGHT_JS))
            assert heights == sorted(heights, reverse=True), f"{label}: the controls' heights {heights}"


# The controls' height: in presentation mode the stage gives the lists their room where they need it (fit.js
# tighten, the controls one row); at 1280x720 three-pod-cascade's controls went 69, 39, 69 px from step 6 to 9 and
# back, a jump the room sees at each step.
CONTROLS_HEIGHT_JS = "(el) => Math.round(el.getBoundingClientRect().height)"


def test_a_short_screens_step_note_shows_whole_above_the_controls_and_has_the_row_when_nothing_failed(make_page):
    """Hovered or focused, the one-line note grew downward under the pinned controls (1.5 of its 7 lines showed at
    1280x720); it now opens over its row and upward, whole on the screen. Before any failure the outcomes strip,
    empty, still took 60% of the row and cut the note at 465 px: it is hidden, the note has the row. At the fail
    (lost-marker 6) the note and the outcomes are above the pinned controls, the page unscrolled."""
    sizes = ((1280, 720), (1366, 768))
    page = make_page(*sizes[0])
    open_at(page, "lost-marker", 5)
    note, controls = page.locator(".stepinfo .note"), page.locator("#app > .controls")
    for width, height in sizes:
        resize(page, width, height)
        expect(page.get_by_test_id("returns")).to_be_hidden()
        row = page.locator(".stepinfo").bounding_box()
        assert note.bounding_box()["width"] > 0.8 * row["width"], f"{width}x{height}"
    for _ in walked(page, (6,)):
        for width, height in reversed(sizes):
            resize(page, width, height)
            assert page.evaluate("scrollY") == 0 and page.evaluate(STEP_INFO_UNDER_CONTROLS_JS) == [], width
            for reveal in (note.hover, note.focus):
                reveal()
                box, bar = note.bounding_box(), controls.bounding_box()
                full = note.evaluate("(el) => el.scrollHeight <= el.clientHeight + 1")
                assert full and box["y"] >= 0 and box["y"] + box["height"] <= bar["y"] + 0.5, (width, box, bar)
                page.mouse.move(0, 0)
                page.locator("#btn-step").focus()
            expect(page.get_by_test_id("returns")).to_be_visible()


def ghost_names_are_not_struck_through_and_walked_ghost_is_gold(page):
    struck = page.evaluate("""() => [...document.querySelectorAll('.inflight-list *')]
      .filter((e) => getComputedStyle(e).textDecorationLine.includes('line-through')).map((e) => e.textContent)""")
    assert not struck, f"struck through: {struck}"
    gold = page.locator(f'{V2} .inflight-list [data-id="e2"][data-ghost="true"][data-walked="true"] > .box')
    expect(gold).to_have_count(1)
    walk = page.evaluate("getComputedStyle(document.querySelector('#app')).getPropertyValue('--walk')")
    border = gold.evaluate("(b) => getComputedStyle(b).borderTopColor")
    probe = page.evaluate("(c) => { const e = document.createElement('i'); e.style.color = c;"
                          " document.body.append(e); const v = getComputedStyle(e).color; e.remove(); return v; }",
                          walk.strip())
    assert border == probe, f"the walked ghost's border is {border}, the walk colour is {probe}"


def test_nothing_clipped_at_1024x768(make_page):
    """Walked through in the normal view, then back in presentation mode."""
    page = make_page(width=1024, height=768)
    for position in stepped_through(page, "lost-marker", (4, 5, 6)):
        assert_nothing_clipped(page, f"1024x768 normal position {position}")
    present_mode(page)
    for position in walked(page, (6, 5, 4)):
        assert_nothing_clipped(page, f"1024x768 presenting position {position}")


# The table view scrolled by ``dy`` (or to its end, or back to its top): every box that scrolls around it (the
# document, #app) moved by as much, then the bottom bar, whether Play and the counter are inside it, and where the
# tables' last row ends.
TABLES_SCROLLED_JS = """(dy) => {
  for (let el = document.getElementById('tables').parentElement; el; el = el.parentElement)
    el.scrollTop = dy === 'end' ? el.scrollHeight : dy === 'top' ? 0 : el.scrollTop + dy;
  const r = (el) => el.getBoundingClientRect();
  const bar = r(document.querySelector('#app > .controls'));
  const inBar = (id) => { const b = r(document.getElementById(id));
    return b.height > 0 && b.top >= bar.top - 0.5 && b.bottom <= bar.bottom + 0.5; };
  const rows = document.querySelectorAll('#tables tr');
  return { bar: [bar.top, bar.bottom], play: inBar('btn-play'), position: inBar('position'),
           lastRow: r(rows[rows.length - 1]).bottom };
}"""


def test_the_table_view_keeps_the_controls_pinned_on_the_screen(make_page):
    """The table view (v) opens under the diagram, the controls pinned at the screen's bottom: the page grew to the
    tables' length instead and the whole document scrolled, the bar going down with its end (its top at 1011 px in a
    720 px window, 1369 px at 1920x1080; 711 after scrolling 300 px; in presentation mode at 1004 px, the counter
    and Play off the screen until scrolled to the end). Now it stays where it was, scrolled or not, and the tables'
    last row scrolls up above it. In the normal view at 1280x720 and 1920x1080, then in presentation mode at both (the
    table view closed and scrolled back in between, the window resized)."""
    page = make_page()
    open_at(page, "lost-marker", 3)
    screens = ((False, 1280, 720), (False, 1920, 1080), (True, 1920, 1080), (True, 1280, 720))
    for i, (presenting, width, height) in enumerate(screens):
        if i:
            page.keyboard.press("v")
            expect(page.locator("#tables")).to_be_hidden()
            page.evaluate(TABLES_SCROLLED_JS, "top")
            if presenting and not screens[i - 1][0]:
                present_mode(page)
            resize(page, width, height)
        was = page.locator("#app > .controls").bounding_box()
        page.keyboard.press("v")
        expect(page.locator("#tables")).to_be_visible()
        for dy in (0, 300, "end"):
            got = page.evaluate(TABLES_SCROLLED_JS, dy)
            label = f"{width}x{height} {'presenting' if presenting else 'normal'}, scrolled {dy}: bar {got['bar']}"
            assert abs(got["bar"][0] - was["y"]) <= 1 and got["bar"][1] <= height + 0.5, (
                f"{label}, {was['y']:.0f} before v")
            assert got["play"] and got["position"], f"{label}: Play or the counter not in it"
        assert got["lastRow"] <= got["bar"][0] + 0.5, (
            f"{label}: the tables' last row ends at {got['lastRow']:.0f}, under the bar")


# The Predict verdict and the bottom bar (a phone's is fixed, a laptop's pinned), the step info's own width, and the
# widths of the step note and the outcomes.
VERDICT_JS = """() => {
  const r = (el) => el.getBoundingClientRect();
  const verdict = r(document.getElementById('prediction')), info = r(document.querySelector('.stepinfo'));
  const others = [...document.querySelectorAll('.stepinfo > :not(#prediction)')]
    .filter((el) => el.getClientRects().length)
    .filter((el) => r(el).bottom > verdict.top + 0.5 && r(el).top < verdict.bottom - 0.5)
    .map((el) => el.className || el.id);
  return { verdict: [verdict.left, verdict.top, verdict.right, verdict.bottom], info: [info.left, info.right],
           barTop: r(document.querySelector('#app > .controls')).top, beside: others,
           note: r(document.querySelector('.stepinfo .note')).width,
           returns: r(document.getElementById('returns')).width };
}"""


def test_the_predict_verdict_has_a_row_of_its_own_and_is_brought_into_view(make_page):
    """The verdict (two lines, one per version) was put into the short screen's one row of step note and outcomes:
    at 1280x720 it squeezed the note to 77 px and the outcomes to 115 px, its second line under the pinned controls;
    on a phone it was drawn at y = 1611 with nothing scrolling to it. It has a row of its own now, the note and the
    outcomes keeping their share of their row (each at least 30%; squeezed they had 6% and 9%), and it is scrolled
    into view above the controls. Predicted at each size in turn (a step back, the window resized, scrolled to
    its top, the step predicted again)."""
    page = make_page()
    open_at(page, "lost-marker", 5, "&predict=1")
    for width, height in ((1280, 720), (1366, 768), (390, 844)):
        if width != 1280:
            page.keyboard.press("ArrowLeft")
            at(page, 5)
            resize(page, width, height)
            page.evaluate("window.scrollTo(0, 0)")
        predicted_verdict_in_its_row(page, width, height)


def predicted_verdict_in_its_row(page, width, height):
    page.keyboard.press("ArrowRight")
    expect(page.locator("#predict-dialog")).to_be_visible()
    page.keyboard.press("Enter")  # each row's first choice
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Step and reveal")).to_be_focused()
    page.keyboard.press("Enter")
    at(page, 6)
    expect(page.locator("#prediction")).to_contain_text("v1.28.2: you said activeQ")
    settle(page)
    got = settled_reading(page.locator("body"), VERDICT_JS)
    (left, top, right, bottom), label = got["verdict"], f"{width}x{height}: verdict {got['verdict']}"
    assert top >= 0 and bottom <= got["barTop"] + 0.5, f"{label}, the controls' top at {got['barTop']:.0f}"
    assert left <= got["info"][0] + 0.5 and right >= got["info"][1] - 0.5 and not got["beside"], (
        f"{label}: beside it {got['beside']}")
    row = got["info"][1] - got["info"][0]
    assert got["note"] >= 0.3 * row and got["returns"] >= 0.3 * row, got


# --- tablets: 600-900 px, the panes stacked --------------------------------------------------------------
# Per pane: the list area and the lanes (their boxes), and the list's items (entries, removed elements with their
# labels) that leave the list area.
LIST_OVER_LANES_JS = """() => [...document.querySelectorAll('#panes > [data-variant]')].map((pane) => {
  const area = pane.querySelector('.list-area').getBoundingClientRect();
  const lanes = pane.querySelector('.lanes').getBoundingClientRect();
  const out = [...pane.querySelectorAll('.inflight-list > li')].map((li) => [li, li.getBoundingClientRect()])
    .filter(([, r]) => r.left < area.left - 0.5 || r.right > area.right + 0.5
      || r.top < area.top - 0.5 || r.bottom > area.bottom + 0.5)
    .map(([li, r]) => `${li.dataset.id || li.dataset.removedId || li.className}`
      + ` [${Math.round(r.top)}..${Math.round(r.bottom)}]`);
  return { variant: pane.dataset.variant, area: [area.top, area.bottom], lanes: [lanes.top, lanes.bottom], out };
})"""


def test_tablet_lists_keep_their_room_above_the_lanes(make_page):
    """Stacked panes at tablet widths: each list area holds its whole list and ends above its lanes, nothing is
    clipped, no horizontal scroll (before: in a screen-high box the list's row was squeezed to a line and its
    entries were drawn over the lanes and the next pane). The two ends of the tablet widths, one walked forward, the
    window then turned upright and walked back."""
    page = make_page(width=900, height=700)
    open_at(page, "lost-marker", 4)
    for width, height, positions in ((900, 700, (4, 5, 6)), (600, 900, (6, 5, 4))):
        resize(page, width, height)
        for position in walked(page, positions):
            tablet_list_keeps_its_room(page, f"{width}x{height} position {position}")


def tablet_list_keeps_its_room(page, label):
    scroll, client = page.evaluate("[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]")
    assert scroll <= client, f"{label}: horizontal scroll (scrollWidth {scroll} > clientWidth {client})"
    for got in settled_reading(page.locator("#panes"), LIST_OVER_LANES_JS):
        (area_top, area_bottom), (lanes_top, _) = got["area"], got["lanes"]
        assert area_bottom <= lanes_top + 0.5, (
            f"{label} {got['variant']}: the list area ends at {area_bottom:.0f}, below the lanes' top {lanes_top:.0f}")
        assert area_bottom - area_top >= 100, (
            f"{label} {got['variant']}: the list area is {area_bottom - area_top:.0f} px tall")
        assert not got["out"], f"{label} {got['variant']}: items outside the list area: {got['out']}"
    assert_nothing_clipped(page, label)


# --- 2. phones ------------------------------------------------------------------------------------------
# Each list entry of a pane (and each of its lanes) scrolled into view as Playwright does (centred when out of
# view), then measured: its box before and after the scroll, the viewport, and the points inside it where something
# else (such as the bottom bar) is the top-most thing. One round trip a pane: the phone tests read some 40 boxes.
PANE_ENTRIES_JS = """(pane) => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height }; };
  const view = () => ({ vw: document.documentElement.clientWidth, vh: innerHeight });
  const points = [[0.5, 0.5], [0.15, 0.2], [0.85, 0.2], [0.15, 0.8], [0.85, 0.8]];
  const covered = (el) => { const r = el.getBoundingClientRect();
    return points.map(([fx, fy]) => [fx, fy, document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy)])
      .filter(([, , hit]) => !(hit && (el === hit || el.contains(hit) || hit.closest('svg.pointers'))))
      .map(([fx, fy, hit]) => `${fx},${fy} -> ${hit ? hit.tagName.toLowerCase() + '.' + hit.className : 'nothing'}`); };
  const shown = (el, id) => { const before = box(el); el.scrollIntoViewIfNeeded(true);
    return { id, before, after: box(el), covered: covered(el), ...view() }; };
  return { entries: [...pane.querySelectorAll('.inflight-list [data-id]')].map((e) => shown(e, e.dataset.id)),
           lanes: [...pane.querySelectorAll('[data-queue]')].map((l) => shown(l, l.dataset.queue)) };
}"""


def test_phone_walk_reachable_controls_visible_lists_readable_labels_and_arrows_on_boxes(make_page):
    """390x844, the lost marker from 3 to 6: the bottom bar's controls are large targets on the screen; at each
    position no horizontal scroll, each list entry and lane fully visible when scrolled to, each arrow on its box
    crossing no lane title nor other box; at 5 and 6 the labels readable, the bar's position on one line and
    nothing under the bar; at 6 the window widened and narrowed again."""
    page = make_page(width=390, height=844)
    open_at(page, "lost-marker", 3)
    phone_controls_are_reachable_large_targets(page)
    for position in walked(page, (4, 5, 6)):
        page.evaluate("window.scrollTo(0, 0)")
        arrows_end_on_boxes(page, 390, 844, position)
        each_list_fully_visible(page, position)
        if position >= 5:
            labels_readable_and_nothing_under_the_bar(page)
    a_window_widened_and_made_narrow_leaves_no_sideways_scroll_and_the_arrows_follow(page)


def a_window_widened_and_made_narrow_leaves_no_sideways_scroll_and_the_arrows_follow(page):
    """A phone's window widened to a laptop's and narrowed again (a tablet or phone turned upright): the pointer
    layers take the diagrams' new size (they sat in the diagrams' overflow and kept the old one: 620 px of sideways
    scroll at 390 px)."""
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 844})
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        scrolls = page.evaluate("document.scrollingElement.scrollWidth")
        assert scrolls <= width, f"at {width} px the page is {scrolls} px wide: sideways scroll"
        for layer, diagram in page.evaluate("""() => [...document.querySelectorAll('[data-testid=diagram]')].map(
            (d) => [+d.querySelector(':scope > svg.pointers').getAttribute('width'), d.clientWidth])"""):
            assert layer <= diagram + 1 and layer >= diagram - 1, (width, layer, diagram)
    assert_pointers_as_the_scene_says(page, "lost-marker", 6)


def each_list_fully_visible(page, position):
    width = page.evaluate("document.scrollingElement.scrollWidth")
    client = page.evaluate("document.scrollingElement.clientWidth")
    assert width <= client, f"horizontal scroll at 390x844: scrollWidth {width} > clientWidth {client}"
    for pane in (V1, V2):
        diagram = page.locator(f"{pane} [data-testid=diagram]")
        expect(diagram).to_be_visible()
        box = diagram.bounding_box()
        assert box["width"] >= 390 * 0.8, f"{pane}: the diagram is {box['width']:.0f} px wide, not full width"
        assert box["height"] >= 120, f"{pane}: the diagram is only {box['height']:.0f} px tall"
        read = page.locator(pane).evaluate(PANE_ENTRIES_JS)
        expected = [i for i in scene("lost-marker", position)["panes"][pane_of(pane)]["list"]["items"]
                    if i["kind"] in ("event", "pod")]
        assert len(read["entries"]) == len(expected), (
            f"{pane}: {len(read['entries'])} entries drawn, the scene lists {len(expected)}")
        for r in read["entries"]:
            label = f"{pane} entry {r['id']}"
            before, after = r["before"], r["after"]
            assert before["left"] >= -0.5 and before["right"] <= r["vw"] + 0.5, (
                f"{label}: [{before['left']:.0f}..{before['right']:.0f}] leaves the page width {r['vw']}")
            assert after["top"] >= -0.5 and after["bottom"] <= r["vh"] + 0.5, (
                f"{label}: scrolled into view, it spans {after['top']:.0f}..{after['bottom']:.0f} of {r['vh']}")
            assert not r["covered"], f"{label}: scrolled into view, something lies over it: {r['covered']}"
        # and the lanes of each pane are on the page too
        lanes = {lane["id"]: lane["after"] for lane in read["lanes"]}
        for queue in ("activeQ", "backoffQ", "unschedulablePods", "inFlight"):
            assert queue in lanes, f"{pane}: no lane {queue}"
            assert lanes[queue]["left"] >= -0.5 and lanes[queue]["right"] <= read["lanes"][0]["vw"] + 0.5, (
                f"{pane} lane {queue} leaves the page width")


def labels_readable_and_nothing_under_the_bar(page):
    small = page.evaluate("""() => [...document.querySelectorAll('.gone-tag, .unseen-tag, .marker, .eid')]
      .map((e) => [e.textContent, parseFloat(getComputedStyle(e).fontSize)]).filter(([, px]) => px < 12)""")
    assert not small, f"labels under 12 px on a phone: {small}"
    pos = page.get_by_test_id("position")
    lines = pos.evaluate("(e) => Math.round(e.getBoundingClientRect().height"
                         " / parseFloat(getComputedStyle(e).lineHeight || 16))")
    box = pos.bounding_box()
    assert box["height"] <= 30, f"the bar's position text wraps ({box['height']:.0f} px tall, ~{lines} lines)"
    # scrolled to the end, the last thing on the page lies above the bar
    page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    bar_top = page.locator(".controls").bounding_box()["y"]
    last = page.evaluate("""() => Math.max(...[...document.querySelectorAll(
        '#app > :not(.controls):not([hidden]):not(.help):not(.blank)')]
      .map((e) => e.getBoundingClientRect().bottom))""")
    assert last <= bar_top + 0.5, f"scrolled to the end, content reaches {last:.0f} but the bar starts at {bar_top:.0f}"


def phone_controls_are_reachable_large_targets(page):
    """At 3 (and back at 3 after): every control of the bar on the screen, 44 px tall or more, clicks landing."""
    page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")  # wherever one has scrolled to
    small = []
    visible = page.locator(".controls button:visible, .controls select:visible, .controls input:visible")
    assert visible.count() >= 3
    for i in range(visible.count()):
        control = visible.nth(i)
        box = control.bounding_box()
        label = control.get_attribute("aria-label") or control.get_attribute("id")
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844 + 0.5, f"{label} is off screen: {box}"
        if box["height"] < 44:
            small.append(f"{label}: {box['width']:.0f}x{box['height']:.0f}")
    for name in ("Step back", "Play", "Step forward"):
        box = page.get_by_role("button", name=name, exact=True).bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, f"{name}: {box}"
    page.get_by_role("button", name="Step forward").click()  # the bar is not covered: a real click lands
    at(page, 4)
    page.evaluate("window.scrollTo(0, 0)")
    page.get_by_role("button", name="Step back").click()
    at(page, 3)
    assert not small, "controls in the bottom bar smaller than 44 px tall: " + "; ".join(small)


# --- 3. the lost marker's decisive frame ------------------------------------------------------------------
# For each [data-pointer] of a pane: is its tail on the pod's chip and its head on its target?
POINTER_GEOMETRY_JS = """(pane) => {
  const grow = (r, by) => ({ left: r.left - by, right: r.right + by, top: r.top - by, bottom: r.bottom + by });
  const meets = (a, b) => a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom;
  const out = [];
  for (const g of pane.querySelectorAll('[data-pointer]')) {
    const pod = g.dataset.pod, key = g.dataset.key, target = g.dataset.target;
    const tail = g.querySelector('.pointer-tail'), head = g.querySelector('.pointer-head');
    // a live pointer leaves the in-flight lane's chip (a pod in flight may also have a copy queued); a decided
    // one leaves the chip of wherever the pod went
    const chips = [...pane.querySelectorAll(`.chip[data-pod="${CSS.escape(pod)}"]`)];
    const live = !g.classList.contains('decided');
    const chip = chips.find((c) => !!c.closest('[data-queue="inFlight"]') === live);
    const to = key === 'front' ? pane.querySelector('.front-slot')
      : key && key.startsWith('ghost:') ? pane.querySelector(`[data-removed-id="${CSS.escape(key.slice(6))}"]`)
      : pane.querySelector(`.inflight-list [data-id="${CSS.escape(key || target)}"]`);
    const problem = [];
    if (!tail || !head) problem.push('not drawn (no tail or head)');
    if (!chip) problem.push('no chip for the pod');
    if (!to) problem.push(`no element for its key ${key}`);
    if (tail && chip && !meets(tail.getBoundingClientRect(), grow(chip.getBoundingClientRect(), 6)))
      problem.push('tail is not on the chip');
    if (head && to && !meets(head.getBoundingClientRect(), grow(to.getBoundingClientRect(), 8)))
      problem.push('head is not at its target');
    out.push({ pod, target, key, problem });
  }
  return out;
}"""


def pane_of(selector):
    return selector.split('"')[1]


def pointers_of(page, pane):
    return page.locator(f"{pane} [data-pointer]")


def assert_pointers_as_the_scene_says(page, scenario, position):
    """One drawn pointer per pointer of the scene (same pod and target), one per in-flight chip (the gate is on),
    each starting on its chip and ending on its target."""
    sc = scene(scenario, position)
    for pane in (V1, V2):
        want = sorted((p["pod"], p["target"]) for p in sc["panes"][pane_of(pane)]["pointers"])
        drawn = pointers_of(page, pane).evaluate_all("gs => gs.map(g => [g.dataset.pod, g.dataset.target])")
        assert sorted(map(tuple, drawn)) == want, f"{pane} at {position}: pointers {drawn}, the scene has {want}"
        in_flight = page.locator(f"{pane} [data-queue=inFlight] [data-pod].chip").evaluate_all(
            "cs => cs.map(c => c.dataset.pod)")
        live = [p["pod"] for p in sc["panes"][pane_of(pane)]["pointers"] if not p["decided"]]
        assert sorted(in_flight) == sorted(live), (
            f"{pane} at {position}: in-flight chips {in_flight}, live pointers {live}")
        for pod in in_flight:
            expect(page.locator(f'{pane} [data-pointer][data-pod="{pod}"]')).to_have_count(1)
        geometry = page.locator(pane).evaluate(POINTER_GEOMETRY_JS)
        bad = [g for g in geometry if g["problem"]]
        assert not bad, f"{pane} at {position}: arrows that point nowhere: {bad}"


def assert_decisive_frame(page):
    at(page, 6)
    # v1.28.1: B's walk saw nothing: its marker is detached, PvAdd is shaded as unseen by B, nothing walked
    expect(page.locator(f'{V1} [data-pointer][data-pod="B"]')).to_have_count(1)
    expect(page.locator(f'{V1} [data-pointer][data-pod="B"]')).to_have_attribute("data-target", "detached")
    e2 = page.locator(f'{V1} .inflight-list [data-id="e2"]')
    expect(e2).to_have_count(1)
    unseen = e2.evaluate("el => el.classList.contains('unseen') || /unseen by B/.test(el.textContent) "
                         "|| (el.dataset.unseenBy || '').split(' ').includes('B')")
    assert unseen, "v1.28.1: PvAdd (e2) is not marked as unseen by B"
    expect(e2).to_contain_text("unseen by B")
    expect(page.locator(f'{V1} [data-walked="true"]')).to_have_count(0)
    # v1.28.2: B's walk visited PvAdd, whose hint it read is on the entry; B waits in backoffQ
    expect(page.locator(f'{V2} .inflight-list [data-id="e2"]')).to_have_attribute("data-walked", "true")
    expect(page.locator(f'{V2} .inflight-list [data-id="e2"] .walk-tag')).to_have_text("QueueAfterBackoff")
    expect(page.locator(f'{V2} .inflight-list [data-id="e2"] .walk-tag')).to_be_visible()
    expect(page.locator(f'{V2} [data-queue="backoffQ"] [data-pod="B"].chip')).to_have_count(1)
    expect(page.locator(f'{V1} [data-queue="unschedulablePods"] [data-pod="B"].chip')).to_have_count(1)
    # what the deferred Done(B) removed stays drawn as ghosts, in both panes
    for pane in (V1, V2):
        assert page.locator(f'{pane} [data-ghost="true"]').count() >= 1, f"{pane}: no ghost at the fail"
    settle(page)
    assert_pointers_as_the_scene_says(page, "lost-marker", 6)


LIST_SIZES_JS = ("() => [...document.querySelectorAll('.inflight-list')]"
                 ".map((l) => parseFloat(getComputedStyle(l).fontSize))")


def test_a_speaker_stepping_with_motion_gets_the_lists_at_the_size_a_direct_load_gets(moving_page):
    """Stepped through with the full motion in presentation mode, each position's lists come out as large as when
    that position is opened directly: the lists were refitted mid-animation (entries sliding in are transformed)
    and came out at fit.js's floor, 7.6 px at 1280x720, on the lost marker's steps 3 to 5."""
    page = moving_page
    stepped = {}
    # from step 2 (a load) on to the climax: each step from 3 on is one the speaker played
    for position in stepped_through(page, "lost-marker", (2, 3, 4, 5, 6), presenting=True):
        if position > 2:
            stepped[position] = settled_reading(page.locator("body"), LIST_SIZES_JS)  # the step's last refit done
    for position, sizes in stepped.items():
        open_at(page, "lost-marker", position)
        present_mode(page)
        direct = page.evaluate(LIST_SIZES_JS)
        assert sizes == pytest.approx(direct, abs=1.0), f"position {position}: stepped {sizes}, loaded {direct}"


def test_the_full_narration_in_presentation_mode_leaves_the_list_its_room(make_page):
    """`n` in presentation mode: the narration scrolls in its own box under the diagram; grown to its length it
    squeezed the list's row to a strip (entries at fit.js's floor, their labels over the lane titles)."""
    page = make_page()
    open_at(page, "lost-marker", 6)
    present_mode(page)
    before = page.evaluate(LIST_SIZES_JS)
    page.keyboard.press("n")
    expect(page.locator(f"{V1} .narration[open]")).to_have_count(1)
    settle(page)
    refitted(page)
    after = page.evaluate(LIST_SIZES_JS)
    assert min(after) >= 0.5 * min(before) and min(after) >= 18, (before, after)
    assert_nothing_clipped(page, "1280x720 presenting with the narration open")
    spilled = page.evaluate("""() => [...document.querySelectorAll('.list-area')].flatMap((area) => {
      const a = area.getBoundingClientRect();
      return [...area.querySelectorAll('.inflight-list > li')].map((li) => li.getBoundingClientRect())
        .filter((r) => r.height && (r.top < a.top - 1 || r.bottom > a.bottom + 1))
        .map((r) => [r.top, r.bottom, a.top, a.bottom]);
    })""")
    assert spilled == [], f"entries or their labels outside their list's frame: {spilled}"


def test_lost_marker_fail_frame_and_again_after_back_and_forth(moving_page):
    page = moving_page
    open_at(page, "lost-marker", 6)
    assert_decisive_frame(page)
    page.keyboard.press("ArrowLeft")
    at(page, 5)
    settle(page)
    page.keyboard.press("ArrowRight")
    assert_decisive_frame(page)
    # the same when the step is played forward from 5 (the climax animation), not only loaded
    page.keyboard.press("ArrowLeft")
    at(page, 5)
    page.keyboard.press("ArrowLeft")
    at(page, 4)
    page.keyboard.press("ArrowRight")
    at(page, 5)
    page.keyboard.press("ArrowRight")
    assert_decisive_frame(page)


def test_the_lost_marker_step_by_step_with_reduced_motion(page):
    """At 1280x720 from 0 to 6 as a speaker steps, with reduced motion: each step cuts to its final frame (no
    animation runs, nothing is left leaving); one pointer per in-flight pod before the fail (1 to 4); Done(A)
    leaves ghosts and a detached pointer, and l opens the legend (5); the decisive frame, the ghosts' names not
    struck through and the walked ghost gold (6)."""
    open_at(page, "lost-marker", 0)
    page.evaluate(RECORD_MADE_JS)
    for position in range(1, 7):
        page.evaluate("window.made = []")  # what this step makes
        page.keyboard.press("ArrowRight")
        at(page, position)  # written by the draw after it made its animations (page.js: drawCounter comes last)
        assert page.evaluate("window.made") == [], f"animations made by the step to {position}"
        assert page.evaluate("document.getAnimations().length") == 0, f"animations run after the step to {position}"
        assert page.locator("#panes .leaving").count() == 0
        settle(page)
        refitted(page)
        if position < 5:
            assert_pointers_as_the_scene_says(page, "lost-marker", position)
        elif position == 5:
            done_a_leaves_ghosts_and_a_detached_pointer(page)
            the_legend_draws_every_shape_of_the_picture_as_the_picture_does(page)
            page.keyboard.press("Escape")
            expect(page.locator("#legend")).not_to_have_attribute("open", "")
        else:
            assert_decisive_frame(page)
            ghost_names_are_not_struck_through_and_walked_ghost_is_gold(page)


def the_legend_draws_every_shape_of_the_picture_as_the_picture_does(page):
    """l opens the legend: one item per key of the scene's legend, each with a drawn swatch; the marker tag's
    swatch reads as the tags above the list do (the legend said "B →" while the tags read "B ↑")."""
    page.keyboard.press("l")
    legend = page.locator("#legend-items")
    expect(legend).to_be_visible()
    keys = [it["key"] for it in scene("lost-marker", 5)["legend"]]
    assert {"marker", "detached", "tag", "front", "reach", "walk", "unseen", "ghost", "head"} <= set(keys)
    assert legend.locator("[data-legend]").evaluate_all("items => items.map(i => i.dataset.legend)") == keys
    swatches = legend.evaluate("""(items) => Object.fromEntries([...items.querySelectorAll('[data-legend]')].map(
      (item) => { const r = item.querySelector('.lg-swatch')?.getBoundingClientRect();
                  return [item.dataset.legend, r ? [r.width, r.height] : null]; }))""")
    for key in keys:
        box = swatches[key]
        assert box and box[0] > 10 and box[1] > 8, f"the legend's {key} swatch is not drawn: {box}"
    explained = legend.locator('[data-legend="tag"]').inner_text()
    drawn = page.locator(f"{V1} .marker").first.inner_text().split()  # "B ⇡ …": B's detached marker at 5
    assert drawn[0] == "B" and drawn[1] in explained, f"the tag {drawn} is not in the legend's {explained!r}"


# The lowest contrast of each list entry's text against every colour its box is painted with (a plain
# background, or each stop of the unseen hatching), by WCAG 2's formula.
ENTRY_TEXT_CONTRAST_JS = """(pane) => {
  const rgb = (text) => [...text.matchAll(/rgba?\\(([^)]+)\\)/g)].map((m) => m[1].split(/[ ,\\/]+/).map(Number))
    .filter((c) => c.length < 4 || c[3] > 0);
  const lum = ([r, g, b]) => [r, g, b].map((v) => v / 255)
    .map((c) => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05); };
  const out = [];
  for (const box of pane.querySelectorAll('.inflight-list .entry .box')) {
    const style = getComputedStyle(box);
    let paints = rgb(style.backgroundImage);
    if (!paints.length) paints = rgb(style.backgroundColor);
    if (!paints.length) paints = rgb(getComputedStyle(pane.querySelector('.diagram') || pane).backgroundColor);
    if (!paints.length) paints = rgb(getComputedStyle(document.body).backgroundColor);
    for (const text of box.querySelectorAll('.ename, .eid, .name')) {
      const ink = rgb(getComputedStyle(text).color)[0];
      out.push({ text: text.textContent.trim(), entry: box.closest('.entry').className,
        px: parseFloat(getComputedStyle(text).fontSize), ratio: Math.min(...paints.map((p) => ratio(ink, p))) });
    }
  }
  return out;
}"""


def test_the_decisive_frames_entries_read_at_aa_contrast_on_a_phone(make_page):
    """At lost-marker 6 the removed e2 is hatched as unseen (v1.28.1) or gold as walked (v1.28.2): its id was drawn
    in the ghost grey on those paints, 3.75:1 and 4.49:1. Text under 24 px needs 4.5:1. Light, then the system
    turned dark (the page follows it: its colours are CSS light-dark() pairs)."""
    page = make_page(width=390, height=844)
    open_at(page, "lost-marker", 6)
    grounds = []
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        grounds.append(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        for pane in (V1, V2):
            texts = page.locator(pane).evaluate(ENTRY_TEXT_CONTRAST_JS)
            assert any("removed" in t["entry"] for t in texts), f"{pane}: no removed entry drawn"
            low = [t for t in texts if t["px"] < 24 and t["ratio"] < 4.5]
            assert not low, f"{pane} ({theme}): text under 4.5:1 against its box: {low}"
    assert grounds[0] != grounds[1], f"the page did not turn dark: its background {grounds}"


def done_a_leaves_ghosts_and_a_detached_pointer(page):
    # Done(A) removed e1 (both) and [A] (v1.28.2): they stay as ghosts
    expect(page.locator(f'{V1} .inflight-list [data-id="e1"][data-ghost="true"]')).to_have_count(1)
    expect(page.locator(f'{V2} .inflight-list [data-id="e1"][data-ghost="true"]')).to_have_count(1)
    expect(page.locator(f'{V2} .inflight-list [data-id="A@1"][data-ghost="true"]')).to_have_count(1)
    for pane in (V1, V2):  # nothing else is a ghost
        expect(page.locator(f'{pane} [data-ghost="true"]')).to_have_count(1 if pane == V1 else 2)
    expect(page.locator(f'{V1} [data-pointer][data-pod="B"]')).to_have_attribute("data-target", "detached")
    expect(page.locator(f'{V2} [data-pointer][data-pod="B"]')).to_have_attribute("data-target", "B@2")
    expect(page.locator(f'{V1} .inflight-list [data-id="e2"]')).to_contain_text("unseen by B")
    assert_pointers_as_the_scene_says(page, "lost-marker", 5)


def test_a_pod_queued_again_while_in_flight_points_from_its_in_flight_chip(page):
    """X is updated while in flight and its copy waits in (at 2) or is popped from (at 3) activeQ: X's arrow still
    leaves the chip in the in-flight lane."""
    for position in stepped_through(page, "duplicate-pop-growth", (2, 3)):
        chips = page.locator(f'{V2} .chip[data-pod="X"]').count()
        assert chips == 2, f"X is not both in flight and queued at {position}"
        assert_pointers_as_the_scene_says(page, "duplicate-pop-growth", position)


# --- 4. time you can see ---------------------------------------------------------------------------------
def chip_timer(page, pane, queue, pod):
    chip = page.locator(f'{pane} [data-queue="{queue}"] [data-pod="{pod}"].chip')
    expect(chip).to_have_count(1)
    return chip


def assert_timer_readable(chip):
    ring = chip.locator(".ring, [data-timer] svg, progress, .bar").first
    box = ring.bounding_box()
    assert box and box["width"] >= 8 and box["height"] >= 8, f"the timer's ring is not drawn: {box}"
    cut = chip.evaluate("c => [...c.querySelectorAll('*')].filter(e => !(e instanceof SVGElement)"
                        " && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible').length")
    assert cut == 0, "the timer's text is cut off"
    size = chip.locator(".timer").evaluate("t => parseFloat(getComputedStyle(t).fontSize)")
    assert size >= 12, f"the timer's text is {size} px, under the 12 px floor"
    broken = chip.locator(".timer-text > span").evaluate_all(
        "ps => ps.filter(p => p.getClientRects().length > 1).map(p => p.textContent)")
    assert not broken, f"a phrase of the timer broken over lines: {broken}"
    lane = chip.locator("xpath=ancestor::*[@data-queue][1]")
    spill = lane.evaluate("l => l.scrollWidth - l.clientWidth")
    assert spill <= 1, f"the timer spills {spill} px out of its lane"


def test_chip_timers_count_down_in_backoff_and_up_in_unschedulable_pods(make_page):
    """five-minute-wait from 6 at 1280x720: B's backoffQ chip (v1.28.2) counts down, and one second later the
    backoff is over and the 1 s flush moves B on (7); B's unschedulablePods chip (v1.28.1) shows its wait against
    300 s at 7 and 8 (1 s, 300 s; at 330 s the leftover flush has moved B). Then on a phone (the window narrowed,
    stepped back to 6) the backoff chip's timer is readable too and B moves on the same."""
    page = make_page()
    open_at(page, "five-minute-wait", 6)
    backoff_chip_counts_down(page)
    for position in walked(page, (7, 8)):
        unschedulable_chip_shows_its_wait_against_300_s(page, {7: 1, 8: 300}[position])
    resize(page, 390, 844)
    for _ in walked(page, (6,)):
        backoff_chip_counts_down(page)


def unschedulable_chip_shows_its_wait_against_300_s(page, seconds):
    chip = chip_timer(page, V1, "unschedulablePods", "B")
    expect(chip).to_contain_text(re.compile(rf"(?<![\d.]){seconds} s / 300 s"))
    assert_timer_readable(chip)
    fraction = chip.locator("[data-fraction]").get_attribute("data-fraction")
    assert abs(float(fraction) - min(seconds / 300, 1)) < 0.01, fraction
    expect(page.locator(f"{V1} [data-testid=pane-time]")).to_have_text(re.compile(rf"{seconds} s"))


def backoff_chip_counts_down(page):
    """At 6: B's backoffQ chip counts down; the step to 7 (one second) ends the backoff and the flush moves B."""
    chip = chip_timer(page, V2, "backoffQ", "B")
    expect(chip).to_contain_text(re.compile(r"\d+ s left"))
    assert_timer_readable(chip)
    page.keyboard.press("ArrowRight")  # one second passes: the backoff is over and the 1 s flush moves B on
    at(page, 7)
    expect(page.locator(f'{V2} [data-queue="backoffQ"] [data-pod="B"]')).to_have_count(0)
    expect(page.locator(f'{V2} [data-queue="activeQ"] [data-pod="B"]')).to_have_count(1)


def test_timers_in_an_inline_scenario(make_page):
    """A pod failed at t = 0 on both variants, then 120 s pass: the unschedulablePods chip reads 120 s / 300 s."""
    page = make_page()
    page.goto("/healthz")  # the origin, for its fetch and its links.js (the viewer is not needed to encode)
    raw = built_in_json(page, "five-minute-wait")
    raw["name"] = "Parked for two minutes"
    raw["steps"] = raw["steps"][:6] + [{"op": "advance_clock", "seconds": 120, "note": "two minutes pass"}]
    page.goto(f"/?inline={inline_value(page, raw)}&position=7")
    expect(page.locator("#scenario-name")).to_have_text("Parked for two minutes")
    at(page, 7)
    expect(chip_timer(page, V1, "unschedulablePods", "B")).to_contain_text("120 s / 300 s")


# --- 5. reduced motion -----------------------------------------------------------------------------------

# Per pane, the pods whose arrow is fading in now (an opacity animation running on its group).
ENTERING_JS = """() => Object.fromEntries([...document.querySelectorAll('#panes > [data-variant]')].map((pane) => [
  pane.dataset.variant, [...pane.querySelectorAll('[data-pointer]')]
    .filter((g) => g.getAnimations().some((a) => a.playState === 'running')).map((g) => g.dataset.pod)]))"""
# Records every animation the page makes from now on (Element.animate) as it is made: whether it is an arrow's,
# whose, in which pane, and how it ended. Judged once the page has settled, not sampled while it plays: a busy
# machine that reads late cannot miss one.
RECORD_MADE_JS = """() => {
  window.made = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    const animation = animate.apply(this, args);
    const made = { pointer: this.matches('[data-pointer]'), pod: this.dataset.pod ?? null,
                   variant: this.closest('[data-variant]')?.dataset.variant ?? null, end: 'running' };
    window.made.push(made);
    animation.finished.then(() => { made.end = 'played'; }, () => { made.end = 'cut'; });
    return animation;
  };
}"""


def arrows_faded_in(page) -> dict[str, list[str]]:
    """Per pane, the pods whose arrow was made to fade in since RECORD_MADE_JS (the page settled)."""
    faded: dict[str, set[str]] = {}
    for made in page.evaluate("window.made"):
        if made["pointer"]:
            faded.setdefault(made["variant"], set()).add(made["pod"])
    return {variant: sorted(pods) for variant, pods in faded.items()}


def test_an_arrow_that_breaks_or_appears_is_seen_happening(moving_page):
    """Popping B draws its arrows in (2 to 3). Done(A) breaks B's v1.28.1 arrow (its element removed): the arrow
    was cut to the new picture at once; it fades in broken, while B's v1.28.2 arrow, aimed where it was, stays (4
    to 5). The counter-check of the reduced-motion test: without the preference the fail step animates (5 to 6)."""
    page = moving_page
    open_at(page, "lost-marker", 2)
    page.evaluate(RECORD_MADE_JS)
    for position in (3, 4, 5, 6):
        page.evaluate("window.made = []")  # what this step makes
        page.keyboard.press("ArrowRight")
        at(page, position)
        settle(page)
        if position == 3:  # pop B: its arrows appear
            assert arrows_faded_in(page) == {"v1.28.1": ["B"], "v1.28.2": ["B"]}
        elif position == 5:
            assert arrows_faded_in(page) == {"v1.28.1": ["B"]}
            assert page.evaluate(ENTERING_JS) == {"v1.28.1": [], "v1.28.2": []}
        elif position == 6:
            ends = [made["end"] for made in page.evaluate("window.made")]
            assert "played" in ends, f"no animation plays the fail step: {ends}"


# Records every animation of the climax's two beats as it is made, grouped by the frame that made it: the walk's
# pulse on the walked entries (a) and the deferred Done's fade of the ghosts (b). Each ends "played" when it
# finished on the page, "cut" when the next frame had replaced its element first (or it was cancelled). Made at
# creation and judged at the end, not sampled: a busy machine that drops frames cannot change the verdict.
RECORD_BEATS_JS = """() => {
  window.beats = [];
  const kinds = [['walk', '.inflight-list [data-walked="true"] > .box'],
                 ['ghost', '.inflight-list [data-ghost="true"] > .box']];
  const animate = Element.prototype.animate;
  let frame = null;
  Element.prototype.animate = function (...args) {
    const animation = animate.apply(this, args);
    const kind = kinds.find(([, selector]) => this.matches(selector));
    if (!kind) return animation;
    if (!frame) {
      frame = { walk: [], ghost: [] };
      window.beats.push(frame);
      queueMicrotask(() => { frame = null; });  // a frame's animations are all made in one task
    }
    const beats = frame[kind[0]];
    const i = beats.push('running') - 1;
    animation.finished.then(() => { beats[i] = this.isConnected ? 'played' : 'cut'; }, () => { beats[i] = 'cut'; });
    return animation;
  };
}"""
ALL_ENDED_JS = "() => window.beats.every((f) => [...f.walk, ...f.ghost].every((b) => b !== 'running'))"


def test_the_climax_plays_both_beats_at_play_speeds(make_page):
    """Playing five-minute-wait through its fail (step 6, followed by a clock step a tick later): the walk's
    pulse and the ghosts' fade both play to their end (before: at 8x the next step replaced the frame first). At
    the slowest and the fastest Play speeds with motion, the page sought back to 5 (a cut) between the two."""
    page = make_page(reduced_motion=MOTION)
    open_at(page, "five-minute-wait", 5)
    page.evaluate(RECORD_BEATS_JS)
    for speed in ("2", "8"):
        if speed != "2":
            page.locator("#scrubber").fill("5")
            at(page, 5)
            settle(page)
            page.evaluate("window.beats = []")  # the beats of this speed's play only
        page.locator("#speed").select_option(speed)
        page.click("#btn-play")
        # Play stops at the end; the page may fall behind it (every beat is played), the more so on a busy machine
        shown(page, POSITION, re.compile(r"^11 / \d+"), timeout_ms=45_000)
        page.wait_for_function(ALL_ENDED_JS)
        frames = page.evaluate("window.beats")
        assert any(frame["walk"] and frame["ghost"] for frame in frames), (
            f"at {speed}x no climax with both beats: {frames}")
        assert all(b == "played" for frame in frames for b in frame["walk"] + frame["ghost"]), \
            f"at {speed}x a beat was cut: {frames}"
