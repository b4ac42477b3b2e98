"""Honest page loads never meet the HTTP rate limit (webapp/server/httplimit.py, default limits): Chromium opens
the viewer, the editor and the viewer again, each in a fresh context (an empty cache: every file asked for), on
eventlet and threading servers, from one address; no answer is a 429 or a 503, and the pods are drawn."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import open_page
from tests.web.liveserver import ROOT, LiveServer

POD = "[data-queue] [data-pod]"
PAGES = ["/", "/editor", "/", "/"]


@pytest.mark.parametrize("mode", ["eventlet", "threading"])
def test_page_loads_one_after_another_are_never_refused(browser, mode):
    with LiveServer(mode, ROOT / "test-artifacts" / "server-logs") as server:
        statuses: list[tuple[int, str]] = []
        for path in PAGES:
            context, page = open_page(browser, server)
            try:
                page.on("response", lambda response: statuses.append((response.status, response.url)))
                page.goto(path)
                if path == "/":
                    expect(page.locator(POD).first).to_be_visible()
                page.wait_for_load_state("networkidle")
                assert page.problems == []
            finally:
                context.close()
        assert len(statuses) > len(PAGES) * 3
        assert [(status, url) for status, url in statuses if status in (429, 503)] == []
        assert "HTTP rate limit" not in server.log()
