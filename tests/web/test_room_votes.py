"""A room's vote on one real server (the memory store), both async modes: votes from one address count at most
as many times as a poll's answers do, and a vote in a room that has ended (reclaimed once its presenter left) is
refused with a clear message. (Two processes sharing Redis: tests/scale/test_room_votes.py.)"""

import pytest

from tests.web.sockclient import Client
from tests.web.test_room_bounds import presenter_at, serve

ACTIONS = [{"op": "pop"}, {"op": "done", "pod": "A"}]


@pytest.fixture(params=["eventlet", "threading"])
def mode(request):
    return request.param


def tallies(client):
    return [data for name, data in client.received() if name == "vote_tally"]


def test_a_vote_counts_at_most_n_votes_from_one_address(mode):
    with serve(mode, MAX_ANSWERS_PER_ADDRESS=3) as server:
        presenter, drive = presenter_at(server.url, 2)
        presenter.sio.on("vote_tally", presenter._keeper("vote_tally"))
        presenter.call("vote_open", {**drive, "actions": ACTIONS})
        refusals = []
        for i in range(5):  # connect, vote as a fresh voter, leave: again and again
            follower = Client(server.url)
            follower.call("join_room", {"room": drive["room"], "voter": f"voter-{i:04}"})
            follower.call("vote_answer", {"room": drive["room"], "voter": f"voter-{i:04}", "action": 1})
            refusals += [data for name, data in follower.received() if name == "error"]
            follower.close()
        assert len(refusals) == 2
        assert all(r["kind"] == "NotAllowed" and r["event"] == "vote_answer" for r in refusals)
        assert "at most 3 votes from one address (MAX_ANSWERS_PER_ADDRESS)" in refusals[0]["message"]
        assert max(t["answered"] for t in tallies(presenter)) == 3
        again = Client(server.url)  # a voter already counted may still change its vote
        again.call("join_room", {"room": drive["room"], "voter": "voter-0001"})
        again.call("vote_answer", {"room": drive["room"], "voter": "voter-0001", "action": 0})
        assert [name for name, _ in again.received() if name == "error"] == []
        assert presenter.wait_for("vote_tally", lambda t: t["counts"] == [1, 2])["answered"] == 3
        presenter.close()
        again.close()
        assert server.proc.poll() is None


def test_a_vote_in_a_room_that_ended_is_refused_clearly(mode):
    with serve(mode, ROOM_UNATTENDED_SECONDS="0.5", SWEEP_SECONDS=1) as server:
        presenter, drive = presenter_at(server.url, 2)
        presenter.call("vote_open", {**drive, "actions": ACTIONS})
        follower = Client(server.url)
        follower.sio.on("vote", follower._keeper("vote"))
        follower.call("join_room", {"room": drive["room"], "voter": "voter-late"})
        assert follower.wait_for("vote")["open"]
        presenter.close()  # nobody drives it any more: the room ends
        follower.wait_for("error", lambda e: "its presenter left" in e["message"])
        follower.call("vote_answer", {"room": drive["room"], "voter": "voter-late", "action": 0})
        refused = follower.wait_for("error", lambda e: e["event"] == "vote_answer")
        assert refused["kind"] == "NotAllowed"
        assert refused["message"] == f"room {drive['room']!r} has ended (or never was): it takes no votes"
        back = Client(server.url)  # the presenter's token opens nothing in it either
        back.call("vote_open", {**drive, "actions": ACTIONS})
        assert back.wait_for("error", lambda e: e["event"] == "vote_open")["message"].endswith("takes no votes")
        follower.close()
        back.close()
        assert server.proc.poll() is None
