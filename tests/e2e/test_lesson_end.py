"""The end of a lesson leads on: at a built-in's last step a visible "Next lesson" control, early in the tab order
and on a key (Shift+N), opens the next lesson of the course (the picker's order). It was only inside the folded
introduction, past 80 Tabs."""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_browser import at, open_lost_marker
from webapp.scenario import builtin

NEXT = "Cascade: one lost marker costs a second pod its events"  # the lesson after the lost marker


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768), (760, 520)])
def test_at_the_last_step_a_visible_control_leads_to_the_next_lesson(make_page, size):
    page = make_page(*size)
    open_lost_marker(page)
    at(page, 0)
    button = page.get_by_role("button", name="Next lesson: " + NEXT)
    expect(button).to_have_count(0)  # hidden until the lesson's end
    page.keyboard.press("End")
    at(page, 6)
    expect(button).to_be_visible()
    expect(button).to_be_in_viewport()
    page.locator("body").focus()
    for _ in range(6):  # the skip link, Back, Step ... : a few Tabs reach it
        page.keyboard.press("Tab")
        if button.evaluate("b => b === document.activeElement"):
            break
    expect(button).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#scenario-name")).to_have_text(NEXT)
    expect(page.get_by_role("button", name="Next lesson: " + NEXT)).to_have_count(0)


def test_shift_n_opens_the_next_lesson_and_the_help_lists_it(page):
    open_lost_marker(page)
    at(page, 0)
    page.keyboard.press("?")
    expect(page.locator("#help-keys tr[data-action=nextLesson]")).to_contain_text("Shift+N")
    page.keyboard.press("Escape")
    page.keyboard.press("End")
    at(page, 6)
    page.keyboard.press("Shift+N")
    expect(page.locator("#scenario-name")).to_have_text(NEXT)


def test_the_last_lesson_has_no_next(page):
    page.goto(f"/?scenario={builtin.ids()[-1]}")
    expect(page.locator("#panes > [data-variant]").first).to_be_visible()
    page.keyboard.press("End")
    expect(page.locator("#btn-step")).to_be_visible()
    total = page.get_by_test_id("position").text_content().split("/")[1].split()[0]
    at(page, int(total), int(total))
    expect(page.locator("#btn-next-lesson")).to_be_hidden()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_help_opens_with_the_focus_on_a_close_button_in_view(make_page, theme):
    """The focus landed on the Close button at the card's end, off screen at 1280x720."""
    page = make_page(1280, 720, color_scheme=theme)
    open_lost_marker(page)
    page.keyboard.press("?")
    close = page.locator("#help-close")
    expect(close).to_be_focused()
    expect(close).to_be_in_viewport(ratio=1)
    page.keyboard.press("Enter")
    expect(page.locator("#help")).to_be_hidden()
