"""Abuse limits (webapp/server: guard.py, ratelimit.py, sweeper.py, origins.py, settings.py): the per-connection
rate limit, the room cap, unknown events, the Engine.IO options (message size, origins), configuration from the
environment, and the idle sweeper."""

import json
import time

import pytest

import webapp
from tests.conftest import runnable_variants
from tests.waiting import until
from tests.web.conftest import ended, keep_autoplays
from tests.web.viewer import Viewer
from webapp import create_app
from webapp.engine.rooms import Rooms
from webapp.engine.session import Session
from webapp.errors import NotAllowed, NotLoaded
from webapp.scenario import builtin
from webapp.scenario.load import load_scenario
from webapp.scenario.resolve import resolve
from webapp.server.codec import JsonPacket
from webapp.server.origins import OriginCheck, parse_origins
from webapp.server.ratelimit import ADMIT, REFUSE, REFUSE_AND_TELL, RateLimiter
from webapp.server.settings import read_settings
from webapp.server.sweeper import Sweeper


class FakeClock:
    def __init__(self, now=1000.0):
        self.now = now

    def __call__(self):
        return self.now


def names(client):
    return [(m["name"], m["args"][0] if m["args"] else None) for m in client.get_received()]


@pytest.fixture
def make_app():
    apps = []

    def make(**config):
        app = create_app({"ASYNC_MODE": "threading", "TESTING": True, **config})
        apps.append(app)
        return app

    yield make
    for app in apps:
        for session in list(app.extensions["inflight_sessions"].values()):
            session.pause()
        app.extensions["inflight_guard"].sweeper.stop()


def connect(app):
    client = Viewer(app.extensions["socketio"].test_client(app))
    assert client.is_connected()
    return client


# --- defaults -------------------------------------------------------------------------------------------------
def test_the_documented_defaults():
    d = webapp.DEFAULTS
    assert (d["RATE_LIMIT_PER_SECOND"], d["RATE_LIMIT_BURST"]) == (30, 60)
    assert d["MAX_MESSAGE_BYTES"] == 1024 * 1024
    assert d["ALLOWED_ORIGINS"] is None
    assert d["SESSION_IDLE_SECONDS"] == 1800
    assert d["ROOM_IDLE_SECONDS"] > 0 and d["SWEEP_SECONDS"] > 0 and d["MAX_ROOMS_PER_CONNECTION"] >= 1


def test_socketio_gets_the_message_size_cap_and_same_origin_only(make_app):
    eio = make_app().extensions["socketio"].server.eio
    assert eio.max_http_buffer_size == 1024 * 1024
    check = eio.cors_allowed_origins  # the page's own origin only, by our rule, never Engine.IO's own
    assert isinstance(check, OriginCheck) and not check.origins
    environ = {"wsgi.url_scheme": "http", "HTTP_HOST": "127.0.0.1:8000"}
    assert check("http://127.0.0.1:8000", environ) and not check("https://evil.example", environ)
    forged = {**environ, "HTTP_X_FORWARDED_PROTO": "https", "HTTP_X_FORWARDED_HOST": "evil.example"}
    assert not check("https://evil.example", forged)  # Engine.IO's rule believes these (webapp/server/hosts.py)


def test_configured_origins_are_allowed_besides_the_pages_own(make_app):
    app = make_app(ALLOWED_ORIGINS=["https://slides.example/"], MAX_MESSAGE_BYTES=4096)
    eio = app.extensions["socketio"].server.eio
    assert eio.max_http_buffer_size == 4096
    check = eio.cors_allowed_origins
    assert isinstance(check, OriginCheck)
    environ = {"wsgi.url_scheme": "http", "HTTP_HOST": "127.0.0.1:8000"}
    assert check("https://slides.example", environ)
    assert check("http://127.0.0.1:8000", environ)
    assert not check("https://evil.example", environ)
    assert not check("http://127.0.0.1:8001", environ)
    # Forwarded headers are never read here: a trusted proxy's are applied by ProxyFix before (PROXY_COUNT).
    proxied = {**environ, "HTTP_X_FORWARDED_PROTO": "https", "HTTP_X_FORWARDED_HOST": "scope.example"}
    assert not check("https://scope.example", proxied)
    assert check("https://scope.example", {"wsgi.url_scheme": "https", "HTTP_HOST": "scope.example"})


