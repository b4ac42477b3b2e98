"""Both room stores, the one process's and the shared one on a real redis-server: a poll's answers bounded
exactly, even when many answer at once, a voter's own read back, the blank screen kept, and a room followed by
another process."""

import threading

from webapp.engine.rooms import Rooms
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
