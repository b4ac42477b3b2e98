"""No presenting text under the tokens' least for presentation mode (16 px, static/js/tokens.js) at 1280x720, on any
built-in's climax positions (where the versions part, every failure, the end: messages.key_positions), the tags
and markers drawn with the entries included, measured as bench/readability.py does (bench/textsize.py); the
outcome badges stay as large as they were. Sizes are layout facts: asserted, not timed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from bench.textsize import BADGES_JS, SMALLEST_TEXT_JS
from tests.conftest import builtin_simulation
from tests.e2e.test_stage import PANES, at, present_mode
from webapp.export.tokens import TYPE
from webapp.presenter.messages import key_positions
from webapp.scenario import builtin
from webapp.scenario.resolve import resolve

BADGE_PX = 28


def climaxes(scenario_id: str) -> list[int]:
    return key_positions(builtin_simulation(scenario_id).summary())


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_no_presenting_text_under_the_least_at_1280x720(make_page, scenario_id):
    page = make_page(width=1280, height=720)
    for position in climaxes(scenario_id):
        page.goto(f"/?scenario={scenario_id}&position={position}")
        expect(page.locator(PANES)).to_have_count(len(resolve(scenario_id)[0].versions))
        at(page, position)
        present_mode(page)
        size, what, words = page.evaluate(SMALLEST_TEXT_JS)
        assert size >= TYPE["presenting"], f"{scenario_id} {position}: {what} {words!r} at {size:.1f} px"
        badges = page.evaluate(BADGES_JS)
        assert all(px >= BADGE_PX for _, px, shown in badges if shown), f"{scenario_id} {position}: {badges}"
    assert not page.problems, page.problems
