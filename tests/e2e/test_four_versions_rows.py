"""Four versions at 1440x900 (two rows of two): the second row scrolled in a box of its own, hidden behind the step
note and the outcomes line; the panes now keep their height and the page scrolls (its controls pinned), so each
pane's caption is brought into view above the controls."""

from playwright.sync_api import expect

from tests.e2e.test_browser import at, settle
from tests.e2e.test_stage import refitted

FOUR = "v1.28.1,v1.28.2,v1.29.9,v1.31.13"


def test_each_of_four_panes_comes_into_view_above_the_controls(make_page):
    page = make_page(1440, 900)
    page.goto(f"/?scenario=lost-marker&position=6&versions={FOUR}")
    panes = page.locator("#panes > [data-variant]")
    expect(panes).to_have_count(4)
    at(page, 6)
    for theme in ("light", "dark"):  # the same load in each theme
        page.emulate_media(color_scheme=theme)
        settle(page)
        refitted(page)
        in_view_above_the_controls(page, panes)


def in_view_above_the_controls(page, panes):
    assert page.evaluate("(() => { const p = document.getElementById('panes'); "
                         "return p.scrollHeight <= p.clientHeight + 1; })()"), "the panes scroll in a box of their own"
    for pane in panes.all():
        caption = pane.locator("[data-testid=caption]")
        caption.scroll_into_view_if_needed()
        box = caption.bounding_box()
        controls = page.locator(".controls").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= controls["y"], (pane.get_attribute("data-variant"), box,
                                                                              controls)
