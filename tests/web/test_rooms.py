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


# --- the live poll and the blank screen -------------------------------------------------------------------------
@pytest.fixture
def poll_room(room, make_sio):
    """A room one step before B's failure (lost-marker position 5), with three followers."""
    presenter, ack = room
    presenter.emit("seek", {"position": 5, **ack})
    followers = [make_sio() for _ in range(3)]
    for f in followers:
        f.emit("join_room", {"room": ack["room"]})
    for c in (presenter, *followers):
        c.get_received()
    return presenter, ack, followers


def test_followers_answer_the_poll_and_only_the_presenter_sees_the_answers_come_in(poll_room):
    presenter, ack, followers = poll_room
    presenter.emit("poll_open", ack)
    [opened] = drain(followers[0], "poll")
    assert (opened["pod"], opened["position"], opened["open"], opened["answered"]) == ("B", 5, True, 0)
    assert opened["choices"] == ["activeQ", "backoffQ", "unschedulablePods"]
    answers = [{"v1.28.1": "backoffQ", "v1.28.2": "backoffQ"}, {"v1.28.1": "unschedulablePods"},
               {"v1.28.1": "activeQ", "v1.28.2": "backoffQ"}]
    presenter.get_received()
    for f, answer in zip(followers, answers):
        f.emit("poll_answer", {"room": ack["room"], "answers": answer})
    followers[2].emit("poll_answer", {"room": ack["room"], "answers": {"v1.28.1": "unschedulablePods"}})  # changed
    tallies = drain(presenter, "poll_tally")
    assert [t["answered"] for t in tallies] == [1, 2, 3, 3]
    assert tallies[-1]["counts"] == {"v1.28.1": {"activeQ": 0, "backoffQ": 1, "unschedulablePods": 2},
                                     "v1.28.2": {"activeQ": 0, "backoffQ": 1, "unschedulablePods": 0}}
    assert all(drain(f, "poll_tally") == [] for f in followers)  # nobody is swayed by the others' answers
    presenter.emit("poll_reveal", ack)
    for c in (presenter, *followers):
        [revealed] = drain(c, "poll")
        assert revealed["open"] is False and revealed["counts"] == tallies[-1]["counts"]
    followers[0].emit("poll_answer", {"room": ack["room"], "answers": {"v1.28.1": "backoffQ"}})
    assert drain(followers[0], "error")[0]["message"] == "no poll is open in this room"


def test_a_cancelled_poll_is_withdrawn_for_everyone_and_refuses_late_answers(poll_room, make_sio):
    presenter, ack, followers = poll_room
    presenter.emit("poll_open", ack)
    for c in (presenter, *followers):
        c.get_received()
    followers[0].emit("poll_answer", {"room": ack["room"], "answers": {"v1.28.1": "backoffQ"}})
    followers[1].emit("poll_cancel", {"room": ack["room"], "token": "x" * 43})  # only the presenter may
    assert drain(followers[1], "error")[0]["kind"] == "NotAllowed"
    presenter.emit("poll_cancel", ack)
    for c in (presenter, *followers):
        assert drain(c, "poll")[-1] == {"room": ack["room"], "position": 5, "open": False, "cancelled": True}
    followers[2].emit("poll_answer", {"room": ack["room"], "answers": {"v1.28.1": "backoffQ"}})
    assert drain(followers[2], "error")[0]["message"] == "no poll is open in this room"
    late = make_sio()  # a joiner is not shown the withdrawn poll
    late.emit("join_room", {"room": ack["room"]})
    assert drain(late, "poll") == []
    presenter.emit("poll_cancel", ack)
    assert drain(presenter, "error")[0]["message"] == "no poll is open in this room"
    presenter.emit("poll_open", ack)  # a new poll starts from no answers
    assert drain(followers[0], "poll")[-1]["answered"] == 0


