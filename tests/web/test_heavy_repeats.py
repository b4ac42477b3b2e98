"""Heavy work is bounded per connection: one pending request per connection per kind (a repeat is refused Busy
with a hint to wait for the first answer), work whose client left is never built, and a room's joiners are sent
the room's scenario message as made once. Real servers, both async modes (the last test in-process)."""

import pytest

from tests.waiting import logged
from tests.web.liveserver import LiveServer
from tests.web.rawsocket import RawSocket, generated_scenario, wait_for_work
from tests.web.test_abandoned_work import EXPORT, heavy_body, post_raw
from tests.web.test_live_server import LOGS

HEAVY = generated_scenario(20_000)  # about 0.7 MB: a load builds it for a while


@pytest.fixture(scope="module", params=["eventlet", "threading"])
def server(request):
    with LiveServer(request.param, LOGS) as live:
        yield live
        assert live.proc.poll() is None, f"the server died during the tests:\n{live.log()}"
        assert "Traceback" not in live.log()


def test_a_repeated_load_while_the_first_is_answered_is_refused_busy(server):
    client = RawSocket(server.url)
    try:
        client.emit("load", {"scenario": HEAVY})
        client.emit("load", {"scenario": HEAVY})
        seen = client.until("scenario")
        errors = [data for name, data in seen if name == "error"]
        assert errors, [name for name, _ in seen]
        assert errors[0]["kind"] == "Busy" and errors[0]["event"] == "load"
        assert "your last load is still being answered" in errors[0]["message"]
        assert "retry" in errors[0]["message"]
        client.emit("load", {"scenario": "lost-marker"})  # once answered, the next load is taken
        assert client.until("scenario")[-1][1]["total"] == 6
    finally:
        client.close()


def test_a_load_whose_client_left_is_dropped_before_it_is_built(server):
    holder = post_raw(server.url, EXPORT, heavy_body())  # an animated export holds the heavy lane for many seconds
    leaver = RawSocket(server.url)
    try:
        wait_for_work(server, "heavy", running=1, waiting=0)
        leaver.emit("load", {"scenario": generated_scenario(20_000, seed=3)})
        wait_for_work(server, "heavy", running=1, waiting=1)
        leaver.close()
        # dropped while it waits for its place, or found gone once it has it: never built either way
        logged(server, "the client left before its work started")
    finally:
        holder.close()  # the export's client gone: its worker is stopped (test_abandoned_work.py)


def test_a_repeated_sync_is_answered_once_per_answer(server):
    client = RawSocket(server.url)
    try:
        client.emit("load", {"scenario": "lost-marker"})
        client.until("state")
        for _ in range(5):
            client.emit("sync", {"scenario": True})
        client.emit("echo", "end")
        seen = client.until("echo")
        states = [name for name, _ in seen if name == "state"]
        busy = [data for name, data in seen if name == "error"]
        assert len(states) + len(busy) == 5 and states
        assert all(e["kind"] == "Busy" and e["event"] == "sync" for e in busy)
    finally:
        client.close()


def test_joiners_are_sent_the_rooms_scenario_message_as_made_once(make_sio, app):
    presenter = make_sio()
    ack = presenter.emit("create_room", {}, callback=True)
    presenter.emit("load", {"scenario": "lost-marker", **ack})
    hub = app.extensions["inflight_hub"]
    kept = hub.scenarios[f"room:{ack['room']}"][1]
    sent = []
    for _ in range(3):
        follower = make_sio()
        follower.emit("join_room", {"room": ack["room"]})
        sent += [m["args"][0] for m in follower.get_received() if m["name"] == "scenario"]
    assert len(sent) == 3 and all(message == sent[0] for message in sent)
    assert hub.scenarios[f"room:{ack['room']}"][1] is kept  # not made again for a joiner


def test_a_connection_joining_again_is_not_sent_the_scenario_it_holds(make_sio):
    presenter = make_sio()
    ack = presenter.emit("create_room", {}, callback=True)
    presenter.emit("load", {"scenario": "lost-marker", **ack})
    follower = make_sio()

    def join():
        follower.emit("join_room", {"room": ack["room"]})
        received = [m["name"] for m in follower.get_received()]
        follower.emit("leave_room", {"room": ack["room"]})
        return received

    assert join() == ["scenario", "state"]
    assert join() == ["state"]  # it holds the scenario of this load already
    presenter.emit("load", {"scenario": "gate-off", **ack})
    assert join() == ["scenario", "state"]  # another load: its scenario is new to it
    follower.emit("sync", {"room": ack["room"], "scenario": True})  # asked for: sent
    assert [m["name"] for m in follower.get_received()] == ["scenario", "state"]
