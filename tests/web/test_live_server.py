"""The real server (``python -m webapp.cli serve``) in a subprocess, in both async modes, driven by
python-socketio's client over a real WebSocket. The pytest process itself never monkey-patches."""

import queue
import socket
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
import requests
import socketio as socketio_client

from tests.waiting import until
from tests.web.liveserver import LiveServer
from tests.web.rawsocket import wait_for_work
from tests.web.viewer import Folder, unnumbered

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "test-artifacts" / "server-logs"
TIMEOUT = 30.0  # a bound against a hang: every wait ends as soon as what it waits for comes
TOTAL = 6  # lost-marker
# A client's read loop can sit out its socket timeout (pingInterval + pingTimeout: 25 + 20 s) when the threading
# server keeps the TCP connection open after the WebSocket closed; seen once in about ten runs.
DISCONNECT_WAIT = 50.0


@pytest.fixture(scope="module", params=["eventlet", "threading"])
def server(request):
    with LiveServer(request.param, LOGS) as live:
        live.closing = []  # disconnect threads of finished tests (see Peer.close_in_background)
        yield live
        deadline = time.monotonic() + DISCONNECT_WAIT
        for thread in live.closing:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))
        assert not any(t.is_alive() for t in live.closing), "a client did not disconnect"
        assert live.proc.poll() is None, f"the server died during the tests:\n{live.log()}"


class Peer:
    """One browser-like Socket.IO connection; what the server sends is queued in arrival order."""

    def __init__(self, url: str, transports=("websocket",)):
        self.url = url
        self.inbox: queue.Queue = queue.Queue()
        self.folder = Folder()  # deltas arrive as the whole states they make
        self.arriving = threading.Lock()
        self.client = socketio_client.Client(reconnection=False)
        for name in ("scenario", "state", "delta", "error"):
            self.client.on(name, self._keeper(name))
        self.client.connect(url, transports=list(transports), wait_timeout=TIMEOUT)
        assert self.client.transport() == transports[0]

    def _keeper(self, name):
        def keep(data=None):
            with self.arriving:  # handled on threads of their own: folded and queued in seq order
                for message in self.folder.arrived(name, data):
                    self.inbox.put(message)
        return keep

    def emit(self, event, payload=None):
        self.client.emit(event, payload if payload is not None else {})

    def next(self, timeout=TIMEOUT):
        try:
            return self.inbox.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"nothing received within {timeout} s")

    def expect(self, name, timeout=TIMEOUT):
        got, data = self.next(timeout)
        assert got == name, (got, data)
        return data

    def close_in_background(self) -> threading.Thread:
        """Disconnect without making the test wait: the server is told at once, but websocket-client's close()
        then waits up to 3 s for a close frame that its own read loop may already have consumed (Werkzeug
        keeps the TCP connection open after the WebSocket closes). The server fixture joins these threads."""
        thread = threading.Thread(target=self.client.disconnect, daemon=True)
        thread.start()
        return thread


@pytest.fixture
def peers(server):
    opened = []

    def open_peer(**kwargs):
        peer = Peer(server.url, **kwargs)
        opened.append(peer)
        return peer

    yield open_peer
    server.closing += [peer.close_in_background() for peer in opened]


def where(state, variant, pod):
    st = state["variants"][variant]["state"]
    return [q for q in ("activeQ", "backoffQ", "unschedulablePods") if pod in st[q]]


def load(peer, scenario="lost-marker", **extra):
    peer.emit("load", {"scenario": scenario, **extra})
    scenario_msg = peer.expect("scenario")
    state = peer.expect("state")
    return scenario_msg, state


def test_the_pytest_process_is_not_monkey_patched(server):
    assert socket.socket.__module__ == "socket"
    assert threading.Thread.__module__ == "threading"
    if "eventlet.patcher" in sys.modules:
        assert not sys.modules["eventlet.patcher"].is_monkey_patched("socket")


# --- HTTP -------------------------------------------------------------------------------------------------
def test_starting_prints_the_url_and_nothing_alarming(server):
    """A newcomer's first sight: the URL, no deprecation notice or traceback (eventlet announces its
    maintenance mode on import; the README explains the choice)."""
    first_lines = server.log().splitlines()[:3]
    assert first_lines[0].startswith("Inflight Scope serving http://127.0.0.1:"), first_lines
    assert not any(word in server.log() for word in ("Deprecat", "deprecat", "Traceback", "Warning"))