def test_answers_never_move_the_room_and_bad_ones_are_refused(poll_room):
    presenter, ack, followers = poll_room
    presenter.emit("poll_open", ack)
    for c in (presenter, *followers):
        c.get_received()
    bad = [{"room": ack["room"]}, {"room": ack["room"], "answers": {"v9": "activeQ"}},
           {"room": ack["room"], "answers": {"v1.28.1": "nowhere"}}, {"room": "NOROOM", "answers": {}},
           {"room": ack["room"], "answers": {"v1.28.1": "backoffQ"}, "token": "wrong"}]
    for payload in bad[:4]:
        followers[0].emit("poll_answer", payload)
    errors = drain(followers[0], "error")
    assert [e["event"] for e in errors] == ["poll_answer"] * 4
    assert "not a variant of this poll" in errors[1]["message"] and "expected one of" in errors[2]["message"]
    followers[0].emit("poll_answer", bad[4])  # a token does not make an answer drive anything
    presenter.emit("sync", {"room": ack["room"]})
    assert last_state(presenter)["position"] == 5
    presenter.emit("step", ack)
    assert last_state(presenter)["position"] == 6
    followers[1].emit("poll_answer", {"room": ack["room"], "answers": {"v1.28.1": "backoffQ"}})
    assert drain(followers[1], "error")[-1]["message"] == "this poll has closed: the room has moved on"


@pytest.mark.parametrize("answers", [None, 0, "backoffQ", ["backoffQ"], {}, "\u202e" * 1000])
def test_an_answer_that_is_not_an_object_is_refused_naming_answers(poll_room, answers):
    """The refusal said 'an answer is an object ...', never naming the field 'answers' it was about."""
    presenter, ack, followers = poll_room
    presenter.emit("poll_open", ack)
    for c in (presenter, *followers):
        c.get_received()
    payload = {"room": ack["room"]} if answers is None else {"room": ack["room"], "answers": answers}
    followers[0].emit("poll_answer", payload)
    [error] = drain(followers[0], "error")
    assert error["kind"] == "Invalid" and error["message"].startswith("answers must be an object {variant: choice}")
    assert drain(presenter, "poll_tally") == []  # nothing counted


def test_only_the_presenter_opens_reveals_and_blanks(poll_room):
    presenter, ack, followers = poll_room
    for event in ("poll_open", "poll_reveal", "poll_cancel", "blank"):
        followers[0].emit(event, {"room": ack["room"], "token": "x" * 43})
    assert [e["kind"] for e in drain(followers[0], "error")] == ["NotAllowed"] * 4
    presenter.emit("seek", {"position": 4, **ack})
    presenter.get_received()
    presenter.emit("poll_open", ack)  # position 4: the next step is an event, nothing to predict
    assert "nothing to predict" in drain(presenter, "error")[0]["message"]


def test_the_presenters_blank_reaches_every_follower(poll_room):
    presenter, ack, followers = poll_room
    presenter.emit("blank", {**ack, "on": True})
    presenter.emit("blank", {**ack, "on": False})
    for f in followers:
        assert drain(f, "blank") == [{"room": ack["room"], "on": True}, {"room": ack["room"], "on": False}]


def test_a_follower_joining_a_blank_room_is_blank_too(poll_room, make_sio):
    """The blank was only relayed as it changed: a phone joining (or coming back) while the presenter had
    blanked the screens showed the slide."""
    presenter, ack, followers = poll_room
    presenter.emit("blank", {**ack, "on": True})
    late = make_sio()
    late.emit("join_room", {"room": ack["room"]})
    assert drain(late, "blank") == [{"room": ack["room"], "on": True, "joined": True}]
    presenter.emit("blank", {**ack, "on": False})
    later = make_sio()
    later.emit("join_room", {"room": ack["room"]})
    assert drain(later, "blank") == []


def opened(presenter, ack, followers):
    presenter.emit("poll_open", ack)
    for c in (presenter, *followers):
        c.get_received()


def test_a_voter_coming_back_on_a_new_connection_answers_once(poll_room, make_sio):
    """Answers were kept per connection: a phone whose screen locked came back on a new one and, answering
    again, was counted twice. Its tab's voter id now names its answer."""
    presenter, ack, followers = poll_room
    opened(presenter, ack, followers)
    followers[0].emit("poll_answer", {"room": ack["room"], "voter": "tab-0001", "answers": {"v1.28.1": "backoffQ"}})
    followers[0].disconnect()
    back = make_sio()
    back.emit("join_room", {"room": ack["room"]})
    back.emit("poll_answer", {"room": ack["room"], "voter": "tab-0001", "answers": {"v1.28.1": "activeQ"}})
    followers[1].emit("poll_answer", {"room": ack["room"], "voter": "tab-0002", "answers": {"v1.28.1": "activeQ"}})
    tallies = drain(presenter, "poll_tally")
    assert [t["answered"] for t in tallies] == [1, 1, 2]
    assert tallies[-1]["counts"]["v1.28.1"] == {"activeQ": 2, "backoffQ": 0, "unschedulablePods": 0}


