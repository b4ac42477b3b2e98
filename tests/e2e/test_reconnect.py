"""Reconnects lose nothing: the server is restarted under a browser (or the network drops), and the
viewer resumes at the same scenario and position; an audience member rejoins at the presenter's step."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import TIMEOUT_MS
from tests.e2e.shown import POSITION, shown
from tests.e2e.test_browser import B_MARKER
from tests.waiting import logged
from tests.web.liveserver import ROOT, LiveServer


@pytest.fixture(scope="module", params=["threading", "eventlet"])
def own_server(request):
    """One server of each mode for the module: each test leaves it running (restarted, or started again)."""
    with LiveServer(request.param, ROOT / "test-artifacts" / "server-logs") as server:
        yield server


@pytest.fixture(scope="module")
def kept(browser, own_server):
    """The module's pages on ``own_server``, each in a context of its own, handed out again test after test (a new
    context costs Chromium a new renderer)."""
    pages = []
    yield pages
    for page in pages:
        page.context.close()


@pytest.fixture
def new_page(browser, own_server, kept):
    """The test's first, second, ... page: the module's first, second, ... kept page, on its server's origin with
    its storage cleared, online."""
    used = []

    def make():
        if len(used) < len(kept):
            page = kept[len(used)]
            page.context.set_offline(False)
            page.goto(own_server.url + "/healthz")  # the origin, without the app
            page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            page.context.clear_cookies()
        else:
            context = browser.new_context(viewport={"width": 1280, "height": 720}, base_url=own_server.url)
            context.set_default_timeout(TIMEOUT_MS * 2)
            page = context.new_page()
            kept.append(page)
        used.append(page)
        return page

    yield make
    for page in used:
        page.goto("about:blank")  # the app stops here (its socket, its reconnecting), not during the next test


def at(page, position):
    shown(page, POSITION, re.compile(rf"^{position} / [1-9]"))  # loaded: total known


def test_viewer_resumes_after_a_server_restart(own_server, new_page):
    page = new_page()
    page.goto("/?scenario=lost-marker&layout=v1.28.1")
    at(page, 0)
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    at(page, 4)
    own_server.stop()
    # the page says what is happening (checked while the server is down: a restart can be quicker than a poll)
    expect(page.locator("#conn-status")).to_be_visible()
    own_server.start_again()
    expect(page.locator("#conn-status")).to_be_hidden(timeout=TIMEOUT_MS * 2)
    at(page, 4)
    # the one version shown survived too (an old layout= link)
    expect(page.locator("#panes > [data-variant]")).to_have_count(1)
    page.keyboard.press("ArrowRight")
    at(page, 5)
    expect(page.locator(B_MARKER + '[data-detached="true"]')).to_have_count(1)


@pytest.mark.parametrize("own_server", ["eventlet"], indirect=True)  # both modes: the restart test above
def test_viewer_resumes_after_the_network_drops(own_server, new_page):
    page = new_page()
    page.goto("/?scenario=five-minute-wait&position=6")
    at(page, 6)
    page.context.set_offline(True)
    expect(page.locator("#conn-status")).to_be_visible(timeout=TIMEOUT_MS * 2)
    page.context.set_offline(False)
    expect(page.locator("#conn-status")).to_be_hidden(timeout=TIMEOUT_MS * 2)
    at(page, 6)
    page.keyboard.press("ArrowRight")
    at(page, 7)


@pytest.mark.parametrize("own_server", ["eventlet"], indirect=True)  # both modes: the restart test above
def test_audience_rejoins_the_room_at_the_presenters_step_after_a_restart(own_server, new_page):
    presenter = new_page()
    presenter.goto("/present?scenario=lost-marker")
    expect(presenter.locator("#audience-link a")).to_be_visible()
    room = parse_qs(urlsplit(presenter.url).fragment)["room"][0]
    audience = new_page()
    audience.goto(f"/r/{room}")
    for _ in range(3):
        presenter.keyboard.press("PageDown")
    at(audience, 3)
    own_server.restart()
    at(presenter, 3)
    expect(presenter.locator("#conn-status")).to_be_hidden(timeout=TIMEOUT_MS * 2)
    expect(audience.locator("#conn-status")).to_be_hidden(timeout=TIMEOUT_MS * 2)
    at(audience, 3)
    presenter.keyboard.press("PageDown")
    at(audience, 4)


def moved(payload) -> bool:
    """A Socket.IO frame that moves the page: a state (a load's, or a seek's) or a step's delta."""
    return isinstance(payload, str) and payload.startswith(('42["state"', '42["delta"'))


def test_viewer_reloads_after_its_idle_session_was_evicted(browser):
    # idle for 2 s, a simulation is dropped at the next sweep (every second): after its reload the page steps well
    # within that
    env = {"INFLIGHT_SCOPE_SESSION_IDLE_SECONDS": "2", "INFLIGHT_SCOPE_SWEEP_SECONDS": "1"}
    with LiveServer("threading", ROOT / "test-artifacts" / "server-logs", env=env) as server:
        context = browser.new_context(viewport={"width": 1280, "height": 720}, base_url=server.url)
        try:
            page = context.new_page()
            with page.expect_websocket() as opened:
                page.goto("/?scenario=lost-marker&position=3")
            socket, frames = opened.value, []
            socket.on("framereceived", lambda payload: frames.append(payload))
            at(page, 3)
            logged(server, "1 idle sessions dropped their simulation")  # the server's word: this page's is gone
            start = len(frames)
            with socket.expect_event("framereceived", predicate=moved) as answered:
                page.keyboard.press("ArrowRight")  # answered "no scenario loaded": the page loads it again
            assert answered.value.startswith('42["state"'), answered.value[:200]
            refusals = [f for f in frames[start:] if f.startswith('42["error"')]
            assert len(refusals) == 1 and "no scenario loaded" in refusals[0], frames[start:]
            at(page, 3)  # loaded again where it was
            page.keyboard.press("ArrowRight")
            at(page, 4)
            expect(page.locator("#error")).to_be_hidden()
        finally:
            context.close()
