"""Traps a speaker, a follower or a learner fell into with mouse, touch or keyboard (issue 10, found by using the
product as its people do), each with the browser test that would have caught it: presentation mode with no way
out but a key, Space clicking again the control just clicked, a wrong room code leaving a phone on a blank stage,
a course text's list drawn as a paragraph, the editor's Viewer losing your place, the table view not kept in the
address, focus falling to the page's body, Play looking as if it still played at a prompt."""

import re
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import expect

from tests.e2e.shown import POSITION, shown
from tests.e2e.test_browser import at, open_lost_marker, settle
from tests.e2e.test_talks import start_presenter

PRESENTING_JS = "() => document.getElementById('app').classList.contains('presenting')"


def presenting(page) -> bool:
    return page.evaluate(PRESENTING_JS)


def test_presentation_mode_is_left_by_a_click_or_escape_then_focus_and_the_table_view_stay(make_page):
    """In presentation mode every button but Play was hidden and only the p key led out: a speaker with a mouse, a
    clicker or a phone was stuck in it, a reload too (the address keeps it). Then, out of it on the same page: the
    focus stays in its pane when the pane is drawn again, and the table view is kept in the address."""
    page = make_page()
    open_lost_marker(page, "&position=2&presenting=1")
    at(page, 2)
    assert presenting(page)
    leave = page.get_by_role("button", name="Leave presentation mode")
    expect(leave).to_be_visible()
    leave.click()
    page.wait_for_function(f"() => !({PRESENTING_JS})()")
    expect(leave).to_be_hidden()
    expect(page.locator("#btn-presenting")).to_be_visible()
    page.keyboard.press("p")
    page.wait_for_function(PRESENTING_JS)
    page.keyboard.press("l")  # the legend open: Escape closes it, and only it
    expect(page.locator("#legend")).to_have_attribute("open", "")
    page.keyboard.press("Escape")
    expect(page.locator("#legend")).not_to_have_attribute("open", "")
    assert presenting(page)
    page.keyboard.press("Escape")  # nothing open: Escape leaves presentation mode
    page.wait_for_function(f"() => !({PRESENTING_JS})()")
    assert "presenting" not in parse_qs(urlsplit(page.url).query)
    focus_stays_in_the_pane_it_was_in_when_the_pane_is_drawn_again(page)
    the_table_view_is_kept_in_the_address_and_through_a_reload(page)


def test_space_after_a_click_plays_instead_of_clicking_again(page):
    """Clicking Theme (or Predict, Table view, Reset) and then pressing Space clicked it again: the theme went back,
    Predict was unticked. Focused by a click, Space plays; focused from the keyboard, it still clicks. First, on
    the same page: the plugin catalogue opens from the Act bar."""
    open_lost_marker(page)
    the_plugin_catalogue_opens_from_the_act_bar(page)
    at(page, 0)
    theme = page.evaluate("document.documentElement.dataset.theme")
    page.locator("#theme-toggle").click()
    changed = page.evaluate("document.documentElement.dataset.theme")
    assert changed != theme
    page.keyboard.press(" ")
    expect(page.locator("#btn-play")).to_have_text("⏸ Pause")
    assert page.evaluate("document.documentElement.dataset.theme") == changed
    page.keyboard.press(" ")
    expect(page.locator("#btn-play")).to_have_text("▶ Play")
    page.locator("#predict").click()
    page.keyboard.press(" ")
    expect(page.locator("#btn-play")).to_have_text("⏸ Pause")
    assert page.is_checked("#predict")
    page.keyboard.press(" ")
    expect(page.locator("#btn-play")).to_have_text("▶ Play")
    page.locator("#btn-tables").focus()  # from the keyboard (focus() is :focus-visible): Space presses it
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    page.keyboard.press(" ")
    expect(page.locator("#btn-tables")).to_have_attribute("aria-pressed", "true")