def test_a_voter_back_after_a_reload_is_shown_its_own_answer_and_nobody_elses(poll_room, make_sio):
    """A phone reloaded mid-poll showed the poll unanswered, though its answer counted: joining as its voter, it
    now gets the poll with ``yours``; a joiner under another voter id, or none, gets no answer; a malformed id is
    refused before anything is joined."""
    presenter, ack, followers = poll_room
    opened(presenter, ack, followers)
    answer = {"v1.28.1": "unschedulablePods", "v1.28.2": "backoffQ"}
    followers[0].emit("poll_answer", {"room": ack["room"], "voter": "tab-0001", "answers": answer})
    followers[0].disconnect()

    def joined_as(voter):
        sio = make_sio()
        sio.emit("join_room", {"room": ack["room"], **({"voter": voter} if voter else {})})
        return sio, sio.get_received()

    _, back = joined_as("tab-0001")
    [poll] = [m["args"][0] for m in back if m["name"] == "poll"]
    assert poll["open"] and poll["yours"] == answer and poll["answered"] == 1
    for voter in ("tab-0002", None):
        _, other = joined_as(voter)
        [poll] = [m["args"][0] for m in other if m["name"] == "poll"]
        assert "yours" not in poll and poll["answered"] == 1
    bad, received = joined_as("no good")
    assert [m["name"] for m in received] == ["error"] and received[0]["args"][0]["message"].startswith("voter: ")
    bad.emit("poll_answer", {"room": ack["room"], "voter": "tab-0003", "answers": answer})
    assert drain(bad, "error")[0]["message"] == "join the room before answering its poll"


def test_only_a_member_answers_and_as_one_voter(poll_room, make_sio):
    """Anyone who knew the code could answer without joining, and one connection could answer as many
    voters."""
    presenter, ack, followers = poll_room
    opened(presenter, ack, followers)
    outsider = make_sio()
    outsider.emit("poll_answer", {"room": ack["room"], "voter": "tab-outside", "answers": {"v1.28.1": "backoffQ"}})
    [error] = drain(outsider, "error")
    assert (error["kind"], error["message"]) == ("NotAllowed", "join the room before answering its poll")
    f = followers[0]
    f.emit("poll_answer", {"room": ack["room"], "voter": "tab-first", "answers": {"v1.28.1": "backoffQ"}})
    f.emit("poll_answer", {"room": ack["room"], "voter": "tab-second", "answers": {"v1.28.1": "backoffQ"}})
    [error] = drain(f, "error")
    assert (error["kind"], error["message"]) == ("NotAllowed", "this connection already answers as another voter")
    for bad in ("short", "x" * 65, "has space", 12345678, ["tab-0001"], "tab-\u00e9\u00e9\u00e9\u00e9"):
        followers[1].emit("poll_answer", {"room": ack["room"], "voter": bad, "answers": {"v1.28.1": "backoffQ"}})
    errors = drain(followers[1], "error")
    assert [e["kind"] for e in errors] == ["Invalid"] * 6 and all(e["message"].startswith("voter: ") for e in errors)
    assert [t["answered"] for t in drain(presenter, "poll_tally")] == [1]  # the one good answer only


def test_leaving_and_joining_again_answers_as_the_same_voter(poll_room):
    """Leaving unbound the connection's voter: join, answer, leave, join again answered as a new voter each time,
    and one connection stuffed the poll (40 loops, 40 answers)."""
    presenter, ack, followers = poll_room
    opened(presenter, ack, followers)
    f = followers[0]
    for i in range(5):
        f.emit("poll_answer", {"room": ack["room"], "voter": f"stuffer-{i:04}", "answers": {"v1.28.1": "activeQ"}})
        f.emit("leave_room", {"room": ack["room"]})
        f.emit("join_room", {"room": ack["room"]})
    errors = drain(f, "error")
    assert [e["message"] for e in errors] == ["this connection already answers as another voter"] * 4
    assert [t["answered"] for t in drain(presenter, "poll_tally")] == [1]


