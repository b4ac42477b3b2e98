"""A room votes on what happens next, across two server processes sharing a real Redis, in both async modes:
the presenter opens a vote, followers on either process vote (and change their minds), the presenter closes it
and the winning action is forked into the room on every follower and on a late joiner; the presenter undoes it.
Followers can never open, close or steer a vote, and a room that has ended takes no votes."""

import pytest
import requests

from tests.scale.test_two_processes import Client
from webapp.engine.roomstore import RedisRoomStore
from webapp.phrases import FORK_MARK
from webapp.scenario import builtin

EVENTS = ("vote", "vote_tally", "vote_offer")
NAME = builtin.get("lost-marker")["name"]


@pytest.fixture
def clients():
    made = []

    def make(url):
        client = Client(url)
        for event in EVENTS:
            client.sio.on(event, client._record(event))
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()


def refused(client, event, words):
    """The error ``client`` was sent for ``event``, which says ``words``."""
    return client.wait(lambda e, d: e == "error" and d["event"] == event and words in d["message"])


def room_with_followers(two_servers, clients, position, count=5):
    one, two = two_servers
    presenter = clients(one.url)
    ack = presenter.sio.call("create_room", {})
    presenter.sio.emit("load", {"scenario": "lost-marker", "position": position, **ack})
    presenter.state_at(position)
    followers = [clients((two if i % 2 == 0 else one).url) for i in range(count)]
    for f in followers:
        f.sio.emit("join_room", {"room": ack["room"]})
        f.state_at(position)
    return presenter, ack, followers


def test_the_rooms_vote_is_forked_into_every_screen_and_undone(two_servers, clients):
    one, two = two_servers
    presenter, ack, followers = room_with_followers(two_servers, clients, 2)
    code = ack["room"]
    presenter.sio.emit("vote_open", {**ack, "actions": [{"op": "pop"}, {"op": "done", "pod": "A"}]})
    for f in followers:
        vote = f.wait(lambda e, d: e == "vote" and d["open"])
        assert [a["label"] for a in vote["actions"]] == ["pop", "done A"] and vote["position"] == 2
    # follower i votes as a tab of its own; 0 and 1 change their minds: 4 of 5 for done A
    for i, f in enumerate(followers):
        f.sio.emit("vote_answer", {"room": code, "voter": f"tab-vote-{i}", "action": 0 if i < 3 else 1})
    presenter.wait(lambda e, d: e == "vote_tally" and d["counts"] == [3, 2])
    for f in followers[:2]:
        f.sio.emit("vote_answer", {"room": code, "voter": f"tab-vote-{followers.index(f)}", "action": 1})
    tally = presenter.wait(lambda e, d: e == "vote_tally" and d["counts"] == [1, 4])
    assert tally["answered"] == 5
    assert not any(e == "vote_tally" for f in followers for e, _ in f.received)  # the tally is the presenter's
    presenter.sio.emit("vote_close", ack)
    for client in [presenter, *followers]:
        closed = client.wait(lambda e, d: e == "vote" and not d["open"])
        assert closed["winner"] == 1 and closed["counts"] == [1, 4] and closed["label"] == "done A"
        scenario = client.wait(lambda e, d: e == "scenario" and d["name"] == f"{NAME} (fork)")
        note = scenario["steps"][2]["note"]
        assert note.startswith(FORK_MARK) and "done A (4 of 5 votes)" in note, note
        state = client.state_at(3)
        assert all("A" not in v["state"]["inFlightPods"] for v in state["variants"].values())
    late = clients(two.url)  # joins after the vote: lands on the branch
    late.sio.emit("join_room", {"room": code})
    assert late.wait(lambda e, d: e == "scenario")["name"] == f"{NAME} (fork)"
    assert late.state_at(3)["total"] == 3
    presenter.sio.emit("vote_undo", ack)  # back to the fork point, on every screen
    for client in [late, *followers]:
        client.wait(lambda e, d: e == "scenario" and d["name"] == NAME)
        state = client.state_at(2)
        assert state["total"] == 6 and all("A" in v["state"]["inFlightPods"] for v in state["variants"].values())
    presenter.sio.emit("vote_undo", ack)
    refused(presenter, "vote_undo", "nothing to undo")


def test_a_proposed_vote_offers_first_the_action_that_parts_the_versions(two_servers, clients):
    presenter, ack, followers = room_with_followers(two_servers, clients, 5, count=1)
    presenter.sio.emit("vote_offer", ack)  # what the presenter may offer: the proposed first
    offer = presenter.wait(lambda e, d: e == "vote_offer")
    assert offer["position"] == 5 and 2 <= offer["proposed"] <= 4 < len(offer["actions"])
    assert offer["actions"][0] == {"step": {"op": "fail", "pod": "B", "unschedulable_plugins": ["P"]},
                                   "label": "fail B — plugin P", "soon": 0}
    presenter.sio.emit("vote_open", ack)  # no actions: proposed
    vote = followers[0].wait(lambda e, d: e == "vote" and d["open"])
    assert vote["actions"][0]["step"] == {"op": "fail", "pod": "B", "unschedulable_plugins": ["P"]}
    assert vote["actions"] == [{"step": a["step"], "label": a["label"]} for a in offer["actions"][:offer["proposed"]]]
    assert not followers[0].has(lambda e, d: e == "vote_offer")


