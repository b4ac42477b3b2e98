"""What a client sends is parsed where it cannot stall the event loop, and what is refused costs little
(webapp/web/bodies.py ``json_body``, webapp/server/codec.py ``JsonPacket``, guard.py,
webapp/server/offences.py; figures in bench/abuse.py, phases deepbody, listbody, deepframe, listframe).

* An HTTP body larger than SMALL_BODY_BYTES, or a small one nested too deep, is parsed by the Offload (a worker
  process under eventlet), not in the request handler on the hub: a 2 MB body nested a million levels deep (or a
  list of a million items) posted again and again stalled every other viewer for seconds.
* A Socket.IO event over its connection's rate limit is dropped before it is decoded; a small packet nested too
  deep is decoded apart (eventlet's tpool); and an event refused at the JSON boundary is an offence, like a
  malformed packet: a connection that keeps sending them is closed.

No timing is asserted: what is checked is where the work goes and what each client is answered (the same
messages as before)."""

from __future__ import annotations

import json

import pytest
import requests

from tests.waiting import logged
from tests.web.liveserver import LiveServer
from tests.web.test_offload_processes import children
from tests.web.test_packets import (
    LOGS,
    closed_by_server,
    connect,
    echo,
    echo_after_errors,
    server,  # noqa: F401 (a fixture: the tests below take it by name)
)
from webapp import create_app
from webapp.server import codec
from webapp.server.codec import JsonPacket, Undecodable
from webapp.server.offences import MALFORMED_PER_CONNECTION
from webapp.web.bodies import SMALL_BODY_BYTES

DEEP_BODY = b"[" * 1_000_000 + b"]" * 1_000_000
LIST_BODY = b"[" + b"1," * 1_000_000 + b"1]"
DEEP_MESSAGE = ("the request body, field '[0][0][0][0][0][0]...': nested deeper than 64 levels "
                "(line 1, column 65)")
DEEP_FRAME = '42["echo",' + "[" * 32000 + "]" * 32000 + "]"
DEEP_FRAME_PROBLEM = "the 'echo' message, field '[0][0][0][0][0]...': nested deeper than 64 levels (line 1, column 72)"
ROUTES = ["/api/replay", "/api/validate", "/api/trace", "/api/trace/check", "/export/html", "/export/svg",
          "/api/find", "/api/challenges/lose-marker/check"]


# --- HTTP bodies -------------------------------------------------------------------------------------------
@pytest.fixture
def recorded():
    """A threading app whose Offload records each call: (the function's name, pure, small)."""
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True})
    offload = app.extensions["inflight_offload"]
    calls = []

    class Recording:
        def __call__(self, fn, *args, small=False, pure=False, **kwargs):
            calls.append((getattr(fn, "__name__", repr(fn)), pure, small))
            return offload(fn, *args, small=small, pure=pure, **kwargs)

        def __getattr__(self, name):
            return getattr(offload, name)

    app.extensions["inflight_offload"] = Recording()
    yield app, calls
    app.extensions["inflight_guard"].sweeper.stop()


@pytest.mark.parametrize("route", ROUTES)
def test_a_body_that_is_not_small_is_parsed_apart_with_the_same_answer(recorded, route):
    app, calls = recorded
    client = app.test_client()
    deep = client.post(route, data=DEEP_BODY, content_type="application/json")
    assert (deep.status_code, deep.json) == (400, {"message": DEEP_MESSAGE, "kind": "Invalid"})
    assert calls == [("parse_json", True, False)]  # heavy work, pure: a worker process under eventlet
    calls.clear()
    flat = client.post(route, data=LIST_BODY, content_type="application/json")
    assert flat.status_code == 400  # not what the route takes
    assert calls[0] == ("parse_json", True, False)


def test_a_small_body_is_parsed_here_unless_it_nests_too_deep(recorded):
    app, calls = recorded
    client = app.test_client()
    small = client.post("/api/replay", json="lost-marker")
    assert small.status_code == 200 and "parse_json" not in [name for name, _p, _s in calls]
    deep = b'{"steps": [' + b"[" * 70 + b"]" * 70 + b"]}"
    assert len(deep) <= SMALL_BODY_BYTES
    refused = client.post("/api/replay", data=deep, content_type="application/json")
    assert refused.status_code == 400 and refused.json["message"] == (
        "the request body, field 'steps[0][0][0][0][0]...': nested deeper than 64 levels (line 1, column 74)")
    assert ("parse_json", True, True) in calls  # located in the small lane: never behind heavy work


