"""Presentation mode keeps every pane whole: on each built-in's key steps (where the versions part, each failure, the
end: messages.key_positions), on the viewer and on the presenter's page (its audience banner above the stage), at
1280x720, 1366x768 and 1024x768, each pane lies inside the panes' box and the panes do not scroll, with no text
under the presenting floor where it holds (1200 px wide and more, app.css; tokens.js's least, 16 px, measured as
bench/readability.py does: bench/textsize.py, the tags and markers drawn with the entries included) and each shown
outcome badge as large as it was (28 px) at 1280x720. Before, the lists at their least size pushed the panes' foot
under the stage: three-pod-cascade 8 by 46 px (84 on the presenter's page) and duplicate-pop-growth 29 by 103 (142)
at 1280x720, the captions and invariants cut. Where a list wraps, no row starts with an arrow pointing from nothing
(given that room, the lists wrapped with an arrow under the entry before it). Sizes are layout facts: asserted, not
timed.

One page per built-in and route: it opens on the first key step in presentation mode and steps on to the others
with → (to the end with End) as a speaker does (a load costs the browser about five times a step), measuring each
at the three sizes within the one load (every other key step visits them in reverse: no size is set twice in a
row)."""

from __future__ import annotations

import pytest

from bench.textsize import BADGES_JS, SMALLEST_TEXT_JS
from tests.conftest import builtin_simulation
from tests.e2e.shown import counted
from tests.e2e.test_browser import at, settle
from tests.e2e.test_stage import PANES, present_mode, refitted
from webapp.export.tokens import TYPE
from webapp.presenter.messages import key_positions
from webapp.scenario import builtin
from webapp.scenario.resolve import resolve

SIZES = ((1280, 720), (1366, 768), (1024, 768))
FLOOR_FROM_WIDTH = 1200  # app.css: the presenting floor holds where two panes share a screen this wide or wider
BADGE_PX, BADGE_SIZE = 28, SIZES[0]  # the outcome badges' least, held at 1280x720

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

# One round trip for all a size's facts: [the cuts, the smallest text, the badges].
FACTS_JS = f"() => [({PANES_CUT_JS})(), ({SMALLEST_TEXT_JS})(), ({BADGES_JS})()]"


def key_steps(page, route, scenario_id):
    """Opens ``route`` on the built-in's first key step in presentation mode and steps on to each next key step
    with →, to the last (the end) with End; yields each key step once it is drawn and settled."""
    total = builtin.step_count(scenario_id)
    first, *rest = key_positions(builtin_simulation(scenario_id).summary())
    page.goto(f"{route}?scenario={scenario_id}&position={first}")
    counted(page, PANES, len(resolve(scenario_id)[0].versions))
    at(page, first, total=total)
    settle(page)
    present_mode(page)
    yield first
    here = first
    for position in rest:
        while here < position:
            here = position if position == total else here + 1
            page.keyboard.press("End" if here == total else "ArrowRight")
            at(page, here, total=total)
        settle(page)
        yield position


def faults_at(page, width, height):
    """What is wrong with the page at this size: panes cut or scrolled, rows starting with an arrow, text under the
    floor, badges under their least."""
    found, (size, what, words), badges = page.evaluate(FACTS_JS)
    if width >= FLOOR_FROM_WIDTH and size < TYPE["presenting"]:
        found.append(f"{what} {words!r} at {size:.1f} px")
    if (width, height) == BADGE_SIZE:
        found += [f"badge {text!r} at {px:.1f} px" for text, px, shown in badges if shown and px < BADGE_PX]
    return found


@pytest.mark.parametrize("route", ["/", "/present"])
@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_presentation_mode_keeps_every_pane_whole(make_page, scenario_id, route):
    page = make_page(*SIZES[0])
    faults = {}
    for i, position in enumerate(key_steps(page, route, scenario_id)):
        for width, height in SIZES if i % 2 == 0 else SIZES[::-1]:
            if page.viewport_size != {"width": width, "height": height}:
                page.set_viewport_size({"width": width, "height": height})
            refitted(page)
            if found := faults_at(page, width, height):
                faults[f"{position} at {width}x{height}"] = found
    assert not faults, f"{scenario_id} on {route}: {faults}"
    assert not page.problems, page.problems
