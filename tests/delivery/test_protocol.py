"""delivery/protocol.py without a socket: what a channel is sent after a command (a whole state, then deltas from
the state it holds, numbered), what one connection is sent again (a joiner, a client that lost its place, a
reload), a room's fan-out (whole to its presenter's channel, ``for_audience`` to its followers': never the
speaker's notes or what comes next), and the next step's messages made ahead for a private session."""

from __future__ import annotations

import copy
import json

import pytest

from tests.loads import loaded
from webapp.delivery.cache import MessageCache, view_of
from webapp.delivery.protocol import Channel, Out, Publish, Resend, current, deliver, look_ahead, looks_ahead
from webapp.engine.rooms import Rooms
from webapp.presenter.delta import apply
from webapp.presenter.messages import SPEAKERS_ONLY, for_audience, traced
from webapp.scenario import builtin
from webapp.scenario.resolve import resolve
from webapp.web.snapshots import snapshot_of

SID = "sid-1"


def plain(value):
    return json.loads(json.dumps(value))


def fold(held: dict, delta: dict) -> dict:
    """What a client holding the state ``held`` holds after ``delta`` (the client's own fold, in Python)."""
    assert delta["seq"] == held["seq"] + 1, "a delta goes from the state numbered one before it"
    return {**held, **apply(copy.deepcopy(traced(held)), delta["ops"]), "seq": delta["seq"]}


def only(out: list[Out], event: str, to: str) -> Out:
    [found] = [o for o in out if o.event == event and o.to == to]
    return found


@pytest.fixture
def cache() -> MessageCache:
    return MessageCache()


# --- a connection's own session -------------------------------------------------------------------
def test_a_private_session_is_sent_its_scenario_a_whole_state_then_deltas_numbered_up(cache):
    session = loaded("lost-marker")
    out, state = deliver(Channel(), snapshot_of(session, None, SID), Publish(loaded=True), cache)
    assert [(o.event, o.to, o.private, o.followers) for o in out] == [("scenario", SID, True, False),
                                                                      ("state", SID, True, False)]
    held = out[1].payload
    assert held["seq"] == 1 and held["key"] == session.load_id and held["position"] == 0
    assert state.seq == 1 and state.scenarios and state.holds is None and state.version is None
    for position in (1, 2, 3):
        session.step()
        out, state = deliver(state, snapshot_of(session, None, SID), Publish(), cache)
        [delta] = out
        assert (delta.event, delta.to, delta.private) == ("delta", SID, True)
        assert delta.payload["position"] == position and delta.payload["key"] == session.load_id
        held = fold(held, delta.payload)
        whole = current(state, snapshot_of(session, None, SID), cache)
        assert plain(traced(held)) == plain(traced(whole)) and state.seq == position + 1


def test_a_seek_or_a_reset_sends_the_state_whole_and_numbers_it_on(cache):
    session = loaded("lost-marker")
    _, state = deliver(Channel(), snapshot_of(session, None, SID), Publish(loaded=True), cache)
    session.seek(4)
    out, state = deliver(state, snapshot_of(session, None, SID), Publish(whole=True), cache)
    assert [(o.event, o.payload["seq"], o.payload["position"]) for o in out] == [("state", 2, 4)]


def test_nothing_loaded_sends_nothing_and_keeps_the_state(cache):
    state = Channel(seq=3)
    assert deliver(state, None, Publish(), cache) == ([], state)
    assert deliver(state, None, Resend(SID), cache) == ([], state)


