"""Presentation mode read from the last row, at 1280x720: each pane's outcome badge, once known, at 28 px or more
and in the presenter's words (the scene's, webapp/presenter/verdicts.py), and no text on the screen under 16 px
but the tags drawn with the entries, measured as bench/readability.py does (bench/textsize.py). Sizes are layout
facts: asserted, not timed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from bench.textsize import BADGES_JS, SMALLEST_TEXT_JS
from tests.e2e.test_browser import settle
from tests.e2e.test_stage import PANES, at, present_mode
from webapp.engine.simulation import Simulation
from webapp.presenter.scene import present
from webapp.scenario.resolve import resolve

BADGE_PX = 28
TEXT_PX = 16


def scene_badges(scenario_id: str, position: int) -> list[str | None]:
    """The badges' words the presenter makes for the scenario's own versions, pane by pane."""
    scenario = resolve(scenario_id)[0]
    sim = Simulation(scenario, scenario.versions)
    sim.seek(position)
    return [pane["badge"] and pane["badge"]["text"] for pane in present(sim.frame())["panes"].values()]


def open_presenting(page, scenario_id, position):
    page.goto(f"/?scenario={scenario_id}&position={position}")
    expect(page.locator(PANES)).to_have_count(2)
    at(page, position)
    settle(page)
    present_mode(page)


# The wait (8) and its end (11) have no text under 16 px; at the decisive frame (6) the walk's and the removed
# entries' tags are drawn with the entries and scale with them (12.9 px there: at 16 px they took the list's room).
@pytest.mark.parametrize("position,small_text", [(6, True), (8, False), (11, False)])
def test_five_minute_wait_presenting_has_large_badges_and_no_small_text(make_page, position, small_text):
    page = make_page(width=1280, height=720)
    open_presenting(page, "five-minute-wait", position)
    badges = page.evaluate(BADGES_JS)
    assert [text for text, _, _ in badges] == scene_badges("five-minute-wait", position)
    assert all(shown and size >= BADGE_PX for _, size, shown in badges), badges
    smallest = page.evaluate(SMALLEST_TEXT_JS)
    if not small_text:
        assert smallest[0] >= TEXT_PX, f"text at {smallest[0]:.1f} px: {smallest[1]} {smallest[2]!r}"
    else:  # only the tags drawn with the entries may be smaller
        assert smallest[0] >= TEXT_PX or re.search(r"\b(walk-tag|gone-tag|unseen-tag|marker)\b", smallest[1]), smallest
    assert not page.problems, page.problems


def test_the_end_of_the_five_minute_wait_says_both_outcomes(make_page):
    page = make_page(width=1280, height=720)
    open_presenting(page, "five-minute-wait", 11)
    expect(page.get_by_test_id("badge")).to_have_text(["B waited 330 s", "B back after 1 s"])


def test_no_badge_before_the_outcome_is_known_nor_outside_presentation_mode(make_page):
    page = make_page(width=1280, height=720)
    page.goto("/?scenario=five-minute-wait&position=5")
    at(page, 5)
    expect(page.locator(PANES)).to_have_count(2)
    expect(page.get_by_test_id("badge")).to_have_count(0)  # B has not failed yet
    page.keyboard.press("ArrowRight")
    at(page, 6)
    expect(page.get_by_test_id("badge")).to_have_count(2)
    expect(page.get_by_test_id("badge").first).to_be_hidden()  # the page outside presentation mode: the outcomes line
    present_mode(page)
    expect(page.get_by_test_id("badge").first).to_be_visible()
