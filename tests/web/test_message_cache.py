"""MessageCache: a state message or a delta is kept from the second time its view is asked for (the most recent
ENTRIES kept); without a view it is made every time; a delta taken from the cache carries the seq it is sent
with; what was made ahead for a channel is found by its views, for that channel only. ``view_of``: a built-in is
one document for everyone; a scenario of the viewer's own is named by its load, and kept only while it is as
small as a built-in."""

from __future__ import annotations

from tests.loads import loaded
from webapp.delivery import cache as message_cache
from webapp.delivery.cache import KEPT_LIVE_BYTES, MessageCache, View, view_of
from webapp.engine.rooms import Rooms
from webapp.engine.session import Session
from webapp.model.variant import VARIANTS
from webapp.presenter.messages import delta_message
from webapp.scenario import builtin
from webapp.scenario.resolve import resolve
from webapp.web.snapshots import snapshot_of


def shows(session, room=None, position=None):
    """The view ``session`` shows (``view_of`` its snapshot)."""
    return view_of(snapshot_of(session, room), position)


def state(position: int) -> dict:
    return {"position": position, "total": 9, "variants": {}, "scene": {"caption": f"at {position}"}}


def view(position: int, load: str | int = "a") -> View:
    return View(load, VARIANTS, position, False, 1.0, (0, 9), None)


# --- the cache ------------------------------------------------------------------------------------
def test_a_state_is_kept_from_its_second_ask_and_made_every_time_without_a_view():
    cache, made = MessageCache(), []

    def make():
        made.append(1)
        return state(len(made))

    once = cache.state(view(1), make)
    assert len(cache) == 0  # asked for once: made and let go
    kept = cache.state(view(1), make)
    assert kept is not once and kept == state(2) and len(cache) == 1
    assert cache.state(view(1), make) is kept and len(made) == 2
    assert cache.state(None, make) is not cache.state(None, make) and len(made) == 4 and len(cache) == 1


def test_only_the_most_recent_entries_are_kept():
    cache = MessageCache(entries=2)
    for position in (1, 2):
        cache.state(view(position), lambda: state(0))
    kept = cache.state(view(1), lambda: state(1))
    cache.state(view(2), lambda: state(2))
    assert cache.state(view(1), lambda: state(9)) is kept  # used again: now the most recent
    cache.state(view(3), lambda: state(0))
    cache.state(view(3), lambda: state(3))
    assert len(cache) == 2
    assert cache.state(view(2), lambda: state(4))["position"] == 4  # the least recent went (made again, not kept)


def test_views_asked_for_once_are_remembered_within_a_bound(monkeypatch):
    monkeypatch.setattr(message_cache, "ASKED", 3)
    cache = MessageCache()
    for position in range(4):
        cache.state(view(position), lambda: state(0))
    cache.state(view(0), lambda: state(1))  # the oldest of four asked once was forgotten: once again
    cache.state(view(3), lambda: state(2))  # the newest was remembered: kept
    assert len(cache) == 1 and cache.state(view(3), lambda: state(9))["position"] == 2


def test_a_delta_is_kept_per_pair_of_views_and_carries_its_own_seq():
    cache, old, new = MessageCache(), state(1), state(2)

    def make(seq: int):
        return lambda: delta_message(seq, old, new)

    a, b, c, d = (view(n) for n in range(4))
    assert cache.delta(4, a, b, make(4)) == delta_message(4, old, new) and len(cache) == 0
    first = cache.delta(5, a, b, make(5))
    assert first == delta_message(5, old, new) and len(cache) == 1
    again = cache.delta(8, a, b, make(8))
    assert again == {**first, "seq": 8} and again["ops"] is first["ops"] and first["seq"] == 5
    assert cache.delta(3, None, b, make(3)) == delta_message(3, old, new) and len(cache) == 1
    made_for_another_seq = cache.delta(6, c, d, make(0))  # a delta made ahead, before its seq was known
    assert made_for_another_seq["seq"] == 6 and made_for_another_seq["ops"] == first["ops"]


def test_what_was_made_ahead_is_taken_by_its_channel_for_the_views_it_shows():
    cache, old, new = MessageCache(), state(1), state(2)
    ahead_state, ahead_delta = state(2), delta_message(0, old, new)
    cache.put_ahead("sid", view(1), view(2), ahead_state, ahead_delta)
    assert cache.holds("sid", view(1), view(2)) and not cache.holds("sid", view(0), view(2))
    assert not cache.holds("other", view(1), view(2))
    assert cache.state(view(2), lambda: state(9), "other")["position"] == 9  # another channel's: made
    assert cache.state(view(2), lambda: state(9), "sid") is ahead_state  # the second ask: kept from now on
    assert len(cache) == 1 and cache.holds("other", view(0), view(2))
    delta = cache.delta(7, view(1), view(2), lambda: delta_message(7, old, new), "sid")
    assert delta == {**ahead_delta, "seq": 7} and delta["ops"] is ahead_delta["ops"]
    assert cache.delta(7, view(0), view(2), lambda: {"seq": 7, "made": True}, "sid") == {"seq": 7, "made": True}
    cache.put_ahead("sid", view(2), view(3), state(3), delta_message(0, new, state(3)))  # replaces the last
    assert cache.holds("sid", view(2), view(3))
    cache.forget("sid")  # the channel closed
    assert not cache.holds("sid", view(2), view(3))


# --- the view a session shows -----------------------------------------------------------------------
def test_every_viewer_of_a_built_in_shares_its_view():
    first, second = loaded("lost-marker"), loaded("lost-marker")
    first.step()
    assert shows(first) == View("lost-marker", VARIANTS, 1, False, 1.0, first.range, None)
    assert shows(first) != shows(second)
    second.step()
    assert shows(first) == shows(second)
    assert shows(second, None, 4).position == 4 and second.sim.position == 1


def test_a_scenario_of_the_viewers_own_is_named_by_its_load():
    document = builtin.get("lost-marker")
    first, second = loaded(document), loaded(document)
    assert first.sim.live_bytes <= KEPT_LIVE_BYTES
    assert shows(first) != shows(second)  # only the session that loaded it shows it
    at_start = shows(first)
    first.step()
    assert shows(first)[1:3] == (VARIANTS, 1)
    first.back()
    assert shows(first) == at_start
    first.load(resolve(document)[0], VARIANTS, None)  # loaded again: nothing kept for the old load is reused
    assert shows(first) != at_start


def test_settings_and_room_are_part_of_the_view():
    session = loaded("lost-marker")
    paused = shows(session)
    session.play(2.0)
    assert shows(session) == paused._replace(playing=True, speed=2.0)
    room = Rooms(resolve).create()
    # a room's view plays as the room's record says (its autoplay), not as the session that joined it
    assert not room.playing
    assert shows(session, room) == paused._replace(playing=False, speed=2.0, room=room.code)


def test_a_scenario_of_the_viewers_own_larger_than_a_built_in_has_no_view():
    steps = [{"op": "pop", "expect": "A"}] + [{"op": "event", "event": "NodeAdd"}] * 199
    session = loaded({"schema": 1, "name": "200 entries", "pods": [{"name": "A"}], "initial_active": ["A"],
                      "steps": steps})
    assert session.sim.live_bytes > KEPT_LIVE_BYTES and shows(session) is None
    assert snapshot_of(Session(), None) is None  # nothing loaded
