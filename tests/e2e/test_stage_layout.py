"""The stage's layout where it was cut or crowded, measured in a real browser (bounding boxes): the versions menu
kept on screen when the top bar wraps, four panes in presentation mode (lane headings apart, chip timers inside
their chips and lanes), three or four panes in presentation mode all on the screen at once, the full narration in
presentation mode read in its own box, the legend on a phone opened on the screen."""

import io
import re

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.e2e.shown import POSITION, counted, shown
from tests.e2e.test_presenting_narration import opened_narration_reads_whole_beside_the_diagrams
from tests.e2e.test_stage import PANES, at, present_mode, refitted, resize, settle
from webapp.model.versions import VERSIONS

FOUR = ["v1.28.1", "v1.28.2", "v1.30.14", "v1.31.13"]


def open_presenting(page, versions, position=6):
    page.goto(f"/?scenario=lost-marker&position={position}&versions={','.join(versions)}")
    counted(page, PANES, len(versions))
    at(page, position)
    present_mode(page)


# Each element's box clipped by nothing: inside the viewport and inside every ancestor that clips (overflow other
# than visible). Returns what is not, with the boxes.
OUTSIDE_JS = """(selector) => [...document.querySelectorAll(selector)].flatMap((el) => {
  const r = el.getBoundingClientRect();
  const box = (b) => [b.left, b.top, b.right, b.bottom].map(Math.round);
  const out = [];
  if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
    out.push(`${selector} "${el.textContent.trim().slice(0, 30)}" ${box(r)}`
      + ` outside the viewport ${innerWidth}x${innerHeight}`);
  for (let a = el.parentElement; a; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const c = a.getBoundingClientRect();
    const [top, left] = [c.top + a.clientTop, c.left + a.clientLeft];
    if (r.left < left - 0.5 || r.top < top - 0.5
        || r.right > left + a.clientWidth + 0.5 || r.bottom > top + a.clientHeight + 0.5)
      out.push(`${selector} "${el.textContent.trim().slice(0, 30)}" ${box(r)}`
        + ` clipped by ${a.tagName}.${a.className} ${box(c)}`);
  }
  return out;
})"""


def clipped(page, selector):
    return page.evaluate(OUTSIDE_JS, selector)


# Each version's box in the menu scrolled into view as Playwright does (centred when out of view), then what of it
# is clipped (OUTSIDE_JS): one round trip for the whole menu.
EACH_BOX_SCROLLED_TO_JS = f"""(versions) => {{
  const outside = {OUTSIDE_JS};
  return versions.flatMap((version) => {{
    const selector = `#versions-options input[value="${{version}}"]`;
    document.querySelector(selector).scrollIntoViewIfNeeded(true);
    return outside(selector);
  }});
}}"""


# --- 1. the versions menu on a 1024x768 screen --------------------------------------------------------------
def test_the_versions_menu_stays_on_screen_when_the_top_bar_wraps(make_page):
    page = make_page(width=1024, height=768)
    page.goto("/?scenario=lost-marker&position=6")
    counted(page, PANES, 2)
    page.click("#versions-summary")
    expect(page.locator("#versions-menu")).to_be_visible()
    before = page.locator("#versions-summary").bounding_box()
    for count, name in ((3, "v1.30.14"), (4, "v1.31.13")):
        page.locator(f'#versions-options input[value="{name}"]').check()
        counted(page, PANES, count)
        at(page, 6)
        refitted(page)
        problems = clipped(page, "#versions-menu")
        problems += page.evaluate(EACH_BOX_SCROLLED_TO_JS, list(VERSIONS))  # the menu scrolls
        assert not problems, f"{count} versions ticked:\n" + "\n".join(problems)
    after = page.locator("#versions-summary").bounding_box()
    assert after["y"] > before["y"] + 10, f"the top bar did not wrap: summary at {before} then {after}"


# --- 2. four panes in presentation mode on a projector --------------------------------------------------------
# Per pane: each lane heading's text box (a Range: a name that never breaks sticks out of its element's box) and
# each chip timer's text box, against their lane, chip and the other headings.
CROWDED_JS = """() => {
  const text = (el) => { const r = document.createRange(); r.selectNodeContents(el);
    return r.getBoundingClientRect(); };
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
    && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const out = [];
  for (const pane of document.querySelectorAll('#panes > [data-variant]')) {
    const v = pane.dataset.variant;
    const heads = [...pane.querySelectorAll('.lane')].map((lane) => [lane, text(lane.querySelector('.lane-name'))]);
    for (const [lane, h] of heads) {
      if (!inside(h, lane.getBoundingClientRect()))
        out.push(`${v}: heading ${lane.dataset.queue} [${Math.round(h.left)}..${Math.round(h.right)}]`
          + ' outside its lane');
      for (const [other, g] of heads)
        if (other !== lane && meet(h, g))
          out.push(`${v}: heading ${lane.dataset.queue} overlaps ${other.dataset.queue}`);
    }
    for (const chip of pane.querySelectorAll('.chip')) {
      const lane = chip.closest('.lane');
      for (const timer of chip.querySelectorAll('.timer-text')) {
        const t = text(timer);
        if (!inside(t, chip.getBoundingClientRect()))
          out.push(`${v}: ${chip.dataset.pod}'s timer "${timer.textContent}"`
            + ` [${Math.round(t.left)}..${Math.round(t.right)}] outside its chip`);
        if (!inside(t, lane.getBoundingClientRect()))
          out.push(`${v}: ${chip.dataset.pod}'s timer "${timer.textContent}" outside lane ${lane.dataset.queue}`);
      }
    }
  }
  return { problems: out, timers: document.querySelectorAll('#panes .timer-text').length };
}"""


