"""A phone's first visit (an empty cache, 390x844): the audience link and the viewer draw their pods from a
handful of requests, the Socket.IO connection counted (webapp/web/bundles.py; the times over emulated 3G are
bench/phone_load.py's)."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import open_page
from tests.e2e.test_talks import start_presenter

MOST_REQUESTS = 8  # issue 29's goal for a first load, every request and the websocket counted
POD = "[data-queue] [data-pod]"


def first_visit(browser, live_server, path: str) -> tuple[list[str], object]:
    """The requests (and websocket) a new phone's page makes opening ``path``, until its pods are drawn and the
    network has gone quiet; and the page (its context closed by the caller)."""
    context, page = open_page(browser, live_server, 390, 844)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.on("websocket", lambda ws: asked.append(ws.url))
    page.goto(path)
    expect(page.locator(POD).first).to_be_visible()
    page.wait_for_load_state("networkidle")
    return asked, page


@pytest.mark.parametrize("where", ["room", "viewer"])
def test_a_first_visit_draws_its_pods_from_a_handful_of_requests(browser, live_server, make_page, where):
    path = "/"
    if where == "room":
        _, room, _ = start_presenter(make_page)
        path = f"/r/{room}"
    asked, page = first_visit(browser, live_server, path)
    try:
        scripts = [url for url in asked if url.endswith(".js")]
        sockets = [url for url in asked if "/socket.io/" in url]
        assert len(asked) <= MOST_REQUESTS, asked
        assert len(scripts) == 2 and all("/static/v/" in url and "/bundle/" in url for url in scripts), asked
        assert len(sockets) == 1 and sockets[0].startswith("ws"), asked  # the websocket, no polling first
        if where == "room":
            assert asked[0].endswith(path) and "/?room=" not in " ".join(asked)  # its own page, no redirect
            expect(page.locator("#room-banner")).to_be_visible()
        assert page.problems == []
    finally:
        page.context.close()
