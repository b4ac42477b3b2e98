"""Against the real server (a subprocess): which browser Origins may open a Socket.IO connection, and the
message size cap. python-socketio's client sends the Origin header a browser would."""

import threading
from pathlib import Path

import pytest
import requests
import socketio as socketio_client

from tests.web.liveserver import LiveServer

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "test-artifacts" / "server-logs"
TIMEOUT = 30.0  # a bound against a hang: every wait ends as soon as what it waits for comes
SLIDES = "https://slides.example"


@pytest.fixture(scope="module", params=["threading", "eventlet"])
def server(request):
    with LiveServer(request.param, LOGS) as live:
        yield live
        assert live.proc.poll() is None, f"the server died during the tests:\n{live.log()}"


@pytest.fixture(scope="module")
def configured_server():
    """ALLOWED_ORIGINS from the environment, as `serve` and gunicorn read it."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("INFLIGHT_SCOPE_ALLOWED_ORIGINS", f"{SLIDES}, https://blog.example")
        with LiveServer("threading", LOGS) as live:
            yield live


def try_connect(url: str, origin: str | None, transport: str):
    """(connected client or None, the error text). websocket-client writes its own Origin header (the
    server's, unless told otherwise), so over a websocket the origin is its option, not an extra header."""
    if transport == "websocket":
        options = {"origin": origin} if origin else {"suppress_origin": True}
        client = socketio_client.Client(reconnection=False, websocket_extra_options=options)
        headers = {}
    else:
        client = socketio_client.Client(reconnection=False)
        headers = {"Origin": origin} if origin else {}
    try:
        client.connect(url, headers=headers, transports=[transport], wait_timeout=TIMEOUT)
    except socketio_client.exceptions.ConnectionError as err:
        return None, str(err)
    return client, ""


def close(client) -> None:
    """Ends the connection with Engine.IO's close packet alone, once every packet sent before it is through (the
    server then ends the Socket.IO session too). Client.disconnect() queues Socket.IO's disconnect packet first,
    and python-engineio's write loop stops as soon as the client is disconnecting: if that packet's POST is under
    way then, the close packet is never sent and a polling client waits for its long-poll GET, which the server
    answers only at its next ping."""
    client.eio.queue.join()  # every packet queued so far has been sent
    client.eio.disconnect()
    assert not client.connected


def echo_round_trip(client, payload) -> object:
    got = threading.Event()
    answer = []
    client.on("echo", lambda data=None: (answer.append(data), got.set()))
    client.emit("echo", payload)
    assert got.wait(TIMEOUT), "no echo"
    return answer[0]


@pytest.mark.parametrize("transport", ["websocket", "polling"])
def test_a_foreign_origin_is_refused_and_the_own_origin_accepted(server, transport):
    refused, error = try_connect(server.url, "https://evil.example", transport)
    assert refused is None, "a foreign origin was let in"
    own, _ = try_connect(server.url, server.url, transport)
    assert own is not None and own.connected
    assert echo_round_trip(own, {"ok": 1}) == {"ok": 1}
    close(own)
    other_port = server.url.rsplit(":", 1)[0] + ":1"
    assert try_connect(server.url, other_port, transport)[0] is None  # same host, another port: another origin


def test_a_client_without_an_origin_header_is_not_a_browser_and_may_connect(server):
    client, _ = try_connect(server.url, None, "websocket")
    assert client is not None
    close(client)


def test_configured_origins_are_accepted_as_well_as_the_own(configured_server):
    url = configured_server.url
    for origin in (SLIDES, "https://blog.example", url):
        client, error = try_connect(url, origin, "websocket")
        assert client is not None, (origin, error)
        close(client)
    assert try_connect(url, "https://evil.example", "websocket")[0] is None
    assert try_connect(url, "https://evil.example", "polling")[0] is None


def test_a_message_over_the_size_cap_closes_the_connection(server):
    client, _ = try_connect(server.url, server.url, "websocket")
    assert echo_round_trip(client, "x" * 900_000) == "x" * 900_000  # under 1 MiB: fine
    closed = threading.Event()
    client.on("disconnect", lambda *args: closed.set())
    client.emit("echo", "x" * (1024 * 1024 + 1))
    assert closed.wait(TIMEOUT), "a message over MAX_MESSAGE_BYTES did not close the connection"
    assert requests.get(server.url + "/healthz", timeout=TIMEOUT).status_code == 200  # the server is fine
    again, _ = try_connect(server.url, server.url, "websocket")
    assert echo_round_trip(again, "still here") == "still here"
    close(again)