@pytest.mark.parametrize("value,expected", [
    (None, None), ("*", "*"), ("https://a.example", ["https://a.example"]),
    (" https://a.example/ , https://b.example ", ["https://a.example", "https://b.example"]),
    (["https://a.example", "*"], "*"), ("", None), ([], None),
])
def test_parse_origins(value, expected):
    assert parse_origins(value) == expected


def test_the_environment_sets_the_limits():
    config = read_settings(None, {"INFLIGHT_SCOPE_ALLOWED_ORIGINS": "https://a.example,https://b.example",
                                  "INFLIGHT_SCOPE_RATE_LIMIT_PER_SECOND": "0",
                                  "INFLIGHT_SCOPE_SESSION_IDLE_SECONDS": "2.5",
                                  "INFLIGHT_SCOPE_MAX_MESSAGE_BYTES": "65536"}).as_config()
    assert config["ALLOWED_ORIGINS"] == ["https://a.example", "https://b.example"]
    assert config["RATE_LIMIT_PER_SECOND"] == 0 and config["SESSION_IDLE_SECONDS"] == 2.5
    assert config["MAX_MESSAGE_BYTES"] == 65536


def test_explicit_config_wins_over_the_environment(monkeypatch, make_app):
    monkeypatch.setenv("INFLIGHT_SCOPE_RATE_LIMIT_BURST", "7")
    assert make_app().config["RATE_LIMIT_BURST"] == 7
    assert make_app(RATE_LIMIT_BURST=9).config["RATE_LIMIT_BURST"] == 9


# --- the token bucket -----------------------------------------------------------------------------------------
def test_token_bucket_admits_a_burst_then_the_rate():
    clock = FakeClock()
    limiter = RateLimiter(rate=2, burst=3, clock=clock)
    assert [limiter.check("a") for _ in range(5)] == [ADMIT, ADMIT, ADMIT, REFUSE_AND_TELL, REFUSE]
    assert limiter.check("b") == ADMIT  # per key
    clock.now += 0.5  # one token back; told half a second ago: not again yet
    assert [limiter.check("a") for _ in range(3)] == [ADMIT, REFUSE, REFUSE]
    clock.now += 0.5  # one more token, and a second since it was told
    assert [limiter.check("a") for _ in range(3)] == [ADMIT, REFUSE_AND_TELL, REFUSE]
    clock.now += 100
    assert [limiter.check("a") for _ in range(4)] == [ADMIT] * 3 + [REFUSE_AND_TELL]  # never more than the burst
    limiter.keep_only({"b"})
    assert len(limiter) == 1


def test_a_rate_limit_needs_positive_numbers():
    with pytest.raises(ValueError):
        RateLimiter(0, 10)
    with pytest.raises(ValueError):
        RateLimiter(1, 0.5)


# --- over Socket.IO -------------------------------------------------------------------------------------------
def test_excess_messages_are_dropped_with_one_error(make_app):
    app = make_app(RATE_LIMIT_PER_SECOND=1, RATE_LIMIT_BURST=4)
    clock = FakeClock()
    app.extensions["inflight_guard"].limiter.clock = clock
    c = connect(app)
    c.emit("load", {"scenario": "lost-marker"})
    for _ in range(6):
        c.emit("step")
    c.emit("echo", "x")
    c.emit("no-such-event", {})
    got = names(c)
    states = [m for name, m in got if name == "state"]
    errors = [m for name, m in got if name == "error"]
    assert [s["position"] for s in states] == [0, 1, 2, 3]  # load + 3 steps used the burst of 4
    assert len(errors) == 1 and errors[0]["message"].startswith("rate limit") and errors[0]["event"] == "step"
    assert "echo" not in [name for name, _ in got]
    clock.now += 2  # two tokens back: the connection works again; a second on, a refusal is told once more
    for _ in range(4):
        c.emit("step")
    got = names(c)
    assert [m["position"] for name, m in got if name == "state"] == [4, 5]
    assert [m["event"] for name, m in got if name == "error"] == ["step"]


