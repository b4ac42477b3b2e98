"""Malformed packets (webapp/server/offences.py, codec.JsonPacket, guard.py): frames that are not Engine.IO or
Socket.IO are counted against the connection's rate limit, each kind is logged once per connection without a
traceback, and a connection that keeps sending them is closed. The live tests send raw websocket frames
(websocket-client) to the real server in both async modes and read its log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import websocket

from tests.waiting import logged
from tests.web.liveserver import LiveServer
from webapp.server.codec import JsonPacket, Undecodable
from webapp.server.offences import MALFORMED_PER_CONNECTION, Malformed, engineio_problem

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "test-artifacts" / "server-logs"

# One of each kind: (frame, the words its log line holds)
ENGINEIO_KINDS = [("", "an empty Engine.IO packet"), ("x", "Engine.IO packet type 'x'"),
                  ("9", "Engine.IO packet type '9'"), ("4{", "not a Socket.IO packet"),
                  ("4" + "[" * 3000, "not a Socket.IO packet"), ("2" + "[" * 3000, "control packet")]
SOCKETIO_KINDS = [("49", "Socket.IO packet type 9"), ("44", "Socket.IO packet type 4"),
                  ("42" + "9" * 120, "id field is too long"), ("4" + "5" + "99-[]", "binary attachments")]


# --- the decoders, in process --------------------------------------------------------------------------------
@pytest.mark.parametrize("frame", ["2", "3", "2probe", "3probe", "5", "6", "1", "40", '42["step"]', b"\x00\x01", None])
def test_what_clients_send_passes_the_engineio_screen(frame):
    assert engineio_problem(frame) is None


@pytest.mark.parametrize("frame,words", ENGINEIO_KINDS + [("0", "type '0'"), ("4", "not a Socket.IO packet")])
def test_frames_engineio_cannot_decode_are_named(frame, words):
    assert words in engineio_problem(frame)


@pytest.mark.parametrize("frame,words", SOCKETIO_KINDS + [("4[", "undecodable"), ("47", "type 7")])
def test_socketio_packets_that_cannot_be_decoded_become_malformed_events(frame, words):
    packet = JsonPacket(encoded_packet=frame[1:])  # what Engine.IO hands over: the frame without its "4"
    assert isinstance(packet.data, Malformed) and words in packet.data.kind
    assert packet.namespace is None and packet.id is None


def test_decodable_packets_are_unchanged():
    assert JsonPacket(encoded_packet='2["load",{"scenario":"lost-marker"}]').data == [
        "load", {"scenario": "lost-marker"}]
    assert isinstance(JsonPacket(encoded_packet='2["load",[[1]').data, Undecodable)  # answered with an error
    assert JsonPacket(encoded_packet="0").packet_type == 0


# --- the real server ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=["eventlet", "threading"])
def server(request):
    env = {"INFLIGHT_SCOPE_RATE_LIMIT_PER_SECOND": "1", "INFLIGHT_SCOPE_RATE_LIMIT_BURST": "40"}
    with LiveServer(request.param, LOGS, env=env) as live:
        yield live
        assert live.proc.poll() is None, f"the server died during the tests:\n{live.log()}"


def connect(url: str):
    ws = websocket.create_connection(url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket", timeout=10)
    assert ws.recv().startswith("0")
    ws.send("40")
    assert ws.recv().startswith("40")
    return ws


def echo(ws, payload) -> object:
    """Send an echo event; the payload of the echo answer (pings are answered on the way; no error before it)."""
    data, errors = echo_after_errors(ws, payload)
    assert errors == [], errors
    return data


def echo_after_errors(ws, payload) -> tuple[object, list]:
    """Send an echo event; (the payload of its answer, the ``error`` answers that came before it)."""
    ws.send("42" + json.dumps(["echo", payload]))
    errors = []
    while True:
        message = ws.recv()
        if message == "2":
            ws.send("3")
        elif message.startswith("42"):
            name, data = json.loads(message[2:])
            if name != "error":
                assert name == "echo", data
                return data, errors
            errors.append(data)


def closed_by_server(ws, limit: int = 200) -> bool:
    """Whether the server closes the connection (reading what it still sends)."""
    try:
        for _ in range(limit):
            if ws.recv() in ("", None):
                return True
    except (websocket.WebSocketConnectionClosedException, ConnectionError, OSError):
        return True
    return False


def test_each_kind_is_logged_once_without_a_traceback_and_the_connection_keeps_working(server):
    start = len(server.log_path.read_text(errors="replace"))
    ws = connect(server.url)
    kinds = ENGINEIO_KINDS + SOCKETIO_KINDS
    for _ in range(2):  # every kind twice: logged once
        for frame, _words in kinds:
            ws.send(frame)
    assert echo(ws, {"still": "here"}) == {"still": "here"}  # 2 x 10 malformed: under the 20 allowed
    ws.close()
    log = logged(server, SOCKETIO_KINDS[-1][1], since=start)
    assert "Traceback" not in log and "handler error" not in log
    lines = [line for line in log.splitlines() if "malformed packet" in line]
    assert len(lines) == len({line for line in lines}) == len({words for _f, words in kinds}) - 1 + 1, log
    for _frame, words in kinds:
        assert words in log


def test_a_connection_that_keeps_sending_them_is_closed(server):
    start = len(server.log_path.read_text(errors="replace"))
    ws = connect(server.url)
    for _ in range(MALFORMED_PER_CONNECTION + 1):
        ws.send("49")
    assert closed_by_server(ws)
    log = logged(server, "closed", since=start)
    assert f"{MALFORMED_PER_CONNECTION + 1} malformed packets" in log and "Traceback" not in log
    assert log.count("malformed packet from") == 1


def test_a_text_frame_where_an_attachment_is_due_is_malformed(server):
    start = len(server.log_path.read_text(errors="replace"))
    ws = connect(server.url)
    ws.send('451-["echo",{"_placeholder":true,"num":0}]')
    ws.send('42["echo","taken for the attachment"]')  # dropped, with the binary packet it was to complete
    assert echo(ws, 1) == 1
    ws.close()
    log = logged(server, "attachment was due", since=start)
    assert "attachment was due" in log and "Traceback" not in log


@pytest.mark.parametrize("frame", [b"\x00binary", b"4" + b"[" * (70 * 1024)])  # small, and over LARGE_PACKET
def test_binary_frames_where_no_attachment_is_due_are_malformed(server, frame):
    """Binary frames with no attachment due reached the JSON decoder: under eventlet each logged a traceback and
    none counted (the connection stayed open after hundreds)."""
    start = len(server.log_path.read_text(errors="replace"))
    ws = connect(server.url)
    ws.send_binary(frame)
    assert echo(ws, 1) == 1
    for _ in range(MALFORMED_PER_CONNECTION):
        ws.send_binary(frame)
    assert closed_by_server(ws)
    log = logged(server, "closed", since=start)
    assert "Traceback" not in log and "handler error" not in log
    assert log.count("a binary frame where no attachment was due") == 1, log


def test_malformed_packets_spend_the_rate_limit():
    """With a burst of 4 and a refill of one a minute: three malformed packets and one echo spend it all; the
    next malformed packet is over the limit and closes the connection."""
    env = {"INFLIGHT_SCOPE_RATE_LIMIT_PER_SECOND": "0.016", "INFLIGHT_SCOPE_RATE_LIMIT_BURST": "4"}
    with LiveServer("eventlet", LOGS, env=env) as live:
        ws = connect(live.url)
        for _ in range(3):
            ws.send("49")
        assert echo(ws, "one") == "one"
        ws.send("49")
        assert closed_by_server(ws)
        log = logged(live, "closed")
        assert "4 malformed packets (over the rate limit)" in log


def test_the_polling_transport_screens_its_bodies_too(server):
    """Long-polling POSTs carry the same packets: bad ones are logged once per kind without a traceback (Engine.IO
    answered them 200 with a traceback each), the good ones in the same body are handled, and a connection that
    keeps sending them is closed (400)."""
    import requests

    start = len(server.log_path.read_text(errors="replace"))
    base = server.url + "/socket.io/?EIO=4&transport=polling"
    with requests.Session() as http:
        opened = http.get(base, timeout=10).text
        sid = json.loads(opened[1:])["sid"]
        url = f"{base}&sid={sid}"
        assert http.post(url, data="40", timeout=10).status_code == 200
        assert http.get(url, timeout=10).text.startswith("40")
        body = "\x1e".join(["x", "", "4{", '42["echo","kept"]', "49"])
        assert http.post(url, data=body.encode(), timeout=10).status_code == 200
        assert '42["echo","kept"]' in http.get(url, timeout=10).text
        statuses = [http.post(url, data="x", timeout=10).status_code for _ in range(MALFORMED_PER_CONNECTION)]
        assert statuses[-1] == 400 and statuses[0] == 200
    log = logged(server, "closed", since=start)
    assert "Traceback" not in log and "handler error" not in log
    assert log.count("Engine.IO packet type 'x'") == 1 and "Socket.IO packet type 9" in log