def test_a_client_that_lost_its_place_is_sent_the_state_whole_under_the_seq_it_holds(cache):
    """A sync: the scenario again only when asked for, the state whole, numbered as the last one sent, so the
    next delta follows it."""
    session = loaded("lost-marker")
    _, state = deliver(Channel(), snapshot_of(session, None, SID), Publish(loaded=True), cache)
    session.step()
    _, state = deliver(state, snapshot_of(session, None, SID), Publish(), cache)
    out, again = deliver(state, snapshot_of(session, None, SID), Resend(SID, scenario=False), cache)
    assert [(o.event, o.payload["seq"], o.payload["position"]) for o in out] == [("state", 2, 1)]
    assert again == state
    out, _ = deliver(state, snapshot_of(session, None, SID), Resend(SID), cache)
    assert [o.event for o in out] == ["scenario", "state"]
    session.step()
    out, _ = deliver(state, snapshot_of(session, None, SID), Publish(), cache)
    assert [(o.event, o.payload["seq"]) for o in out] == [("delta", 3)]  # follows the state sent again


# --- a room: its presenter's channel and its followers' ----------------------------------------------
def room_at(step: int = 0):
    rooms = Rooms(resolve)
    room = rooms.create()
    room.session.load(*resolve("lost-marker")[:1], ("v1.28.1", "v1.28.2"), "lost-marker")
    room.session.seek(step)
    rooms.save(room)
    return rooms, room


def test_a_rooms_scenes_fan_out_whole_to_its_presenter_and_without_notes_to_its_followers(cache):
    rooms, room = room_at()
    snap = snapshot_of(room.session, room, room.channel)
    out, state = deliver(Channel(), snap, Publish(loaded=True), cache)
    assert [(o.event, o.to, o.private, o.followers) for o in out] == [
        ("scenario", room.presenter_channel, False, False), ("scenario", room.audience_channel, False, True),
        ("state", room.presenter_channel, False, False), ("state", room.audience_channel, False, False)]
    speaker, audience = only(out, "state", room.presenter_channel), only(out, "state", room.audience_channel)
    assert speaker.payload["seq"] == audience.payload["seq"] == room.version  # a room's seq is its record's version
    assert any(speaker.payload["scene"][key] is not None for key in SPEAKERS_ONLY)
    assert all(audience.payload["scene"][key] is None for key in SPEAKERS_ONLY)
    assert audience.payload == {**speaker.payload, **for_audience(speaker.payload)}
    assert state.version == room.seen and not state.scenarios  # a room's channel holds no connection's scenario
    held = {room.presenter_channel: speaker.payload, room.audience_channel: audience.payload}
    for _ in range(3):
        seen = room.seen
        room.session.step()
        rooms.save(room)
        snap = snapshot_of(room.session, room, room.channel)
        out, state = deliver(state, snap, Publish(seen=seen), cache)
        assert {o.to for o in out} == set(held) and {o.event for o in out} == {"delta"}
        for o in out:
            held[o.to] = fold(held[o.to], o.payload)
            assert o.payload["seq"] == room.version and o.payload["room"] == room.code
        whole = current(state, snap, cache)
        assert plain(traced(held[room.presenter_channel])) == plain(traced(whole))
        assert plain(traced(held[room.audience_channel])) == plain(traced(for_audience(whole)))
        assert all(held[room.audience_channel]["scene"][key] is None for key in SPEAKERS_ONLY)


def test_a_room_moved_elsewhere_since_its_channel_was_sent_is_sent_the_state_whole(cache):
    """The delta base: a room's delta goes only from the version its channel here was last sent; moved on
    another process meanwhile (its record two versions on), the state goes whole."""
    rooms, room = room_at()
    _, state = deliver(Channel(), snapshot_of(room.session, room, room.channel), Publish(loaded=True), cache)
    room.session.step()
    rooms.save(room)  # moved, and not sent here (another process drove it)
    seen = room.seen
    room.session.step()
    rooms.save(room)
    out, _ = deliver(state, snapshot_of(room.session, room, room.channel), Publish(seen=seen), cache)
    assert {o.event for o in out} == {"state"} and {o.payload["position"] for o in out} == {2}


