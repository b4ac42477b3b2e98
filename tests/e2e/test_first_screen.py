"""The first screen shows the pods: at 1280x720, 1024x768 and 1920x1080, outside presentation mode, on every
built-in's first step and its key steps (where the versions part, each failure, the end: messages.key_positions),
every pod chip, the step note and the outcome line are on screen without scrolling, above the pinned controls. At
step 0 the lanes holding A and B were under the controls (two "(empty)" boxes showed), and at the lost marker's
step 6 the step note and the outcome line were cut off; at 1920x1080 the open introduction and the panes' least
height put the lost marker's step note 104 px under the controls at step 0."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin_simulation
from tests.e2e.test_browser import at
from tests.e2e.test_stage import present_mode, refitted
from webapp.presenter.messages import key_positions
from webapp.scenario import builtin

# What is not on screen, above the controls: each pod chip, the step note, the outcome line (when it says something).
# ``panes``: the panes whose chips are looked at; ``texts``: the step note and the outcome line too.
HIDDEN_JS = """({ panes, texts }) => {
  const floor = document.querySelector('.controls').getBoundingClientRect().top;
  const off = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && (r.top < 0 || r.bottom > floor + 0.5); };
  const out = [];
  for (const chip of document.querySelectorAll(`${panes} .lane .chip`)) if (off(chip))
    out.push(`chip ${chip.textContent.trim().split(/\\s/)[0]} in ${chip.closest('[data-variant]').dataset.variant}`);
  if (!texts) return out;
  if (off(document.getElementById('step-note').closest('.note'))) out.push('the step note');  // it clips the note
  const returns = document.getElementById('returns');
  if (!returns.hidden && off(returns)) out.push('the outcome line');
  return out;
}"""
EVERYTHING = {"panes": "#panes", "texts": True}


def positions(scenario_id: str) -> list[int]:
    return [0, *key_positions(builtin_simulation(scenario_id).summary())]


def sought(page, scenario_id: str) -> Iterator[int]:
    """The built-in opened once, then sought as a viewer does (the scrubber): each of its first and key steps,
    once drawn."""
    page.goto(f"/?scenario={scenario_id}")
    expect(page.locator("#panes > [data-variant]").first).to_be_visible()
    total = page.evaluate("document.getElementById('scrubber').max")
    for position in positions(scenario_id):
        if position:
            page.locator("#scrubber").fill(str(position))
        at(page, position, total=total)
        yield position


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_the_pods_note_and_outcomes_are_on_the_first_screen(make_page, size, scenario_id):
    page = make_page(*size)
    hidden = {}
    for position in sought(page, scenario_id):
        assert page.evaluate("document.getElementById('app').scrollTop") == 0
        if missing := page.evaluate(HIDDEN_JS, EVERYTHING):
            hidden[position] = missing
    assert not hidden, f"{scenario_id} at {size}: {hidden}"


def test_a_small_window_starts_with_the_first_panes_pods_above_the_controls(make_page):
    """760x520 (a laptop's split screen): the panes stack and the page scrolls, so the first pane is what shows; at
    each built-in's start, with the introduction open, the pods it starts from are above the pinned controls (the
    activeQ's chips were half under them)."""
    page = make_page(760, 520)
    hidden = {}
    for scenario_id in builtin.ids():
        page.goto(f"/?scenario={scenario_id}")
        at(page, 0, total=builtin.step_count(scenario_id))
        expect(page.locator("#intro")).to_have_attribute("open", "")
        if missing := page.evaluate(HIDDEN_JS, {"panes": "#panes > [data-variant]:first-child", "texts": False}):
            hidden[scenario_id] = missing
    assert not hidden, hidden



# Scrolled into view (the page's own scroll padding: under the strip, above the bar), what is still not wholly
# between the strip of the other versions and the bottom bar: each pod chip, the step note, the outcome line.
COVERED_WHEN_SCROLLED_TO_JS = """() => {
  const glance = document.querySelector('.glance:not([hidden])');
  const named = [...document.querySelectorAll('#panes .lane .chip')].map((chip) =>
    [`chip ${chip.textContent.trim().split(/\\s/)[0]} in ${chip.closest('[data-variant]').dataset.variant}`, chip]);
  named.push(['the step note', document.getElementById('step-note').closest('.note')]);
  const returns = document.getElementById('returns');
  if (!returns.hidden) named.push(['the outcome line', returns]);
  const out = [];
  for (const [name, el] of named) {
    el.scrollIntoView({ block: 'nearest' });
    const r = el.getBoundingClientRect();
    const top = glance ? glance.getBoundingClientRect().bottom : 0;
    const floor = document.querySelector('.controls').getBoundingClientRect().top;
    if (r.top < top - 0.5 || r.bottom > floor + 0.5)
      out.push(`${name} at ${Math.round(r.top)}..${Math.round(r.bottom)}`);
  }
  scrollTo(0, 0);
  return out;
}"""


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_a_phone_starts_with_the_first_panes_pods_and_covers_nothing_for_good(make_page, scenario_id):
    """390x844 (a phone): the panes stack, each a screen's height, so not everything fits one screen; the strip
    above them carries the other versions' state (where there are others). At each built-in's first step and key
    steps (sought as a viewer does, the scrubber) the first screen (not scrolled) shows the first pane's pods above
    the bottom bar (the lanes holding A and B at the lost marker's start, then B's at its climax, were under it;
    then the lanes under the lists of queueing-hints 7, three-pod-cascade 8, backoff-windows 4 and more), the strip
    in sight; and scrolled to, every pod chip, the step note and the outcome line come between the strip and the
    bar."""
    page = make_page(390, 844)
    hidden = {}
    for position in sought(page, scenario_id):
        assert page.evaluate("scrollY") == 0
        missing = page.evaluate(HIDDEN_JS, {"panes": "#panes > [data-variant]:first-child", "texts": False})
        if page.locator("#panes > [data-variant]").count() > 1:  # the strip says the other versions' state
            expect(page.get_by_test_id("glance-row").first).to_be_visible()
            if page.evaluate("document.querySelector('.glance').getBoundingClientRect().top") < 0:
                missing.append("the strip")
        missing += [f"scrolled to, {what}" for what in page.evaluate(COVERED_WHEN_SCROLLED_TO_JS)]
        if missing:
            hidden[position] = missing
    assert not hidden, f"{scenario_id} at 390x844: {hidden}"


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
