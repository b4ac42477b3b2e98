"""Presentation mode read from the last row, at 1280x720: each pane's outcome badge, once known, at 28 px or more
and in the presenter's words (the scene's, webapp/presenter/verdicts.py), and no text on the screen under 16 px
but the tags drawn with the entries, measured as bench/readability.py does (bench/textsize.py). Sizes are layout
facts: asserted, not timed. One page walks the five-minute wait as a speaker does (a load costs the browser about
five times a step): no badge before the outcome is known nor outside presentation mode, then each step checked."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from bench.textsize import BADGES_JS, SMALLEST_TEXT_JS
from tests.e2e.shown import counted
from tests.e2e.test_browser import settle
from tests.e2e.test_stage import PANES, at, present_mode, refitted
from webapp.engine.simulation import Simulation
from webapp.presenter.scene import present
from webapp.scenario.resolve import resolve

BADGE_PX = 28
TEXT_PX = 16
# The wait (8) and its end (11) have no text under 16 px; at the decisive frame (6) the walk's and the removed
# entries' tags are drawn with the entries and scale with them (12.9 px there: at 16 px they took the list's room).
SMALL_TEXT_AT = {6: True, 8: False, 11: False}


def scene_badges(scenario_id: str, position: int) -> list[str | None]:
    """The badges' words the presenter makes for the scenario's own versions, pane by pane."""
    scenario = resolve(scenario_id)[0]
    sim = Simulation(scenario, scenario.versions)
    sim.seek(position)
    return [pane["badge"] and pane["badge"]["text"] for pane in present(sim.frame())["panes"].values()]


def test_five_minute_wait_badges_come_with_the_outcome_large_in_the_scenes_words_over_no_small_text(make_page):
    page = make_page(width=1280, height=720)
    page.goto("/?scenario=five-minute-wait&position=5")
    at(page, 5)
    counted(page, PANES, 2)
    expect(page.get_by_test_id("badge")).to_have_count(0)  # B has not failed yet
    page.keyboard.press("ArrowRight")
    at(page, 6)
    expect(page.get_by_test_id("badge")).to_have_count(2)
    expect(page.get_by_test_id("badge").first).to_be_hidden()  # the page outside presentation mode: the outcomes line
    settle(page)
    present_mode(page)
    expect(page.get_by_test_id("badge").first).to_be_visible()
    here = 6
    for position, small_text in SMALL_TEXT_AT.items():
        while here < position:
            page.keyboard.press("ArrowRight")
            here += 1
            at(page, here)
        settle(page)
        refitted(page)
        badges, smallest = page.evaluate(f"() => [({BADGES_JS})(), ({SMALLEST_TEXT_JS})()]")
        assert [text for text, _, _ in badges] == scene_badges("five-minute-wait", position), (position, badges)
        assert all(shown and size >= BADGE_PX for _, size, shown in badges), (position, badges)
        if not small_text:
            assert smallest[0] >= TEXT_PX, f"{position}: text at {smallest[0]:.1f} px: {smallest[1]} {smallest[2]!r}"
        else:  # only the tags drawn with the entries may be smaller
            assert smallest[0] >= TEXT_PX or re.search(r"\b(walk-tag|gone-tag|unseen-tag|marker)\b", smallest[1]), (
                position, smallest)
    expect(page.get_by_test_id("badge")).to_have_text(["B waited 330 s", "B back after 1 s"])  # the end: both
    assert not page.problems, page.problems