def test_a_poll_counts_a_bounded_number_of_voters(monkeypatch, poll_room):
    from webapp.engine import polls

    monkeypatch.setattr(polls, "MAX_ANSWERS", 3)
    presenter, ack, followers = poll_room
    opened(presenter, ack, followers)
    for i, f in enumerate(followers):
        f.emit("poll_answer", {"room": ack["room"], "voter": f"tab-000{i}", "answers": {"v1.28.1": "backoffQ"}})
    assert [t["answered"] for t in drain(presenter, "poll_tally")] == [1, 2, 3]
    presenter.emit("poll_answer", {"room": ack["room"], "voter": "tab-0009", "answers": {"v1.28.1": "backoffQ"}})
    [error] = drain(presenter, "error")
    assert error["kind"] == "Busy" and "3 answers" in error["message"]
    followers[0].emit("poll_answer", {"room": ack["room"], "voter": "tab-0000", "answers": {"v1.28.1": "activeQ"}})
    assert drain(followers[0], "error") == []  # a counted voter still changes its answer
    [tally] = drain(presenter, "poll_tally")
    assert tally["answered"] == 3 and tally["counts"]["v1.28.1"]["activeQ"] == 1


@pytest.mark.parametrize("event, payload", [("blank", {"on": "yes"}), ("blank", {"on": 1}), ("blank", {}),
                                            ("blank", {"on": None}), ("sync", {"scenario": "true"}),
                                            ("sync", {"scenario": [True]})])
def test_a_true_or_false_field_of_another_type_is_refused(poll_room, event, payload):
    """blank's 'on' and sync's 'scenario' were read as ``is True``: 'yes', 1, a list or nothing unblanked every
    follower's screen (or sent no scenario) without a word."""
    presenter, ack, followers = poll_room
    sender = presenter if event == "blank" else followers[0]
    sender.emit(event, {**(ack if event == "blank" else {"room": ack["room"]}), **payload})
    [error] = drain(sender, "error")
    field = next(iter(payload), "on")
    assert error["kind"] == "Invalid" and error["message"].startswith(f"{field} must be true or false, got ")
    assert all(f.get_received() == [] for f in followers if f is not sender)


def test_a_follower_who_joins_during_a_poll_gets_it_and_can_answer(poll_room, make_sio):
    presenter, ack, followers = poll_room
    presenter.emit("poll_open", ack)
    late = make_sio()
    late.emit("join_room", {"room": ack["room"]})
    received = late.get_received()
    assert [m["name"] for m in received] == ["scenario", "state", "poll"]
    assert received[2]["args"][0]["open"] is True and received[2]["args"][0]["position"] == 5
    presenter.get_received()
    late.emit("poll_answer", {"room": ack["room"], "answers": {"v1.28.2": "backoffQ"}})
    assert drain(presenter, "poll_tally")[-1]["answered"] == 1
    presenter.emit("step", ack)
    another = make_sio()
    another.emit("join_room", {"room": ack["room"]})
    assert [m["name"] for m in another.get_received()] == ["scenario", "state"]  # the room moved on: no poll


def test_a_presenter_coming_back_gets_the_open_poll_and_its_step_reveals_it(poll_room, make_sio):
    """The presenter reloaded during a poll: its page had no poll, the phones kept it, and after the next step
    they still said 'Answer sent' at 6/6, never getting a reveal. A presenter coming back (claim_room) gets the
    open poll with its tally, answers keep reaching it, and the step the poll asks about reveals it to everyone,
    before the step itself."""
    presenter, ack, followers = poll_room
    opened(presenter, ack, followers)
    followers[0].emit("poll_answer", {"room": ack["room"], "voter": "tab-0001",
                                      "answers": {"v1.28.1": "unschedulablePods"}})
    presenter.disconnect()  # the presenter's page reloads
    back = make_sio()
    assert back.emit("claim_room", ack, callback=True) == {"room": ack["room"], "loaded": True}
    received = back.get_received()
    assert [m["name"] for m in received] == ["scenario", "state", "poll"]
    poll = received[2]["args"][0]
    assert (poll["open"], poll["position"], poll["pod"], poll["answered"]) == (True, 5, "B", 1)
    assert poll["counts"]["v1.28.1"]["unschedulablePods"] == 1
    followers[1].emit("poll_answer", {"room": ack["room"], "voter": "tab-0002", "answers": {"v1.28.1": "backoffQ"}})
    assert [t["answered"] for t in drain(back, "poll_tally")] == [2]
    back.emit("pause", ack)  # not a move: the poll stays open
    assert drain(followers[0], "poll") == []
    for c in (back, *followers):
        c.get_received()
    back.emit("step", ack)
    for c in (back, *followers):
        received = c.get_received()
        assert [m["name"] for m in received] == ["poll", "state"], "the reveal first, then the step showing the truth"
        revealed = received[0]["args"][0]
        assert (revealed["open"], revealed["position"], revealed["answered"]) == (False, 5, 2)
        assert revealed["counts"]["v1.28.1"] == {"activeQ": 0, "backoffQ": 1, "unschedulablePods": 1}
        assert received[1]["args"][0]["position"] == 6
    followers[2].emit("poll_answer", {"room": ack["room"], "answers": {"v1.28.1": "backoffQ"}})
    assert drain(followers[2], "error")[0]["message"] == "this poll has closed: the room has moved on"
    back.emit("step", ack)  # a revealed poll is over: moving on sends nothing more about it
    assert drain(followers[0], "poll") == []


