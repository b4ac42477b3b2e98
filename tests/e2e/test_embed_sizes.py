"""An embed reads at every column width a writer gives it: framed by a page of our own at 320x480 to 1200x700, the
lost marker stepped into its steps 5 and 6 (not opened there), the panes' smallest text is the tokens' least for an
embed (11 px, static/js/tokens.js), no label's box overlaps another label's, a lane or the control bar, and the frame
never scrolls sideways. Under 600 px the panes stack and the strip above them carries the other version's state.
Sizes are layout facts: asserted, not timed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.embed_layout import METRICS_JS, host_page
from webapp.export.tokens import TYPE

SIZES = [(320, 480), (480, 360), (640, 480), (760, 520), (960, 600), (1200, 700)]
STEP_JS = ("() => document.querySelector('iframe').contentWindow"
           ".postMessage({type: 'inflight-scope', action: 'step'}, '*')")
FRAMES_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"
SETTLED_JS = "() => !document.querySelector('#panes .leaving') && document.getAnimations().length === 0"


def open_article(page, width: int, height: int, position: int = 4):
    """The writer's page with the lost marker's steps 2 to 6 embedded at `width` x `height`; its frame once drawn."""
    src = f"/embed?scenario=lost-marker&from=2&to=6&position={position}"
    page.route("**/article.html", lambda route: route.fulfill(body=host_page(width, height, src),
                                                              content_type="text/html"))
    page.goto("/article.html")
    frame = page.frame_locator("iframe")
    expect(frame.get_by_test_id("position")).to_have_text(f"{position} / 6")
    return frame


def step_to(page, frame, position: int):
    page.evaluate(STEP_JS)
    expect(frame.get_by_test_id("position")).to_contain_text(f"{position} / 6")
    inner = page.frames[1]
    inner.wait_for_function(SETTLED_JS)
    inner.wait_for_function(FRAMES_JS)  # fit.js refits a frame after the draw
    return inner.evaluate(METRICS_JS)


@pytest.mark.parametrize("width,height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_embed_reads_at_every_column_width(make_page, width, height):
    page = make_page(width=width + 40, height=height + 120)
    frame = open_article(page, width, height)
    for position in (5, 6):
        m = step_to(page, frame, position)
        assert m["smallest"][0] >= TYPE["embed"], f"step {position}: text at {m['smallest']}"
        assert m["overlaps"] == [], f"step {position}: {m['overlaps']}"
        assert not m["hscroll"], f"step {position}: the frame scrolls sideways"
        assert m["outside"] == [], f"step {position}: {m['outside']}"
    if width < 600:  # stacked: the other version in a line above the panes
        expect(frame.get_by_test_id("glance-row")).to_have_count(1)
        expect(frame.get_by_test_id("glance")).to_be_visible()
    else:
        expect(frame.get_by_test_id("glance")).to_be_hidden()
    assert not page.problems, page.problems