def test_bodies_nested_too_deep_are_refused_by_a_worker_process_on_the_eventlet_server():
    """The real server: no worker process until the first pure work, and a body nested a million levels deep (which
    the hub measured for up to a second, 64 passes over it, before refusing it) starts one; the answers are the
    same as a threading app's, and another viewer is answered after."""
    local = create_app({"ASYNC_MODE": "threading", "TESTING": True})
    try:
        with LiveServer("eventlet", LOGS) as live:
            assert children(live.proc.pid) == []
            for body in (DEEP_BODY, LIST_BODY):
                remote = requests.post(live.url + "/api/replay", data=body, timeout=60,
                                       headers={"Content-Type": "application/json"})
                expected = local.test_client().post("/api/replay", data=body, content_type="application/json")
                assert (remote.status_code, remote.json()) == (expected.status_code, expected.json)
            assert len(children(live.proc.pid)) == 1  # the body was parsed in a worker, not by the hub
            assert requests.post(live.url + "/api/replay", json="lost-marker", timeout=30).status_code == 200
            ws = connect(live.url)
            assert echo(ws, "still here") == "still here"
            ws.close()
            assert "Traceback" not in live.log()
    finally:
        local.extensions["inflight_guard"].sweeper.stop()


# --- Socket.IO packets -------------------------------------------------------------------------------------
def test_a_small_packet_nested_too_deep_is_decoded_apart_with_the_same_problem(monkeypatch):
    apart = []
    monkeypatch.setattr(JsonPacket, "parse_apart", staticmethod(lambda fn, *args: apart.append(1) or fn(*args)))
    refused = JsonPacket(encoded_packet=DEEP_FRAME[1:]).data
    assert isinstance(refused, Undecodable) and refused.problem == DEEP_FRAME_PROBLEM and apart == [1]
    assert JsonPacket(encoded_packet='2["echo",[[[1]]]]').data == ["echo", [[[1]]]] and apart == [1]


def test_events_over_the_rate_limit_are_dropped_before_they_are_decoded(monkeypatch):
    """Engine.IO's message handler (what the websocket and polling transports call) asks the rate limit first:
    packets over it are not parsed, and the sender is told once, as the guard tells."""
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True, "RATE_LIMIT_PER_SECOND": 0.01,
                      "RATE_LIMIT_BURST": 2})
    socketio = app.extensions["socketio"]
    client = socketio.test_client(app)
    parsed = []
    monkeypatch.setattr(codec, "parse_json", lambda text, where: parsed.append(text) or json.loads(text))
    message = socketio.server.eio.handlers["message"]  # screen_packets' handle_message
    try:
        for n in range(2):
            message(client.eio_sid, f'2["echo",{n}]')
        assert [m["args"] for m in client.get_received()] == [[0], [1]]
        assert len(parsed) == 2
        for _ in range(10):
            message(client.eio_sid, '2["echo",' + "[" * 70 + "]" * 70 + "]")
        assert len(parsed) == 2  # dropped unparsed
        [told] = client.get_received()
        assert told["name"] == "error" and told["args"][0]["kind"] == "Refusal"
        assert told["args"][0]["event"] == "echo" and told["args"][0]["message"].startswith("rate limit:")
        assert client.is_connected()
    finally:
        client.disconnect()
        app.extensions["inflight_guard"].sweeper.stop()






def test_a_connection_that_keeps_sending_packets_nested_too_deep_is_closed(server):  # noqa: F811 (the fixture)
    """Each is answered with an error naming the field, as before; they are offences like malformed packets: the
    21st closes the connection (it stayed open, each packet parsed and answered, for as long as it kept within
    the rate limit). Logged once as a kind, then once for the close, without a traceback."""
    start = len(server.log_path.read_text(errors="replace"))
    ws = connect(server.url)
    for _ in range(MALFORMED_PER_CONNECTION):
        ws.send(DEEP_FRAME)
    echoed, errors = echo_after_errors(ws, "still here")  # under the 20 allowed: the connection works
    assert echoed == "still here"
    assert errors == [{"message": DEEP_FRAME_PROBLEM, "event": "echo", "kind": "Invalid"}] * MALFORMED_PER_CONNECTION
    ws.send(DEEP_FRAME)
    assert closed_by_server(ws)
    log = logged(server, "closed", since=start)
    assert f"{MALFORMED_PER_CONNECTION + 1} malformed packets" in log and "Traceback" not in log
    assert log.count("refused at the boundary") == 1


def test_other_refusals_at_the_boundary_are_offences_too(server):  # noqa: F811 (the fixture)
    """A packet with a 200-digit integer: answered with its field, and counted like the others (one over the rate
    limit closes the connection: here the limit is 40 at once, then 1 a second)."""
    ws = connect(server.url)
    frame = '42["echo",{"n":' + "7" * 200 + "}]"
    for _ in range(3):
        ws.send(frame)
    echoed, errors = echo_after_errors(ws, 1)
    assert echoed == 1 and errors == [{"message": "the 'echo' message, field 'n': an integer of 200 digits; at "
                                                  "most 100 are accepted", "event": "echo", "kind": "Invalid"}] * 3
    for _ in range(MALFORMED_PER_CONNECTION):
        ws.send(frame)
    assert closed_by_server(ws)
