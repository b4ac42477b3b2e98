"""Two server processes share rooms through a real Redis (Flask-SocketIO's message_queue)."""

import json
import threading
import time
from contextlib import contextmanager

import pytest
import requests
import socketio

from tests.scale.conftest import RedisServer
from tests.waiting import until
from tests.web.viewer import Folder
from webapp.engine.roomstore import RedisRoomStore
from webapp.presenter.messages import INTRO_UNTOLD

QUEUE_CHANNEL = "flask-socketio"  # the Redis channel Flask-SocketIO's message queue publishes on (its default)
WAIT = 60.0  # seconds a client waits for a message: a bound against a hang, on a machine however busy


class Client:
    """A python-socketio client over websocket that records what it receives (deltas as the states they make:
    a follower served by the other process must be able to apply the presenter's deltas to its state)."""

    def __init__(self, url, resyncs=False):
        self.sio = socketio.Client(reconnection=False)
        self.received: list[tuple[str, dict]] = []
        self.changed = threading.Condition()
        # resyncs: a delta out of step asks for the whole state, as a page does; else it fails the test
        self.folder = Folder(self.ask_again if resyncs else None)
        for event in ("scenario", "state", "delta", "error", "poll", "poll_tally", "blank"):
            self.sio.on(event, self._record(event))
        self.sio.connect(url, transports=["websocket"])

    def _record(self, event):
        def on(data=None):
            with self.changed:  # handled on threads of their own: folded in seq order
                self.received.extend(self.folder.arrived(event, data))
                self.changed.notify_all()
        return on

    def ask_again(self, room, scenario):
        self.sio.emit("sync", {"room": room, "scenario": scenario})

    def wait(self, predicate, timeout=WAIT, since=0):
        """The latest message from ``received[since]`` on that ``predicate(event, data)`` holds for."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                found = [d for e, d in self.received[since:] if predicate(e, d)]
                if found:
                    return found[-1]
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"not received within {timeout} s; got {[e for e, _ in self.received][-10:]}")
                self.changed.wait(remaining)

    def has(self, predicate) -> bool:
        with self.changed:
            return any(predicate(e, d) for e, d in self.received)

    def state_at(self, position, timeout=WAIT):
        return self.wait(lambda e, d: e == "state" and d["position"] == position, timeout)

    def close(self):
        self.sio.disconnect()


def placements(state, pod="B"):
    return {v: next(q for q in ("activeQ", "backoffQ", "unschedulablePods") if pod in s["state"][q])
            for v, s in state["variants"].items()}


@pytest.fixture
def clients():
    made = []

    def make(url, resyncs=False):
        c = Client(url, resyncs)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


def test_presenter_on_one_process_drives_followers_on_the_other(two_servers, clients):
    one, two = two_servers
    presenter = clients(one.url)
    ack = presenter.sio.call("create_room", {})
    presenter.sio.emit("load", {"scenario": "lost-marker", **ack})
    presenter.state_at(0)
    followers = [clients(two.url) for _ in range(3)] + [clients(one.url)]
    for f in followers:
        f.sio.emit("join_room", {"room": ack["room"]})
        f.state_at(0)
    for position in range(1, 7):
        presenter.sio.emit("step", ack)
        for f in followers:
            assert f.state_at(position)["room"] == ack["room"]
    assert placements(followers[0].state_at(6)) == {"v1.28.1": "unschedulablePods", "v1.28.2": "backoffQ"}


def test_a_scenario_loaded_in_the_room_reaches_followers_on_the_other_process_as_an_object(two_servers, clients):
    """The scenario message is encoded once where it is made (limits.Encoded) and spliced into the packet; relayed
    through the queue to the other process it must still arrive as the message, not as a JSON string of it."""
    one, two = two_servers
    presenter = clients(one.url)
    ack = presenter.sio.call("create_room", {})
    presenter.sio.emit("load", {"scenario": "lost-marker", **ack})
    presenter.state_at(0)
    follower = clients(two.url)
    follower.sio.emit("join_room", {"room": ack["room"]})
    follower.state_at(0)
    presenter.sio.emit("load", {"scenario": "five-minute-wait", **ack})
    scenario = follower.wait(
        lambda e, d: e == "scenario" and (not isinstance(d, dict) or d["id"] == "five-minute-wait"))
    assert isinstance(scenario, dict) and scenario["room"] == ack["room"], scenario


def test_followers_on_either_process_get_the_scenario_without_the_texts_naming_its_end(two_servers, clients):
    """Where the scenario asks predictions, the introduction and the notes are the presenter's: a load relayed to
    the other process reaches its followers without them, and a joiner there is sent it so too."""
    one, two = two_servers
    presenter = clients(one.url)
    ack = presenter.sio.call("create_room", {})
    presenter.sio.emit("load", {"scenario": "five-minute-wait", **ack})
    presenter.state_at(0)
    follower = clients(two.url)
    follower.sio.emit("join_room", {"room": ack["room"]})
    follower.state_at(0)
    presenter.sio.emit("load", {"scenario": "lost-marker", **ack})
    late = clients(two.url)
    for client in (presenter, follower):
        client.wait(lambda e, d: e == "scenario" and d["id"] == "lost-marker")
    late.sio.emit("join_room", {"room": ack["room"]})
    late.wait(lambda e, d: e == "scenario" and d["id"] == "lost-marker")
    for client, whole in ((presenter, True), (follower, False), (late, False)):
        sent = [d for e, d in client.received if e == "scenario" and d["id"] == "lost-marker"]
        text = json.dumps(sent, ensure_ascii=False)
        assert len(sent) == 1 and ("B is parked in unschedulablePods" in text) is whole
        assert ("B parked in unschedulablePods" in text) is whole
        assert (sent[0]["description"] == INTRO_UNTOLD) is not whole


def test_answers_on_the_other_process_reach_the_presenters_poll(two_servers, clients):
    """The poll lives in the shared store: followers served by the other process are counted, and the
    reveal reaches them through the queue."""
    one, two = two_servers
    presenter = clients(one.url)
    ack = presenter.sio.call("create_room", {})
    presenter.sio.emit("load", {"scenario": "lost-marker", "position": 5, **ack})
    presenter.state_at(5)
    followers = [clients(two.url) for _ in range(3)]
    for f in followers:
        f.sio.emit("join_room", {"room": ack["room"]})
        f.state_at(5)
    presenter.sio.emit("poll_open", ack)
    for f in followers:
        f.wait(lambda e, d: e == "poll" and d["open"])
    for i, (f, choice) in enumerate(zip(followers, ("activeQ", "backoffQ", "unschedulablePods"))):
        f.sio.emit("poll_answer", {"room": ack["room"], "voter": f"tab-000{i}", "answers": {"v1.28.1": choice}})
    presenter.wait(lambda e, d: e == "poll_tally" and d["answered"] == 3)
    back = clients(one.url)  # follower 0's phone, back on the other process: its voter answers once
    back.sio.emit("join_room", {"room": ack["room"]})
    back.state_at(5)
    back.sio.emit("poll_answer", {"room": ack["room"], "voter": "tab-0000", "answers": {"v1.28.1": "backoffQ"}})
    tally = presenter.wait(lambda e, d: e == "poll_tally" and d["counts"]["v1.28.1"]["backoffQ"] == 2)
    assert tally["answered"] == 3  # not 4
    assert tally["counts"]["v1.28.1"] == {"activeQ": 0, "backoffQ": 2, "unschedulablePods": 1}
    presenter.sio.emit("poll_reveal", ack)
    revealed = followers[0].wait(lambda e, d: e == "poll" and not d["open"])
    assert revealed["counts"] == tally["counts"]
    presenter.sio.emit("blank", {**ack, "on": True})  # the blank is kept in the store: a joiner anywhere gets it
    followers[0].wait(lambda e, d: e == "blank" and d["on"])
    late = clients(two.url)
    late.sio.emit("join_room", {"room": ack["room"]})
    assert late.wait(lambda e, d: e == "blank") == {"room": ack["room"], "on": True, "joined": True}


def test_a_late_joiner_on_any_process_gets_the_current_state_at_once(two_servers, clients):
    one, two = two_servers
    presenter = clients(one.url)
    ack = presenter.sio.call("create_room", {})
    presenter.sio.emit("load", {"scenario": "five-minute-wait", "position": 7, **ack})
    presenter.state_at(7)
    presenter.sio.emit("seek", {"position": 9, **ack})
    presenter.state_at(9)
    for url in (two.url, one.url):
        late = clients(url)
        late.sio.emit("join_room", {"room": ack["room"]})
        state = late.state_at(9)
        assert state["total"] == presenter.state_at(9)["total"]
        assert state["variants"]["v1.28.1"]["state"] == presenter.state_at(9)["variants"]["v1.28.1"]["state"]


def test_the_presenter_can_drive_from_the_other_process_too(two_servers, clients):
    one, two = two_servers
    presenter = clients(one.url)
    ack = presenter.sio.call("create_room", {})
    presenter.sio.emit("load", {"scenario": "lost-marker", **ack})
    follower = clients(one.url)
    follower.sio.emit("join_room", {"room": ack["room"]})
    follower.state_at(0)
    presenter.close()
    again = clients(two.url)  # e.g. after a reconnect that landed on the other process
    again.sio.emit("seek", {"position": 4, **ack})
    assert follower.state_at(4)["position"] == 4
    intruder = clients(two.url)
    intruder.sio.emit("seek", {"position": 6, "room": ack["room"], "token": "x" * 43})
    assert "token" in intruder.wait(lambda e, d: e == "error")["message"]


def long_scenario(steps: int = 400) -> dict:
    return {"schema": 1, "name": "long", "pods": [{"name": "A"}], "initial_active": ["A"],
            "steps": [{"op": "pop", "expect": "A"}] + [{"op": "event", "event": "NodeAdd"}] * (steps - 1)}


@contextmanager
def asked_once_nobody_is_in(redis_server: RedisServer, code: str, timeout: float = WAIT):
    """Around what empties room ``code``: returns once a client other than this test has asked the store who is
    in it (a plain HVALS of its member counts, as Rooms.occupied does before every autoplay step) after the counts
    came to 0. MONITOR lists the commands in the order Redis runs them; the counts are followed from a snapshot
    taken first through every HSET, HDEL and DEL of them, so that question was answered 0."""
    key = RedisRoomStore.MEMBERS + code
    with redis_server.monitor() as commands, redis_server.client() as own:
        address = own.client_info()["addr"]
        counts = {field.decode(): int(count) for field, count in own.hgetall(key).items()}
        yield
        deadline = time.monotonic() + timeout
        snapshot_seen, in_transaction = False, set()  # a process's set_members reads the total inside MULTI/EXEC
        for command in commands.listen():
            assert time.monotonic() < deadline, f"nobody asked who is in room {code} within {timeout} s"
            who, words = f"{command['client_address']}:{command['client_port']}", command["command"].split()
            name, args = (words[0].upper(), words[1:]) if words else ("", [])
            if not snapshot_seen:
                snapshot_seen = who == address and name == "HGETALL"
            elif name == "MULTI":
                in_transaction.add(who)
            elif name in ("EXEC", "DISCARD"):
                in_transaction.discard(who)
            elif name == "HSET" and args[:1] == [key]:
                counts.update(zip(args[1::2], map(int, args[2::2])))
            elif name == "HDEL" and args[:1] == [key]:
                for field in args[1:]:
                    counts.pop(field, None)
            elif name == "DEL" and key in args:
                counts.clear()
            elif name == "HVALS" and args == [key] and who != address and who not in in_transaction \
                    and not any(counts.values()):
                return


def test_autoplay_on_one_process_stops_once_nobody_watches_on_either(two_servers, redis_server, clients):
    """The room plays on process one; its presenter leaves, and it keeps playing for the follower on process
    two; once that one leaves too, nobody is in it anywhere and process one's autoplay stops (it asks the
    shared store before every step). The late joiner comes once process one has asked the store after the room
    emptied: before that, its joining would rightly keep the room playing."""
    one, two = two_servers
    presenter = clients(one.url)
    ack = presenter.sio.call("create_room", {})
    presenter.sio.emit("load", {"scenario": long_scenario(), **ack})
    presenter.state_at(0)
    follower = clients(two.url)
    follower.sio.emit("join_room", {"room": ack["room"]})
    follower.state_at(0)
    presenter.sio.emit("play", {"speed": 20, **ack})
    follower.state_at(3)
    presenter.close()
    reached = follower.state_at(3)["position"]
    assert follower.wait(lambda e, d: e == "state" and d["position"] >= reached + 10)["playing"]  # still playing
    with asked_once_nobody_is_in(redis_server, ack["room"]):
        follower.close()
    late = clients(two.url)
    late.sio.emit("join_room", {"room": ack["room"]})
    # told at once from the record, or (joined while process one was stopping) by the stop it publishes
    stopped = late.wait(lambda e, d: e == "state" and not d["playing"])
    assert stopped["position"] < 400
    record_says_stopped(redis_server, ack["room"])  # written as process one's autoplay stops: no tick after it
    asked = len(late.received)
    late.sio.emit("sync", {"room": ack["room"]})  # the room's whole state again, after anything sent before
    late.wait(lambda e, d: e == "state", since=asked)
    since_stop = next(i for i, (_, d) in enumerate(late.received) if d is stopped)
    moved = [d["position"] for e, d in late.received[since_stop:] if e == "state"]
    assert set(moved) == {stopped["position"]}, moved  # nothing moved since


def joined_on_two_while_one_plays(two_servers, clients):
    """A presenter on process one plays a long scenario at 20x; a follower joins on process two: (the presenter,
    the room's code and token, the follower, the first state it was sent)."""
    one, two = two_servers
    presenter = clients(one.url)
    ack = presenter.sio.call("create_room", {})
    presenter.sio.emit("load", {"scenario": long_scenario(), **ack})
    presenter.state_at(0)
    presenter.sio.emit("play", {"speed": 20, **ack})
    presenter.state_at(2)
    follower = clients(two.url)
    follower.sio.emit("join_room", {"room": ack["room"]})
    return presenter, ack, follower, follower.wait(lambda e, d: e == "state")


def test_a_joiner_on_the_other_process_is_told_how_fast_the_room_plays(two_servers, redis_server, clients):
    """The speed is the room's, in its record: a follower joining on process two while process one plays at 20x
    is sent 20x (it was sent its own process's 1x, and a delta of process one then said 20x under the same
    number)."""
    presenter, ack, follower, joined = joined_on_two_while_one_plays(two_servers, clients)
    assert (joined["playing"], joined["speed"]) == (True, 20.0)
    presenter.sio.emit("pause", ack)
    assert follower.wait(lambda e, d: e == "state" and not d["playing"])["speed"] == 20.0


def record_says_stopped(redis_server: RedisServer, code: str, timeout: float = WAIT) -> None:
    """Returns once room ``code``'s shared record says its autoplay does not run."""
    with redis_server.client() as own:
        def stopped():
            raw = own.get(RedisRoomStore.PREFIX + code)
            return raw is not None and not json.loads(raw)["playing"]

        until(stopped, f"room {code}'s record still says it plays", timeout)


def test_a_joiner_on_either_process_is_told_whether_the_room_plays(two_servers, redis_server, clients):
    """The room plays on process one: a joiner on process two is told it plays (its copy there never did); once
    everyone has left and the autoplay has stopped, a joiner on process one, where it ran, is told it does not."""
    one, _ = two_servers
    presenter, ack, follower, joined = joined_on_two_while_one_plays(two_servers, clients)
    assert joined["playing"] is True
    presenter.close()
    follower.close()
    record_says_stopped(redis_server, ack["room"])  # nobody in it (or its end reached): the autoplay stopped
    late = clients(one.url)
    late.sio.emit("join_room", {"room": ack["room"]})
    stopped = late.wait(lambda e, d: e == "state" and not d["playing"])
    assert stopped["position"] < 400
    assert late.wait(lambda e, d: e == "state")["playing"] is False  # its last word


def test_when_redis_goes_away_rooms_are_refused_and_private_sessions_keep_working(two_servers, redis_server,
                                                                                  clients):
    one, two = two_servers
    presenter = clients(one.url)
    ack = presenter.sio.call("create_room", {})
    presenter.sio.emit("load", {"scenario": "lost-marker", **ack})
    presenter.state_at(0)
    redis_server.stop()
    presenter.sio.emit("step", ack)
    error = presenter.wait(lambda e, d: e == "error")
    assert "Redis" in error["message"] and "your own session still works" in error["message"]
    solo = clients(two.url)
    solo.sio.emit("load", {"scenario": "lost-marker"})
    solo.state_at(0)
    solo.sio.emit("step")
    assert solo.state_at(1)["room"] is None
    for server in (one, two):
        assert requests.get(server.url + "/healthz", timeout=WAIT).status_code == 200
        assert server.proc.poll() is None


def test_rooms_work_again_once_redis_is_back(two_servers, redis_server, clients):
    one, two = two_servers
    redis_server.stop()
    down = clients(one.url)
    assert "Redis" in down.sio.call("create_room", {})["error"]
    back = RedisServer(redis_server.port)
    try:
        deadline = time.monotonic() + 2 * WAIT
        while True:  # Flask-SocketIO's listener reconnects with a backoff
            presenter = clients(one.url)
            ack = presenter.sio.call("create_room", {})
            follower = clients(two.url)
            if "room" in ack:
                presenter.sio.emit("load", {"scenario": "lost-marker", **ack})
                presenter.state_at(0)
                follower.sio.emit("join_room", {"room": ack["room"]})
                follower.state_at(0)
                presenter.sio.emit("step", ack)
                try:
                    follower.state_at(1, timeout=10)  # not yet: the listener is still down
                    break
                except AssertionError:
                    pass
            assert time.monotonic() < deadline, f"rooms did not come back within {2 * WAIT} s of Redis"
            time.sleep(1)
    finally:
        back.stop()


def test_a_room_made_again_after_redis_lost_its_data_is_not_served_from_an_old_copy(two_servers, redis_server,
                                                                                   clients):
    """Redis restarts empty mid-room; the presenter claims the room back (versions count from 0 again) and loads
    another scenario up to the same version. A process that served the old room must not take the equal version
    for the same room: each record carries the epoch of its creation."""
    one, two = two_servers
    presenter = clients(one.url)
    ack = presenter.sio.call("create_room", {})
    presenter.sio.call("load", {"scenario": "lost-marker", **ack}, timeout=WAIT)  # version 1
    for _ in range(3):
        presenter.sio.call("step", ack, timeout=WAIT)  # versions 2..4
    # Process two now holds a copy of the room at version 4. Its subscription to the room's messages is lost
    # with Redis, so this follower misses some of the new room's and must ask for the whole state, as a page does.
    early = clients(two.url, resyncs=True)
    early.sio.emit("join_room", {"room": ack["room"]})
    assert early.state_at(3)["seq"] == 4
    redis_server.stop()
    redis_server.start()  # no RDB, no AOF: empty

    def claimed_back():
        answer = presenter.sio.call("claim_room", ack, timeout=WAIT)
        return answer if "room" in answer else None

    claimed = until(claimed_back, "the room was never claimed back once Redis was up again", every=0.2)
    assert claimed == {"room": ack["room"], "loaded": False}  # the old scenario is not served here either
    presenter.sio.call("load", {"scenario": "five-minute-wait", **ack}, timeout=WAIT)
    for _ in range(3):
        presenter.sio.call("step", ack, timeout=WAIT)  # version 4 again, of another room
    for url in (two.url, one.url):
        late = clients(url)
        late.sio.emit("join_room", {"room": ack["room"]})
        scenario = late.wait(lambda e, d: e == "scenario")
        assert scenario["id"] == "five-minute-wait"
        state = late.state_at(3)
        assert state["seq"] == 4 and state["total"] == scenario["total"]
    # The follower that was on process two all along missed the new room's scenario while process two's
    # subscription was down; the next message it gets names another scenario, and it asks for both again.
    position = 3
    with redis_server.client() as own:  # both processes listen to the message queue again
        until(lambda: own.pubsub_numsub(QUEUE_CHANNEL)[0][1] == 2, "a process never subscribed again to Redis")
    if not early.has(lambda e, d: e == "scenario" and d["id"] == "five-minute-wait"):
        presenter.sio.call("step", ack, timeout=WAIT)  # published to both: the follower's process hears it
        position += 1
    early.wait(lambda e, d: e == "scenario" and d["id"] == "five-minute-wait")
    # (the scenario can come a moment before the state that follows it: wait for the new room's state)
    for client in (presenter, early):
        client.wait(lambda e, d: e == "state" and d["position"] == position and d["total"] == scenario["total"])

