"""Presentation mode with the full narration opened (n), measured at key steps of three built-ins: its text at the
presenting least (16 px, static/js/tokens.js) or more and read whole, each of its lines and paragraphs brought
wholly into view within the narration's own box (where it is longer than its box it scrolls there, and the test
says so), and beside it the diagrams as the room sees them: at least 55 % of the screen shows a diagram uncovered
(sampled by what lies on top at each point), every pod chip and every list entry on the screen and on top. (Opened
over the diagrams, the narration left them a fifth of the screen; in flow as a 16vh box it left them 46.8 % and
showed a 136 px note in 115 px; before either, its list items were 14.6 px.) Closed again, the stage is as before."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from bench.textsize import SMALLEST_TEXT_JS
from tests.e2e.shown import counted
from tests.e2e.test_browser import settle
from tests.e2e.test_stage import PANES, at, open_at, present_mode, refitted, settled_reading, walked
from webapp.export.tokens import TYPE

SHARE = 0.55  # the least share of the screen the diagrams show uncovered with the narration open
LINES = 5  # the fewest lines (its title and four) a narration's box shows where it scrolls
OPEN = "#panes details[data-testid=narration][open]"

# Where every diagram, narration and list lies and how large the lists are drawn: read until two readings agree
# (the lists refit a frame or two after the narration opens or closes).
LAYOUT_JS = """() => [...document.querySelectorAll('#panes [data-testid=diagram], #panes .narration, .inflight-list')]
  .map((el) => { const r = el.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height, getComputedStyle(el).fontSize].join(' '); })"""

# What the room sees: `share`, the screen's part (sampled every 8 px) where a diagram is on top; `hidden`, each pod
# chip and list entry not wholly on the screen or with something else on top at its centre or corners; per open
# narration, its smallest text, its box and content heights, whether that box scrolls (and is the narration's own,
# inside its pane's foot), and each line or paragraph that cannot be brought wholly into view on top within it by
# scrolling that box. The box is scrolled back to its top afterwards.
ROOM_JS = """() => {
  const W = innerWidth, H = innerHeight, STEP = 8;
  let on = 0;
  for (let y = STEP / 2; y < H; y += STEP)
    for (let x = STEP / 2; x < W; x += STEP)
      if (document.elementFromPoint(x, y)?.closest('#panes [data-testid=diagram]')) on += 1;
  const onTop = (el, r) => [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]].every(([fx, fy]) => {
    const hit = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
    return hit !== null && el.contains(hit);
  });
  const onScreen = (r) => r.left >= -0.5 && r.top >= -0.5 && r.right <= W + 0.5 && r.bottom <= H + 0.5;
  const name = (el) => (el.dataset.pod ?? el.dataset.id ?? el.textContent.trim().slice(0, 24));
  const hidden = [...document.querySelectorAll('#panes [data-queue] [data-pod].chip, #panes .inflight-list > li .box')]
    .filter((el) => !el.closest('.leaving') && el.getClientRects().length)
    .filter((el) => { const r = el.getBoundingClientRect(); return !onScreen(r) || !onTop(el, r); })
    .map((el) => `${el.closest('[data-variant]').dataset.variant} ${el.matches('.chip') ? 'chip' : 'entry'} ${name(el)}`
      + ` at ${[...Object.values(el.getBoundingClientRect().toJSON())].slice(0, 4).map(Math.round)}`);
  const narrations = [...document.querySelectorAll('#panes details[data-testid=narration][open]')].map((n) => {
    const blocks = [...n.querySelectorAll(':scope > summary, :scope > ul > li, :scope > p')]
      .filter((el) => el.checkVisibility());
    const texts = [...n.querySelectorAll('*')].filter((el) => el.checkVisibility() && [...el.childNodes]
      .some((c) => c.nodeType === Node.TEXT_NODE && c.textContent.trim()));
    let box = null;
    for (let a = n; a && !a.matches('#panes'); a = a.parentElement) {
      const s = getComputedStyle(a);
      if (/auto|scroll/.test(s.overflowY) && a.scrollHeight > a.clientHeight + 1) { box = a; break; }
    }
    const view = box ?? n;
    const v = view.getBoundingClientRect();
    const [top, bottom] = box ? [v.top + box.clientTop, v.top + box.clientTop + box.clientHeight] : [v.top, v.bottom];
    const unread = [];
    const summary = n.querySelector(':scope > summary');
    for (const b of blocks) {
      const range = document.createRange();
      range.selectNodeContents(b);
      const rects = () => [...range.getClientRects()].filter((r) => r.width > 1);
      // each line's top and height in the box's content, at its scroll of the moment
      const lines = new Map(rects().map((r) => [Math.round(r.top - top + (box?.scrollTop ?? 0)), r.height]));
      for (const [y, h] of lines) {
        if (box) {
          const reading = b === summary ? 0 : summary.offsetHeight;  // the title stays at the box's top
          if (y + h > box.scrollTop + box.clientHeight) box.scrollTop = y + h - box.clientHeight;
          if (y < box.scrollTop + reading) box.scrollTop = y - reading;
        }
        const r = rects().find((c) => Math.abs(c.top - top + (box?.scrollTop ?? 0) - y) < 2);
        const hit = r && document.elementFromPoint(r.left + Math.min(6, r.width / 2), r.top + r.height / 2);
        if (!r || !onScreen(r) || r.top < top - 0.5 || r.bottom > bottom + 0.5 || r.right > v.right + 0.5
            || !hit || !b.contains(hit))
          unread.push(`${b.textContent.trim().slice(0, 40)}: its line at ${y} px in the box (`
            + `${Math.round(top)}..${Math.round(bottom)} on the screen) under ${hit?.className || hit?.tagName}`);
      }
    }
    if (box) box.scrollTop = 0;
    return { variant: n.closest('[data-variant]').dataset.variant,
             smallest: Math.min(...texts.map((el) => parseFloat(getComputedStyle(el).fontSize))),
             height: Math.round(bottom - top), line: parseFloat(getComputedStyle(n).lineHeight),
             content: Math.round(box ? box.scrollHeight : v.height),
             scrolls: box !== null, own: box === null || box.closest('.pane-foot') !== null,
             sideways: view.scrollWidth > view.clientWidth + 1, unread };
  });
  return { share: on * STEP * STEP / (W * H), hidden, narrations };
}"""


TIGHT_JS = "() => document.querySelector('#app').classList.contains('tight')"


def room(page):
    settle(page)
    settled_reading(page.locator("body"), LAYOUT_JS)
    return page.evaluate(ROOM_JS)


def opened_narration_reads_whole_beside_the_diagrams(page, label, whole_page_least):
    got = room(page)
    print(f"{label}: the diagrams show on {got['share']:.1%} of the screen; narrations " + "; ".join(
        f"{n['variant']} {n['smallest']:.1f} px, {n['content']} px in a {n['height']} px box"
        + (" that scrolls" if n["scrolls"] else " (whole)") for n in got["narrations"]))
    panes = page.locator(PANES).count()
    assert len(got["narrations"]) == panes, f"{label}: {len(got['narrations'])} narrations open of {panes}"
    for n in got["narrations"]:
        where = f"{label} {n['variant']}'s narration"
        assert n["smallest"] >= TYPE["presenting"], f"{where}: text at {n['smallest']:.1f} px"
        assert n["own"], f"{where} scrolls only with its pane, not in a box of its own"
        assert not n["sideways"], f"{where} runs out of its box sideways"
        assert not n["scrolls"] or n["height"] >= LINES * n["line"], f"{where}: a box of {n['height']} px is a slot"
        assert not n["unread"], f"{where}: not read whole in its box:\n" + "\n".join(n["unread"])
    assert got["share"] >= SHARE, f"{label}: the diagrams show uncovered on {got['share']:.1%} of the screen"
    assert not got["hidden"], f"{label}: off the screen or covered:\n" + "\n".join(got["hidden"])
    if whole_page_least:
        size, what, words = page.evaluate(SMALLEST_TEXT_JS)
        assert size >= TYPE["presenting"], f"{label}: {what} {words!r} at {size:.1f} px"


def toggle_narration(page, opened):
    page.keyboard.press("n")
    expect(page.locator(OPEN)).to_have_count(page.locator(PANES).count() if opened else 0)
    refitted(page)


def narrated_and_closed_again(page, label, whole_page_least):
    """The narration opened (checked) and closed again: the stage as it was, the stage's room given back (its .tight,
    fit.js, taken with the narration open stayed after it closed: queueing-hints 7)."""
    closed, tight = room(page), page.evaluate(TIGHT_JS)
    toggle_narration(page, True)
    opened_narration_reads_whole_beside_the_diagrams(page, label, whole_page_least)
    toggle_narration(page, False)
    again = room(page)
    assert again["share"] == pytest.approx(closed["share"], abs=0.01), (label, closed["share"], again["share"])
    assert again["hidden"] == closed["hidden"] == [], label
    assert page.evaluate(TIGHT_JS) == tight, f"{label}: the stage tight {tight} before the narration, not after"


@pytest.mark.parametrize("width,height,theme,versions", [
    (1280, 720, "light", ""), (1280, 720, "dark", ""), (1920, 1080, "light", ""), (1920, 1080, "dark", ""),
    (1024, 768, "light", ""), (1280, 720, "dark", "v1.28.1,v1.28.2,v1.30.14,v1.31.13")])
def test_the_lost_markers_climax_narrated_leaves_the_diagrams_uncovered(make_page, width, height, theme, versions):
    """The lost marker's step 6, where the narration says most, its own two versions or four in a row. Where the
    page's least text is not the presenting least (under 1200 px wide, or with four panes: the lanes' names and
    the entries' tags keep their own sizes there) the narration's still is."""
    page = make_page(width=width, height=height, color_scheme=theme)
    if versions:
        page.goto(f"/?scenario=lost-marker&position=6&versions={versions}")
        counted(page, PANES, len(versions.split(",")))
        at(page, 6)
    else:
        open_at(page, "lost-marker", 6)
    present_mode(page)
    narrated_and_closed_again(page, f"{width}x{height} {theme} {versions}", width >= 1200 and not versions)


@pytest.mark.parametrize("scenario,positions", [("queueing-hints", (7, 3, 11, 13)), ("three-pod-cascade", (8, 9)),
                                                ("duplicate-pop-growth", (29, 18))])
def test_key_steps_narrated_leave_the_diagrams_uncovered(make_page, scenario, positions):
    """Other built-ins' key steps (messages.key_positions) at 1280x720: at the first the narration opened and
    closed again, then opened and kept open from step to step, as a speaker walks them; among them the longest
    lists (duplicate-pop-growth 29's four rows, three-pod-cascade 8's tag stacks)."""
    page = make_page(width=1280, height=720)
    open_at(page, scenario, positions[0])
    present_mode(page)
    narrated_and_closed_again(page, f"{scenario} {positions[0]}", False)
    toggle_narration(page, True)
    for position in walked(page, positions[1:]):
        opened_narration_reads_whole_beside_the_diagrams(page, f"{scenario} {position}", False)
