"""Both room stores, the one process's and the shared one on a real redis-server: a poll's answers bounded
exactly, even when many answer at once, a voter's own read back, the blank screen kept, and a room followed by
another process; a phone remote's link checked by every process."""

import threading

import pytest

from webapp.engine.rooms import Rooms
from webapp.errors import NotAllowed
from webapp.model.variant import VARIANTS
from webapp.scenario import builtin
from webapp.scenario.resolve import resolve


def test_a_poll_takes_its_limit_of_voters_exactly_when_they_answer_at_once(store):
    """The shared store read the count and wrote the answer in two round trips: voters racing for the last
    places could all get them."""
    go = threading.Barrier(24)
    taken = []

    def answer(i):
        go.wait()
        taken.append(store.answer("ROOMAA", f"voter-{i:04}", {"v1.28.1": "backoffQ"}, 5))

    threads = [threading.Thread(target=answer, args=(i,)) for i in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(taken) == [False] * 19 + [True] * 5
    assert len(store.answers("ROOMAA")) == 5
    counted = [v for v in (f"voter-{i:04}" for i in range(24))
               if store.answer("ROOMAA", v, {"v1.28.1": "activeQ"}, 5)]
    assert len(counted) == 5  # a counted voter still changes its answer; the others are still refused
    assert [a["v1.28.1"] for a in store.answers("ROOMAA")] == ["activeQ"] * 5


def test_a_voters_own_answer_is_read_back_and_forgotten_with_the_poll(store):
    assert store.answer_of("ROOMAA", "voter-0001") is None
    store.answer("ROOMAA", "voter-0001", {"v1.28.1": "backoffQ"}, 5)
    store.answer("ROOMAA", "voter-0001", {"v1.28.1": "activeQ", "v1.28.2": "backoffQ"}, 5)
    assert store.answer_of("ROOMAA", "voter-0001") == {"v1.28.1": "activeQ", "v1.28.2": "backoffQ"}
    assert store.answer_of("ROOMAA", "voter-0002") is None and store.answer_of("ROOMBB", "voter-0001") is None
    store.clear_answers("ROOMAA")
    assert store.answer_of("ROOMAA", "voter-0001") is None


def test_the_blank_screen_is_kept_and_dropped_with_the_room(store):
    assert store.blank("ROOMAA") is False
    store.set_blank("ROOMAA", True)
    assert store.blank("ROOMAA") is True
    store.set_blank("ROOMAA", False)
    assert store.blank("ROOMAA") is False
    store.set_blank("ROOMAA", True)
    store.drop("ROOMAA")
    assert store.blank("ROOMAA") is False


def test_a_remote_link_is_checked_by_every_process_and_ends_with_its_room(store):
    """Two processes sharing one store and one secret: the link one issues drives the room on the other until it
    is revoked (on either), a new link is another token, and a room dropped and made again under its code (a new
    epoch) refuses the old link as ended and then as not its own."""
    secret = b"one secret for both processes"
    here, there = Rooms(resolve, store=store, secret=secret), Rooms(resolve, store=store, secret=secret)
    room = here.create()
    token = here.remotes.issue(room)
    assert token.startswith("r.") and token != room.token and there.remotes.issue(there.find(room.code)) == token
    assert there.authorize(room.code, token).code == room.code
    other = here.create()
    with pytest.raises(NotAllowed, match=f"remote link for room {other.code} was revoked"):
        there.authorize(other.code, token)  # one room's link drives no other room
    there.remotes.revoke(there.find(room.code))
    with pytest.raises(NotAllowed, match=f"remote link for room {room.code} was revoked"):
        here.authorize(room.code, token)
    fresh = here.remotes.issue(room)
    assert fresh != token and there.authorize(room.code, fresh).code == room.code
    store.drop(room.code)
    with pytest.raises(NotAllowed, match=f"room {room.code} has ended"):
        there.authorize(room.code, fresh)
    again = here.create(room.code)  # the same code, a new epoch: the old link is not its link
    here.remotes.issue(again)
    with pytest.raises(NotAllowed, match="was revoked"):
        there.authorize(room.code, fresh)


def test_another_process_follows_a_rooms_moves_without_loading_its_scenario_again(store):
    """A room of an uploaded scenario, its record in the store: another process loads it once and then only
    moves. Through Redis the record's source comes back as JSON (lists where a Scenario holds tuples); compared
    with its own, it never matched, and every move reloaded the whole scenario on every other process."""
    resolved = []

    def counting(source):
        resolved.append(source)
        return resolve(source)

    here, there = Rooms(resolve, store=store), Rooms(counting, store=store)
    room = here.create()
    scenario, _ = resolve(builtin.get("lost-marker"))  # as an upload: a scenario object, not the built-in's id
    room.session.load(scenario, VARIANTS, None)
    for position in (1, 2, 3, 2):
        room.session.seek(position)
        here.save(room)
        followed = there.find(room.code)
        assert followed.session.sim.position == position and followed.session.load_id == room.session.load_id
    assert len(resolved) == 1
    room.session.load(scenario, VARIANTS, None)  # loaded again (a new key): the other process loads it too
    here.save(room)
    assert there.find(room.code).session.load_id == room.session.load_id and len(resolved) == 2


def test_a_record_is_replaced_only_over_the_version_its_writer_read(store):
    record = {"code": "ROOMCC", "token": "t", "version": 1, "epoch": "e"}
    assert store.replace(record, None) is True  # nothing stored yet: written
    assert store.replace({**record, "version": 2, "position": 5}, None) is False  # one is stored now
    assert store.replace({**record, "version": 2, "position": 5}, 7) is False  # another version is stored
    assert store.get("ROOMCC") == record  # the refused writes changed nothing
    assert store.replace({**record, "version": 2, "position": 5}, 1) is True
    assert store.get("ROOMCC")["position"] == 5


def test_moves_saved_at_once_by_two_processes_each_get_a_version_of_their_own(store):
    """Two processes (or two greenlets) read the same version and both wrote the next one: a follower got two
    different states under one sequence number and dropped the second."""
    here = Rooms(resolve, store=store)
    room = here.create()
    scenario, scenario_id = resolve(builtin.get("lost-marker"))
    room.session.load(scenario, VARIANTS, scenario_id)
    here.save(room)
    before = store.get(room.code)["version"]
    copies = [Rooms(resolve, store=store).find(room.code) for _ in range(8)]  # eight processes following it
    go = threading.Barrier(len(copies))
    versions = []

    def save(copy):
        rooms = Rooms(resolve, store=store)
        go.wait()
        for _ in range(10):
            rooms.save(copy)
            versions.append(copy.version)

    threads = [threading.Thread(target=save, args=(copy,)) for copy in copies]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(versions) == list(range(before + 1, before + 81))
    assert store.get(room.code)["version"] == before + 80
