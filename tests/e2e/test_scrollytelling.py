"""Scrollytelling in real Chromium: the section being read (the one crossing the middle of what the pinned diagram
leaves uncovered) moves the view to its step: in the embed's story mode, in the example article
(docs/scrollytelling.html, an embed driven through the postMessage API by static/js/scrolly.js), in the offline
file's story mode and in an article of the test's own framing an offline file, both opened from file://. And the
offline file opens where it was exported, locked to its range, naming the app's version."""

import re
import shutil

import pytest
import requests
from playwright.sync_api import expect

from tests.e2e.test_browser import at
from webapp import ROOT, __version__

STORY = "/embed?scenario=lost-marker&from=0&to=6&story=1"

# The reading line as the documentation states it: the middle of the window, or of what the pinned view leaves
# uncovered below it when it spans the window's width at the top.
READING_LINE_JS = """(view) => {
  const r = view.getBoundingClientRect();
  const across = r.width >= 0.8 * innerWidth && r.top <= 1 && r.bottom < innerHeight;
  return Math.round(((across ? r.bottom : 0) + innerHeight) / 2);
}"""


def read(page, step: int, view: str = "#app"):
    """Scroll with the mouse wheel (over the text) until section ``step``'s top is just above the reading line."""
    section = page.locator(f'section[data-step="{step}"]')
    line = page.locator(view).evaluate(READING_LINE_JS)
    box = page.viewport_size
    page.mouse.move(20, box["height"] - 20)
    top = section.evaluate("(s) => s.getBoundingClientRect().top")
    page.mouse.wheel(0, top - line + 12)
    expect(section).to_have_attribute("aria-current", "step")  # the view said it is there


def sections(page):
    return page.locator("section[data-step]").evaluate_all("(all) => all.map((s) => Number(s.dataset.step))")


@pytest.mark.parametrize("width, height", [(1280, 720), (760, 520)])
def test_the_story_mode_follows_the_paragraph_being_read(make_page, live_server, width, height):
    page = make_page(width, height)
    page.goto(STORY)
    at(page, 0)
    assert sections(page) == [0, 1, 2, 3, 4, 5, 6]
    expect(page.locator('section[data-step="0"] .story-description strong').first).to_have_text(
        "The v1.28.0/1 bug in six steps.")  # the description's Markdown, drawn
    for step in (3, 6, 1):
        read(page, step)
        at(page, step)
        assert page.locator("#app").evaluate("(a) => a.getBoundingClientRect().top") == 0  # pinned
    expect(page.locator('section[data-step="3"]')).not_to_have_attribute("aria-current", "step")


def test_on_a_phone_the_diagram_stays_pinned_at_the_top(make_page, live_server):
    page = make_page(390, 844)
    page.goto(STORY)
    at(page, 0)
    read(page, 4)
    at(page, 4)
    app = page.locator("#app").evaluate("(a) => { const r = a.getBoundingClientRect(); return [r.top, r.width]; }")
    assert app == [0, 390]
    assert page.evaluate("() => scrollY") > 844  # the article has scrolled by under it
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # no horizontal scroll


# Where v1.28.1's B and the lane holding it are, against the band the panes are seen in (under the strip of the
# other versions, above the box's foot): {band: [top, bottom], lane: [top, bottom], name, walk: B's walk's line}.
B_IN_SIGHT_JS = """() => {
  const panes = document.querySelector('#panes').getBoundingClientRect();
  const strip = document.querySelector('#glance');
  const top = Math.max(panes.top, strip && !strip.hidden ? strip.getBoundingClientRect().bottom : 0);
  const pane = document.querySelector('[data-variant="v1.28.1"]');
  const lane = pane.querySelector('.lane .chip[data-pod="B"]').closest('.lane');
  const r = lane.getBoundingClientRect();
  const walk = pane.querySelector('.hint-summary')?.getBoundingClientRect();
  return {band: [top, Math.min(panes.bottom, innerHeight)], lane: [r.top, r.bottom], name: lane.dataset.queue,
          walk: walk ? [walk.top, walk.bottom] : null};
}"""


@pytest.mark.parametrize("color_scheme", ["light", "dark"])
def test_on_a_phone_the_story_keeps_bs_lane_in_sight_at_the_climax(make_page, live_server, artifacts_dir,
                                                                   color_scheme):
    """At step 6 the text says B is parked in unschedulablePods; that lane was under the foot of the pinned
    diagram's box (its second row of lanes)."""
    page = make_page(390, 844, color_scheme=color_scheme)
    page.goto(STORY)
    at(page, 0)
    for step, queue in ((3, "inFlight"), (6, "unschedulablePods")):
        read(page, step)
        at(page, step)
        expect(page.locator('[data-variant="v1.28.1"] .lane .chip[data-pod="B"]')).to_have_count(1)
        b = page.evaluate(B_IN_SIGHT_JS)
        assert b["name"] == queue, b
        assert b["band"][0] - 1 <= b["lane"][0] and b["lane"][1] <= b["band"][1] + 1, b
    assert b["band"][0] - 1 <= b["walk"][0], b  # and what B's walk found ("walked nothing → QueueSkip")
    shots = artifacts_dir / "screenshots"
    shots.mkdir(exist_ok=True)
    page.screenshot(path=str(shots / f"story-climax-390x844-{color_scheme}.png"))


