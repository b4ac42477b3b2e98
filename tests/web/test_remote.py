"""The speaker's phone as a clicker (engine/remote.py, web/remote.py): a remote link carries the presenter's
authority over one room, is refused once revoked or once its room has ended, and only the presenter token makes or
revokes one. Real servers, both async modes."""

import pytest
import requests

from tests.web.liveserver import LiveServer
from tests.web.sockclient import TIMEOUT, Client
from tests.web.test_room_bounds import LOGS, presenter_at, serve
from webapp.engine.remote import ended, revoked


@pytest.fixture(scope="module", params=["eventlet", "threading"])
def server(request):
    with LiveServer(request.param, LOGS) as live:
        yield live
        assert live.proc.poll() is None, f"the server died during the tests:\n{live.log()}"


def remote_link(url: str, drive: dict, token=None) -> requests.Response:
    return requests.post(f"{url}/api/rooms/{drive['room']}/remote", json={"token": token or drive["token"]},
                         timeout=TIMEOUT)


def remote_of(url: str, drive: dict) -> tuple[Client, dict]:
    """A phone holding the room's remote link, joined as the link's page joins, and its {room, token}."""
    answer = remote_link(url, drive)
    assert answer.status_code == 200, answer.text
    link = answer.json()["link"]
    assert link.startswith(f"{url}/remote/{drive['room']}#r.") and drive["token"] not in link
    assert "<svg" in answer.json()["qr"]
    phone = Client(url)
    remote = {"room": drive["room"], "token": link.split("#", 1)[1]}
    phone.call("join_room", {**remote, "speaker": True})
    phone.wait_for("state")
    return phone, remote


def test_the_remote_steps_the_room_and_followers_see_it(server):
    presenter, drive = presenter_at(server.url, 3)
    follower = Client(server.url)
    follower.call("join_room", {"room": drive["room"]})
    assert follower.wait_for("state")["position"] == 3
    phone, remote = remote_of(server.url, drive)
    assert remote_link(server.url, drive).json()["link"].endswith(remote["token"])  # the same link until revoked
    phone.call("step", remote)
    assert follower.wait_for("delta")["position"] == 4
    assert phone.wait_for("delta")["position"] == 4
    phone.call("back", remote)
    assert follower.wait_for("delta")["position"] == 3
    phone.call("blank", {**remote, "on": True})
    assert follower.wait_for("blank")["on"] is True
    phone.call("blank", {**remote, "on": False})
    phone.call("seek", {**remote, "position": 5})  # one step before B's failure: a poll to open
    phone.call("poll_open", remote)
    assert follower.wait_for("poll")["open"] is True
    phone.call("poll_reveal", remote)
    assert follower.wait_for("poll", lambda p: not p["open"])["position"] == 5
    assert [data for name, data in phone.received() if name == "error"] == []
    for client in (presenter, follower, phone):
        client.close()


def test_a_revoked_link_is_refused_and_a_new_one_works(server):
    presenter, drive = presenter_at(server.url, 2)
    phone, remote = remote_of(server.url, drive)
    revoke = requests.post(f"{server.url}/api/rooms/{drive['room']}/remote/revoke", json={"token": drive["token"]},
                           timeout=TIMEOUT)
    assert revoke.status_code == 200 and revoke.json() == {"revoked": True}
    assert phone.wait_for("remote") == {"room": drive["room"], "revoked": True}  # the phone's page says so at once
    phone.call("step", remote)
    refused = phone.wait_for("error")
    assert refused == {"message": revoked(drive["room"]), "event": "step", "kind": "NotAllowed"}
    again, fresh = remote_of(server.url, drive)
    assert fresh["token"] != remote["token"]
    again.call("step", fresh)
    assert presenter.wait_for("delta")["position"] == 3
    phone.call("step", remote)  # the old link stays revoked
    assert phone.wait_for("error")["message"] == revoked(drive["room"])
    for client in (presenter, phone, again):
        client.close()


def test_only_the_presenter_token_makes_or_revokes_a_link(server):
    presenter, drive = presenter_at(server.url, 1)
    phone, remote = remote_of(server.url, drive)
    for token in (remote["token"], "x" * 43, None):
        for path in ("remote", "remote/revoke"):
            answer = requests.post(f"{server.url}/api/rooms/{drive['room']}/{path}", json={"token": token},
                                   timeout=TIMEOUT)
            assert answer.status_code == 403 and answer.json()["kind"] == "NotAllowed", answer.text
    phone.call("step", remote)  # none of that revoked it
    assert presenter.wait_for("delta")["position"] == 2
    for client in (presenter, phone):
        client.close()


def test_a_followers_token_cannot_drive(server):
    presenter, drive = presenter_at(server.url, 2)
    follower = Client(server.url)
    follower.call("join_room", {"room": drive["room"], "voter": "voter-0001"})
    follower.wait_for("state")
    other_presenter, other = presenter_at(server.url, 0)
    _, other_remote = remote_of(server.url, other)
    # the room's token with its last character changed (to "A" unless it is one: then it would be the token)
    near = drive["token"][:-1] + ("B" if drive["token"].endswith("A") else "A")
    for token in (None, "voter-0001", "r." + "x" * 43, other_remote["token"], near):
        follower.call("step", {"room": drive["room"], **({"token": token} if token else {})})
        assert follower.wait_for("error")["kind"] == "NotAllowed"
    assert other_remote["token"] != drive["token"]
    follower.call("sync", {"room": drive["room"]})
    assert follower.wait_for("state")["position"] == 2  # the room never moved
    for client in (presenter, follower, other_presenter):
        client.close()


@pytest.mark.parametrize("mode", ["eventlet", "threading"])
def test_a_remote_of_a_room_that_ended_is_refused(mode):
    with serve(mode, ROOM_UNATTENDED_SECONDS="0.5", SWEEP_SECONDS=1) as live:
        presenter, drive = presenter_at(live.url, 1)
        phone, remote = remote_of(live.url, drive)
        follower = Client(live.url)
        follower.call("join_room", {"room": drive["room"]})
        presenter.close()
        follower.wait_for("error", lambda e: "its presenter left" in e["message"])  # the room is closed
        phone.call("step", remote)
        refused = phone.wait_for("error", lambda e: e["event"] == "step")
        assert refused == {"message": ended(drive["room"]), "event": "step", "kind": "NotAllowed"}
        for client in (phone, follower):
            client.close()
        assert live.proc.poll() is None


def test_the_remote_opens_and_closes_the_rooms_vote(server):
    """The phone asks the room what should happen next (the actions proposed) and closes the vote: the winner is
    forked on the followers' screens."""
    presenter, drive = presenter_at(server.url, 3)
    follower = Client(server.url)
    follower.call("join_room", {"room": drive["room"]})
    assert follower.wait_for("state")["position"] == 3
    phone, remote = remote_of(server.url, drive)
    phone.call("vote_open", remote)
    vote = follower.wait_for("vote", lambda v: v["open"])
    assert 2 <= len(vote["actions"]) <= 4
    follower.call("vote_answer", {"room": drive["room"], "action": 1})
    phone.wait_for("vote_tally", lambda t: t["answered"] == 1)  # the phone, on the presenter's channel, sees it
    phone.call("vote_close", remote)
    closed = follower.wait_for("vote", lambda v: not v["open"])
    assert closed["winner"] == 1 and closed["label"] == vote["actions"][1]["label"]
    assert follower.wait_for("state", lambda s: s["position"] == 4)["position"] == 4  # the fork, played
    assert [data for name, data in phone.received() if name == "error"] == []
