"""Both room stores, the one process's and the shared one on a real redis-server: a poll's answers bounded
exactly, even when many answer at once, and the blank screen kept."""

import threading

import pytest

from webapp.engine.roomstore import MemoryRoomStore, RedisRoomStore


@pytest.fixture(params=["memory", "redis"])
def store(request, redis_server):
    if request.param == "memory":
        return MemoryRoomStore()
    shared = RedisRoomStore(redis_server.url, idle_seconds=60)
    shared._redis.flushdb()
    return shared


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


def test_the_blank_screen_is_kept_and_dropped_with_the_room(store):
    assert store.blank("ROOMAA") is False
    store.set_blank("ROOMAA", True)
    assert store.blank("ROOMAA") is True
    store.set_blank("ROOMAA", False)
    assert store.blank("ROOMAA") is False
    store.set_blank("ROOMAA", True)
    store.drop("ROOMAA")
    assert store.blank("ROOMAA") is False