def test_the_example_article_drives_its_embed(page, live_server):
    page.goto("/scrollytelling")
    frame = page.frame_locator("iframe[data-inflight-scrolly]")
    expect(frame.get_by_test_id("position")).to_have_text(re.compile(r"^0 / 6"))
    for step in (2, 5, 6, 3):
        read(page, step, "iframe[data-inflight-scrolly]")
        expect(frame.get_by_test_id("position")).to_have_text(re.compile(rf"^{step} / 6"))


def test_the_example_article_names_no_other_host():
    html = (ROOT / "docs" / "scrollytelling.html").read_text()
    addresses = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert addresses and all(a.startswith("/") or a.startswith("data:") for a in addresses), addresses


def exported(live_server, tmp_path, query: str, name: str = "lost-marker.html"):
    answer = requests.get(f"{live_server.url}/export/lost-marker.html?{query}", timeout=60)
    assert answer.status_code == 200, answer.text
    path = tmp_path / name
    path.write_bytes(answer.content)
    return path


def test_the_offline_story_follows_the_paragraph_from_file(page, live_server, tmp_path):
    path = exported(live_server, tmp_path, "story=1&position=5")
    page.goto(path.as_uri())
    at(page, 5)  # it opens where it was exported, its section in view
    expect(page.locator('section[data-step="5"]')).to_have_attribute("aria-current", "step")
    for step in (2, 6):
        read(page, step)
        at(page, step)


def test_an_article_from_file_drives_an_offline_file_it_frames(page, live_server, tmp_path):
    exported(live_server, tmp_path, "")
    shutil.copy(ROOT / "static" / "js" / "scrolly.js", tmp_path / "scrolly.js")
    steps = "".join(f'<section data-step="{n}" style="min-height: 90vh">Step {n}</section>' for n in range(7))
    (tmp_path / "article.html").write_text(
        '<!doctype html><meta charset="utf-8"><body style="margin:0">'
        '<iframe data-inflight-scrolly src="lost-marker.html" title="lost marker" '
        'style="position: fixed; right: 0; top: 0; width: 60vw; height: 100vh; border: 0"></iframe>'
        f'<div style="width: 38vw; padding-bottom: 60vh">{steps}</div><script src="scrolly.js"></script>')
    page.goto((tmp_path / "article.html").as_uri())
    frame = page.frame_locator("iframe[data-inflight-scrolly]")
    expect(frame.get_by_test_id("position")).to_have_text(re.compile(r"^0 / 6"))
    for step in (4, 6):
        read(page, step, "iframe[data-inflight-scrolly]")
        expect(frame.get_by_test_id("position")).to_have_text(re.compile(rf"^{step} / 6"))


@pytest.mark.parametrize("query, opens, lo, hi", [("position=6", 6, 0, 6), ("position=4&from=2&to=5", 4, 2, 5)])
def test_the_offline_file_opens_where_it_was_exported(page, live_server, tmp_path, query, opens, lo, hi):
    page.goto(exported(live_server, tmp_path, query).as_uri())
    at(page, opens)
    page.keyboard.press("End")
    at(page, hi)
    page.keyboard.press("ArrowRight")
    at(page, hi)  # locked to the range
    page.keyboard.press("Home")
    at(page, lo)
    made_by = page.get_by_test_id("made-by")
    made_by.scroll_into_view_if_needed()
    expect(made_by).to_be_visible()
    expect(made_by).to_contain_text(f"Made with Inflight Scope {__version__}")


def test_the_pages_offline_file_button_exports_where_the_view_is(page, live_server):
    page.goto("/embed?scenario=lost-marker&from=2&to=5&position=4")
    at(page, 4)
    with page.expect_request(re.compile(r"/export/lost-marker\.html\?")) as asked:
        page.locator("#btn-export-html").evaluate("(b) => b.click()")  # the embed hides it; the main page shows it
    assert asked.value.url.endswith("/export/lost-marker.html?position=4&from=2&to=5")


def test_the_story_mode_passes_axe_in_both_themes(page, live_server):
    from tests.e2e.test_accessibility import COLOUR_RULES, serious_violations

    page.goto(STORY + "&position=5")
    at(page, 5)
    page.wait_for_function("() => document.getAnimations().length === 0")
    assert serious_violations(page) == []
    page.emulate_media(color_scheme="dark")
    assert serious_violations(page, COLOUR_RULES) == []