def four_panes_keep_lane_headings_apart_and_timers_in_their_chips(page):
    got = page.evaluate(CROWDED_JS)
    assert got["timers"] == 4, got  # "0 s / 300 s" in unschedulablePods, "1 s left" in backoffQ
    assert not got["problems"], "\n".join(got["problems"])


# --- 3. three or four panes in presentation mode on a laptop's screen ----------------------------------------
@pytest.mark.parametrize("versions", [FOUR[:3], FOUR], ids=["three", "four"])
def test_three_or_four_panes_presenting_at_1280x720_are_all_on_the_screen(make_page, versions):
    """Four: first on a projector (1920x1080) the lane headings apart and the timers in their chips, then the
    window made a laptop's."""
    four = len(versions) == 4
    page = make_page(*((1920, 1080) if four else (1280, 720)))
    open_presenting(page, versions)
    if four:
        four_panes_keep_lane_headings_apart_and_timers_in_their_chips(page)
        resize(page, 1280, 720)
    problems = clipped(page, PANES) + clipped(page, f"{PANES} [data-testid=diagram]")
    assert not problems, "\n".join(problems)
    # each diagram still readable: its entries drawn inside their list's frame, at 11 px or more, its lane headings
    # apart and its timers in their chips
    lists = page.evaluate("""() => [...document.querySelectorAll('.list-area')].map((area) => {
      const a = area.getBoundingClientRect();
      const spilled = [...area.querySelectorAll('.inflight-list > li')].map((li) => li.getBoundingClientRect())
        .filter((r) => r.height && (r.top < a.top - 1 || r.bottom > a.bottom + 1)).length;
      return { font: parseFloat(getComputedStyle(area.querySelector('.inflight-list')).fontSize), spilled };
    })""")
    assert all(got["font"] >= 11 and not got["spilled"] for got in lists), lists
    assert not page.evaluate(CROWDED_JS)["problems"]


# --- 4. the full narration in presentation mode --------------------------------------------------------------
def test_the_full_narration_presenting_is_read_whole(make_page):
    """The lost marker's climax presenting, first at 1024x768 where v1.28.2's list wraps: no arrow left at the end
    of a row (section 8); then the full narration (n) at 1280x720 and 1920x1080, the window resized: every line of it
    read in its own box beside the uncovered diagrams (test_presenting_narration.py), its bullets the pane's width."""
    page = make_page(width=1024, height=768)
    open_presenting(page, ["v1.28.1", "v1.28.2"])
    settle(page)
    assert page.evaluate(ARROWS_AT_ROW_ENDS_JS) == 0
    page.keyboard.press("n")
    expect(page.locator(f"{PANES} .narration[open]")).to_have_count(2)
    settle(page)
    for width, height in ((1280, 720), (1920, 1080)):
        resize(page, width, height)
        opened_narration_reads_whole_beside_the_diagrams(page, f"{width}x{height}", True)
        # the bullets take the pane's width, not half of it
        widths = page.evaluate("""() => [...document.querySelectorAll('#panes > [data-variant]')].map((pane) =>
          pane.querySelector('.narration ul').getBoundingClientRect().width / pane.clientWidth)""")
        assert min(widths) > 0.8, (width, widths)


# --- 4b. nothing under the pinned controls ------------------------------------------------------------------------
# The strip between the controls pinned at the screen's foot and the screen's edge, [x, y, width, height] in px, and
# the page's background there.
UNDER_CONTROLS_JS = """() => {
  const bar = document.querySelector('#app > .controls');
  const r = bar.getBoundingClientRect();
  const top = Math.ceil(r.bottom);
  return { clip: [Math.floor(r.left), top, Math.ceil(r.right) - Math.floor(r.left), innerHeight - top],
           pinned: getComputedStyle(bar).position, bg: getComputedStyle(document.body).backgroundColor };
}"""


BLEND = 8  # a pixel this near the background is the bar's shade blending into it


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_nothing_scrolled_under_the_pinned_controls_shows_below_them(make_page, theme):
    """The presenter's page at 1280x720 scrolls under its pinned controls; between the bar and the screen's foot
    every pixel is the page's background (the legend's row showed at the bar's rounded corners, under the shadow
    that covered the rest)."""
    page = make_page(width=1280, height=720, color_scheme=theme)
    page.goto("/present?scenario=lost-marker&position=6")
    counted(page, PANES, 2)
    at(page, 6)
    settle(page)
    refitted(page)
    got = page.evaluate(UNDER_CONTROLS_JS)
    x, y, width, height = got["clip"]
    assert got["pinned"] == "sticky" and height > 0, got
    assert page.evaluate("() => document.querySelector('#app').scrollHeight > innerHeight"), "nothing scrolls under"
    shot = Image.open(io.BytesIO(page.screenshot(clip={"x": x, "y": y, "width": width, "height": height})))
    bg = tuple(int(n) for n in re.findall(r"\d+", got["bg"])[:3])
    shown_there = {colour: count for count, colour in shot.convert("RGB").getcolors(width * height)
                   if max(abs(c - d) for c, d in zip(colour, bg)) > BLEND}
    assert not shown_there, f"{theme}: under the controls ({got['clip']}) colours other than {bg}: {shown_there}"