def test_healthz_reports_the_async_mode(server):
    response = requests.get(server.url + "/healthz", timeout=TIMEOUT)
    assert response.status_code == 200
    health = response.json()
    assert (health["status"], health["async_mode"]) == ("ok", server.mode)


def test_page_and_its_files_are_served(server):
    page = requests.get(server.url + "/?scenario=lost-marker&position=4", timeout=TIMEOUT)
    assert page.status_code == 200
    assert 'data-position="4"' in page.text
    for path in ("/static/js/app.js", "/static/vendor/socket.io/socket.io.esm.min.js"):
        response = requests.get(server.url + path, timeout=TIMEOUT)
        assert response.status_code == 200
        assert response.headers["Content-Type"].startswith("text/javascript")  # module scripts need a JS type
    css = requests.get(server.url + "/static/css/app.css", timeout=TIMEOUT)
    assert css.headers["Content-Type"].startswith("text/css")
    assert requests.post(server.url + "/api/replay", json="lost-marker", timeout=TIMEOUT).status_code == 200


# --- Socket.IO --------------------------------------------------------------------------------------------
def test_lost_marker_step_to_the_end_and_back(peers):
    peer = peers()
    scenario, state = load(peer)
    assert (scenario["total"], state["position"]) == (TOTAL, 0)
    states = {0: state}
    for position in range(1, TOTAL + 1):
        peer.emit("step")
        states[position] = peer.expect("state")
        assert states[position]["position"] == position
    items = states[5]["scene"]["panes"]["v1.28.1"]["list"]["items"]
    # Done(A) removed e1 in this very step: it stays drawn as a ghost entry, B's detached marker under it
    assert [(i["key"], i.get("ghost"), m["detached"])
            for i in items for m in i.get("markers", []) if m["pod"] == "B"] == [
        ("e1", True, True)]
    end = states[TOTAL]
    assert where(end, "v1.28.1", "B") == ["unschedulablePods"]
    assert where(end, "v1.28.2", "B") == ["backoffQ"]
    assert len(peer.folder.deltas) == TOTAL  # each step travelled as a delta
    peer.emit("back")
    assert unnumbered(peer.expect("state")) == unnumbered(states[5])
    peer.emit("seek", {"position": 2})
    assert unnumbered(peer.expect("state")) == unnumbered(states[2])
    peer.emit("reset")
    assert unnumbered(peer.expect("state")) == unnumbered(states[0])


def test_errors_over_the_wire(peers):
    peer = peers()
    peer.emit("step")
    assert "load" in peer.expect("error")["message"]
    load(peer)
    peer.emit("seek", {"position": TOTAL + 1})
    assert "0..6" in peer.expect("error")["message"]
    peer.emit("load", {"scenario": "no-such-scenario"})
    assert "no-such-scenario" in peer.expect("error")["message"]
    peer.emit("pause")
    assert peer.expect("state")["position"] == 0


def test_two_clients_are_independent(peers):
    first, second = peers(), peers()
    load(first)
    _, loaded = load(second, "gate-off", variants=["v1.28.2"])
    for _ in range(4):
        first.emit("step")
        first.expect("state")
    second.emit("step")  # its answer comes after anything of the first's sent to it: it is the next message
    state = second.expect("state")
    assert state["seq"] == loaded["seq"] + 1, "the second viewer was sent something between its load and its step"
    assert state["position"] == 1
    assert list(state["variants"]) == ["v1.28.2"]
    first.emit("pause")
    assert first.expect("state")["position"] == 4


def test_a_heavy_load_does_not_hold_up_other_connections(peers):
    """A scenario that takes seconds to build is built apart from the event loop (eventlet's tpool; under
    threading every handler has its own thread): another viewer's step is answered while it builds."""
    assert_a_heavy_load_does_not_hold_up(peers(), peers())