def test_room_handlers_are_rate_limited_too(make_app):
    app = make_app(RATE_LIMIT_PER_SECOND=0.001, RATE_LIMIT_BURST=2)
    c = connect(app)
    ack = c.emit("create_room", {}, callback=True)
    c.emit("join_room", {"room": ack["room"]})
    assert "token" in ack and names(c) == []  # an empty room: joining it sends nothing yet
    refused = c.emit("create_room", {}, callback=True)
    assert refused["error"].startswith("rate limit")
    c.emit("join_room", {"room": ack["room"]})
    c.emit("claim_room", {"room": ack["room"], "token": ack["token"]})
    c.emit("leave_room", {"room": ack["room"]})
    assert [(name, m["event"]) for name, m in names(c)] == [("error", "create_room")]


def test_no_limit_when_the_rate_is_zero(make_app):
    app = make_app(RATE_LIMIT_PER_SECOND=0)
    c = connect(app)
    for i in range(300):
        c.emit("echo", i)
    assert [m for name, m in names(c) if name == "echo"] == list(range(300))


def test_echo_answers_a_probe_not_a_payload_of_many_values(make_app):
    """echo encoded its answer on the event loop whatever it held: a 1 MB list of 500,000 items held it for tens of
    ms a frame (bench/abuse.py listframe). Up to 1,000 values (a long string is one) it answers as before."""
    c = connect(make_app())
    c.emit("echo", {"i": 1, "big": "x" * 100_000, "list": list(range(996))})  # 1,000 values
    c.emit("echo", [[list(range(1_000))]])
    got = names(c)
    assert [name for name, _ in got] == ["echo", "error"]
    assert got[0][1]["big"] == "x" * 100_000
    assert got[1][1] == {"message": "echo answers a payload of at most 1,000 values (a latency probe)",
                         "event": "echo", "kind": "Invalid"}


def test_one_connection_creates_a_bounded_number_of_rooms(make_app):
    app = make_app(MAX_ROOMS_PER_CONNECTION=2)
    c = connect(app)
    acks = [c.emit("create_room", {}, callback=True) for _ in range(3)]
    assert all("token" in a for a in acks[:2])
    assert acks[2]["error"].startswith("room limit")
    assert [m["event"] for name, m in names(c) if name == "error"] == ["create_room"]
    assert len(app.extensions["inflight_rooms"]) == 2
    assert "token" in connect(app).emit("create_room", {}, callback=True)  # per connection
    assert "token" in connect(app).emit("create_room", {}, callback=True)  # per connection


def test_refused_claims_use_up_no_rooms(make_app):
    """Every claim_room counted toward the connection's rooms, refused ones too: after ten wrong claims the
    connection could neither claim its own room nor create one ('room limit: one connection may create at most
    10 rooms') though it had made none."""
    app = make_app(MAX_ROOMS_PER_CONNECTION=2)
    c = connect(app)
    for _ in range(5):
        ack = c.emit("claim_room", {"room": "ABCDEF", "token": "x" * 43}, callback=True)
        assert ack["error"].startswith("only the presenter of room ABCDEF can claim it")
    assert all("token" in c.emit("create_room", {}, callback=True) for _ in range(2))
    assert c.emit("create_room", {}, callback=True)["error"].startswith("room limit")


def test_unknown_events_are_answered_with_an_error(sio):
    sio.emit("frobnicate", {"a": 1})
    sio.emit("x" * 500)
    errors = [m for name, m in names(sio) if name == "error"]
    assert len(errors) == 2
    assert errors[0]["event"] == "frobnicate" and "unknown event 'frobnicate'" in errors[0]["message"]
    assert "load" in errors[0]["message"]
    assert len(errors[1]["event"]) == 60  # not echoed back whole


# --- idle eviction --------------------------------------------------------------------------------------------
class NoRooms:
    def evict_idle(self, cutoff):
        return []

    def evict_empty(self, now):
        return []

    def local_codes(self):
        return []


def loaded_session(clock) -> Session:
    session = Session()
    session.load(load_scenario(builtin.get("lost-marker")), ["v1.28.1", "v1.28.2"], "lost-marker")
    session.touched = clock()
    return session