def test_followers_can_never_open_close_or_steer_a_vote(two_servers, clients):
    presenter, ack, followers = room_with_followers(two_servers, clients, 2, count=2)
    code, intruder = ack["room"], followers[0]
    last = ack["token"][-1]
    near = ack["token"][:-1] + ("B" if last == "A" else "A")  # the presenter's token but for its last character
    for event in ("vote_offer", "vote_open", "vote_close", "vote_cancel", "vote_undo"):
        for token in ({}, {"token": "x" * 43}, {"token": near}):
            intruder.sio.emit(event, {"room": code, **token})
            refused(intruder, event, f"only the presenter of room {code}")
    intruder.sio.emit("vote_answer", {"room": code, "voter": "tab-vote-x", "action": 0})
    refused(intruder, "vote_answer", "no vote is open")
    presenter.sio.emit("vote_open", {**ack, "actions": [{"op": "pop"}, {"op": "done", "pod": "A"}]})
    intruder.wait(lambda e, d: e == "vote" and d["open"])
    intruder.sio.emit("vote_answer", {"room": code, "voter": "tab-vote-x", "action": 7})
    refused(intruder, "vote_answer", "0 to 1")
    intruder.sio.emit("vote_close", {"room": code})
    refused(intruder, "vote_close", "only the presenter")
    intruder.sio.emit("vote_answer", {"room": code, "voter": "tab-vote-x", "action": 0})
    presenter.wait(lambda e, d: e == "vote_tally" and d["answered"] == 1)
    assert not presenter.has(lambda e, d: e == "vote" and not d["open"])  # still open: nobody closed it
    presenter.sio.emit("vote_open", {**ack, "actions": [{"op": "pop"}, {"op": "pop"}]})
    refused(presenter, "vote_open", "offered once")
    presenter.sio.emit("vote_open", {**ack, "actions": [{"op": "pop"}, {"op": "done", "pod": "Z"}]})
    refused(presenter, "vote_open", "actions[1] cannot be played here")


def test_a_vote_after_the_room_ended_is_refused_clearly(two_servers, redis_server, clients):
    presenter, ack, followers = room_with_followers(two_servers, clients, 2, count=2)
    presenter.sio.emit("vote_open", {**ack, "actions": [{"op": "pop"}, {"op": "done", "pod": "A"}]})
    for f in followers:
        f.wait(lambda e, d: e == "vote" and d["open"])
    RedisRoomStore(redis_server.url, 60).drop(ack["room"])  # the room ends (as its record expiring ends it)
    for f in followers:
        f.sio.emit("vote_answer", {"room": ack["room"], "voter": "tab-vote-late", "action": 0})
        refused(f, "vote_answer", f"room {ack['room']!r} has ended")
    presenter.sio.emit("vote_close", ack)
    refused(presenter, "vote_close", "has ended")


def test_the_presenter_posts_the_rooms_summary_and_either_process_serves_it(two_servers, clients):
    """After the talk: the room's poll against the truth and the fork it voted, on a page any process serves,
    linkable, with no token in it."""
    one, two = two_servers
    presenter, ack, followers = room_with_followers(two_servers, clients, 5, count=3)
    code = ack["room"]
    presenter.sio.on("summary", presenter._record("summary"))
    presenter.sio.emit("poll_open", ack)
    for i, (f, choice) in enumerate(zip(followers, ("unschedulablePods", "backoffQ", "backoffQ"))):
        f.wait(lambda e, d: e == "poll" and d["open"])
        f.sio.emit("poll_answer", {"room": code, "voter": f"tab-room-{i}", "answers": {"v1.28.1": choice}})
    presenter.wait(lambda e, d: e == "poll_tally" and d["answered"] == 3)
    presenter.sio.emit("step", ack)  # the step reveals the poll
    presenter.state_at(6)
    presenter.sio.emit("seek", {**ack, "position": 2})
    presenter.state_at(2)
    presenter.sio.emit("vote_open", {**ack, "actions": [{"op": "pop"}, {"op": "done", "pod": "A"}]})
    for i, f in enumerate(followers):
        f.wait(lambda e, d: e == "vote" and d["open"])
        f.sio.emit("vote_answer", {"room": code, "voter": f"tab-room-{i}", "action": 1})  # its tab's one id
    presenter.wait(lambda e, d: e == "vote_tally" and d["answered"] == 3)
    presenter.sio.emit("vote_close", ack)
    presenter.wait(lambda e, d: e == "scenario" and d["name"] == f"{NAME} (fork)")
    followers[0].sio.emit("summary_post", {"room": code})
    refused(followers[0], "summary_post", "only the presenter")
    presenter.sio.emit("summary_post", ack)
    href = presenter.wait(lambda e, d: e == "summary")["href"]
    for server in (two, one):
        page = requests.get(server.url + href, timeout=60)
        assert page.status_code == 200, page.text[:300]
        text = page.text
        assert ack["token"] not in text and "#token" not in text
        assert f"<h2>{NAME} (fork)</h2>" in text
        assert "After step 2 the room voted: <strong>done A</strong>" in text
        assert "where will <strong>B</strong> go? 3 answered" in text
        assert "v1.28.1: it went to unschedulablePods" in text and "v1.28.2: it went to backoffQ" in text
        assert "open before the fork" in text and "open the fork" in text and "open it there" in text
    gone = requests.get(one.url + "/room/summary/nothing-kept-here", timeout=60)
    assert gone.status_code == 404 and "no longer kept" in gone.text
