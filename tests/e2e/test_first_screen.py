"""The first screen shows the pods: at 1280x720, 1024x768 and 1920x1080, outside presentation mode, on every
built-in's first step and its key steps (where the versions part, each failure, the end: messages.key_positions),
every pod chip, the step note and the outcome line are on screen without scrolling, above the pinned controls. At
step 0 the lanes holding A and B were under the controls (two "(empty)" boxes showed), and at the lost marker's
step 6 the step note and the outcome line were cut off; at 1920x1080 the open introduction and the panes' least
height put the lost marker's step note 104 px under the controls at step 0. A phone (390x844) and a small window
(760x520) are held to what fits them: the first pane's pods on the first screen, and on a phone everything else
between the strip and the bar once scrolled to.

Each built-in is opened once and sought as a viewer does (the scrubber), step after step; at each step the window
takes every size in turn, and the page's own refit is waited for before the facts are read in one evaluate."""

from typing import NamedTuple

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin_simulation
from tests.e2e.test_browser import at
from tests.e2e.test_stage import present_mode, refitted
from webapp.presenter.messages import key_positions
from webapp.scenario import builtin


class Size(NamedTuple):
    """A window the first screen is held to: ``panes``, the panes whose pod chips must show; ``texts``, the step
    note and the outcome line too; ``scroller``, what must not have scrolled ('' for nothing looked at); ``phone``,
    the strip in sight and everything between it and the bar once scrolled to."""

    width: int
    height: int
    panes: str = "#panes"
    texts: bool = True
    scroller: str = "app"
    phone: bool = False

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"


FIRST_PANE = "#panes > [data-variant]:first-child"
# 760x520 (a laptop's split screen): the panes stack and the page scrolls, so the first pane is what shows; at the
# start, with the introduction open, the pods it starts from are above the pinned controls (the activeQ's chips were
# half under them).
SMALL_WINDOW = Size(760, 520, panes=FIRST_PANE, texts=False, scroller="")
# 390x844 (a phone): the panes stack, each a screen's height, so not everything fits one screen; the strip above
# them carries the other versions' state (where there are others). The first screen (not scrolled) shows the first
# pane's pods above the bottom bar (the lanes holding A and B at the lost marker's start, then B's at its climax,
# were under it; then the lanes under the lists of queueing-hints 7, three-pod-cascade 8, backoff-windows 4 and
# more), the strip in sight; and scrolled to, every pod chip, the step note and the outcome line come between the
# strip and the bar.
PHONE = Size(390, 844, panes=FIRST_PANE, texts=False, scroller="window", phone=True)
SIZES = (Size(1280, 720), Size(1024, 768), Size(1920, 1080), PHONE)

# True once the window has the size asked for and what the checks read (the boxes of the pod chips, the panes, the
# note, the outcome line, the controls, the strip and its words; the scroll offsets) has held still for two frames:
# the page's refit after a resize (its resize handler, its resize observers, the strip's frame) is done.
HELD_STILL_JS = """({ width, height, key }) => {
  const box = (el) => { if (!el) return '-'; const r = el.getBoundingClientRect();
    return `${r.left},${r.top},${r.width},${r.height}`; };
  const marks = [innerWidth, innerHeight, scrollY, document.getElementById('app').scrollTop,
    document.getElementById('glance')?.textContent ?? '', box(document.getElementById('step-note').closest('.note'))];
  for (const el of document.querySelectorAll(
    '#panes > [data-variant], #panes .lane .chip, .controls, #glance, #returns')) marks.push(box(el));
  const print = marks.join('|');
  const seen = window.__firstScreenSeen?.key === key ? window.__firstScreenSeen : { key, print: '', times: 0 };
  seen.times = print === seen.print ? seen.times + 1 : 0;
  seen.print = print;
  window.__firstScreenSeen = seen;
  return innerWidth === width && innerHeight === height && seen.times >= 2;
}"""

