"""The version picker in a real browser: any one to four versions side by side in lockstep, kept in the address bar
and across a reload, old ``layout=`` links translated, a version a scenario cannot run on refused with the picker
put back; on a phone the panes stack and each diagram is in view. One page serves every test (the suite's time
goes to what they check)."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import socketio_event
from tests.e2e.shown import POSITION, counted, shown
from tests.e2e.test_browser import at, settle
from tests.e2e.test_stage import refitted

PANES = "#panes > [data-variant]"
THREE = ["v1.28.1", "v1.28.2", "v1.30.14"]


def option(page, name):
    return page.locator(f'#versions-options input[value="{name}"]')


def panes_shown(page):
    return [pane.get_attribute("data-variant") for pane in page.locator(PANES).all()]


def in_lane(page, variant, queue, pod):
    return page.locator(f'[data-variant="{variant}"] [data-queue="{queue}"] [data-pod="{pod}"]')


@pytest.fixture
def page(desk_page):  # one page for the module (conftest.desk)
    return desk_page


def test_three_versions_in_lockstep_kept_in_the_address_bar_and_across_a_reload(page):
    page.goto("/?scenario=lost-marker&position=5")
    at(page, 5)
    assert panes_shown(page) == ["v1.28.1", "v1.28.2"]  # the default pair
    # the picker from the keyboard: open it, Tab to v1.30.14 (the options are in the table's order), Space ticks it
    page.focus("#versions-summary")
    page.keyboard.press("Enter")
    expect(option(page, "v1.28.1")).to_be_visible()
    expect(option(page, "v1.30.14")).to_have_accessible_name("v1.30.14")
    expect(option(page, "v1.30.14")).to_have_accessible_description(
        re.compile(r"^v1\.30\.0 to v1\.30\.14 Events no registered hint"))
    for _ in range(6):
        page.keyboard.press("Tab")
    expect(option(page, "v1.30.14")).to_be_focused()
    page.keyboard.press(" ")
    counted(page, PANES, 3)
    at(page, 5)  # reloaded on the new versions at the same position
    assert panes_shown(page) == THREE
    expect(page.locator(f"{PANES} h2")).to_have_text(THREE)  # each pane titled by its version
    expect(page).to_have_url(re.compile(r"[?&]versions=v1\.28\.1,v1\.28\.2,v1\.30\.14(&|$)"))
    expect(page.locator("#versions-chosen")).to_have_text("v1.28.1 · v1.28.2 · v1.30.14")
    page.keyboard.press("Escape")  # closes the menu, focus back on its summary
    expect(page.locator("#versions-menu")).to_be_hidden()
    expect(page.locator("#versions-summary")).to_be_focused()

    # lockstep: one step moves every pane; the decisive step parts v1.28.1 from the others
    page.keyboard.press("ArrowRight")
    at(page, 6)
    expect(page.locator(f"{PANES} [data-testid=caption]")).to_have_text(
        [re.compile(r"^B fails → unschedulablePods"), re.compile(r"^B fails → backoffQ"),
         re.compile(r"^B fails → backoffQ")])
    expect(in_lane(page, "v1.28.1", "unschedulablePods", "B")).to_have_count(1)
    expect(in_lane(page, "v1.30.14", "backoffQ", "B")).to_have_count(1)
    shown(page, POSITION, "differ")  # the divergence flag over three panes
    expect(page.locator('[data-return-pod="B"]')).to_have_text(
        re.compile(r"v1\.28\.1: waiting in unschedulablePods.*v1\.28\.2: waiting in backoffQ"
                   r".*v1\.30\.14: waiting in backoffQ"))
    expect(page).to_have_url(re.compile(r"[?&]position=6(&|$)"))

    page.reload()
    at(page, 6)
    assert panes_shown(page) == THREE
    for name in THREE:
        expect(option(page, name)).to_be_checked()
    expect(option(page, "v1.28.4")).not_to_be_checked()


def test_old_layout_links_and_a_refused_version(page):
    page.goto("/?scenario=lost-marker&layout=v1.28.2&position=6")
    at(page, 6)
    assert panes_shown(page) == ["v1.28.2"]
    expect(in_lane(page, "v1.28.2", "backoffQ", "B")).to_have_count(1)
    expect(page).to_have_url(re.compile(r"[?&]versions=v1\.28\.2(&|$)"))  # rewritten as today's link
    assert "layout=" not in page.url
    page.goto("/?scenario=lost-marker&layout=both&position=2")
    at(page, 2)
    assert panes_shown(page) == ["v1.28.1", "v1.28.2"]

    # the last version cannot be unticked; the fifth cannot be ticked
    page.click("#versions-summary")
    option(page, "v1.28.1").uncheck()
    counted(page, PANES, 1)
    option(page, "v1.28.2").click()
    expect(option(page, "v1.28.2")).to_be_checked()
    expect(page.locator("#versions-status")).to_have_text("At least one version is shown.")
    for name in ("v1.28.4", "v1.29.9", "v1.31.13"):
        option(page, name).check()
    counted(page, PANES, 4)
    at(page, 2)
    expect(option(page, "v1.28.5")).to_be_disabled()
    page.keyboard.press("Escape")
    expect(page.locator("#versions-menu")).to_be_hidden()

    # a scenario that cannot run on a version as written: the error says where, the picker shows what is shown
    page.locator("#scenario-picker").select_option("duplicate-pop-growth")  # opens on its own pair
    expect(page.locator("#scenario-name")).to_contain_text("twice")
    counted(page, PANES, 2)
    page.click("#versions-summary")
    option(page, "v1.31.13").click()
    expect(page.locator("#error")).to_contain_text("on v1.31.13")
    expect(option(page, "v1.31.13")).not_to_be_checked()
    expect(page.locator("#versions-chosen")).to_have_text("v1.28.1 · v1.28.2")
    assert panes_shown(page) == ["v1.28.1", "v1.28.2"]


def test_versions_ticked_at_once_are_all_shown(page, traffic):
    """Three ticks in one task, before any answer can come: the server takes one load of a connection at a time,
    and the picker sends the latest choice once its load is answered, so every tick lands (on a busy machine the
    second tick's load was refused and the third's forgot it)."""
    watched = traffic(page)
    page.goto("/?scenario=lost-marker&position=2&versions=v1.28.2")
    at(page, 2)
    page.click("#versions-summary")
    start = len(watched.frames)
    page.evaluate("""names => { for (const name of names)
        document.querySelector(`#versions-options input[value="${name}"]`).click(); }""",
                  ["v1.28.4", "v1.29.9", "v1.31.13"])
    counted(page, PANES, 4)
    expect(page).to_have_url(re.compile(r"versions=v1\.28\.2(,|%2C)v1\.28\.4(,|%2C)v1\.29\.9(,|%2C)v1\.31\.13"))
    assert panes_shown(page) == ["v1.28.2", "v1.28.4", "v1.29.9", "v1.31.13"]
    expect(page.locator("#versions-chosen")).to_have_text("v1.28.2 · v1.28.4 · v1.29.9 · v1.31.13")
    expect(page.locator("#error")).to_be_hidden()
    heard = [("sent" if way == "sent" else "got", event[0])  # the socket's loads sent and answers got, in order
             for way, frame in watched.frames[start:]
             if (event := socketio_event(frame)) and event[0] in ("load", "scenario", "error")]
    loads = [i for i, (way, event) in enumerate(heard) if way == "sent" and event == "load"]
    assert len(loads) >= 2 and all(("got", "scenario") in heard[a:b] for a, b in zip(loads, loads[1:])), heard


def test_three_versions_side_by_side_on_a_projector_and_stacked_on_a_phone(page, artifacts_dir):
    """1920x1080: three panes in one row, each diagram whole and wide enough to read; the same load made a phone's
    390x844: the panes stacked, each diagram in view above the bottom bar, no sideways scroll; the pictures kept in
    test-artifacts/screens/versions-three-1920x1080.png and versions-three-stacked-390x844.png."""
    screens = artifacts_dir / "screens"
    screens.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1920, "height": 1080})
    try:
        page.goto("/?scenario=lost-marker&position=6&versions=" + ",".join(THREE))
        at(page, 6)
        settle(page)
        refitted(page)
        diagrams = [pane.get_by_test_id("diagram").bounding_box() for pane in page.locator(PANES).all()]
        assert len({round(box["y"]) for box in diagrams}) == 1, diagrams  # one row
        for left, right in zip(diagrams, diagrams[1:]):
            assert right["x"] >= left["x"] + left["width"] - 1, diagrams  # side by side, no overlap
        for box in diagrams:
            assert box["width"] > 500 and box["x"] + box["width"] <= 1920 and box["y"] + box["height"] <= 1080, box
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 1920
        page.screenshot(path=str(screens / "versions-three-1920x1080.png"))

        page.set_viewport_size({"width": 390, "height": 844})
        settle(page)
        refitted(page)
        assert panes_shown(page) == THREE
        boxes = [pane.bounding_box() for pane in page.locator(PANES).all()]
        for above, below in zip(boxes, boxes[1:]):
            assert below["y"] >= above["y"] + above["height"] - 1, boxes  # one under the other
        for box in boxes:
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5, box
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390  # no sideways scroll
        bar = page.locator(".controls").bounding_box()
        for pane in page.locator(PANES).all():
            diagram = pane.get_by_test_id("diagram")
            diagram.scroll_into_view_if_needed()
            expect(diagram).to_be_in_viewport(ratio=1)
            box = diagram.bounding_box()
            assert box["width"] > 300 and box["height"] > 150, box
            assert box["y"] + box["height"] <= bar["y"] + 1, "the diagram is under the bottom bar"
            expect(pane.locator('[data-queue="backoffQ"], [data-queue="unschedulablePods"]')
                   .locator('[data-pod="B"]')).to_be_visible()
        page.screenshot(path=str(screens / "versions-three-stacked-390x844.png"), full_page=True)
    finally:
        page.set_viewport_size({"width": 1280, "height": 720})  # the module page's size (conftest.desk)


MENU_OVERFLOW_JS = """() => {
  const right = document.documentElement.clientWidth;
  const boxes = [document.getElementById('versions-menu'), ...document.querySelectorAll('#versions-menu .vo-summary')]
    .map((el) => el.getBoundingClientRect());
  return boxes.filter((box) => box.left < 0 || box.right > right)
    .map((box) => [Math.round(box.left), Math.round(box.right), right]);
}"""


def test_the_menu_stays_inside_the_window_at_every_size(page):
    """At 1280x720 the menu, opened under its summary, ended at 1309 px, its descriptions cut by the window's edge;
    it stays inside at every size, also when the window is resized while it is open."""
    page.goto("/?scenario=lost-marker")
    at(page, 0)
    menu = page.locator("#versions-menu")
    try:
        for width, height in ((1280, 720), (1920, 1080), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.click("#versions-summary")
            expect(menu).to_be_visible()
            assert page.evaluate(MENU_OVERFLOW_JS) == [], f"{width}x{height}: past the window's edge"
            page.keyboard.press("Escape")
            expect(menu).to_be_hidden()
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.click("#versions-summary")
        page.set_viewport_size({"width": 1280, "height": 720})  # resized while open
        page.wait_for_function(f"() => ({MENU_OVERFLOW_JS})().length === 0")
    finally:
        page.set_viewport_size({"width": 1280, "height": 720})  # the module page's size (conftest.desk)
