"""Rooms over Socket.IO: the presenter drives with its token, followers follow, nobody else drives."""

import pytest


def drain(c, name):
    return [m["args"][0] for m in c.get_received() if m["name"] == name]


def last_state(c):
    states = drain(c, "state")
    assert states, "expected a state message"
    return states[-1]


@pytest.fixture
def room(make_sio):
    presenter = make_sio()
    ack = presenter.emit("create_room", {}, callback=True)
    presenter.emit("load", {"scenario": "lost-marker", **ack})
    presenter.get_received()
    return presenter, ack


def test_create_room_answers_a_short_code_and_a_long_token(make_sio):
    ack = make_sio().emit("create_room", {}, callback=True)
    assert len(ack["room"]) == 6 and ack["room"].isalnum() and ack["room"].isupper()
    assert len(ack["token"]) >= 40


def test_followers_receive_every_state_the_presenter_makes(room, make_sio):
    presenter, ack = room
    follower = make_sio()
    follower.emit("join_room", {"room": ack["room"]})
    assert last_state(follower)["position"] == 0
    for expected in (1, 2, 3):
        presenter.emit("step", ack)
        assert last_state(presenter)["position"] == expected
        state = last_state(follower)
        assert (state["position"], state["room"]) == (expected, ack["room"])


def test_late_joiner_lands_on_the_current_step_at_once(room, make_sio):
    presenter, ack = room
    presenter.emit("seek", {"position": 5, **ack})
    late = make_sio()
    late.emit("join_room", {"room": ack["room"].lower()})
    received = late.get_received()
    assert [m["name"] for m in received] == ["scenario", "state"]
    assert received[1]["args"][0]["position"] == 5


@pytest.mark.parametrize("token", [None, "", "wrong", "x" * 43])
@pytest.mark.parametrize("event,payload", [("step", {}), ("back", {}), ("seek", {"position": 4}),
                                           ("reset", {}), ("play", {"speed": 5}), ("pause", {}),
                                           ("load", {"scenario": "gate-off"})])
def test_without_the_token_nothing_moves_the_room(room, make_sio, event, payload, token):
    presenter, ack = room
    presenter.emit("seek", {"position": 2, **ack})
    intruder = make_sio()
    intruder.emit("join_room", {"room": ack["room"]})
    intruder.get_received()
    presenter.get_received()
    body = {**payload, "room": ack["room"]}
    if token is not None:
        body["token"] = token
    intruder.emit(event, body)
    errors = drain(intruder, "error")
    assert errors and errors[0]["event"] == event and "token" in errors[0]["message"]
    assert presenter.get_received() == []  # no state or scenario went to the room
    presenter.emit("pause", ack)
    state = last_state(presenter)
    assert (state["position"], state["playing"]) == (2, False)


def test_a_follower_steps_its_own_session_without_touching_the_room(room, make_sio):
    presenter, ack = room
    follower = make_sio()
    follower.emit("join_room", {"room": ack["room"]})
    follower.emit("load", {"scenario": "lost-marker"})  # detached: a private copy
    follower.emit("seek", {"position": 6})
    assert last_state(follower)["room"] is None
    presenter.emit("pause", ack)
    assert last_state(presenter)["position"] == 0


def test_join_unknown_room_is_an_error(sio):
    sio.emit("join_room", {"room": "NOPE42"})
    assert drain(sio, "error")[0]["event"] == "join_room"


def test_presenter_state_carries_the_next_steps_narration(room):
    presenter, ack = room
    presenter.emit("seek", {"position": 4, **ack})
    state = last_state(presenter)
    upcoming = state["scene"]["upcoming"]
    assert set(upcoming) == {"v1.28.1", "v1.28.2"}
    assert upcoming["v1.28.1"]["title"] == upcoming["v1.28.2"]["title"] == "Done(A)"
    assert "Next() is now nil" in " ".join(upcoming["v1.28.1"]["lines"])
    assert state["position"] == 4  # looking ahead does not move the room
    presenter.emit("pause", ack)
    assert last_state(presenter)["position"] == 4
    presenter.emit("seek", {"position": 6, **ack})
    assert last_state(presenter)["scene"]["upcoming"] is None


def test_range_locks_a_session(sio):
    sio.emit("load", {"scenario": "lost-marker", "range": [2, 4]})
    assert last_state(sio)["position"] == 2
    sio.emit("back")
    assert last_state(sio)["position"] == 2
    for _ in range(4):
        sio.emit("step")
    assert last_state(sio)["position"] == 4
    sio.emit("seek", {"position": 5})
    assert "range" in drain(sio, "error")[0]["message"]
    sio.emit("reset")
    assert last_state(sio)["position"] == 2


@pytest.mark.parametrize("bad", [[3, 2], [0, 99], [-1, 2], "0-3", [0], [True, 2]])
def test_bad_range_is_rejected(sio, bad):
    sio.emit("load", {"scenario": "lost-marker", "range": bad})
    assert drain(sio, "error")[0]["event"] == "load"