def test_the_sweep_drops_the_simulation_of_idle_sessions_only(caplog):
    clock = FakeClock()
    idle, busy, playing = (loaded_session(clock) for _ in range(3))
    empty = Session()
    playing.play(1.0)
    sweeper = Sweeper(None, {"a": idle, "b": busy, "c": playing, "d": empty}, NoRooms(), session_idle=60,
                      room_idle=600, interval=10, clock=clock)
    clock.now += 30
    busy.touched = clock.now
    assert sweeper.sweep()["sessions"] == 0
    assert not caplog.records  # a sweep that drops nothing says nothing
    clock.now += 31
    assert sweeper.sweep()["sessions"] == 1
    assert [r.getMessage() for r in caplog.records] == [
        "swept: 1 idle sessions dropped their simulation (SESSION_IDLE_SECONDS), 0 rooms forgotten"]
    assert idle.sim is None and busy.sim is not None and playing.sim is not None  # autoplay touches every step
    with pytest.raises(NotLoaded, match="no scenario loaded"):
        idle.step()
    playing.pause()


def test_idle_rooms_are_forgotten():
    rooms = Rooms(resolve)
    old, fresh = rooms.create(), rooms.create()
    old.session.touched -= 1000
    assert rooms.evict_idle(time.monotonic() - 500) == [old.code]
    with pytest.raises(NotAllowed):
        rooms.find(old.code)
    assert rooms.find(fresh.code) is not None and len(rooms) == 1


def test_joining_a_room_keeps_it_alive():
    rooms = Rooms(resolve)
    room = rooms.create()
    room.session.touched -= 1000
    rooms.find(room.code.lower())
    assert rooms.evict_idle(time.monotonic() - 500) == []


def test_the_background_sweeper_evicts_an_idle_session(make_app):
    app = make_app(SESSION_IDLE_SECONDS=0.3, SWEEP_SECONDS=0.1)
    guard = app.extensions["inflight_guard"]
    c = connect(app)
    assert not guard.sweeper.running  # nothing to watch yet: no thread
    c.emit("load", {"scenario": "lost-marker"})
    assert guard.sweeper.running
    session = next(iter(app.extensions["inflight_sessions"].values()))
    until(lambda: session.sim is None, "the sweeper never evicted the idle session")
    c.get_received()
    c.emit("step")
    assert names(c) == [("error", {"message": "no scenario loaded: send 'load' first", "event": "step",
                                   "kind": "NotLoaded"})]
    c.emit("load", {"scenario": "lost-marker", "position": 2})
    assert [m["position"] for name, m in names(c) if name == "state"] == [2]
    c.disconnect()
    # with no connection and no room left, the task ends
    until(lambda: not guard.sweeper.running, "the sweeper still runs with nothing to watch")


def test_the_background_sweeper_forgets_an_idle_room_and_closed_connections(make_app):
    app = make_app(ROOM_IDLE_SECONDS=0.3, SWEEP_SECONDS=0.1)
    presenter, follower = connect(app), connect(app)
    follower.emit("echo", 1)
    ack = presenter.emit("create_room", {}, callback=True)
    presenter.emit("load", {"scenario": "lost-marker", **ack})
    presenter.disconnect()
    limiter = app.extensions["inflight_guard"].limiter
    # a sweep forgets the room, then what closed connections left behind
    until(lambda: not len(app.extensions["inflight_rooms"]) and len(limiter) == 1,
          lambda: f"{len(app.extensions['inflight_rooms'])} rooms and {len(limiter)} buckets left after the sweeps")
    assert len(app.extensions["inflight_rooms"]) == 0
    assert len(limiter) == 1  # the presenter's bucket went with it
    follower.get_received()
    follower.emit("join_room", {"room": ack["room"]})
    assert [name for name, _ in names(follower)] == ["error"]


# --- screened packets ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["disconnect", "connect"])
def test_a_client_cannot_send_the_connection_events(app, sio, name):
    sio.emit("load", {"scenario": "lost-marker"})
    sio.emit("step")
    sio.get_received()
    session = next(iter(app.extensions["inflight_sessions"].values()))
    sio.emit(name, {"auth": 1})
    assert names(sio) == [("error", {"message": f"'{name}' is the name of a connection event; a client cannot send it",
                                     "event": name, "kind": "Invalid"})]
    assert next(iter(app.extensions["inflight_sessions"].values())) is session and sio.is_connected()
    sio.emit("step")
    assert [m["position"] for n, m in names(sio) if n == "state"] == [2]  # the session went on


