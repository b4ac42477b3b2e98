"""The presenter's speaker view (Shift+S on /present): a window of its own that follows the room, with the step
on screen small, the next step, the notes and a timer; and a follower's view of a blanked room: dim, with words."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.test_browser import at
from tests.e2e.test_talks import start_presenter

NOTES = "#presenter-notes"


def open_speaker(presenter):
    with presenter.expect_popup() as popup:
        presenter.keyboard.press("Shift+S")
    speaker = popup.value
    speaker.on("pageerror", lambda err: presenter.problems.append(f"speaker page error: {err}"))
    speaker.on("console", lambda msg: msg.type == "error" and presenter.problems.append(f"speaker: {msg.text}"))
    return speaker


def test_the_speaker_view_opens_on_its_key_and_follows_the_room(make_page):
    presenter, room, _ = start_presenter(make_page)
    presenter.keyboard.press("?")
    expect(presenter.locator("#help-keys tr[data-action=openSpeaker] th")).to_have_text("Shift+S")
    presenter.keyboard.press("Escape")
    speaker = open_speaker(presenter)
    assert re.search(rf"/speaker\?room={room}\b", speaker.url), speaker.url
    expect(speaker.get_by_test_id("speaker-position")).to_have_text(re.compile(r"^0 / 6"))
    for position in (1, 2, 3):
        presenter.keyboard.press("ArrowRight")
        at(presenter, position)
        expect(speaker.get_by_test_id("speaker-position")).to_have_text(re.compile(rf"^{position} / 6"))
        # the notes are the presenter's: the same words on both pages
        for part in ("now", "next"):
            expect(speaker.locator(f"[data-notes={part}]")).to_have_text(
                presenter.locator(f"{NOTES} [data-notes={part}]").inner_text())
    expect(speaker.locator("#speaker-panes > [data-variant]")).to_have_count(2)  # the frame, small
    expect(speaker.locator("#speaker-panes .inflight-list").first).to_be_visible()
    expect(speaker.locator("[data-notes=upcoming] .upcoming")).to_have_count(2)  # what the next step does, per pane
    expect(speaker.get_by_test_id("speaker-timer")).to_have_text(re.compile(r"^\d+:\d\d$"))
    presenter.keyboard.press("b")  # the room's screens go blank: the speaker is told so
    expect(speaker.locator("#speaker-screen")).to_be_visible()
    presenter.keyboard.press("b")
    expect(speaker.locator("#speaker-screen")).to_be_hidden()
    speaker.close()
    assert not presenter.problems, presenter.problems


def test_the_speaker_view_without_a_room_says_how_to_open_it(make_page):
    page = make_page()
    page.goto("/speaker?room=<b>nope")
    expect(page.locator("#speaker-status")).to_contain_text("open it from the presenter's page (Shift+S)")
    expect(page.locator("#speaker-status")).to_contain_text("“<B>NOPE”")
    assert not page.problems, page.problems


BACKGROUND_JS = "(el) => getComputedStyle(el).backgroundColor"


def test_a_follower_joining_a_blanked_room_sees_that_the_presenter_paused_the_screen(make_page):
    presenter, room, _ = start_presenter(make_page)
    presenter.keyboard.press("b")
    expect(presenter.locator("#blank")).to_be_visible()
    late = make_page(width=390, height=844)
    late.goto(f"/r/{room}")
    at(late, 0)
    expect(late.locator("#blank")).to_be_visible()
    expect(late.locator("#blank")).to_have_text("The presenter paused the screen")
    expect(late.locator("#blank .blank-note")).to_be_visible()
    assert late.locator("#blank").evaluate(BACKGROUND_JS) != "rgb(0, 0, 0)"  # dim, not black
    # the projector's own blank stays black and says nothing
    assert presenter.locator("#blank").evaluate(BACKGROUND_JS) == "rgb(0, 0, 0)"
    expect(presenter.locator("#blank")).to_have_text("")
    presenter.keyboard.press("b")
    expect(late.locator("#blank")).to_be_hidden()
    assert not late.problems and not presenter.problems, (late.problems, presenter.problems)