def assert_a_heavy_load_does_not_hold_up(heavy, other):
    """The heavy scenario is refused in the end (its checkpoints outgrow MAX_SESSION_BYTES), so its answer is as
    small as the step's: whichever work finished first is answered first."""
    load(other)
    growing = [{"op": "pop"}] + [{"op": "event", "event": "PvAdd"}] * 28_000  # ~0.9 MB: within one message
    heavy.emit("load", {"scenario": {"schema": 1, "name": "heavy", "pods": [{"name": "A"}], "initial_active": ["A"],
                                     "steps": growing}})
    wait_for_work(SimpleNamespace(url=other.url), "heavy", running=1, waiting=0)  # the load holds its place
    other.emit("step")  # while the heavy load is parsed and built
    assert other.expect("state")["position"] == 1
    assert heavy.inbox.empty(), "the heavy load was answered before the other viewer's step"
    assert "too large to step through here" in heavy.expect("error", timeout=60)["message"]


def test_play_emits_successive_states(peers):
    peer = peers()
    load(peer)
    started = time.monotonic()
    peer.emit("play", {"speed": 20})
    first = peer.expect("state")
    assert (first["position"], first["playing"]) == (0, True)
    seen = []
    while not seen or seen[-1]["playing"]:
        seen.append(peer.expect("state"))
    elapsed = time.monotonic() - started
    assert [s["position"] for s in seen] == list(range(1, TOTAL + 1))
    assert [s["playing"] for s in seen] == [True] * (TOTAL - 1) + [False]
    assert elapsed >= TOTAL / 20 * 0.8, f"{TOTAL} ticks at 20/s took only {elapsed:.3f} s"
    assert_nothing_since(peer, seen[-1])


def assert_nothing_since(peer, last):
    """Nothing was sent to ``peer`` after ``last``, nor can be: no autoplay task runs on the server any more
    (/healthz), and a pause's answer (published under the session's lock, as every tick is) is the next state, one
    seq on."""
    def autoplays() -> int:
        return requests.get(peer.url + "/healthz", timeout=TIMEOUT).json()["autoplays"]

    # /healthz is asked at most 10 times a second: under the server's HTTP rate limit
    until(lambda: autoplays() == 0, lambda: f"{autoplays()} autoplay tasks still run", every=0.1)
    peer.emit("pause")
    probe = peer.expect("state")
    assert (probe["seq"], probe["position"], probe["playing"]) == (last["seq"] + 1, last["position"], False), \
        f"after the state at {last['position']} (seq {last['seq']}): {probe['position']} (seq {probe['seq']})"


def test_pause_stops_play(peers):
    peer = peers()
    load(peer)
    peer.emit("play", {"speed": 4})
    assert peer.expect("state")["playing"] is True
    assert peer.expect("state")["position"] == 1
    peer.emit("pause")
    while (state := peer.expect("state"))["playing"]:
        pass  # a tick may have been under way
    assert state["position"] < TOTAL
    assert_nothing_since(peer, state)


def test_polling_transport_works_too(peers):
    peer = peers(transports=("polling",))
    load(peer, "gate-off")
    peer.emit("step")
    assert peer.expect("state")["position"] == 1


@pytest.mark.parametrize("who_closes", ["server", "client"])
def test_a_websocket_ends_its_tcp_connection_when_it_closes(server, who_closes):
    """RFC 6455 7.1.1: once the closing handshake is done the server closes the TCP connection, whoever began
    it. Under Werkzeug (threading) the connection used to stay open until the client gave up (python-socketio's
    client waited 3 s on a disconnect, one in two): webapp/server/privates.py ClosingWebSocket."""
    import websocket  # websocket-client, the transport python-socketio's client uses

    ws = websocket.create_connection(server.url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket",
                                     timeout=TIMEOUT)
    assert ws.recv().startswith("0{")  # Engine.IO's open packet
    if who_closes == "server":
        ws.send("1")  # Engine.IO's close packet: the server ends the websocket
        while True:
            opcode, _ = ws.recv_data_frame(True)
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                break  # websocket-client answered the server's close frame with its own
    else:
        ws.send_close()
        opcode, _ = ws.recv_data_frame(True)
        assert opcode == websocket.ABNF.OPCODE_CLOSE  # the server's answer
    ws.sock.settimeout(TIMEOUT)
    try:
        rest = ws.sock.recv(1)
    except ConnectionResetError:
        rest = b""
    finally:
        ws.sock.close()
    assert rest == b"", "the server kept the TCP connection open after the closing handshake"
