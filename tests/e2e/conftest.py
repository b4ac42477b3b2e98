"""Browser fixtures: the real server (threading mode) and Debian's Chromium driven by Playwright (sync API).

The browser is Debian's headless build of Chromium (the chromium-headless-shell package: the same Blink, V8 and Skia
as the chromium package, without the desktop browser's shell): it draws the same pages at about a quarter less CPU
(docs/benchmarks.md). ``INFLIGHT_SCOPE_CHROMIUM=/usr/bin/chromium`` runs the browser tests in the full browser.

Every page made by ``make_page`` fails its test on a console error, an uncaught page error, or a request
to anything but the live server.
"""

import json
import os
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.waiting import until
from tests.web.liveserver import LiveServer

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("INFLIGHT_SCOPE_CHROMIUM", "/usr/lib/chromium/chromium-headless-shell"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run"]
TIMEOUT_MS = 30_000  # against a hang only (a loaded machine is slow): every wait ends once its condition holds
expect.set_options(timeout=TIMEOUT_MS)  # Playwright's assertions too (their own default is 5 s)
MISSING = (f"{CHROMIUM} is missing: the browser tests need Debian's chromium-headless-shell package "
           "(`make test` installs it through `make system-deps`; or apt-get install chromium-headless-shell)")


@pytest.fixture(scope="session")
def live_server():
    # Every browser test's presenter opens a room from the one address: the per-address bound (20 open, each kept
    # 60 s after its last member leaves; tests/web/test_limits.py checks it) refused the later ones of a worker.
    with LiveServer("threading", ROOT / "test-artifacts" / "server-logs",
                    env={"INFLIGHT_SCOPE_MAX_ROOMS_PER_ADDRESS": "0"}) as server:
        yield server


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(MISSING, pytrace=False)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, timeout=TIMEOUT_MS * 2)
        yield browser
        browser.close()


def open_page(browser, live_server, width=1280, height=720, color_scheme="light", reduced_motion="reduce"):
    """(context, page): a new page that reports into ``page.problems`` every console error, uncaught page error,
    native dialog (dismissed: the app opens none) and request (or websocket) to anything but the live server."""
    origin = urlsplit(live_server.url)

    def local(url: str) -> bool:
        parts = urlsplit(url)
        return (parts.scheme in ("data", "blob", "file")
                or (parts.hostname, parts.port) == (origin.hostname, origin.port))

    def watch_console(msg):
        if msg.type == "error":
            page.problems.append(f"console.error: {msg.text} ({msg.location.get('url', '')})")

    def watch_dialog(dialog):
        page.problems.append(f"dialog: {dialog.message}")
        page.dialogs.append(dialog.message)
        dialog.dismiss()

    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=color_scheme,
                                  reduced_motion=reduced_motion, base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.problems, page.dialogs = [], []
    page.on("console", watch_console)
    page.on("dialog", watch_dialog)
    page.on("pageerror", lambda err: page.problems.append(f"page error: {err}"))
    page.on("request", lambda req: local(req.url) or page.problems.append(f"request to another origin: {req.url}"))
    page.on("websocket",
            lambda ws: local(ws.url.replace("ws", "http", 1)) or page.problems.append(f"websocket: {ws.url}"))
    return context, page


@contextmanager
def sealed_page(browser, width: int, height: int, timeout_ms: int | None = None):
    """``with sealed_page(browser, w, h) as (page, attempted, problems)``: a page in a context of its own that reads
    file:// only, for an offline file: every other request is aborted and its URL put in ``attempted``, console
    errors and uncaught page errors in ``problems``; the context is closed after."""
    context = browser.new_context(viewport={"width": width, "height": height})
    if timeout_ms is not None:
        context.set_default_timeout(timeout_ms)
    attempted: list[str] = []
    problems: list[str] = []
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file://")
                  else (attempted.append(route.request.url), route.abort()))
    page = context.new_page()
    page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
    page.on("pageerror", lambda err: problems.append(str(err)))
    try:
        yield page, attempted, problems
    finally:
        context.close()


def reuse_page(page, live_server, width, height, color_scheme, reduced_motion):
    """A kept page made as good as new: the routes a test set removed, the app it ran unloaded (its sockets
    closed), the origin's storage, cookies and granted permissions cleared, the viewport and media preferences set,
    the problems and dialogs it saw forgotten."""
    page.unroute_all()  # a test's fulfilled article.html would answer the next test's own
    if not page.url.startswith(live_server.url + "/"):
        page.goto(live_server.url + "/healthz")  # the origin, without the app (make_page leaves its pages there)
    page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    page.context.clear_cookies()
    page.context.clear_permissions()
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(color_scheme=color_scheme, reduced_motion=reduced_motion)
    page.problems.clear()
    page.dialogs.clear()
    return page


def fail_on(problems: list[str]) -> None:
    """The test fails, listing them, if a page reported problems (console errors, page errors, dialogs, requests
    elsewhere)."""
    if problems:
        pytest.fail("the page reported problems:\n" + "\n".join(problems), pytrace=False)


