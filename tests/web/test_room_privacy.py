"""Authority by token only: the speaker view (join_room {room, speaker: true}) needs the presenter's token, and a
room's followers are sent its scenes without what is the presenter's (the notes, what the next step does, the next
step itself) and its scenario without the introduction and the steps' notes: with a prediction open, each of those
names the answer. Real servers, both async modes."""

import json

import pytest

from tests.web.sockclient import TIMEOUT, Client
from tests.web.test_room_bounds import presenter_at, presenter_at_a_poll, serve
from tests.web.viewer import Folder
from webapp.presenter.messages import INTRO_UNTOLD, SPEAKERS_ONLY
from webapp.scenario import builtin

# What the next step (B's failure at the lost marker) does on v1.28.1: the poll's answer, before anyone votes (in
# the step's note, the scene's next step, the introduction).
ANSWER = "B parked in unschedulablePods"
OUTCOMES = (ANSWER, "B fails → unschedulablePods", "B is parked in unschedulablePods")


@pytest.fixture(scope="module", params=["eventlet", "threading"])
def server(request):
    """One server per async mode for the file: each test makes a room of its own (its own presenter, followers and
    voters) and reads only what that room's clients are sent."""
    with serve(request.param) as live:
        yield live


def held_scenes(client: Client, last) -> tuple[list[dict], str]:
    """The scenes ``client`` held after each state or delta it was sent (deltas folded in, as a page does) up to
    the message ``last(name, data)`` accepts, and every scenario, state, delta and poll it was sent, as JSON text
    (as it came, not escaped)."""
    folder, scenes, text = Folder(), [], []
    while True:
        name, data = client.inbox.get(timeout=TIMEOUT)
        if name in ("scenario", "state", "delta", "poll"):
            text.append(json.dumps(data, ensure_ascii=False))
        for got, message in folder.arrived(name, data) if name in ("scenario", "state", "delta") else ():
            if got == "state":
                scenes.append(message["scene"])
        if last(name, data):
            return scenes, "\n".join(text)


def test_a_speaker_view_without_the_presenters_token_is_refused(server):
    presenter, drive = presenter_at_a_poll(server.url)
    stranger = Client(server.url)
    for token in ({}, {"token": "x" * 43}):
        stranger.call("join_room", {"room": drive["room"], "speaker": True, **token})
        refused = stranger.wait_for("error")
        assert refused["kind"] == "NotAllowed" and refused["event"] == "join_room"
        assert refused["message"] == (f"only the presenter of room {drive['room']} can open its speaker view: open "
                                      "it from the presenter's page (Shift+S) (missing or wrong token)")
    assert [name for name, _ in stranger.received() if name in ("state", "scenario", "poll")] == []
    speaker = Client(server.url)
    speaker.call("join_room", {"room": drive["room"], "speaker": True, "token": drive["token"]})
    state = speaker.wait_for("state")
    assert ANSWER in state["scene"]["notes"]["next"]
    assert state["scene"]["upcoming"] and state["scene"]["next"]
    for client in (presenter, stranger, speaker):
        client.close()
    assert server.proc.poll() is None


def test_followers_are_sent_no_note_and_nothing_of_the_next_step(server):
    presenter, drive = presenter_at(server.url, 3)
    follower, speaker = Client(server.url), Client(server.url)
    follower.call("join_room", {"room": drive["room"], "voter": "phone-0001"})
    speaker.call("join_room", {"room": drive["room"], "speaker": True, "token": drive["token"]})
    for _ in (4, 5):  # deltas to the step before B fails, where a poll opens
        presenter.call("step", drive)
    presenter.call("poll_open", drive)
    follower.call("poll_answer", {"room": drive["room"], "voter": "phone-0001",
                                  "answers": {"v1.28.1": "activeQ"}})
    follower.call("sync", {"room": drive["room"]})  # a whole state again, as a follower that lost its place
    follower.call("join_room", {"room": drive["room"], "voter": "phone-0001"})  # a phone back after a reload
    speaker.call("sync", {"room": drive["room"]})
    theirs, their_text = held_scenes(follower, lambda name, data: name == "poll" and "yours" in data)
    ours, our_text = held_scenes(speaker, lambda name, data: name == "state" and data["position"] == 5)
    assert [scene["position"] for scene in theirs] == [3, 4, 5, 5, 5]
    assert [scene["position"] for scene in ours] == [3, 4, 5, 5]
    assert all(scene[key] is None for scene in theirs for key in SPEAKERS_ONLY)
    # B's failure is where the versions first differ: told to followers once the room is there
    assert [scene["divergence"] for scene in theirs] == [None] * 5
    assert [scene["divergence"] for scene in ours] == [6] * 4
    assert all(scene["notes"] and scene["upcoming"] and scene["next"] for scene in ours)
    assert all(outcome in our_text for outcome in OUTCOMES)
    assert not [outcome for outcome in OUTCOMES if outcome in their_text]
    assert theirs[-1]["predict"] == ours[-1]["predict"] == {"pod": "B", "choices": [
        "activeQ", "backoffQ", "unschedulablePods"]}
    for client in (presenter, follower, speaker):
        client.close()
    assert server.proc.poll() is None