def test_extra_arguments_are_refused_instead_of_raising(sio):
    sio.emit("load", {"scenario": "lost-marker"})
    sio.get_received()
    for event in ("step", "echo", "join_room", "leave_room", "bogus"):
        sio.emit(event, {"a": 1}, 2)
    errors = [m for name, m in names(sio) if name == "error"]
    assert [e["event"] for e in errors] == ["step", "echo", "join_room", "leave_room", "bogus"]
    assert errors[0]["message"] == "'step' takes one payload, not 2"
    # one screen answers every refusal alike: an acknowledgement asked for carries the error
    assert sio.emit("create_room", 1, 2, callback=True) == {"error": "'create_room' takes one payload, not 2"}
    sio.emit("step")
    assert [m["position"] for name, m in names(sio) if name == "state"] == [1]


def test_binary_payloads_are_refused_and_change_nothing(sio):
    """The server speaks JSON (JsonPacket): bytes anywhere in a payload, however deep, are answered with an
    error before any handler, so echo never has to send them back."""
    sio.emit("load", {"scenario": "lost-marker"})
    sio.get_received()
    nested = {"a": [{"b": [b"\x00\xff"]}]}
    for event in ("echo", "seek", "load"):
        sio.emit(event, nested)
    errors = [m for name, m in names(sio) if name == "error"]
    assert [e["event"] for e in errors] == ["echo", "seek", "load"]
    assert errors[0]["message"] == "'echo' carries binary data; this server takes JSON only"
    sio.emit("step")
    assert [m["position"] for name, m in names(sio) if name == "state"] == [1]


def test_the_server_sends_json_only_packets(app):

    assert app.extensions["socketio"].server.packet_class is JsonPacket


def test_an_event_name_must_be_a_string(sio):
    sio.emit(["not", "hashable"], {})
    sio.emit(7)
    assert [m["event"] for name, m in names(sio) if name == "error"] == ["['not', 'hashable']", "7"]


# --- memory per session -----------------------------------------------------------------------------------------
def growing(events: int) -> dict:
    """One pod in flight for good while events arrive: the in-flight lists (and every checkpoint) keep growing."""
    return {"schema": 1, "name": "growing", "pods": [{"name": "A"}], "initial_active": ["A"],
            "steps": [{"op": "pop"}] + [{"op": "event", "event": "PvAdd"}] * events}


