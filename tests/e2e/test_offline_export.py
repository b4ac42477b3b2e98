"""The offline export in a real browser: downloaded from the live server, then opened from file:// with every
network request blocked; it must tell the same story as the served page, driven by the same keys."""

import re
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect

from tests.e2e.conftest import TIMEOUT_MS
from tests.e2e.shown import POSITION, shown
from tests.e2e.test_browser import (
    SETTLED_JS,
    SNAPSHOT_JS,
    V1,
    V2,
    assert_b_placed_differently,
    assert_marker,
    at,
    open_lost_marker,
    snapshot,
)

SCREENSHOT = "offline-lost-marker-{position}-1280x720.png"


@pytest.fixture
def exported(live_server, tmp_path) -> Path:
    response = requests.get(f"{live_server.url}/export/lost-marker.html", timeout=60)
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == 'attachment; filename="lost-marker.html"'
    path = tmp_path / "lost-marker.html"
    path.write_bytes(response.content)
    return path


@pytest.fixture
def offline(browser, exported):
    """Opens the exported file with all network blocked; fails the test on any attempt or console error."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, color_scheme="light")
    context.set_default_timeout(TIMEOUT_MS)
    attempted: list[str] = []
    problems: list[str] = []

    def only_files(route):
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            attempted.append(route.request.url)
            route.abort()

    context.route("**/*", only_files)
    page = context.new_page()
    page.on("request", lambda req: req.url.startswith(("file://", "data:")) or attempted.append(req.url))
    page.on("websocket", lambda ws: attempted.append(ws.url))
    page.on("console", lambda msg: msg.type == "error" and problems.append(f"console.error: {msg.text}"))
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))

    def open_file():
        page.goto(exported.as_uri())
        expect(page.locator("#panes > [data-variant]")).to_have_count(2)
        expect(page.locator("#scenario-name")).to_have_text("The lost marker")
        return page

    yield open_file
    context.close()
    assert not attempted, f"the offline file tried the network: {attempted}"
    assert not problems, "\n".join(problems)


def live_snapshot(page, position):
    open_lost_marker(page, f"&position={position}")
    at(page, position)
    return snapshot(page)


def test_the_offline_file_tells_the_live_story(offline, page):
    live = {position: live_snapshot(page, position) for position in (4, 5, 6)}
    offline_page = offline()
    at(offline_page, 0)
    for position in range(1, 7):
        offline_page.keyboard.press("ArrowRight")
        at(offline_page, position)
        if position == 5:
            assert_marker(offline_page, detached=True)
            detached = offline_page.locator(f'{V1} [data-removed-id="e1"] [data-marker="B"][data-detached="true"]')
            expect(detached).to_have_count(1)
        if position in live:
            assert snapshot(offline_page) == live[position], f"position {position}"
    assert_b_placed_differently(offline_page)
    expect(offline_page.locator(f'{V1} [data-queue="unschedulablePods"] [data-pod="B"]')).to_have_count(1)
    expect(offline_page.locator(f'{V2} [data-queue="backoffQ"] [data-pod="B"]')).to_have_count(1)
    shown(offline_page, POSITION, "variants differ here")

    offline_page.keyboard.press("ArrowLeft")
    at(offline_page, 5)
    assert_marker(offline_page, detached=True)
    assert snapshot(offline_page) == live[5]
    offline_page.keyboard.press("Home")
    at(offline_page, 0)
    expect(offline_page.locator(f'{V1} [data-queue="activeQ"] [data-pod]')).to_have_count(2)
    offline_page.keyboard.press("End")
    at(offline_page, 6)
    assert snapshot(offline_page) == live[6]


def test_play_and_one_variant_offline(offline):
    page = offline()
    at(page, 0)
    page.locator("#speed").select_option("8")
    page.locator("#btn-play").click()
    at(page, 6)
    expect(page.locator("#btn-play")).to_have_text("▶ Play")
    page.keyboard.press("ArrowLeft")
    at(page, 5)
    page.click("#versions-summary")  # the file offers the versions it holds
    expect(page.locator("#versions-options input")).to_have_count(2)
    page.locator('#versions-options input[value="v1.28.2"]').uncheck()
    expect(page.locator("#panes > [data-variant]")).to_have_count(1)
    at(page, 5)
    assert_marker(page, detached=True)
    expect(page.locator("#btn-divergence")).to_be_disabled()  # one variant: nothing to diverge from
    page.keyboard.press("ArrowRight")
    shown(page, POSITION, re.compile("^" + re.escape("6 / 6") + "$"))  # nor a divergence to point out


def test_screenshot_of_the_offline_file(offline, artifacts_dir):
    page = offline()
    at(page, 0)
    page.keyboard.press("End")
    at(page, 6)
    page.keyboard.press("ArrowLeft")
    at(page, 5)
    page.wait_for_function(SETTLED_JS)
    out = artifacts_dir / "screenshots"
    out.mkdir(exist_ok=True)
    path = out / SCREENSHOT.format(position=5)
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(246, 247, 249)"
    assert page.evaluate(SNAPSHOT_JS)[0]["variant"] == "v1.28.1"