# --- 7. the legend on a phone --------------------------------------------------------------------------------
def test_the_legend_on_a_phone_opens_on_the_screen(make_page):
    page = make_page(width=390, height=844)
    page.goto("/?scenario=lost-marker&position=6")
    at(page, 6)
    page.keyboard.press("l")
    expect(page.locator("#legend-items")).to_be_visible()
    page.locator("#legend-items").scroll_into_view_if_needed()
    got = page.evaluate("""() => {
      const r = document.getElementById('legend-items').getBoundingClientRect();
      const s = document.querySelector('#legend > summary').getBoundingClientRect();
      return { top: r.top + scrollY, left: r.left, right: r.right, below: r.top >= s.bottom - 1, width: innerWidth };
    }""")
    assert got["top"] >= 0 and got["below"] and got["left"] >= 0 and got["right"] <= got["width"], got


# --- 8. an arrow between entries never ends a row -------------------------------------------------------------
ARROWS_AT_ROW_ENDS_JS = """() => [...document.querySelectorAll('.inflight-list > .arrow')].filter((arrow) => {
  const next = arrow.nextElementSibling.getBoundingClientRect();
  return getComputedStyle(arrow).visibility !== 'hidden' && next.top >= arrow.getBoundingClientRect().bottom;
}).length"""


def test_no_arrow_is_left_at_the_end_of_a_wrapped_row(make_page):
    """v1.28.2's list wraps at 1024x768 presenting (the lost marker's climax: test_the_full_narration_presenting_is_
    read_whole checks it) and on a phone: its "→" stayed at the end of the first row, pointing at nothing."""
    page = make_page(width=390, height=844)
    page.goto("/?scenario=three-pod-cascade&position=8")
    at(page, 8)
    settle(page)
    wrapped = page.locator("[data-variant='v1.28.2'] .inflight-list > .arrow.row-end")
    expect(wrapped).to_have_count(1)  # the list does wrap here (on a phone the lost marker's now fits one row)
    assert page.evaluate(ARROWS_AT_ROW_ENDS_JS) == 0


# --- 5. two arrows never run together -------------------------------------------------------------------------
TWO_ARROWS = {"schema": 1, "name": "two arrows", "pods": [{"name": "A"}, {"name": "B"}], "initial_active": ["A", "B"],
              "steps": [{"op": "pop", "expect": "A"}, {"op": "event", "event": "NodeAdd"}, {"op": "pop", "expect": "B"},
                        {"op": "fail", "pod": "B", "unschedulable_plugins": []}]}
# The share of one arrow's way out of the lanes (its line up to the top of the lanes, sampled every 2 px) lying within
# 6 px of another's line (two lines a few px apart read as one); above the lanes arrows may cross.
SHARED_JS = """([one, other]) => {
  const pane = document.querySelector('[data-variant="v1.28.2"]');
  const line = (pod) => pane.querySelector(`[data-pointer="${pod}"] .pointer-line`);
  const svgTop = pane.querySelector('svg.pointers').getBoundingClientRect().top;
  const lanesTop = pane.querySelector('.lanes').getBoundingClientRect().top - svgTop - 8;
  const points = (path) => Array.from({ length: Math.floor(path.getTotalLength() / 2) },
                                      (_, i) => path.getPointAtLength(2 * i));
  const out = points(line(one)).filter((p) => p.y >= lanesTop);
  const b = points(line(other));
  return out.filter((p) => b.some((q) => Math.hypot(p.x - q.x, p.y - q.y) < 6)).length / out.length;
}"""


def test_two_chips_facing_across_a_gap_send_their_arrows_apart(make_page):
    """B's chip (unschedulablePods) and A's (in flight) face each other across one gap: both arrows went up it,
    one line from chip to chip, as if A had two arrows and B none (found by "Find a divergence", seed 1)."""
    page = make_page()
    page.goto("/healthz")  # the origin, for its session storage (the editor would put it there)
    page.evaluate("(s) => sessionStorage.setItem('inflight-scope:inline-scenario', JSON.stringify(s))", TWO_ARROWS)
    page.goto("/?scenario=__inline__&position=4")
    shown(page, POSITION, re.compile(r"^4 / 4"))
    settle(page)
    expect(page.locator('[data-variant="v1.28.2"] [data-pointer]')).to_have_count(2)
    shared = [page.evaluate(SHARED_JS, pods) for pods in (["B", "A"], ["A", "B"])]
    assert max(shared) < 0.1, shared