def test_a_simulation_over_its_byte_budget_is_refused_while_loading():
    from webapp.engine.simulation import Simulation, TooLarge

    scenario = load_scenario(growing(3000))
    unbounded = Simulation(scenario)
    assert sum(line.bytes for line in unbounded.timelines.values()) == sum(
        len(b) for line in unbounded.timelines.values() for b in line._checkpoints.values())
    used = unbounded.bytes
    assert Simulation(scenario, max_bytes=used).total == 3001
    with pytest.raises(TooLarge, match="too large to step through here"):
        Simulation(scenario, max_bytes=used // 4)


MEASURE_HELD = """
import gc, json, sys, tracemalloc
from webapp.engine.simulation import Simulation
from webapp.scenario.load import load_scenario
text = sys.stdin.read()
gc.collect()
tracemalloc.start()
before = tracemalloc.get_traced_memory()[0]
sim = Simulation(load_scenario(json.loads(text)))
sim.seek(sim.total)
sim.frame()
print(json.dumps({"held": tracemalloc.get_traced_memory()[0] - before, "counted": sim.bytes}))
"""


def test_a_sessions_whole_memory_is_counted_not_only_its_checkpoints():
    """Source and parsed steps, checkpoints, and the live models with their frame: the count is at least what
    the simulation really holds (tracemalloc, in a process of its own) at its fullest, and a budget the
    checkpoints alone fit is refused."""
    import subprocess
    import sys

    from webapp.engine.simulation import Simulation, TooLarge

    text = json.dumps(growing(3000))
    measured = json.loads(subprocess.run([sys.executable, "-c", MEASURE_HELD], input=text, capture_output=True,
                                         text=True, check=True, timeout=180).stdout)
    assert measured["held"] <= measured["counted"] < 3 * measured["held"]  # an estimate, not a wild one
    sim = Simulation(load_scenario(json.loads(text)))
    assert sim.bytes == measured["counted"]
    checkpoints = sum(line.bytes for line in sim.timelines.values())
    assert sim.source_bytes > len(text)
    assert Simulation(sim.scenario, max_bytes=sim.bytes).total == 3001
    with pytest.raises(TooLarge, match=r"by step \d+ of 3001 the memory it needs passes"):
        Simulation(sim.scenario, max_bytes=checkpoints + sim.source_bytes)  # the live state is counted too
    with pytest.raises(TooLarge, match="by step 0 of 3001"):  # a source over the budget: before any step
        Simulation(sim.scenario, max_bytes=sim.source_bytes - 1)


def test_every_builtin_fits_the_default_budget_many_times_over():
    from webapp.engine.simulation import Simulation

    for scenario_id in builtin.ids():
        scenario = load_scenario(builtin.get(scenario_id))
        sim = Simulation(scenario, runnable_variants(scenario), max_bytes=webapp.DEFAULTS["MAX_SESSION_BYTES"])
        assert sim.bytes < webapp.DEFAULTS["MAX_SESSION_BYTES"] // 100


def test_load_over_the_session_budget_is_answered_with_an_error_and_changes_nothing(make_app):
    app = make_app(MAX_SESSION_BYTES=200_000)
    c = connect(app)
    c.emit("load", {"scenario": "lost-marker", "position": 3})
    c.get_received()
    c.emit("load", {"scenario": growing(3000)})
    got = names(c)
    assert [n for n, _ in got] == ["error"] and "too large to step through here" in got[0][1]["message"]
    # what was built up to the bound is given back (engine/memory.py), as when a heavy session ends: RSS stayed
    # at its peak after refused loads (bench/session_memory.py measures it)
    assert app.extensions["inflight_hub"].trim.releasing
    c.emit("pause")
    assert [m["position"] for n, m in names(c) if n == "state"] == [3]
    ack = c.emit("create_room", {}, callback=True)
    c.emit("load", {"scenario": growing(3000), **ack})  # a room is bounded the same way
    assert [n for n, _ in names(c)] == ["error"]


def test_a_large_upload_refused_as_too_large_is_refused_again_without_being_built(make_app):
    """The same large upload sent again (a client retrying) is refused with the same words from what the first
    refusal left (Hub.refused), not simulated again up to the bound; another upload is judged on its own."""
    app = make_app(MAX_SESSION_BYTES=200_000)
    hub, c = app.extensions["inflight_hub"], connect(app)
    too_large = growing(3000)
    assert len(json.dumps(too_large)) > JsonPacket.LARGE_PACKET  # kept as its text by the packet
    c.emit("load", {"scenario": too_large})
    [(name, first)] = names(c)
    assert name == "error" and first["kind"] == "TooLarge" and len(hub.refused) == 1
    c.emit("load", {"scenario": too_large})
    assert names(c) == [("error", first)]
    assert len(hub.refused) == 1
    fits = {**growing(3000), "steps": [{"op": "pop", "note": "x" * 70_000}, {"op": "done", "pod": "A"}]}
    c.emit("load", {"scenario": fits})
    assert [n for n, _ in names(c)] == ["scenario", "state"]


# --- rooms nobody is in, and how many rooms there may be -----------------------------------------------------
def connect_from(app) -> Viewer:
    """A connection with a client address (127.0.0.1, from a Flask test client's environ)."""
    client = Viewer(app.extensions["socketio"].test_client(app, flask_test_client=app.test_client()))
    assert client.is_connected()
    return client


def fake_room_clock(app) -> FakeClock:
    clock = FakeClock()
    app.extensions["inflight_rooms"].clock = clock
    app.extensions["inflight_guard"].sweeper.clock = clock
    return clock


def test_a_room_pauses_the_moment_nobody_is_in_it_and_is_forgotten_after_its_grace(make_app, monkeypatch):
    app = make_app(ROOM_EMPTY_GRACE_SECONDS=60)
    autoplays = keep_autoplays(app.extensions["socketio"], monkeypatch)
    clock, rooms = fake_room_clock(app), app.extensions["inflight_rooms"]
    sweeper = app.extensions["inflight_guard"].sweeper
    presenter, follower = connect(app), connect(app)
    ack = presenter.emit("create_room", {}, callback=True)
    presenter.emit("load", {"scenario": "five-minute-wait", **ack})
    follower.emit("join_room", {"room": ack["room"]})
    presenter.emit("play", {"speed": 20, **ack})
    room = rooms.find(ack["room"])
    presenter.disconnect()
    assert room.session.playing  # a follower is still watching
    follower.emit("leave_room", {"room": ack["room"]})
    assert not room.session.playing  # nobody left: paused at once
    with room.session.lock:  # a tick under way when it paused has ended; any later one finds it paused
        position = room.session.sim.position
    ended(autoplays)
    assert room.session.sim.position == position
    assert sweeper.sweep(clock.now + 59)["rooms"] == [] and len(rooms) == 1
    assert sweeper.sweep(clock.now + 60)["rooms"] == [ack["room"]] and len(rooms) == 0
    follower.get_received()
    follower.emit("join_room", {"room": ack["room"]})
    assert [name for name, _ in names(follower)] == ["error"]


def test_a_room_someone_comes_back_to_within_its_grace_is_kept(make_app):
    app = make_app(ROOM_EMPTY_GRACE_SECONDS=60)
    clock, rooms = fake_room_clock(app), app.extensions["inflight_rooms"]
    sweeper = app.extensions["inflight_guard"].sweeper
    presenter = connect(app)
    ack = presenter.emit("create_room", {}, callback=True)
    presenter.emit("load", {"scenario": "lost-marker", "position": 3, **ack})
    presenter.disconnect()  # e.g. the presenter's laptop reconnects
    clock.now += 30
    back = connect(app)
    assert back.emit("claim_room", ack, callback=True) == {"room": ack["room"], "loaded": True}
    clock.now += 600
    assert sweeper.sweep()["rooms"] == [] and len(rooms) == 1


def test_reconnecting_does_not_reset_the_rooms_one_address_may_hold(make_app):
    app = make_app(MAX_ROOMS_PER_CONNECTION=10, MAX_ROOMS_PER_ADDRESS=3, ROOM_EMPTY_GRACE_SECONDS=45)
    clock, sweeper = fake_room_clock(app), app.extensions["inflight_guard"].sweeper
    first = connect_from(app)
    assert all("token" in first.emit("create_room", {}, callback=True) for _ in range(2))
    first.disconnect()
    again = connect_from(app)  # the same address
    acks = [again.emit("create_room", {}, callback=True) for _ in range(2)]
    assert "token" in acks[0] and acks[1]["error"].startswith("room limit: your address has 3 rooms open")
    assert acks[1]["error"].endswith("a room is forgotten 45 s after everyone has left it")  # the grace set
    assert [m["kind"] for n, m in names(again) if n == "error"] == ["NotAllowed"]
    sweeper.sweep(clock.now + 45)  # the first connection's rooms, empty for their grace, are forgotten
    assert "token" in again.emit("create_room", {}, callback=True)


def test_one_process_holds_a_bounded_number_of_rooms(make_app):
    app = make_app(MAX_ROOMS=2, MAX_ROOMS_PER_ADDRESS=0)
    acks = [connect_from(app).emit("create_room", {}, callback=True) for _ in range(3)]
    assert all("token" in a for a in acks[:2])
    assert acks[2]["error"].startswith("room limit: this server holds 2 rooms already")
    assert len(app.extensions["inflight_rooms"]) == 2


def test_the_room_limits_are_documented_defaults():
    d = webapp.DEFAULTS
    assert (d["MAX_ROOMS"], d["MAX_ROOMS_PER_ADDRESS"], d["ROOM_EMPTY_GRACE_SECONDS"]) == (200, 20, 60)
    environ = {"INFLIGHT_SCOPE_MAX_ROOMS": "3", "INFLIGHT_SCOPE_MAX_ROOMS_PER_ADDRESS": "4",
               "INFLIGHT_SCOPE_ROOM_EMPTY_GRACE_SECONDS": "5"}
    settings = read_settings(None, environ)  # each can be set from the environment
    assert (settings.max_rooms, settings.max_rooms_per_address, settings.room_empty_grace_seconds) == (3, 4, 5)
