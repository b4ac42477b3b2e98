"""Presentation mode keeps every pane whole: on each built-in's key steps (where the versions part, each failure, the
end: messages.key_positions), on the viewer and on the presenter's page (its audience banner above the stage), at
1280x720, 1366x768 and 1024x768, each pane lies inside the panes' box and the panes do not scroll, with no text
under the presenting floor where it holds (1200 px wide and more, app.css). Before, the lists at their least size
pushed the panes' foot under the stage: three-pod-cascade 8 by 46 px (84 on the presenter's page) and
duplicate-pop-growth 29 by 103 (142) at 1280x720, the captions and invariants cut. Where a list wraps, no row
starts with an arrow pointing from nothing (given that room, the lists wrapped with an arrow under the entry
before it). Sizes are layout facts: asserted, not timed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from bench.textsize import SMALLEST_TEXT_JS
from tests.conftest import builtin_simulation
from tests.e2e.test_browser import at, settle
from tests.e2e.test_stage import PANES, present_mode, refitted
from webapp.export.tokens import TYPE
from webapp.presenter.messages import key_positions
from webapp.scenario import builtin
from webapp.scenario.resolve import resolve

SIZES = ((1280, 720), (1366, 768), (1024, 768))
FLOOR_FROM_WIDTH = 1200  # app.css: the presenting floor holds where two panes share a screen this wide or wider

# Each pane not wholly inside the panes' box (by how many px), how far the panes scroll, and each list row that
# starts with an arrow.
PANES_CUT_JS = """() => {
  const box = document.getElementById('panes');
  const panes = box.getBoundingClientRect();
  const out = [...box.querySelectorAll(':scope > [data-variant]')].filter((pane) => {
    const r = pane.getBoundingClientRect();
    return r.top < panes.top - 0.5 || r.bottom > panes.bottom + 0.5 || r.bottom > innerHeight + 0.5;
  }).map((pane) => `${pane.dataset.variant} ${Math.round(pane.getBoundingClientRect().bottom - panes.bottom)} px cut`);
  if (box.scrollHeight > box.clientHeight + 1) out.push(`the panes scroll ${box.scrollHeight - box.clientHeight} px`);
  for (const arrow of box.querySelectorAll('.inflight-list > .arrow')) {  // a row starting with a shown arrow
    const before = arrow.previousElementSibling;
    if (before && getComputedStyle(arrow).visibility !== 'hidden'
        && arrow.getBoundingClientRect().top >= before.getBoundingClientRect().bottom)
      out.push(`${arrow.closest('[data-variant]').dataset.variant}: a row starts with an arrow`);
  }
  return out;
}"""


@pytest.mark.parametrize("route", ["/", "/present"])
@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_presentation_mode_keeps_every_pane_whole(make_page, scenario_id, route):
    page = make_page(*SIZES[0])
    count = len(resolve(scenario_id)[0].versions)
    faults = {}
    for position in key_positions(builtin_simulation(scenario_id).summary()):
        page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
        page.goto(f"{route}?scenario={scenario_id}&position={position}")
        expect(page.locator(PANES)).to_have_count(count)
        at(page, position, total=builtin.step_count(scenario_id))
        settle(page)
        present_mode(page)
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            refitted(page)
            found = page.evaluate(PANES_CUT_JS)
            size, what, words = page.evaluate(SMALLEST_TEXT_JS)
            if width >= FLOOR_FROM_WIDTH and size < TYPE["presenting"]:
                found.append(f"{what} {words!r} at {size:.1f} px")
            if found:
                faults[f"{position} at {width}x{height}"] = found
    assert not faults, f"{scenario_id} on {route}: {faults}"
    assert not page.problems, page.problems
