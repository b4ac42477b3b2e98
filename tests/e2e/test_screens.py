"""Screenshots of every built-in scenario at its key positions (where the variants first differ, each failure,
the end: messages.key_positions, computed in-process from the same Simulation the server runs), at a projector's
and a phone's sizes, light and dark, for people to look at:

    test-artifacts/screens/<id>/<position>-<width>x<height>-<theme>.png

One browser page per size and theme goes through them as a visitor does, in one load: its first scenario
opened by a permalink, each next one picked in the scenario picker, each position reached with the scrubber (the
same scene a link to that position opens, drawn by the same code). A phone's shot is the whole page (its panes
stack and scroll). On the larger screens each shot must also be readable: the lists drawn at 11 px or more, no
entry spilling out of its list.

The full matrix (every built-in x 3 sizes x 2 themes, ~140 shots) takes minutes, so by default the lost marker
gets every size, each in one theme (1280x720 light, 1920x1080 dark, 390x844 dark), the other built-ins only their
decisive position at 1280x720 light (CI's time budget); INFLIGHT_SCREENS=all shoots all of them.
"""

from __future__ import annotations

import functools
import os
import re
import struct
import time

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin_simulation
from tests.e2e.shown import POSITION, shown
from tests.e2e.test_browser import settle
from tests.e2e.test_stage import READABLE_JS
from webapp.presenter.messages import key_positions
from webapp.scenario import builtin

SIZES = [(1280, 720), (1920, 1080), (390, 844)]
THEMES = ["light", "dark"]
EXTRA = {"lost-marker": [4, 5]}  # the marker before and after it detaches: the story's set-up
FULL = os.environ.get("INFLIGHT_SCREENS") == "all"
ALL_SIZES = {"lost-marker"}  # shot at every size by default; the others at the first size unless FULL


@functools.cache
def positions(scenario_id: str) -> list[int]:
    sim = builtin_simulation(scenario_id)
    return sorted(set(key_positions(sim.summary())) | set(EXTRA.get(scenario_id, [])))


@functools.cache
def key_positions_of(scenario_id: str) -> list[int]:
    sim = builtin_simulation(scenario_id)
    return key_positions(sim.summary())


def extra_shots(page, out, position, width, height, theme, phone) -> int:
    """At the lost marker's key positions: presentation mode on a projector (<pos>-<size>-<theme>-presenting.png);
    on a phone what the first screen shows (-viewport.png: a full-page shot draws the fixed bottom bar where
    the first screen ends, over the second pane)."""
    if phone:
        path = out / f"{position}-{width}x{height}-{theme}-viewport.png"
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(path))
    else:
        path = out / f"{position}-{width}x{height}-{theme}-presenting.png"
        page.keyboard.press("p")
        expect(page.locator("#app.presenting")).to_have_count(1)
        settle(page)
        page.screenshot(path=str(path))
        page.keyboard.press("p")
        expect(page.locator("#app.presenting")).to_have_count(0)
    data = path.read_bytes()
    assert png_size(data) == (width, height) and len(data) > 15_000, path
    return 1


def shown_at(page, scenario_id: str, position: int, opened: str | None) -> str:
    """Brings the page to ``position`` of ``scenario_id``: the first scenario by its permalink, a next one by the
    scenario picker, then the scrubber; returns the scenario now open."""
    total = builtin.step_count(scenario_id)
    if opened is None:
        page.goto(f"/?scenario={scenario_id}&position={position}")
        expect(page.locator("#app")).to_have_attribute("data-scenario", scenario_id)
    else:
        if opened != scenario_id:
            page.select_option("#scenario-picker", scenario_id)
            shown(page, POSITION, re.compile(rf"^0 / {total}(\D|$)"))
        scrubber = page.locator("#scrubber")
        scrubber.fill(str(position))
        scrubber.blur()  # as after a link: no control focused (its ring would be in the shot)
    shown(page, POSITION, re.compile(rf"^{position} / {total}(\D|$)"))
    expect(page.locator("#scenario-picker")).to_have_value(scenario_id)
    return scenario_id


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG"
    return struct.unpack(">II", data[16:24])


def test_every_built_in_has_key_positions():
    for scenario_id in builtin.ids():
        assert positions(scenario_id), scenario_id
        assert positions(scenario_id)[-1] == builtin.step_count(scenario_id)


COMBOS = [(size, theme) for size in SIZES for theme in THEMES] if FULL else [
    (SIZES[0], "light"), (SIZES[1], "dark"), (SIZES[2], "dark")]


@pytest.mark.parametrize("width,height,theme", [(*size, theme) for size, theme in COMBOS],
                         ids=[f"{w}x{h}-{theme}" for (w, h), theme in COMBOS])
def test_screens_of_every_built_in(make_page, artifacts_dir, width, height, theme):
    page = make_page(width=width, height=height, color_scheme=theme)
    phone = width < 600
    started = time.monotonic()
    shots = 0
    opened = None
    for scenario_id in builtin.ids():
        if not (FULL or scenario_id in ALL_SIZES or ((width, height), theme) == (SIZES[0], THEMES[0])):
            continue
        out = artifacts_dir / "screens" / scenario_id
        out.mkdir(parents=True, exist_ok=True)
        keys = positions(scenario_id)
        for position in keys if FULL or scenario_id in ALL_SIZES else keys[:1]:  # the first turn of the story
            opened = shown_at(page, scenario_id, position, opened)
            settle(page)
            path = out / f"{position}-{width}x{height}-{theme}.png"
            path.unlink(missing_ok=True)
            page.screenshot(path=str(path), full_page=phone)
            assert path.exists(), path
            data = path.read_bytes()
            w, h = png_size(data)
            assert w == width and (h >= height if phone else h == height), f"{path.name}: {w}x{h}"
            assert len(data) > 15_000, f"{path}: only {len(data)} bytes, a blank page?"
            if not phone:  # what the shot shows can be read: the lists are not squeezed below 11 px nor spill
                got = page.evaluate(READABLE_JS)
                assert got["font"] >= 11 and got["spills"] == [], f"{path.name}: {got}"
            shots += 1
            if scenario_id in ALL_SIZES and position in key_positions_of(scenario_id):
                shots += extra_shots(page, out, position, width, height, theme, phone)
    elapsed = time.monotonic() - started
    print(f"{width}x{height} {theme}: {shots} screenshots in {elapsed:.1f} s")
