"""The event loop is not stalled by one client's frames (webapp/server/frames.py, privates.py), nor by the hub's own
work on a heavy load (webapp/server/codec.py, guard.py, web/sockets.py; figures in bench/abuse.py).

eventlet runs only in subprocesses (the pytest process never imports or monkey-patches it): a small script
drives eventlet's own RFC6455WebSocket over a socket pair, and the real eventlet server echoes a large frame.
No timing is asserted: what is checked is that the unmasking gives the same bytes, that the patch is in
place, and that other green threads run between two messages of a connection that has many waiting."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import websocket

from tests.web.liveserver import LiveServer
from webapp.engine.session import Session
from webapp.presenter import scenario_message
from webapp.scenario.generate import generate
from webapp.scenario.resolve import resolve
from webapp.server import frames
from webapp.server.codec import ENCODE_PIECE, Encoded, JsonPacket, JsonText, encoded
from webapp.server.frames import apply_mask
from webapp.server.guard import packet_problem
from webapp.web.hub import Hub, Target

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "test-artifacts" / "server-logs"


def reference_mask(data: bytes, mask, length=None, offset=0) -> bytes:
    """RFC 6455 5.3, byte by byte (what eventlet does)."""
    length = len(data) if length is None else length
    return bytes(data[i] ^ mask[(offset + i) % 4] for i in range(length))


@pytest.mark.parametrize("length,offset", [(0, 0), (1, 0), (3, 2), (4, 1), (5, 7), (1000, 3), (65537, 0)])
def test_apply_mask_is_the_xor_of_rfc_6455(length, offset):
    rng = random.Random(length * 10 + offset)
    data = bytes(rng.randrange(256) for _ in range(length + 5))
    mask = tuple(rng.randrange(256) for _ in range(4))
    assert apply_mask(data, mask, length, offset) == reference_mask(data, mask, length, offset)
    assert apply_mask(apply_mask(data, mask, length, offset), mask, length, offset) == data[:length]


def test_a_connection_reading_past_its_budget_owes_time_the_others_do_not(monkeypatch):
    """The read budget (``_owed_seconds``, bytes a second per connection, two seconds' worth of burst): a
    connection within it is not held; one past it is held for what it read beyond; another connection is not."""
    monkeypatch.setitem(frames.read_budget, "rate", 1_000_000.0)

    class Connection:
        pass

    greedy, honest = Connection(), Connection()
    assert frames.owed_seconds(honest, "x" * 1_000_000) == 0  # the largest message, at once
    assert frames.owed_seconds(greedy, "x" * 1_900_000) == 0
    owed = frames.owed_seconds(greedy, "x" * 600_000)  # 2.5 MB within a moment: 0.5 MB beyond the burst
    assert 0.45 < owed <= 0.5
    assert frames.owed_seconds(honest, "x" * 900_000) == 0
    monkeypatch.setitem(frames.read_budget, "rate", 0.0)
    assert frames.owed_seconds(greedy, "x" * 5_000_000) == 0  # no bound


def test_the_pytest_process_has_no_eventlet_patch():
    assert JsonPacket.parse_apart is None and JsonPacket.refuse_large is None
    if "eventlet.patcher" in sys.modules:
        assert not sys.modules["eventlet.patcher"].is_monkey_patched("socket")


EVENTLET_SCRIPT = r"""
import json, os, struct, sys
import eventlet
from eventlet.green import socket
from eventlet import websocket
from webapp.server import privates

before = websocket.RFC6455WebSocket._apply_mask
installed = privates.install_eventlet_frames()
again = privates.install_eventlet_frames()

def frame(text, mask=(1, 2, 3, 4)):
    body = text.encode()
    head = (bytes([0x81, 0x80 | 126]) + struct.pack("!H", len(body)) if len(body) > 125
            else bytes([0x81, 0x80 | len(body)]))
    return head + bytes(mask) + bytes(b ^ mask[i % 4] for i, b in enumerate(body))

server_side, client_side = socket.socketpair()
messages = ["%d:" % i + "x" * 200 for i in range(20)]
client_side.sendall(b"".join(frame(m) for m in messages))  # all waiting in the socket before any is read
ws = websocket.RFC6455WebSocket(server_side, {}, client=False)
ticks, log = [0], []

def other():
    while True:
        ticks[0] += 1
        eventlet.sleep(0)

eventlet.spawn(other)
eventlet.sleep(0)
for _ in messages:
    got = ws.wait()
    log.append([got, ticks[0]])
print(json.dumps({"installed": installed, "again": again,
                  "same_before": before is websocket.RFC6455WebSocket._apply_mask,
                  "received": [m for m, _ in log], "ticks": [t for _, t in log]}))
"""


def test_a_connection_with_many_messages_waiting_lets_others_run_between_them():
    """20 frames wait in the socket; another green thread runs between every two ``wait()``s (without the patch
    it ran not once until the socket was empty: recv never blocks while data is there)."""
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    out = subprocess.run([sys.executable, "-c", EVENTLET_SCRIPT], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["installed"] and result["again"] and not result["same_before"]
    assert result["received"] == [f"{i}:" + "x" * 200 for i in range(20)]
    ticks = result["ticks"]
    assert all(b > a for a, b in zip(ticks, ticks[1:])), ticks


def test_a_large_frame_arrives_intact_through_the_eventlet_server():
    """A 0.8 MB message (every byte value a JSON string can hold in UTF-8, so the mask's offsets all matter),
    sent in one masked frame, comes back from echo as it was sent."""
    rng = random.Random(7)
    payload = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 é€😀\"\\") for _ in range(650_000))
    with LiveServer("eventlet", LOGS) as live:
        ws = websocket.create_connection(live.url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket",
                                         timeout=20)
        assert ws.recv().startswith("0")
        ws.send("40")
        assert ws.recv().startswith("40")
        message = "42" + json.dumps(["echo", payload], ensure_ascii=False)
        assert 700_000 < len(message.encode()) < 1024 * 1024
        ws.send(message)
        while True:
            answer = ws.recv()
            if answer.startswith("42"):
                break
        ws.close()
        assert json.loads(answer[2:]) == ["echo", payload]
        assert "Traceback" not in live.log()


def test_a_large_body_is_refused_before_it_is_read_while_heavy_work_is_full():
    """While every heavy-work place is taken, a POST over 64 kB is answered 503 before its body is read (the
    same broken body is a 400 from its route once a place is free); a small body still reaches its route."""
    import threading

    from webapp import create_app

    app = create_app({"ASYNC_MODE": "threading", "TESTING": True, "MAX_LOADS_AT_ONCE": 1,
                      "MAX_LOADS_WAITING": 0})
    offload, client = app.extensions["inflight_offload"], app.test_client()
    broken = b"{" + b" " * 70_000  # not JSON: the route would say so
    release, running = threading.Event(), threading.Event()
    holder = threading.Thread(target=offload, args=(lambda: (running.set(), release.wait(10)),))
    holder.start()
    try:
        assert running.wait(10) and offload.full
        refused = client.post("/api/validate", data=broken, content_type="application/json")
        assert refused.status_code == 503 and "busy" in refused.get_json()["message"]
        small = client.post("/api/validate", data=b"{", content_type="application/json")
        assert small.status_code == 400
    finally:
        release.set()
        holder.join(10)
    assert not offload.full
    assert client.post("/api/validate", data=broken, content_type="application/json").status_code == 400


def test_a_json_payload_is_not_walked_for_bytes_only_one_with_binary_attachments():
    """JSON text holds no bytes: only a packet rebuilt with binary attachments is walked for them (walking every
    load's 0.3 MB scenario on the hub took 30-190 ms)."""

    class Unwalkable(dict):
        def values(self):
            raise AssertionError("a JSON payload was walked")

    assert packet_problem(["load", Unwalkable(scenario={"steps": []})]) is None
    packet = JsonPacket(encoded_packet='51-["echo",{"a":[{"_placeholder":true,"num":0}]}]')
    packet.add_attachment(b"\x00\xff")
    assert packet_problem(packet.data) == "'echo' carries binary data; this server takes JSON only"
    plain = JsonPacket(encoded_packet='51-["echo",{"a":1}]')
    plain.add_attachment(b"\x00")
    assert packet_problem(plain.data) is None


@pytest.mark.parametrize("value", [{}, [], {"a": list(range(3 * ENCODE_PIECE + 7))}, {1: "x", "b": [None]},
                                   [list(range(ENCODE_PIECE + 1)), (1, 2.5)], {"é": "ü\u2028\ud83d\ude00", "t": True},
                                   {"a": {"b": {"c": tuple(range(ENCODE_PIECE * 2))}}}, "text", 7])
def test_encoded_is_the_compact_json_of_the_message(value):
    assert encoded(value) == json.dumps(value, separators=(",", ":"))
    assert isinstance(encoded(value), Encoded)


def test_an_encoded_message_is_spliced_into_its_packet_as_it_is():
    message = {"steps": [{"i": i} for i in range(ENCODE_PIECE + 3)], "name": "n"}
    packet = JsonPacket(data=["scenario", encoded(message)])
    assert packet.encode() == "2" + json.dumps(["scenario", message], separators=(",", ":"))
    assert JsonPacket(data=["state", {"a": 1}]).encode() == '2["state",{"a":1}]'


def test_an_uploaded_scenarios_message_is_made_and_encoded_apart_from_the_hub():
    """The scenario message of an upload (1.3 MB of JSON for 8,000 steps) comes out of the session's
    ``run_apart`` encoded: the hub only sends it (json.dumps of it took 40-200 ms on the hub)."""
    apart = []

    def run_apart(fn, *args, small=False):
        result = fn(*args)
        apart.append((small, result))
        return result

    scenario, _ = resolve(generate(random.Random(3).choice, 1200, pods=6))
    session = Session(run_apart=run_apart)
    session.load(scenario, scenario.versions, None)
    sent = Hub(None, None, None, None).scenario_of(Target(session, "sid"))
    assert apart[-1] == (False, (sent, sent)) and isinstance(sent, Encoded)
    made = {**scenario_message(session.sim.summary(), None, None), "key": session.load_id}
    assert json.loads(sent) == json.loads(json.dumps(made))


def test_a_large_loads_scenario_waits_as_its_json_text():
    """A large ``load`` packet keeps its scenario as JSON text (checked at the boundary first): a load waiting
    for its turn holds one string, not the parsed scenario every full garbage collection walked. Smaller
    packets and other events are parsed as before."""
    raw = generate(random.Random(4).choice, 3000, pods=8)
    payload = {"scenario": raw, "variants": ["v1.28.2"]}
    large = JsonPacket(encoded_packet="2" + json.dumps(["load", payload]))
    assert large.data[1]["variants"] == ["v1.28.2"] and isinstance(large.data[1]["scenario"], JsonText)
    assert large.data[1]["scenario"].value() == raw
    assert JsonPacket(encoded_packet="2" + json.dumps(["echo", payload])).data == ["echo", payload]
    small = {"scenario": {"schema": 1, "steps": []}}
    assert JsonPacket(encoded_packet="2" + json.dumps(["load", small])).data == ["load", small]
    deep = ("2" + json.dumps(["load", {"scenario": raw, "x": "y" * JsonPacket.LARGE_PACKET}])[:-2]
            + "[" * 100 + "]" * 100 + "}]")
    refused = JsonPacket(encoded_packet=deep).data  # still refused at the boundary, with its field
    assert refused.event == "load" and "nest" in refused.problem


def test_a_large_upload_loads_and_is_refused_as_before_over_socketio():
    from tests.web.viewer import Viewer
    from webapp import create_app

    app = create_app({"ASYNC_MODE": "threading", "TESTING": True})
    sio = Viewer(app.extensions["socketio"].test_client(app))
    raw = generate(random.Random(5).choice, 3000, pods=8)
    assert len(json.dumps(raw)) > JsonPacket.LARGE_PACKET
    sio.emit("load", {"scenario": raw})
    scenario, state = sio.get_received()
    assert (scenario["name"], state["name"]) == ("scenario", "state") and scenario["args"][0]["total"] == 3000
    sio.emit("load", {"scenario": {**raw, "steps": raw["steps"] + [{"op": "popp"}]}})
    [error] = sio.get_received()
    assert error["args"][0]["kind"] == "ScenarioError" and "popp" in error["args"][0]["message"]
    sio.disconnect()
    app.extensions["inflight_guard"].sweeper.stop()


def test_memory_is_trimmed_where_the_event_loop_need_not_wait(monkeypatch):
    """After heavy sessions end the hub collects garbage, and hands malloc_trim (tens of ms with the GIL
    released, the hub blocked in it) to ``native``: a native thread under eventlet."""
    from webapp.engine import memory

    handed = []

    class Loop:
        sleep = staticmethod(lambda seconds: None)
        start_background_task = staticmethod(lambda fn: fn())

    here = threading.get_ident()  # a hub of an earlier test may still trim on its own thread: not counted
    monkeypatch.setattr(memory, "_TRIM", lambda pad: threading.get_ident() == here and handed.append(("trimmed", pad)))
    hub = Hub(Loop(), None, None, None, native=lambda fn, *args: handed.append(("native", fn(*args))))
    hub.trim.soon()
    assert handed == [("trimmed", 0), ("native", None)] and not hub.trim.releasing


def test_a_large_load_that_would_be_refused_busy_is_refused_before_it_is_parsed(monkeypatch, caplog):
    """Clients retrying a refused load at once kept native threads parsing 0.3 MB packets (10-40 ms each holding
    the GIL) only to be told Busy: while heavy work is full (``refuse_large``, set by the eventlet server) such
    a packet is answered Busy unparsed, as before, with its log line; other events are parsed as they were."""
    import logging

    from tests.web.viewer import Viewer
    from webapp import create_app
    from webapp.errors import Busy
    from webapp.server import codec

    parsed = []
    monkeypatch.setattr(codec, "parse_json", lambda text, where: parsed.append(len(text)) or json.loads(text))
    full = [True]
    monkeypatch.setattr(JsonPacket, "refuse_large", staticmethod(lambda: Busy("busy, try again") if full[0] else None))
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True})
    sio = Viewer(app.extensions["socketio"].test_client(app))
    raw = generate(random.Random(6).choice, 3000, pods=8)
    caplog.set_level(logging.WARNING)
    sio.emit("load", {"scenario": raw})
    [error] = sio.get_received()
    assert error["args"][0] == {"message": "busy, try again", "event": "load", "kind": "Busy"}
    assert not [n for n in parsed if n > JsonPacket.LARGE_PACKET]
    assert any("refused 'load'" in r.getMessage() and "Busy" in r.getMessage() for r in caplog.records)
    sio.emit("echo", {"big": "x" * JsonPacket.LARGE_PACKET})
    assert sio.get_received()[0]["name"] == "echo"
    sio.emit("load", {"scenario": "lost-marker"})  # a small packet: a built-in loads
    assert [m["name"] for m in sio.get_received()] == ["scenario", "state"]
    full[0] = False
    sio.emit("load", {"scenario": raw})
    assert [m["name"] for m in sio.get_received()] == ["scenario", "state"]
    sio.disconnect()
    app.extensions["inflight_guard"].sweeper.stop()
