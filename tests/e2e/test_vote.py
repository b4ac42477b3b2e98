"""A room votes on what happens next, in real browsers: the presenter's screen (1920x1080) asks, is offered the
fork menu's actions with the one that parts the versions ticked first, opens the vote; phones (390x844) vote with
one tap and change their minds; the speaker view shows the bars live; the presenter closes it and every screen,
a late joiner's too, plays the winning action with the fork marked on the timeline; the presenter undoes it.
Screenshots in both themes under test-artifacts/screens/vote-*."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.room_pages import phone_in_room
from tests.e2e.test_browser import at, settle
from tests.e2e.test_speaker import open_speaker

FAIL_B = "fail B — plugin P"


def start_presenter(make_page, color_scheme):
    presenter = make_page(width=1920, height=1080, color_scheme=color_scheme)
    presenter.goto("/present?scenario=lost-marker")
    expect(presenter.locator("#audience-link a")).to_be_visible()
    room = re.search(r"room=([A-Z0-9]+)", presenter.url).group(1)
    return presenter, room


@pytest.mark.parametrize("color_scheme", ["light", "dark"])
def test_the_room_votes_and_every_screen_plays_the_winner(make_page, artifacts_dir, color_scheme):
    presenter, room = start_presenter(make_page, color_scheme)
    for _ in range(5):  # after Done(A): failing B is where the versions part
        presenter.keyboard.press("ArrowRight")
    at(presenter, 5)
    phones = [phone_in_room(make_page, room, 5) for _ in range(3)]
    if color_scheme == "dark":
        for phone in phones:
            phone.emulate_media(color_scheme="dark")
    speaker = open_speaker(presenter)
    presenter.bring_to_front()

    presenter.keyboard.press("?")
    expect(presenter.locator("#help-keys tr[data-action=askRoom] th")).to_have_text("Shift+V")
    presenter.keyboard.press("Escape")
    presenter.keyboard.press("Shift+V")
    panel = presenter.get_by_test_id("vote-presenter")
    offer = panel.get_by_test_id("vote-offer")
    expect(offer.locator("li").first).to_contain_text(FAIL_B)
    expect(offer.locator("li").first).to_contain_text("parts the versions")
    expect(offer.locator(".vote-proposed.soon-0")).to_have_count(1)  # only failing B parts them at once
    expect(offer.locator("input:checked")).not_to_have_count(0)
    ticked = offer.locator("input:checked").count()
    assert 2 <= ticked <= 4
    screens = artifacts_dir / "screens"
    screens.mkdir(exist_ok=True)
    presenter.screenshot(path=str(screens / f"vote-presenter-offer-1920x1080-{color_scheme}.png"))
    panel.get_by_test_id("vote-open").click()
    expect(panel.get_by_test_id("vote-answered")).to_have_text("0 voted so far")

    sheets = [phone.get_by_test_id("vote-follower") for phone in phones]
    for i, sheet in enumerate(sheets):
        expect(sheet.locator("button.choice")).to_have_count(ticked)
        sheet.locator("button.choice").nth(1 if i == 2 else 0).click()
    sheets[0].locator("button.choice").nth(1).click()  # a change of mind: still one vote
    sheets[0].locator("button.choice").nth(0).click()
    expect(sheets[0].locator("button.choice").nth(0)).to_have_attribute("aria-pressed", "true")
    expect(sheets[0].locator("button.choice").nth(1)).to_have_attribute("aria-pressed", "false")
    expect(sheets[0].get_by_test_id("vote-status")).to_contain_text("you may change it")
    expect(panel.get_by_test_id("vote-answered")).to_have_text("3 voted so far")
    expect(panel.locator(".vote-bar").first).to_have_attribute("data-count", "2")
    expect(panel.locator(".vote-bar").nth(1)).to_have_attribute("data-count", "1")
    expect(speaker.get_by_test_id("speaker-vote")).to_contain_text("3 so far")  # live on the speaker's screen
    expect(speaker.get_by_test_id("speaker-vote").locator(".vote-bar").first).to_have_attribute("data-count", "2")
    at(presenter, 5)  # votes never drive the room

    settle(phones[0])
    phones[0].screenshot(path=str(screens / f"vote-phone-390x844-{color_scheme}.png"))
    presenter.screenshot(path=str(screens / f"vote-presenter-1920x1080-{color_scheme}.png"))
    speaker.screenshot(path=str(screens / f"vote-speaker-{color_scheme}.png"))

    panel.get_by_test_id("vote-close").click()
    result = f"The room chose “{FAIL_B}” (2 of 3 votes)"
    for page in [presenter, *phones]:
        at(page, 6)
        expect(page.locator("#ticks .tick.fork")).to_have_count(1)  # the branch, marked on the timeline
    for phone in phones:
        expect(phone.get_by_test_id("vote-result")).to_contain_text(result)
    expect(panel.get_by_test_id("vote-result")).to_contain_text(result)
    expect(speaker.get_by_test_id("speaker-vote")).to_contain_text(result)
    late = phone_in_room(make_page, room, 6)  # lands on the branch
    expect(late.locator("#ticks .tick.fork")).to_have_count(1)
    settle(phones[0])
    phones[0].screenshot(path=str(screens / f"vote-phone-result-390x844-{color_scheme}.png"))
    presenter.screenshot(path=str(screens / f"vote-presenter-result-1920x1080-{color_scheme}.png"))

    presenter.locator("#btn-summary").click()  # after the talk: the room's summary, to share
    link = presenter.get_by_test_id("summary-link")
    expect(link).to_be_visible()
    summary = make_page(width=1280, height=900, color_scheme=color_scheme)
    summary.goto(link.get_attribute("href"))
    expect(summary.get_by_test_id("summary-fork")).to_contain_text(f"After step 5 the room voted: {FAIL_B}")
    expect(summary.get_by_test_id("room-summary")).not_to_contain_text(re.search(r"token=([^&]+)",
                                                                                 presenter.url).group(1))
    summary.screenshot(path=str(screens / f"vote-summary-1280x900-{color_scheme}.png"), full_page=True)
    presenter.screenshot(path=str(screens / f"vote-presenter-summary-1920x1080-{color_scheme}.png"))

    panel.get_by_test_id("vote-undo").click()  # back to the fork point on every screen
    for page in [presenter, late, *phones]:
        at(page, 5)
        expect(page.locator("#ticks .tick.fork")).to_have_count(0)
    speaker.close()
    for page in [presenter, late, summary, *phones]:
        assert not page.problems, page.problems
