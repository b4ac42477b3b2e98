"""The presenter's speaker view (Shift+S on /present): a window of its own that follows the room, with the step
on screen small, the next step, the notes and a timer, and that is not in the room (it keeps no autoplay going on
its own, answers no poll); and a follower's view of a blanked room: dim, with words."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.room_pages import phone_in_room
from tests.e2e.test_browser import at
from tests.e2e.test_talks import start_presenter
from tests.scale.test_two_processes import Client, long_scenario

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
    late = phone_in_room(make_page, room)
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


# --- the speaker view is the presenter's window, not audience: it is not in the room ------------------------------
@pytest.fixture
def clients():
    """``clients(url)``: a Socket.IO client on the live server, recording what it receives; closed after the test."""
    made = []

    def make(url):
        made.append(Client(url))
        return made[-1]

    yield make
    for client in made:
        client.close()


def names(client) -> list[str]:
    return [event for event, _ in client.received]


def playing_room(url: str, clients, speed: float = 2):
    """(presenter, ack): a room playing a 400-step scenario at ``speed`` steps a second, driven over Socket.IO."""
    presenter = clients(url)
    ack = presenter.sio.call("create_room", {})
    presenter.sio.emit("load", {"scenario": long_scenario(), **ack})
    presenter.state_at(0)
    presenter.sio.emit("play", {"speed": speed, **ack})
    presenter.state_at(1)
    return presenter, ack


def stopped_state(url: str, clients, ack: dict) -> dict:
    """The room's state once it says it does not play, seen by a speaker-view connection (which, not being in the
    room, does not change whether it plays)."""
    watcher = clients(url)
    watcher.sio.emit("join_room", {**ack, "speaker": True})
    return watcher.wait(lambda e, d: e == "state" and not d["playing"])


def test_a_room_left_with_only_its_speaker_window_stops_playing(make_page, live_server, clients):
    """The speaker view (the page Shift+S opens) follows the playing room; the presenter leaves and nobody else is
    in it: the room stops at once, as an empty one does, instead of playing on to its end for the speaker alone.
    A follower, unlike the speaker view, keeps it playing."""
    presenter, ack = playing_room(live_server.url, clients)
    follower = clients(live_server.url)
    follower.sio.emit("join_room", {"room": ack["room"]})
    speaker = make_page()
    speaker.goto(f"/speaker?room={ack['room']}#token={ack['token']}")  # as the presenter's page opens it
    expect(speaker.get_by_test_id("speaker-position")).to_have_text(re.compile(r"^\d+ / 400"))
    presenter.close()
    reached = follower.wait(lambda e, d: e == "state")["position"]
    assert follower.wait(lambda e, d: e == "state" and d["position"] >= reached + 2)["playing"]  # a follower watches
    follower.close()
    stopped = stopped_state(live_server.url, clients, ack)
    assert stopped["position"] < 400  # stopped because nobody is in it, not at its end
    expect(speaker.get_by_test_id("speaker-position")).to_have_text(re.compile(rf"^{stopped['position']} / 400"))


def test_a_speaker_view_answers_no_poll_and_takes_no_voter(live_server, clients):
    presenter = clients(live_server.url)
    ack = presenter.sio.call("create_room", {})
    presenter.sio.emit("load", {"scenario": "lost-marker", "position": 5, **ack})
    presenter.state_at(5)
    speaker = clients(live_server.url)
    speaker.sio.emit("join_room", {**ack, "speaker": True})
    speaker.state_at(5)
    presenter.sio.emit("poll_open", ack)
    speaker.wait(lambda e, d: e == "poll" and d["open"])  # it sees the poll as the room does
    speaker.sio.emit("poll_answer", {"room": ack["room"], "answers": {"v1.28.1": "backoffQ"}})
    refused = speaker.wait(lambda e, d: e == "error")
    assert (refused["event"], refused["kind"]) == ("poll_answer", "NotAllowed")
    assert "join the room" in refused["message"]
    presenter.wait(lambda e, d: e == "poll")
    assert not presenter.has(lambda e, d: e == "poll_tally")  # nothing was counted
    for payload, words in [({"speaker": True, "voter": "phone-1234", "token": ack["token"]},
                            "takes a voter or speaker: true, not both"),
                           ({"speaker": "yes"}, "speaker must be true or false, got 'yes'")]:
        other = clients(live_server.url)
        other.sio.emit("join_room", {"room": ack["room"], **payload})
        error = other.wait(lambda e, d: e == "error")
        assert error["event"] == "join_room" and words in error["message"], error
        assert names(other) == ["error"]  # nothing joined, nothing sent