@pytest.mark.parametrize("event, payload", [
    ("back", {}), ("seek", {"position": 2}), ("reset", {}),
    ("load", {"scenario": "lost-marker", "position": 6}),  # another load, even at the step the poll asked about
])
def test_moving_anywhere_else_withdraws_the_open_poll_for_everyone(poll_room, make_sio, event, payload):
    """Only the step a poll asks about can reveal it: after any other move it is withdrawn, so no phone keeps a
    poll that can never be revealed."""
    presenter, ack, followers = poll_room
    opened(presenter, ack, followers)
    followers[0].emit("poll_answer", {"room": ack["room"], "answers": {"v1.28.1": "backoffQ"}})
    presenter.get_received()
    presenter.emit(event, {**payload, **ack})
    for c in (presenter, *followers):
        received = c.get_received()
        polls = [i for i, m in enumerate(received) if m["name"] == "poll"]
        assert [received[i]["args"][0] for i in polls] == [
            {"room": ack["room"], "position": 5, "open": False, "cancelled": True}]
        assert "state" in [m["name"] for m in received[polls[0]:]], "withdrawn before the move is shown"
    followers[1].emit("poll_answer", {"room": ack["room"], "answers": {"v1.28.1": "backoffQ"}})
    assert drain(followers[1], "error")
    presenter.emit("seek", {"position": 5, **ack})  # back where it asked: the withdrawn poll does not return
    late = make_sio()
    late.emit("join_room", {"room": ack["room"]})
    assert drain(late, "poll") == [] and drain(followers[0], "poll") == []
    presenter.emit("poll_cancel", ack)
    assert drain(presenter, "error")[0]["message"] == "no poll is open in this room"


def long_scenario(steps: int = 400) -> dict:
    """A scenario whose autoplay at 1x is still running when a test is done with it."""
    return {"schema": 1, "name": "long", "pods": [{"name": "A"}], "initial_active": ["A"],
            "steps": [{"op": "pop", "expect": "A"}] + [{"op": "event", "event": "NodeAdd"}] * (steps - 1)}


def test_a_joiner_is_told_the_room_plays_only_while_its_autoplay_runs(make_sio, app):
    """The room plays; its presenter leaves, then its last follower: the autoplay stops, and whoever joins later
    (a follower, the presenter back) is told it does not play, from the room's record, not a message made while
    it played."""
    presenter, follower = make_sio(), make_sio()
    ack = presenter.emit("create_room", {}, callback=True)
    presenter.emit("load", {"scenario": long_scenario(), **ack})
    follower.emit("join_room", {"room": ack["room"]})
    presenter.emit("play", {"speed": 1, **ack})
    assert last_state(follower)["playing"] is True
    early = make_sio()
    early.emit("join_room", {"room": ack["room"]})
    assert last_state(early)["playing"] is True  # it does play
    early.emit("leave_room", {"room": ack["room"]})
    presenter.disconnect()
    follower.emit("leave_room", {"room": ack["room"]})
    late = make_sio()
    late.emit("join_room", {"room": ack["room"]})
    state = last_state(late)
    assert state["playing"] is False and state["position"] < 400
    assert not app.extensions["inflight_rooms"].find(ack["room"]).session.playing
    back = make_sio()
    back.emit("claim_room", ack, callback=True)
    assert last_state(back)["playing"] is False