@pytest.fixture(scope="session")
def kept_pages(browser, live_server):
    """Pages kept open for the worker's whole run, each in a context of its own, handed out again test after
    test: a new context costs Chromium about 1.4 s of CPU (a new renderer), a navigation in a kept page about
    0.4 s, and the browser tests open some 250 pages on a 2-core machine."""
    kept = []
    yield kept
    for page in kept:
        page.context.close()


@pytest.fixture
def make_page(browser, live_server, kept_pages):
    """``make_page(width, height, color_scheme, reduced_motion)``: the test's first, second, ... page is the
    worker's first, second, ... kept page, as good as new; each in its own context, so a presenter and a follower
    do not share storage."""
    used = []

    # Pages cut to each new picture unless a test asks for motion (MOTION): the suite's time goes to what it
    # checks, and the tests that are about motion say so (test_stage, test_browser's lost-marker stories).
    def make(width=1280, height=720, color_scheme="light", reduced_motion="reduce"):
        if len(used) < len(kept_pages):
            page = reuse_page(kept_pages[len(used)], live_server, width, height, color_scheme, reduced_motion)
        else:
            page = open_page(browser, live_server, width, height, color_scheme, reduced_motion)[1]
            kept_pages.append(page)
        used.append(page)
        return page

    yield make
    problems = [problem for page in used for problem in page.problems]
    for page in used:
        # the app stops here (sockets, timers), not during the next test; on the origin, ready to be cleared
        page.goto(live_server.url + "/healthz")
    fail_on(problems)


@pytest.fixture(scope="module")
def desk(browser, live_server):
    """One 1280x720 page for a whole module (its tests run in order on it, each picking up where the last left)."""
    context, page = open_page(browser, live_server)
    yield page
    context.close()


@pytest.fixture
def desk_page(desk):
    """The module's page; the test fails on any problem it reported during the test."""
    desk.problems.clear()
    yield desk
    fail_on(desk.problems)


@pytest.fixture
def own_page(browser, live_server):
    """A 1280x720 page in a context of its own, closed after the test: for a test that routes the page's websocket
    (``page.route_web_socket``), a route ``unroute_all`` leaves in place, so the page is never handed on. The test
    fails on any problem the page reported."""
    context, page = open_page(browser, live_server)
    yield page
    problems = list(page.problems)
    context.close()
    fail_on(problems)


MOTION = "no-preference"


@pytest.fixture
def page(make_page):
    return make_page()


@pytest.fixture
def moving_page(make_page):
    """A page with the full motion (no reduced-motion preference): animations play as for most viewers."""
    return make_page(reduced_motion=MOTION)


def heard(page, condition, what):
    """``until(condition)`` for what a page's Playwright event handlers fill in: each look is a Playwright call
    (sync Playwright delivers events only during one)."""
    return until(lambda: page.evaluate("true") and condition(), what)


DRIVE = frozenset({"load", "step", "back", "seek", "reset", "play", "pause"})  # the events that move a session


def socketio_event(frame: str | bytes) -> tuple[str, object] | None:
    """A Socket.IO event frame's (name, payload); None for any other frame (engine.io pings, binary frames)."""
    if not isinstance(frame, str) or not frame.startswith("42"):
        return None
    message = json.loads(frame[2:].lstrip("0123456789"))  # after the ack id, if any
    return message[0], message[1] if len(message) > 1 else None


class Traffic:
    """The Socket.IO events a page sends and receives on the websockets it opens from now on, in the order they
    went: ``sent`` their names, ``received`` (name, payload); ``frames`` every frame both ways as they went, each
    ("sent" or "received", the frame). Filled by Playwright's event handlers, which run during a Playwright call
    only (``heard`` waits on them)."""

    def __init__(self, page):
        self.page, self.sent, self.received = page, [], []
        self.frames: list[tuple[str, str | bytes]] = []
        page.on("websocket", self.opened)

    def opened(self, ws) -> None:
        ws.on("framesent", self.went_out)
        ws.on("framereceived", self.came_in)

    def went_out(self, frame: str | bytes) -> None:
        self.frames.append(("sent", frame))
        if event := socketio_event(frame):
            self.sent.append(event[0])

    def came_in(self, frame: str | bytes) -> None:
        self.frames.append(("received", frame))
        if event := socketio_event(frame):
            self.received.append(event)

    def driven(self, since: int = 0) -> list[str]:
        """The events that move a session sent from ``sent[since]`` on."""
        return [name for name in self.sent[since:] if name in DRIVE]


@pytest.fixture
def traffic():
    """``traffic(page)``: a Traffic of ``page`` (before it opens the app), listening until the test ends."""
    made: list[Traffic] = []

    def watch(page) -> Traffic:
        made.append(Traffic(page))
        return made[-1]

    yield watch
    for watched in made:
        watched.page.remove_listener("websocket", watched.opened)
