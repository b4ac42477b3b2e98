"""Where no periodic flush runs, the page says on the pod and under its pane what the scheduler would have done,
in both the page and the SVG export; where time runs, it says nothing."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.shown import POSITION, shown
from tests.e2e.test_browser import built_in_json, inline_value

V2 = '[data-variant="v1.28.2"]'
SAID = "No flush ran: the scheduler would have moved B at 1 s, out of backoffQ."


def lost_marker_then_clock(page, seconds: float, **fields) -> dict:
    page.goto("/")
    raw = {**built_in_json(page, "five-minute-wait"), **fields}
    raw["steps"] = raw["steps"][:6] + [{"op": "advance_clock", "seconds": seconds}]
    return raw


def open_inline(page, raw: dict) -> None:
    page.goto(f"/?inline={inline_value(page, raw)}&position=7")
    shown(page, POSITION, re.compile(r"^7 / 7"))


def test_a_pod_past_its_flush_is_said_on_its_chip_and_under_its_pane(page, live_server):
    open_inline(page, lost_marker_then_clock(page, 2, periodic_flushes=False))
    pane = page.locator(V2)
    expect(pane.get_by_test_id("no-flush-warning")).to_have_text(SAID)
    expect(pane.get_by_test_id("no-flush-warning")).to_have_attribute("title", re.compile("^periodic_flushes is off"))
    chip = pane.locator('[data-queue="backoffQ"] [data-pod="B"]')
    expect(chip).to_have_attribute("data-missed", "true")
    expect(chip).to_have_attribute("aria-description", "no flush ran")
    expect(page.locator('[data-variant="v1.28.1"]').get_by_test_id("no-flush-warning")).to_have_count(0)


def test_the_svg_export_says_it_too(page, live_server):
    raw = lost_marker_then_clock(page, 2, periodic_flushes=False)
    svg = page.evaluate("""async (raw) => (await fetch('/export/svg?position=7', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify(raw)})).text()""", raw)
    assert "No flush ran: the scheduler would have moved B at 1 s, out of backoffQ." in svg


def test_time_that_runs_says_nothing(page, live_server):
    open_inline(page, lost_marker_then_clock(page, 2, periodic_flushes=True))
    expect(page.locator(V2).locator('[data-queue="activeQ"] [data-pod="B"]')).to_have_count(1)
    expect(page.get_by_test_id("no-flush-warning")).to_have_count(0)