def test_a_rooms_own_scenario_reaches_followers_without_its_texts_and_they_still_detach(server):
    """A scenario the presenter posted (no built-in id a follower could load) reaches its followers without the
    introduction and the notes, in the steps list and in the source they detach with; a follower that detaches
    loads that source at the room's step and steps on its own to the failure."""
    raw = builtin.get("lost-marker")
    presenter, drive = presenter_at(server.url, 5, raw)
    presenter.call("poll_open", drive)
    follower = Client(server.url)
    follower.call("join_room", {"room": drive["room"], "voter": "phone-0002"})
    theirs = follower.wait_for("scenario")
    state = follower.wait_for("state")
    ours = presenter.wait_for("scenario")
    assert ours["id"] is None and ours["source"] == raw and ANSWER in ours["steps"][5]["note"]
    assert theirs["id"] is None and theirs["description"] == INTRO_UNTOLD
    assert (theirs["divergence"], theirs["keyPositions"], ours["divergence"], ours["keyPositions"]) == (
        None, [6], 6, [6])
    assert theirs["source"]["name"] == raw["name"] and "description" not in theirs["source"]
    assert [step.get("note") for step in (*theirs["steps"], *theirs["source"]["steps"])] == [None] * 12
    assert [s["op"] for s in theirs["source"]["steps"]] == [s["op"] for s in raw["steps"]]
    assert not [outcome for outcome in OUTCOMES if outcome in json.dumps(theirs, ensure_ascii=False)]
    follower.call("leave_room", {"room": drive["room"]})  # Detach (static/js/driver.js toggleDetach)
    follower.call("load", {"scenario": theirs["source"], "variants": list(state["variants"]), "position": 5})
    assert follower.wait_for("state", lambda data: data.get("room") is None)["position"] == 5
    follower.call("step")
    mine = follower.wait_for("delta", lambda data: data["position"] == 6)
    assert mine["position"] == 6 and mine["room"] is None
    for client in (presenter, follower):
        client.close()
    assert server.proc.poll() is None


def test_followers_are_told_where_the_versions_differ_once_the_room_is_there(server):
    presenter, drive = presenter_at(server.url, 5)
    follower = Client(server.url)
    follower.call("join_room", {"room": drive["room"], "voter": "phone-0003"})
    presenter.call("step", drive)
    scenes, _ = held_scenes(follower, lambda name, data: name in ("state", "delta") and data["position"] == 6)
    assert [(scene["position"], scene["divergence"]) for scene in scenes] == [(5, None), (6, 6)]
    for client in (presenter, follower):
        client.close()
    assert server.proc.poll() is None


def test_a_follower_who_claims_the_room_is_sent_each_scene_once_as_its_presenter(server):
    """Joined as a follower, then claimed with the token: its load's scenario and state came twice, once whole
    and once as followers see them (found by tests/web/test_fuzz_sockets.py)."""
    presenter, drive = presenter_at_a_poll(server.url)
    second = Client(server.url)
    second.call("join_room", {"room": drive["room"]})
    second.call("claim_room", drive)
    second.received()
    second.call("load", {"scenario": "lost-marker", **drive})
    sent = [(name, data) for name, data in second.received() if name in ("scenario", "state", "delta")]
    assert [name for name, _ in sent] == ["scenario", "state"], sent
    assert sent[0][1]["description"] != INTRO_UNTOLD  # the whole scenario, the presenter's
    for client in (presenter, second):
        client.close()