# What is not as it must be at one size: each pod chip of ``panes`` not on screen above the controls, the step note
# and the outcome line (when it says something) too where ``texts``, the outcome line whole in its box (at 1024x768
# the lost marker's step 6 ended it at "v1.28", the rest to be scrolled to sideways); ``scroller`` scrolled; on a
# phone, the strip out of sight (where there are other versions) and, each scrolled into view (the page's own
# scroll padding: under the strip, above the bar), every pod chip, the step note and the outcome line not wholly
# between the strip and the bar (every scroll offset is put back after).
FACTS_JS = """({ panes, texts, scroller, phone }) => {
  const floor = document.querySelector('.controls').getBoundingClientRect().top;
  const off = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && (r.top < 0 || r.bottom > floor + 0.5); };
  // what is cut inside its own box, to be scrolled to (a line that ends past its box's right edge)
  const cut = (el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
  const chipName = (chip) =>
    `chip ${chip.textContent.trim().split(/\\s/)[0]} in ${chip.closest('[data-variant]').dataset.variant}`;
  const note = document.getElementById('step-note').closest('.note');
  const returns = document.getElementById('returns');
  const out = [];
  const scrolled = { app: document.getElementById('app').scrollTop, window: scrollY }[scroller];
  if (scrolled) out.push(`${scroller} scrolled ${scrolled} px`);
  for (const chip of document.querySelectorAll(`${panes} .lane .chip`)) if (off(chip)) out.push(chipName(chip));
  if (texts && off(note)) out.push('the step note');  // it clips the note
  if (texts && !returns.hidden && off(returns)) out.push('the outcome line');
  if (texts && !returns.hidden && cut(returns)) out.push('the outcome line cut, to be scrolled sideways');
  if (!phone) return out;
  if (document.querySelectorAll('#panes > [data-variant]').length > 1) {  // the strip says the other versions' state
    const row = document.querySelector('[data-testid=glance-row]');
    const r = row?.getBoundingClientRect();
    if (!r || !r.width || !r.height || getComputedStyle(row).visibility === 'hidden') out.push('no strip row shows');
    if (document.querySelector('.glance').getBoundingClientRect().top < 0) out.push('the strip');
  }
  const glance = document.querySelector('.glance:not([hidden])');
  const named = [...document.querySelectorAll('#panes .lane .chip')].map((chip) => [chipName(chip), chip]);
  named.push(['the step note', note]);
  if (!returns.hidden) named.push(['the outcome line', returns]);
  const offsets = new Map([[document.scrollingElement, null]]);
  for (const [, el] of named) for (let up = el.parentElement; up; up = up.parentElement) offsets.set(up, null);
  for (const el of offsets.keys()) offsets.set(el, [el.scrollLeft, el.scrollTop]);
  for (const [name, el] of named) {
    el.scrollIntoView({ block: 'nearest' });
    const r = el.getBoundingClientRect();
    const top = glance ? glance.getBoundingClientRect().bottom : 0;
    const bar = document.querySelector('.controls').getBoundingClientRect().top;
    if (r.top < top - 0.5 || r.bottom > bar + 0.5)
      out.push(`scrolled to, ${name} at ${Math.round(r.top)}..${Math.round(r.bottom)}`);
  }
  for (const [el, [left, top]] of offsets) el.scrollTo(left, top);
  return out;
}"""


def positions(scenario_id: str) -> list[int]:
    return [0, *key_positions(builtin_simulation(scenario_id).summary())]


