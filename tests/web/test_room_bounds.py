"""Rooms and polls bounded per client address: a poll counts at most MAX_ANSWERS_PER_ADDRESS answers from one
address, an address at its room cap gets its own abandoned rooms back, and a room whose presenter left and nobody
drives is reclaimed, its followers told. Real servers, both async modes (every client here is 127.0.0.1)."""


import pytest

from tests.waiting import until
from tests.web.liveserver import LiveServer
from tests.web.sockclient import TIMEOUT, Client
from tests.web.test_live_server import LOGS


def serve(mode, **env):
    return LiveServer(mode, LOGS, env={f"INFLIGHT_SCOPE_{k}": str(v) for k, v in env.items()})


@pytest.fixture(params=["eventlet", "threading"])
def mode(request):
    return request.param


def presenter_at(url, position: int, scenario="lost-marker"):
    """A presenter's client and its {room, token}: a new room, ``scenario`` loaded in it, at ``position``."""
    presenter = Client(url)
    ack = presenter.call("create_room")
    drive = {"room": ack["room"], "token": ack["token"]}
    presenter.call("load", {"scenario": scenario, **drive})
    presenter.call("seek", {"position": position, **drive})
    return presenter, drive


def presenter_at_a_poll(url):
    presenter, drive = presenter_at(url, 5)  # one step before B's failure: there is something to predict
    presenter.call("poll_open", drive)
    return presenter, drive


def test_a_poll_counts_at_most_n_answers_from_one_address(mode):
    with serve(mode, MAX_ANSWERS_PER_ADDRESS=3) as server:
        presenter, drive = presenter_at_a_poll(server.url)
        refusals = []
        for i in range(5):  # connect, answer as a fresh voter, leave: again and again
            follower = Client(server.url)
            follower.call("join_room", {"room": drive["room"], "voter": f"voter-{i:04}"})
            follower.call("poll_answer", {"room": drive["room"], "voter": f"voter-{i:04}",
                                          "answers": {"v1.28.1": "backoffQ"}})
            refusals += [data for name, data in follower.received() if name == "error"]
            follower.close()
        assert len(refusals) == 2
        assert all(r["kind"] == "NotAllowed" and r["event"] == "poll_answer" for r in refusals)
        assert "at most 3 answers from one address (MAX_ANSWERS_PER_ADDRESS)" in refusals[0]["message"]
        tallies = [data for name, data in presenter.received() if name == "poll_tally"]
        assert max(t["answered"] for t in tallies) == 3
        again = Client(server.url)  # a voter already counted may still change its answer
        again.call("join_room", {"room": drive["room"], "voter": "voter-0001"})
        again.call("poll_answer", {"room": drive["room"], "voter": "voter-0001", "answers": {"v1.28.1": "activeQ"}})
        assert [name for name, _ in again.received() if name == "error"] == []
        presenter.close()
        again.close()
        assert server.proc.poll() is None


def test_an_address_at_its_room_cap_gets_its_abandoned_rooms_back(mode):
    with serve(mode, MAX_ROOMS_PER_ADDRESS=2, ROOM_EMPTY_GRACE_SECONDS=0, SWEEP_SECONDS=1) as server:
        first = Client(server.url)
        rooms = [first.call("create_room")["room"] for _ in range(2)]
        follower = Client(server.url)
        for code in rooms:
            follower.call("join_room", {"room": code})
        refused = first.call("create_room")
        assert "room limit: your address has 2 rooms open here" in refused["error"]
        first.close()  # its presenter gone, each room still has a follower
        second = Client(server.url)
        # until the server has seen the first presenter's connection close
        until(lambda: "room" in second.call("create_room"), "the first presenter's rooms never came back", TIMEOUT)
        told = follower.wait_for("error", lambda e: "its presenter left" in e["message"])
        assert told["kind"] == "NotAllowed" and told["message"].split()[1] in rooms
        second.close()
        follower.close()


def test_an_unattended_room_is_reclaimed_and_its_followers_told(mode):
    with serve(mode, ROOM_UNATTENDED_SECONDS="0.5", SWEEP_SECONDS=1) as server:
        presenter = Client(server.url)
        ack = presenter.call("create_room")
        presenter.call("load", {"scenario": "lost-marker", "room": ack["room"], "token": ack["token"]})
        follower = Client(server.url)
        follower.call("join_room", {"room": ack["room"]})
        presenter.close()
        told = follower.wait_for("error", lambda e: "its presenter left" in e["message"])
        assert told["message"].startswith(f"room {ack['room']} was closed")
        follower.call("join_room", {"room": ack["room"]})
        gone = follower.wait_for("error")
        assert gone["kind"] == "NotAllowed" and ack["room"] in gone["message"]
        follower.close()
        assert server.proc.poll() is None