def test_a_joiner_a_speaker_view_and_a_reload_are_each_sent_the_room_as_they_see_it(cache):
    rooms, room = room_at(2)
    snap = snapshot_of(room.session, room, room.channel)
    _, shown = deliver(Channel(), snap, Publish(loaded=True), cache)
    joiner = Resend(SID, speaks=False, rejoin=True, shown=shown)
    out, follower = deliver(Channel(), snap, joiner, cache)
    assert [(o.event, o.to, o.private, o.followers) for o in out] == [("scenario", SID, True, True),
                                                                      ("state", SID, True, False)]
    assert out[1].payload["seq"] == room.version and out[1].payload["position"] == 2
    assert all(out[1].payload["scene"][key] is None for key in SPEAKERS_ONLY)
    assert follower.holds == (room.code, room.session.load_id, True) and follower.scenarios
    # a reload of the page, or a join again: the scenario it holds is not sent again
    out, _ = deliver(follower, snap, joiner, cache)
    assert [o.event for o in out] == ["state"]
    # the follower claims the room: it is sent the scenario whole, as a presenter is
    out, presenter = deliver(follower, snap, Resend(SID, speaks=True, rejoin=True, shown=shown), cache)
    assert [(o.event, o.followers) for o in out] == [("scenario", False), ("state", False)]
    assert any(out[1].payload["scene"][key] is not None for key in SPEAKERS_ONLY)
    # the room loads again: a joiner holding the old load is sent the new one's scenario
    room.session.load(*resolve("lost-marker")[:1], ("v1.28.1", "v1.28.2"), "lost-marker")
    rooms.save(room)
    snap = snapshot_of(room.session, room, room.channel)
    out, _ = deliver(presenter, snap, Resend(SID, speaks=True, rejoin=True), cache)
    assert [o.event for o in out] == ["scenario", "state"]


def test_a_joiner_is_sent_the_state_the_room_was_last_sent_while_it_stands_there(cache):
    """``current``: the message the room's channel holds, not made again, while the room is at that version."""
    rooms, room = room_at(1)
    snap = snapshot_of(room.session, room, room.channel)
    _, shown = deliver(Channel(), snap, Publish(loaded=True), cache)
    assert current(shown, snap, cache) is shown.message
    room.session.step()
    rooms.save(room)
    moved = snapshot_of(room.session, room, room.channel)
    assert current(shown, moved, cache) is not shown.message and current(shown, moved, cache)["position"] == 2


# --- looking ahead ---------------------------------------------------------------------------------
def test_a_private_upload_has_its_next_step_made_ahead_and_the_step_only_sends_it(cache):
    session = loaded(builtin.get("lost-marker"))  # an upload of the viewer's own, as small as a built-in
    snap = snapshot_of(session, None, SID)
    assert looks_ahead(snap)
    out, state = deliver(Channel(), snap, Publish(loaded=True), cache)
    built = session.sim.frames_built
    look_ahead(state, snap, cache)
    assert session.sim.frames_built == built + 1
    assert cache.holds(SID, state.view, view_of(snap, 1))
    session.step()
    out, state = deliver(state, snapshot_of(session, None, SID), Publish(), cache)
    assert session.sim.frames_built == built + 1  # the step made nothing: it sent what was made ahead
    assert [(o.event, o.payload["seq"], o.payload["position"]) for o in out] == [("delta", 2, 1)]
    look_ahead(state, snapshot_of(session, None, SID), cache)
    assert session.sim.frames_built == built + 2  # and the next one is made ahead in turn


def test_nothing_is_made_ahead_for_a_built_in_a_room_or_past_the_range(cache):
    assert not looks_ahead(snapshot_of(loaded("lost-marker"), None, SID))  # kept for every viewer instead
    _, room = room_at()
    assert not looks_ahead(snapshot_of(room.session, room, room.channel))
    assert not looks_ahead(None)
    session = loaded(builtin.get("lost-marker"))
    session.seek(session.range[1])
    snap = snapshot_of(session, None, SID)
    _, state = deliver(Channel(), snap, Publish(loaded=True), cache)
    built = session.sim.frames_built
    look_ahead(state, snap, cache)
    assert session.sim.frames_built == built and not cache.holds(SID, state.view, view_of(snap, snap.position + 1))