def sizes_at(turn: int) -> tuple[Size, ...]:
    """The sizes the ``turn``-th step sought is seen at: at the first, the small window the page opens in, then
    each size; after, back and forth, so each step starts at the size the last one ended at."""
    return (SMALL_WINDOW, *SIZES) if turn == 0 else SIZES[::-1] if turn % 2 else SIZES


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_the_pods_note_and_outcomes_are_on_the_first_screen(make_page, scenario_id):
    """The built-in opened once in a small window, then sought as a viewer does (the scrubber): at its first and
    each key step, once drawn, the window takes each size in turn and what shows is held to what that size must
    show."""
    page = make_page(SMALL_WINDOW.width, SMALL_WINDOW.height)
    page.goto(f"/?scenario={scenario_id}")
    expect(page.locator("#panes > [data-variant]").first).to_be_visible()
    total = page.evaluate("document.getElementById('scrubber').max")
    current, hidden = SMALL_WINDOW, {}
    for turn, position in enumerate(positions(scenario_id)):
        if position:
            page.locator("#scrubber").fill(str(position))
        at(page, position, total=total)
        if not position:
            expect(page.locator("#intro")).to_have_attribute("open", "")
        for size in sizes_at(turn):
            if size != current:
                page.set_viewport_size({"width": size.width, "height": size.height})
                current = size
            page.wait_for_function(HELD_STILL_JS, arg={"width": size.width, "height": size.height,
                                                        "key": f"{position} {size}"}, polling="raf")
            if missing := page.evaluate(FACTS_JS, size._asdict()):
                hidden[f"{size} at step {position}"] = missing
    assert not hidden, f"{scenario_id}: {hidden}"


# Each pane's box (its diagram, caption, narration and invariants) where it is not wholly inside the panes' box
# and above the open poll bar; whether the panes scroll; and each count in the bar that something lies over.
PANES_CUT_JS = """() => {
  const panes = document.getElementById('panes').getBoundingClientRect();
  const bar = document.querySelector('[data-testid=poll-presenter]').getBoundingClientRect();
  const floor = Math.min(panes.bottom, bar.top);
  const out = [...document.querySelectorAll('#panes > [data-variant]')].filter((pane) => {
    const r = pane.getBoundingClientRect();
    return r.top < panes.top - 0.5 || r.bottom > floor + 0.5;
  }).map((pane) => `${pane.dataset.variant} ${Math.round(pane.getBoundingClientRect().bottom - floor)} px cut`);
  for (const n of document.querySelectorAll('[data-testid=poll-presenter] .bin .n')) {  // the bar's counts, on top
    const c = n.getBoundingClientRect();
    if (![c.left + 1, c.left + c.width / 2, c.right - 1].every((x) =>
      n.contains(document.elementFromPoint(x, c.top + c.height / 2))))
      out.push(`the count of ${n.closest('figure').dataset.variant} ${n.closest('.bin').dataset.choice} is covered`);
  }
  const box = document.getElementById('panes');
  if (box.scrollHeight > box.clientHeight + 1) out.push(`the panes scroll ${box.scrollHeight - box.clientHeight} px`);
  return out;
}"""


def test_the_open_poll_bar_leaves_every_pane_whole_in_presentation_mode(make_page):
    """Presentation mode with the room's poll open (the lost marker's prompt, before step 6): the bar under the
    stage takes its height from the panes, and at 1280x720 the panes' foot went 68 px under it (v1.28.1's broken
    invariant, the panes' bottom edge), and its buttons lay over the last counts. At every screen the presenter uses,
    open and revealed, each pane is whole above the bar, and every count in the bar is seen."""
    page = make_page(1280, 720)
    page.goto("/present?scenario=lost-marker&predict=1&position=5")
    expect(page.locator("#audience-link a")).to_be_visible()
    at(page, 5)
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("poll-presenter")).to_be_visible()
    present_mode(page)
    cut = {}
    for state in ("open", "revealed"):
        if state == "revealed":
            page.keyboard.press("ArrowRight")  # reveal and step: the bar stays, with the truth
            at(page, 6)
            expect(page.locator("[data-testid=poll-presenter] .bin.truth")).to_have_count(2)
        for width, height in ((1280, 720), (1366, 768), (1024, 768), (1920, 1080)):
            page.set_viewport_size({"width": width, "height": height})
            refitted(page)
            if missing := page.evaluate(PANES_CUT_JS):
                cut[f"{state} {width}x{height}"] = missing
    assert not cut, cut