def test_a_wrong_room_code_says_so_and_leads_to_the_viewer(make_page):
    """/r/CODE of no open room showed "following the presenter" over a blank stage, retrying silently, and Detach
    there threw; a code that cannot be one opened the viewer without a word."""
    phone = make_page(width=390, height=844)
    phone.goto("/r/ZZZZZZ")
    expect(phone.locator("#error")).to_contain_text("No room ZZZZZZ is open here (yet)")
    phone.get_by_role("button", name="Detach").click()
    expect(phone).to_have_url(re.compile(r"/(\?scenario=[\w-]+)?$"))  # the viewer (its address then names its scenario)
    expect(phone.locator("#panes > [data-variant]")).to_have_count(2)
    expect(phone.locator("#room-banner")).to_be_hidden()
    phone.goto("/r/a!")
    expect(phone.get_by_test_id("link-notice")).to_contain_text("There is no room")
    expect(phone.locator("#panes > [data-variant]")).to_have_count(2)


def test_a_course_text_lists_its_wrapped_bullets_and_space_after_clicking_a_checkboxs_label_plays(page):
    """In-flight basics' two version bullets wrap over lines: they were drawn as one paragraph with stray '*'. On the
    same page at its start: Space after a click on Predict's word (not its box) plays, Predict staying ticked."""
    page.goto("/?scenario=in-flight-basics")
    items = page.locator("#scenario-description ul > li")
    expect(items).to_have_count(2)
    expect(items.nth(0)).to_contain_text(
        re.compile(r"^v1\.28\.1 keeps receivedEvents .* the last event before its Pop\.$"))
    expect(page.locator("#scenario-description")).not_to_contain_text("* ")
    shown(page, POSITION, re.compile(r"^0 / "))
    page.locator("label.field", has_text="Predict").click(position={"x": 40, "y": 8})  # the word, not the box
    assert page.is_checked("#predict")
    page.keyboard.press(" ")
    expect(page.locator("#btn-play")).to_have_text("⏸ Pause")
    assert page.is_checked("#predict")
    page.keyboard.press(" ")


def test_the_editors_viewer_link_returns_to_your_place(page):
    page.goto("/?scenario=three-pod-cascade&position=4&theme=dark")
    shown(page, POSITION, re.compile(r"^4 / "))
    page.locator("#btn-editor").click()
    expect(page).to_have_url(re.compile(r"/editor\?scenario=three-pod-cascade"))
    page.locator("#viewer-link").click()
    expect(page).to_have_url(re.compile(r"/\?scenario=three-pod-cascade&position=4&theme=dark"))
    shown(page, POSITION, re.compile(r"^4 / "))


