"""The viewer at 760x520 (a laptop's split screen, a small window): the header and the toolbar took 47 % of the
height and the controls 21 %, the diagram 165 px, the lost marker's climax below the fold. The diagram gets at least
half of the height, and at step 6 v1.28.1's climax (B's removed marker, the PvAdd it cannot see) is on screen."""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_browser import at

# The height of the diagrams on screen, between the top and the pinned controls.
DIAGRAM_SHOWN_JS = """() => {
  const floor = document.querySelector('.controls').getBoundingClientRect().top;
  let shown = 0;
  for (const d of document.querySelectorAll('[data-testid=diagram]')) {
    const r = d.getBoundingClientRect();
    shown += Math.max(0, Math.min(r.bottom, floor) - Math.max(r.top, 0));
  }
  return shown;
}"""
# v1.28.1's climax at step 6: the removed marker e1 and the event it hides, e2, both inside the screen's room.
CLIMAX_JS = """() => {
  const floor = document.querySelector('.controls').getBoundingClientRect().top;
  const pane = document.querySelector('[data-variant="v1.28.1"]');
  return [...pane.querySelectorAll('.inflight-list > li')].map((li) => {
    const r = li.getBoundingClientRect(); return r.top >= 0 && r.bottom <= floor; });
}"""
# B's chip and the lane that holds it, in v1.28.1's pane: [top, bottom] of each and the controls' top.
B_LANE_JS = """() => {
  const floor = document.querySelector('.controls').getBoundingClientRect().top;
  const pane = document.querySelector('[data-variant="v1.28.1"]');
  const chip = [...pane.querySelectorAll('.lane .chip')].find((c) => c.textContent.trim().startsWith('B'));
  const rect = (el) => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; };
  return {floor, chip: rect(chip), lane: rect(chip.closest('.lane')), lane_name: chip.closest('.lane').className};
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_at_760x520_the_diagram_has_half_the_height_and_the_climax_shows(make_page, theme):
    page = make_page(760, 520, color_scheme=theme)
    page.goto("/?scenario=lost-marker&position=6")
    expect(page.locator("#panes > [data-variant]")).to_have_count(2)
    at(page, 6)
    shown = page.evaluate(DIAGRAM_SHOWN_JS)
    assert shown >= 0.5 * 520, f"the diagram has {shown:.0f} px of 520"
    climax = page.evaluate(CLIMAX_JS)
    assert climax and all(climax), climax
    # ...and where it leaves B: parked in unschedulablePods, its lane above the controls (it was under them)
    b = page.evaluate(B_LANE_JS)
    assert "unschedulablePods" in b["lane_name"], b
    assert b["lane"][0] >= 0 and b["lane"][1] <= b["floor"], b
    # every tool is still there, in its row
    expect(page.locator("#btn-export-gif")).to_be_attached()
    page.locator("#help-toggle").scroll_into_view_if_needed()
    expect(page.locator("#help-toggle")).to_be_in_viewport()
