"""The first screen shows the pods: at 1280x720 and 1024x768, outside presentation mode, on every built-in's first
step and its key steps (where the versions part, each failure, the end: messages.key_positions), every pod chip,
the step note and the outcome line are on screen without scrolling, above the pinned controls. At step 0 the lanes
holding A and B were under the controls (two "(empty)" boxes showed), and at the lost marker's step 6 the step
note and the outcome line were cut off."""

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin_simulation
from tests.e2e.test_browser import at
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


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_the_pods_note_and_outcomes_are_on_the_first_screen(make_page, size, scenario_id):
    page = make_page(*size)
    hidden = {}
    page.goto(f"/?scenario={scenario_id}")  # opened once, then sought as a viewer does (the scrubber)
    expect(page.locator("#panes > [data-variant]").first).to_be_visible()
    total = page.evaluate("document.getElementById('scrubber').max")
    for position in positions(scenario_id):
        if position:
            page.locator("#scrubber").fill(str(position))
        at(page, position, total=total)
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

