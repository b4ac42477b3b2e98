"""Presentation mode at 1280x720 with the narration opened (n), at the lost marker's climax: its list items ("B's
attempt failed ...", "determineSchedulingHintForInFlightPod: ...") were 14.6 px, under the presenting least (16 px,
static/js/tokens.js), and the diagrams took 54 % of the screen (at least 55 %, as test_stage.py asks without it)."""

import pytest
from playwright.sync_api import expect

from bench.textsize import SMALLEST_TEXT_JS
from tests.e2e.shown import counted
from tests.e2e.test_stage import DIAGRAM_SHARE_JS, PANES, at, present_mode, settle
from webapp.export.tokens import TYPE


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_opened_narration_reads_large_and_leaves_the_diagram_its_share(make_page, theme):
    page = make_page(width=1280, height=720, color_scheme=theme)
    page.goto("/?scenario=lost-marker&position=6")
    counted(page, PANES, 2)
    at(page, 6)
    present_mode(page)
    page.keyboard.press("n")
    expect(page.locator("details[data-testid=narration][open]")).to_have_count(2)
    settle(page)
    items = page.locator("details[data-testid=narration][open] li")
    sizes = items.evaluate_all("els => els.map((e) => parseFloat(getComputedStyle(e).fontSize))")
    assert sizes and min(sizes) >= TYPE["presenting"], sizes
    size, what, words = page.evaluate(SMALLEST_TEXT_JS)
    assert size >= TYPE["presenting"], f"{what} {words!r} at {size:.1f} px"
    share = page.evaluate(DIAGRAM_SHARE_JS)["share"]
    assert share >= 0.55, f"the diagrams cover {share:.1%}"
