"""The speaker's phone as a clicker: the Present dialog shows the remote's link and QR code only when asked (the
dialog may be on the projector); the phone's remote at 390x844 steps the room for everyone, fits the screen
with its buttons in reach, and says so plainly once the presenter's screen revokes it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.room_pages import phone_in_room
from tests.e2e.test_browser import at
from tests.e2e.test_speaker import open_speaker
from tests.e2e.test_talks import start_presenter
from webapp.engine.remote import revoked

# every element's rectangle against the viewport: [testid, left, top, right, bottom] of each one outside it
OUTSIDE_JS = """() => [...document.querySelectorAll('#remote button, #remote [data-testid]')]
  .filter((el) => el.getClientRects().length)
  .map((el) => [el.dataset.testid || el.textContent, el.getBoundingClientRect()])
  .filter(([, r]) => r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight)
  .map(([name, r]) => [name, r.left, r.top, r.right, r.bottom])"""


def remote_link_of(presenter) -> str:
    """The remote's link, from the Present dialog: folded until the presenter asks for it."""
    presenter.locator("#present-open").click()
    dialog = presenter.get_by_test_id("present-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("remote-qr")).to_have_count(0)  # nothing secret on a projected dialog by itself
    dialog.get_by_test_id("remote-show").click()
    expect(dialog.get_by_test_id("remote-qr")).to_be_visible()
    expect(dialog.locator(".remote-link-warning")).to_contain_text("keep it off the projector")
    return dialog.get_by_test_id("remote-url").get_attribute("href")


@pytest.mark.parametrize("color_scheme", ["light", "dark"])
def test_the_phone_remote_steps_the_room_and_is_revoked(make_page, artifacts_dir, color_scheme):
    presenter, room, token = start_presenter(make_page)
    link = remote_link_of(presenter)
    assert re.fullmatch(rf"http://[^/]+/remote/{room}#r\.[A-Za-z0-9_-]{{43}}", link) and token not in link
    follower = phone_in_room(make_page, room)
    phone = make_page(width=390, height=844, color_scheme=color_scheme)
    phone.goto(link)
    expect(phone.get_by_test_id("remote-position")).to_have_text(re.compile(r"^Step 0 / 6"))
    expect(phone.get_by_test_id("remote-next")).not_to_be_empty()  # the next step's note
    expect(phone.get_by_test_id("remote-timer")).to_have_text(re.compile(r"^\d+:\d\d$"))
    for position in (1, 2):
        phone.get_by_test_id("remote-step").click()
        expect(phone.get_by_test_id("remote-position")).to_have_text(re.compile(rf"^Step {position} / 6"))
        at(presenter, position)
        at(follower, position)
    phone.get_by_test_id("remote-back").click()
    at(follower, 1)
    phone.get_by_test_id("remote-blank").click()
    expect(follower.locator("#blank")).to_be_visible()
    expect(phone.get_by_test_id("remote-blank")).to_have_text("Unblank screens")
    phone.get_by_test_id("remote-blank").click()
    expect(follower.locator("#blank")).to_be_hidden()
    assert phone.evaluate(OUTSIDE_JS) == []  # every button and line on the phone's screen, none scrolled away
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    notes = phone.locator(".remote-notes")  # a long name wraps: no word of the note cut at the edge
    assert notes.evaluate("(el) => el.scrollWidth <= el.clientWidth"), notes.evaluate("(el) => el.scrollWidth")
    step = phone.get_by_test_id("remote-step").bounding_box()
    assert step["height"] >= 56 and step["width"] >= 300  # a thumb's target, the largest
    shots = artifacts_dir / "screenshots"
    shots.mkdir(exist_ok=True)
    phone.screenshot(path=str(shots / f"remote-390x844-{color_scheme}.png"))
    presenter.screenshot(path=str(shots / "remote-present-dialog-1600x900.png"))
    presenter.get_by_test_id("remote-revoke").click()
    expect(phone.get_by_test_id("remote-status")).to_have_text("The presenter's screen revoked this remote link.")
    expect(phone.get_by_test_id("remote-step")).to_be_disabled()
    expect(phone.get_by_test_id("remote-next")).to_be_empty()  # a lost phone shows nothing of the talk any more
    phone.screenshot(path=str(shots / f"remote-revoked-390x844-{color_scheme}.png"))
    phone.reload()  # the revoked link, opened again: refused, saying why
    expect(phone.get_by_test_id("remote-status")).to_have_text(revoked(room))
    at(follower, 1)  # the room stayed where the remote left it


def test_the_speaker_view_shows_the_same_remote_link(make_page, artifacts_dir):
    presenter, room, _ = start_presenter(make_page)
    link = remote_link_of(presenter)
    presenter.keyboard.press("Escape")
    speaker = open_speaker(presenter)
    speaker.set_viewport_size({"width": 1100, "height": 700})
    expect(speaker.get_by_test_id("remote-qr")).to_have_count(0)
    speaker.get_by_test_id("remote-show").click()
    expect(speaker.get_by_test_id("remote-qr")).to_be_visible()
    assert speaker.get_by_test_id("remote-url").get_attribute("href") == link  # one link until it is revoked
    speaker.screenshot(path=str(artifacts_dir / "screenshots" / "remote-speaker-1100x700.png"))
    speaker.close()
    assert not presenter.problems, presenter.problems
