"""The first frame in Chromium (webapp/web/firstframe.py): without JavaScript, the viewer, the embed and a room's
page (at its presenter's step) show their pods, in either theme, on a phone and on a laptop; with it, the live view
takes over from the picture in the HTML without moving anything on the page (no layout shift). Screenshots go to
test-artifacts/screenshots/first-frame-*.png."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import TIMEOUT_MS, heard
from tests.e2e.test_browser import at
from tests.e2e.test_talks import start_presenter

POD = "[data-queue] [data-pod]"
LIVE = "#panes[data-count]"  # page.js has drawn the live view
# Every visible pod as "variant queue pod", in the page's order.
SHOWN_PODS = """() => [...document.querySelectorAll('#panes > [data-variant], #first-frame svg > [data-variant]')]
  .flatMap((pane) =>
  [...pane.querySelectorAll('[data-queue] [data-pod]')].filter((pod) => pod.getBoundingClientRect().width > 0)
    .map((pod) => `${pane.dataset.variant} ${pod.closest('[data-queue]').dataset.queue} ${pod.dataset.pod}`))"""
# Every layout shift of the page from its first paint (buffered), with what moved.
SHIFTS = """window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__shifts.push({ value: entry.value, input: entry.hadRecentInput,
    moved: entry.sources.map((s) => s.node ? (s.node.id || s.node.className || s.node.nodeName) : '?'),
    panes: entry.sources.some((s) => !!(s.node instanceof Element ? s.node : s.node?.parentElement)
      ?.closest('#panes')) });
}).observe({ type: 'layout-shift', buffered: true });"""
# Resolves after two animation frames: the page has painted what it drew (no timer).
PAINTED = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


def new_page(browser, live_server, width, height, scheme="light", script=True):
    """A page in a context of its own (empty cache) that records any request leaving the live server."""
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme,
                                  java_script_enabled=script, reduced_motion="reduce", base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.elsewhere = []
    page.on("request", lambda r: r.url.startswith(live_server.url) or page.elsewhere.append(r.url))
    return page


@pytest.fixture
def room_at_3(make_page):
    """A presenter's room at step 3 (its page kept open while the test runs): its code."""
    presenter, room, _ = start_presenter(make_page)
    for _ in range(3):
        presenter.keyboard.press("ArrowRight")
    at(presenter, 3)
    return room, presenter.evaluate(SHOWN_PODS)


SIZES = [(390, 844), (1280, 720)]


def test_without_javascript_the_pages_show_their_pods(browser, live_server, artifacts_dir, room_at_3):
    """Each page at each size and theme, one page without JavaScript going from one to the next (a page without
    it keeps nothing from one document to the next)."""
    room, presenters_pods = room_at_3
    out = artifacts_dir / "screenshots"
    out.mkdir(exist_ok=True)
    page = new_page(browser, live_server, *SIZES[0], script=False)
    try:
        for size in SIZES:
            for scheme in ("light", "dark"):
                page.set_viewport_size({"width": size[0], "height": size[1]})
                page.emulate_media(color_scheme=scheme)
                viewer_pods = None
                for name, path in (("room", f"/r/{room}"), ("viewer", "/?scenario=lost-marker&position=3"),
                                   ("embed", "/embed?scenario=lost-marker&position=3")):
                    label = f"{name} {size[0]}x{size[1]} {scheme}"
                    page.goto(path)
                    expect(page.locator(POD).locator("visible=true").first).to_be_visible()
                    shown = page.evaluate(SHOWN_PODS)
                    assert shown, label
                    if name == "room":
                        assert shown == presenters_pods, label  # the presenter's step, as the presenter's page has it
                    viewer_pods = viewer_pods or shown
                    assert shown == viewer_pods, label
                    expect(page.locator("#scenario-name")).to_be_hidden()  # "Loading…" is for a page that runs
                    expect(page.locator("#intro summary")).to_contain_text("The lost marker")
                    expect(page.locator(".controls .position").locator("visible=true")).to_have_text("3 / 6")
                    if name == "room":
                        expect(page.locator("#room-banner")).to_contain_text(f"Room {room}")
                    page.screenshot(path=str(out / f"first-frame-{name}-{size[0]}x{size[1]}-{scheme}.png"))
                    dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
                    assert dark == (scheme == "dark"), f"{label}: the shot is not in the {scheme} theme"
        assert page.elsewhere == []
    finally:
        page.context.close()


def test_the_live_view_takes_over_without_a_layout_shift(browser, live_server, room_at_3):
    """Each page loaded as on a first visit, with the cache disabled (DevTools' "Disable cache") and the storage
    and cookies the last page left cleared, at a phone's and a laptop's size."""
    room, presenters_pods = room_at_3
    page = new_page(browser, live_server, *SIZES[0])
    try:
        devtools = page.context.new_cdp_session(page)
        devtools.send("Network.enable")
        devtools.send("Network.setCacheDisabled", {"cacheDisabled": True})
        page.add_init_script(SHIFTS)
        for size in SIZES:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            for path in (f"/r/{room}", "/", "/embed"):
                if page.url.startswith(live_server.url):  # a first visit: nothing kept from the last page
                    page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
                page.context.clear_cookies()
                page.goto(path, wait_until="commit")
                expect(page.locator(POD).first).to_be_visible()
                page.wait_for_selector(LIVE, state="attached")
                expect(page.get_by_test_id("first-frame")).to_have_count(0)
                page.wait_for_load_state("networkidle")
                assert page.evaluate(PAINTED)
                if path.startswith("/r/"):
                    expect(page.locator("#room-banner")).to_be_visible()
                    assert page.evaluate(SHOWN_PODS) == presenters_pods
                shifts = page.evaluate("window.__shifts")
                assert sum(s["value"] for s in shifts if not s["input"]) < 0.01, (path, size, shifts)
        assert page.elsewhere == []
    finally:
        page.context.close()


def test_the_act_bar_filled_after_the_live_view_moves_no_pane(browser, live_server):
    """1024x768: the Act bar's event buttons come with /api/operations and /api/plugins; held until the live view
    has drawn (a busy server's order), they used to take the panes' height as they came (the lanes moved 31 px up).
    Now nothing inside the panes moves when they come."""
    page = new_page(browser, live_server, 1024, 768)
    held = []
    try:
        for api in ("**/api/operations", "**/api/plugins"):
            page.route(api, lambda route: held.append(route))
        page.add_init_script(SHIFTS)
        page.goto("/", wait_until="commit")
        page.wait_for_selector(LIVE, state="attached")
        assert page.evaluate(PAINTED)
        # both asked for (the page's modules ask at once)
        heard(page, lambda: len(held) == 2, lambda: f"the page asked for {len(held)} of the Act bar's two APIs")
        page.evaluate("window.__shifts = []")  # what moves from now on moves because the Act bar fills
        for route in held:
            route.continue_()
        expect(page.locator("#explore-events > *").first).to_be_attached()
        page.wait_for_load_state("networkidle")
        assert page.evaluate(PAINTED)
        shifts = page.evaluate("window.__shifts")
        assert [s for s in shifts if s["panes"] and not s["input"]] == [], shifts
    finally:
        page.context.close()