def the_table_view_is_kept_in_the_address_and_through_a_reload(page):
    """At 3."""
    page.keyboard.press("v")
    expect(page).to_have_url(re.compile(r"[?&]tables=1(&|$)"))
    page.reload()
    at(page, 3)
    expect(page.locator("#tables")).to_be_visible()
    expect(page.locator("#btn-tables")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("v")
    expect(page).not_to_have_url(re.compile(r"tables="))


def focus_stays_in_the_pane_it_was_in_when_the_pane_is_drawn_again(page):
    """At 2: → with a term of the diagram focused redrew the pane and the focus fell to the body (the next Tab
    started at the top of the page)."""
    at(page, 2)
    settle(page)
    term = page.locator("#panes > [data-variant='v1.28.2'] .term").first
    term.focus()
    page.keyboard.press("ArrowRight")
    at(page, 3)
    page.wait_for_function("() => document.activeElement !== document.body")
    assert page.evaluate("document.activeElement.closest('[data-variant]')?.dataset.variant") == "v1.28.2"


def test_play_says_paused_as_soon_as_it_stops_at_a_prompt(make_page):
    page = make_page(reduced_motion="no-preference")  # the walk of the step before plays while the prompt opens
    open_lost_marker(page, "&position=4")
    at(page, 4)
    page.check("#predict")
    page.locator("#btn-play").click()
    # the button as the first frame that shows the prompt has it (not once the paused state came back)
    shown = page.wait_for_function("""() => document.getElementById('predict-dialog').hidden ? null
        : document.getElementById('btn-play').textContent""")
    assert shown.json_value() == "▶ Play"
    expect(page.locator("#predict-dialog")).to_be_visible()
    page.keyboard.press("Escape")


def before_the_poll(presenter):
    """The presenter's room at the lost marker's step 5, Predict ticked: the next step opens the poll."""
    for _ in range(5):
        presenter.keyboard.press("ArrowRight")
    at(presenter, 5)
    presenter.check("#predict")


def closing_the_poll_puts_the_focus_on_step_and_escape_withdraws_one(presenter):
    """The revealed poll's Close removed the panel with the focus in it: the focus fell to the page's body. Then,
    back at 5 in presentation mode, Escape on the next open poll withdraws it and keeps presentation mode."""
    before_the_poll(presenter)
    presenter.locator("#btn-step").click()
    panel = presenter.get_by_test_id("poll-presenter")
    panel.get_by_test_id("poll-reveal").click()
    at(presenter, 6)
    panel.get_by_role("button", name="Close").click()
    expect(panel).to_have_count(0)
    expect(presenter.locator("#btn-step")).to_be_focused()
    presenter.keyboard.press("ArrowLeft")
    at(presenter, 5)
    escape_on_an_open_poll_withdraws_it_and_keeps_presentation_mode(presenter)


def test_a_room_follower_has_the_way_out_and_its_keys_and_the_presenter_closes_polls(make_page):
    """A follower in presentation mode has the way out. A follower's help listed →, Space, Home, End, d and +/−,
    which only said "press Detach"; detached, they are its keys again (the follower's window then a phone's). Then
    in the same room the presenter's polls: Close puts the focus on Step, Escape withdraws an open one."""
    presenter, room, _ = start_presenter(make_page)
    follower = make_page()
    follower.goto(f"/r/{room}")
    expect(follower.locator("#room-code")).to_have_text(room)
    follower.locator("#btn-presenting").click()
    follower.wait_for_function(PRESENTING_JS)
    follower.get_by_role("button", name="Leave presentation mode").click()
    follower.wait_for_function(f"() => !({PRESENTING_JS})()")
    follower.set_viewport_size({"width": 390, "height": 844})
    follower.keyboard.press("?")
    help_keys = follower.locator("#help-keys tr")
    expect(follower.locator("#help-keys tr[data-action=detach]")).to_have_count(1)
    expect(follower.locator("#help-keys tr[data-action=step]")).to_have_count(0)
    expect(help_keys.filter(has_text="toggle theme")).to_have_count(1)
    follower.keyboard.press("Escape")
    follower.get_by_role("button", name="Detach").click()
    follower.keyboard.press("?")
    expect(follower.locator("#help-keys tr[data-action=step]")).to_have_count(1)
    expect(follower.locator("#help-keys tr[data-action=detach]")).to_have_count(0)
    closing_the_poll_puts_the_focus_on_step_and_escape_withdraws_one(presenter)


def the_plugin_catalogue_opens_from_the_act_bar(page):
    """The catalogue (which events wake which plugin) was reached only through the key help; it opens beside the
    events one delivers too, and Escape closes it."""
    page.locator("#explore").get_by_role("button", name="Plugins…").click()
    dialog = page.get_by_test_id("catalogue-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("VolumeBinding")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def escape_on_an_open_poll_withdraws_it_and_keeps_presentation_mode(presenter):
    presenter.keyboard.press("p")
    presenter.wait_for_function(PRESENTING_JS)
    presenter.keyboard.press("ArrowRight")
    expect(presenter.get_by_test_id("poll-reveal")).to_be_visible()
    presenter.keyboard.press("Escape")
    expect(presenter.get_by_test_id("poll-reveal")).to_have_count(0)
    assert presenting(presenter)
