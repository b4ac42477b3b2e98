"""Rooms bounded across processes sharing a real redis-server: a process's MAX_ROOMS counts the rooms it only
follows (each holds a simulation there as one made there does), and a poll's answers per address are counted
exactly in both stores, many answering at once. Real servers in both async modes."""

import threading

import pytest

from tests.scale.conftest import LOGS
from tests.web.liveserver import LiveServer
from tests.web.sockclient import Client
from webapp.engine.polls import ADDRESS_FULL, COUNTED, FULL


@pytest.mark.parametrize("mode", ["eventlet", "threading"])
def test_rooms_followed_through_redis_count_toward_the_process_room_cap(mode, redis_server):
    args = ("--message-queue", redis_server.url)
    with LiveServer(mode, LOGS, args) as maker, \
            LiveServer(mode, LOGS, args, env={"INFLIGHT_SCOPE_MAX_ROOMS": "2"}) as follower_side:
        presenter = Client(maker.url)
        codes = [presenter.call("create_room")["room"] for _ in range(3)]
        follower = Client(follower_side.url)
        for code in codes[:2]:
            follower.call("join_room", {"room": code})
        assert [name for name, _ in follower.received() if name == "error"] == []
        follower.call("join_room", {"room": codes[2]})
        refused = follower.wait_for("error")
        assert refused["kind"] == "Busy" and refused["event"] == "join_room"
        assert "holds 2 rooms already, made or followed here (at most 2)" in refused["message"]
        other = Client(maker.url)  # the process that made them follows them as before
        other.call("join_room", {"room": codes[2]})
        assert [name for name, _ in other.received() if name == "error"] == []
        for client in (presenter, follower, other):
            client.close()
        assert maker.proc.poll() is None and follower_side.proc.poll() is None


def test_a_poll_counts_each_address_up_to_its_share_exactly_when_voters_answer_at_once(store):
    go = threading.Barrier(24)
    said: list[int] = []
    counted: dict[int, bool] = {}

    def answer(i):
        go.wait()
        result = store.answer("ROOMAA", f"voter-{i:04}", {"v1.28.1": "backoffQ"}, 100, f"10.0.0.{i % 2}", 5)
        said.append(result)
        counted[i] = result == COUNTED

    threads = [threading.Thread(target=answer, args=(i,)) for i in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(said).count(COUNTED) == 10 and said.count(ADDRESS_FULL) == 14
    assert len(store.answers("ROOMAA")) == 10
    first = min(i for i in range(0, 24, 2) if counted[i])  # one of 10.0.0.0's counted voters: it changes its answer
    assert store.answer("ROOMAA", f"voter-{first:04}", {"v1.28.1": "activeQ"}, 100, "10.0.0.0", 5) == COUNTED
    assert store.answer("ROOMAA", "voter-new1", {"v1.28.1": "activeQ"}, 10, "10.0.0.9", 5) == FULL
    store.clear_answers("ROOMAA")  # a new poll: every address starts again
    assert store.answer("ROOMAA", "voter-new2", {"v1.28.1": "activeQ"}, 100, "10.0.0.0", 5) == COUNTED
