"""Honest page loads never meet the HTTP rate limit (webapp/server/httplimit.py, default limits): Chromium opens
the viewer, the editor and the viewer again, each in a fresh context (an empty cache: every file asked for), on
eventlet and threading servers, from one address; no answer is a 429 or a 503, and the pods are drawn."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import heard, open_page
from tests.web.liveserver import ROOT, LiveServer

POD = "[data-queue] [data-pod]"
PAGES = ["/", "/editor", "/", "/"]
# Each page's own signal that it has drawn what it loaded: the viewer's pods, the editor's verdict on its source.
READY = {"/": POD, "/editor": "#summary:has-text('Valid')"}


def in_flight(page) -> set:
    """The requests the page has started and that have neither their answer nor failed, kept up to date."""
    pending: set = set()
    page.on("request", lambda request: pending.add(request))
    page.on("requestfinished", lambda request: pending.discard(request))
    page.on("requestfailed", lambda request: pending.discard(request))
    return pending


def answered_all(page, pending: set) -> None:
    """Waits until every request the page started has its answer or failed."""
    page.wait_for_load_state("load")
    heard(page, lambda: not pending, lambda: f"requests without an answer: {sorted(r.url for r in pending)}")


@pytest.mark.parametrize("mode", ["eventlet", "threading"])
def test_page_loads_one_after_another_are_never_refused(browser, mode):
    with LiveServer(mode, ROOT / "test-artifacts" / "server-logs") as server:
        statuses: list[tuple[int, str]] = []
        for path in PAGES:
            context, page = open_page(browser, server)
            try:
                pending = in_flight(page)
                page.on("response", lambda response: statuses.append((response.status, response.url)))
                page.goto(path)
                expect(page.locator(READY[path]).first).to_be_visible()
                answered_all(page, pending)
                assert page.problems == []
            finally:
                context.close()
        assert len(statuses) > len(PAGES) * 3
        assert [(status, url) for status, url in statuses if status in (429, 503)] == []
        assert "HTTP rate limit" not in server.log()
