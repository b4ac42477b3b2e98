"""Connections on real servers (``inflight-scope serve`` in a subprocess), in both async modes: bounds below the
file limit, per address, idle and slow-header connections closed, the accept loop alive when files run out, and a
long-polling POST over the size limit answered, not a 500 (webapp/server/connections.py, listeners.py,
privates.py ``_session_guard``). Clients connect from several loopback addresses (127.0.0.2, ...), never anything
but loopback. Every wait is for a condition, bounded against a hang."""

from __future__ import annotations

import json
import re
import resource
import select
import socket
import time
from pathlib import Path

import pytest
import requests

from tests.waiting import logged, until
from tests.web.liveserver import ROOT, LiveServer, serve_command

LOGS = ROOT / "test-artifacts" / "server-logs"
HANG = 60.0  # seconds: a bound against a hang, never a measure
MODES = ["eventlet", "threading"]
NO_HTTP_LIMIT = {"INFLIGHT_SCOPE_HTTP_RATE_LIMIT_PER_SECOND": "0"}
LAST_BODY: dict[int, bytes] = {}  # a connection's (file number's) last answer body


def limited_files(mode: str, soft: int, env: dict) -> LiveServer:
    """A LiveServer whose process starts with an open-files limit of ``soft`` (soft and hard: it cannot raise it)."""
    return LiveServer(mode, LOGS, env=env,
                      command=lambda port: ["prlimit", f"--nofile={soft}:{soft}", *serve_command(port, mode)])


def connect(server, source: str = "127.0.0.2") -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", server.port), timeout=HANG, source_address=(source, 0))
    conn.settimeout(HANG)
    return conn


def ask(conn, path: str = "/healthz", headers: str = "") -> int:
    """Send one GET on ``conn`` (with ``headers``, each ending in CRLF); its answer's status, or 0 if the server
    closed the connection instead."""
    try:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = conn.recv(65536)
            if not chunk:
                return 0
            head += chunk
    except (ConnectionResetError, BrokenPipeError):
        return 0
    status = int(head.split(b" ", 2)[1])
    length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
    body = head.split(b"\r\n\r\n", 1)[1]
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    LAST_BODY[conn.fileno()] = body
    return status


def closed_by_server(conn) -> bool:
    """Waits until the server ends the connection (end of file or a reset); False if it stays open for HANG."""
    try:
        return conn.recv(65536) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def announced(server) -> dict:
    """What the server said at start: the open-files limit and its connection bound."""
    line = next(x for x in server.log().splitlines() if x.startswith("open files limit"))
    numbers = [int(n.replace(",", "")) for n in re.findall(r"[\d,]+(?= \(|\b connections)", line)]
    return {"limit": numbers[0], "most": numbers[1], "line": line}


def alive(server, source: str = "127.0.0.1") -> bool:
    conn = connect(server, source)
    try:
        return ask(conn) == 200
    finally:
        conn.close()


@pytest.mark.parametrize("mode", MODES)
def test_connections_stay_below_the_file_limit_and_the_server_lives(mode):
    """Under a 256-file limit, 300 idle connections: those past the bound are refused (503 and closed) as they
    come, the process lives, and once they close it answers again."""
    env = {**NO_HTTP_LIMIT, "INFLIGHT_SCOPE_MAX_CONNECTIONS_PER_ADDRESS": "0",
           "INFLIGHT_SCOPE_IDLE_CONNECTION_SECONDS": "0"}
    with limited_files(mode, 256, env) as server:
        said = announced(server)
        assert said["limit"] == 256 and said["most"] < 256 - 32, said["line"]
        conns: list = []
        try:
            conns += [connect(server, f"127.0.0.{2 + i % 8}") for i in range(300)]
            refused = Refused(conns)
            until(lambda: refused.count() >= 300 - said["most"], lambda: f"{refused.count()} refused\n{server.log()}")
            assert server.proc.poll() is None, server.log()
            extra = connect(server, "127.0.0.1")  # the process holds its most: a new one is refused too
            conns.append(extra)
            assert ask(extra) in (503, 0)
        finally:
            for conn in conns:
                conn.close()
        until(lambda: alive(server), server.log, passing=(OSError,))
        assert server.proc.poll() is None
    assert "Traceback" not in server.log(), server.log()


@pytest.mark.parametrize("mode", MODES)
def test_running_out_of_files_does_not_end_the_server(mode):
    """The file limit lowered under the running server (prlimit), below what its connections need: accept fails
    for want of files; the server refuses those connections, logs it, and serves again once they close."""
    with LiveServer(mode, LOGS, env={**NO_HTTP_LIMIT, "INFLIGHT_SCOPE_MAX_CONNECTIONS_PER_ADDRESS": "0",
                                     "INFLIGHT_SCOPE_IDLE_CONNECTION_SECONDS": "0"}) as server:
        pid = server.proc.pid
        open_now = len(list(Path(f"/proc/{pid}/fd").iterdir()))
        before = resource.prlimit(pid, resource.RLIMIT_NOFILE)
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (open_now + 40, before[1]))
        conns: list = []
        try:
            conns += [connect(server, f"127.0.0.{2 + i % 4}") for i in range(120)]
            refused = Refused(conns)
            until(lambda: refused.count() >= 60, lambda: f"{refused.count()} refused\n{server.log()}")  # most of them
            logged(server, "out of open files")
            assert server.proc.poll() is None, server.log()
        finally:
            for conn in conns:
                conn.close()
            if server.proc.poll() is None:
                resource.prlimit(pid, resource.RLIMIT_NOFILE, before)
        until(lambda: alive(server), server.log, passing=(OSError,))
        assert server.log().count("out of open files") <= 3  # once per 10 s at most, not once per connection
    assert "Traceback" not in server.log(), server.log()


class Refused:
    """Which of ``conns`` (idle: they send nothing, so an admitted one never hears from the server) the server
    has answered or closed: the refused ones."""

    def __init__(self, conns):
        self.waiting = list(conns)
        self.refused = 0

    def count(self) -> int:
        readable, _, _ = select.select(self.waiting, [], [], 0) if self.waiting else ([], [], [])
        for conn in readable:
            self.waiting.remove(conn)
            self.refused += 1
        return self.refused


@pytest.mark.parametrize("mode", MODES)
def test_one_address_holds_at_most_its_share(mode):
    with LiveServer(mode, LOGS, env={**NO_HTTP_LIMIT, "INFLIGHT_SCOPE_MAX_CONNECTIONS_PER_ADDRESS": "8"}) as server:
        conns = [connect(server, "127.0.0.2") for _ in range(8)]
        try:
            extra = connect(server, "127.0.0.2")  # accepted after the eight (a listener's queue is in order)
            conns.append(extra)
            status = ask(extra)
            assert status in (503, 0)
            if status == 503:
                assert json.loads(LAST_BODY[extra.fileno()])["kind"] == "Busy"
            assert alive(server, "127.0.0.3")  # another address is served
            assert [ask(conn) for conn in conns[:8]] == [200] * 8  # the eight were admitted
        finally:
            for conn in conns:
                conn.close()
        # its connections closed, the address is served again
        until(lambda: alive(server, "127.0.0.2"), server.log, passing=(OSError,))
    assert "Traceback" not in server.log(), server.log()


@pytest.mark.parametrize("mode", MODES)
def test_idle_and_slow_header_connections_are_closed_and_busy_ones_are_not(mode):
    import socketio

    with LiveServer(mode, LOGS, env={"INFLIGHT_SCOPE_IDLE_CONNECTION_SECONDS": "1"}) as server:
        viewer = socketio.SimpleClient()
        viewer.connect(server.url, transports=["websocket"], wait_timeout=HANG)
        try:
            silent = connect(server)
            kept_alive = connect(server)
            assert ask(kept_alive) == 200
            slow = connect(server)
            slow.sendall(b"GET /healthz HTTP/1.1\r\n")
            slow.settimeout(0.3)  # a header line every 0.3 s, never the blank line that ends the head
            deadline = time.monotonic() + HANG
            while time.monotonic() < deadline:
                try:
                    slow.sendall(b"X-Slow: a\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    break
                try:
                    if slow.recv(65536) == b"":
                        break
                except TimeoutError:
                    continue
                except ConnectionResetError:
                    break
            assert time.monotonic() < deadline, "the slow header was never cut off"
            assert closed_by_server(silent) and closed_by_server(kept_alive)
            viewer.emit("load", {"scenario": "lost-marker"})  # the websocket, open longer than those, still works
            assert viewer.receive(timeout=HANG)[0] in ("scenario", "state")
        finally:
            viewer.disconnect()
        assert server.proc.poll() is None
    assert "Traceback" not in server.log(), server.log()


@pytest.fixture(scope="module", params=MODES)
def server(request):
    """A server with the default settings, one per async mode, shared by the tests that each open a session of
    their own on it and leave it serving (each checks /healthz after); it must not die nor log a traceback."""
    with LiveServer(request.param, LOGS) as live:
        yield live
        assert live.proc.poll() is None, f"the server died during the tests:\n{live.log()}"
    assert "Traceback" not in live.log(), live.log()


def test_an_oversized_polling_post_then_a_normal_one_is_never_a_500(server):
    url = server.url + "/socket.io/?EIO=4&transport=polling"
    opened = requests.get(url, timeout=HANG)
    sid = json.loads(opened.text[1:])["sid"]
    assert requests.post(f"{url}&sid={sid}", data="40", timeout=HANG).status_code == 200
    assert requests.get(f"{url}&sid={sid}", timeout=HANG).status_code == 200  # connected
    big = "42" + json.dumps(["echo", "x" * (1024 * 1024 + 10)])
    answer = requests.post(f"{url}&sid={sid}", data=big, timeout=HANG)  # no poll is waiting: no hang either
    assert answer.status_code == 413
    after = requests.post(f"{url}&sid={sid}", data='42["echo","hi"]', timeout=HANG)
    assert after.status_code == 400 and "Invalid session" in after.text
    assert requests.get(f"{url}&sid={sid}", timeout=HANG).status_code == 400
    assert requests.get(server.url + "/healthz", timeout=HANG).status_code == 200
    assert "Traceback" not in server.log(), server.log()


ASKED = {"plain": ("HTTP/1.1", ""), "100-continue": ("HTTP/1.1", "Expect: 100-continue\r\n"),
         "asks close": ("HTTP/1.1", "Connection: close\r\n"), "HTTP/1.0": ("HTTP/1.0", "")}


@pytest.mark.parametrize("asked", list(ASKED))
def test_an_oversized_polling_post_is_told_connection_close_once(server, asked):
    """However the client asks (keep-alive, ``Expect: 100-continue``, ``Connection: close``, HTTP/1.0), the 413
    carries one ``Connection: close``: the app's, or the server's own where it writes one."""
    version, header = ASKED[asked]
    url = server.url + "/socket.io/?EIO=4&transport=polling"
    sid = json.loads(requests.get(url, timeout=HANG).text[1:])["sid"]
    assert requests.post(f"{url}&sid={sid}", data="40", timeout=HANG).status_code == 200
    conn = connect(server, "127.0.0.1")
    try:
        conn.sendall(f"POST /socket.io/?EIO=4&transport=polling&sid={sid} {version}\r\nHost: 127.0.0.1\r\n"
                     f"Content-Length: {1024 * 1024 + 100}\r\n{header}\r\n".encode())
        head = final_head(conn)
    finally:
        conn.close()
    assert head.startswith(b"HTTP/1.1 413"), head
    assert len(re.findall(rb"(?im)^connection: *close\r$", head)) == 1, head.decode()
    assert "Traceback" not in server.log(), server.log()


def final_head(conn) -> bytes:
    """The head of the answer on ``conn`` after any interim ``100 Continue``."""
    data = b""
    while True:
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            assert chunk, f"closed before a whole head: {data!r}"
            data += chunk
        head, data = data.split(b"\r\n\r\n", 1)
        if not re.match(rb"HTTP/1\.[01] 1\d\d", head):
            return head + b"\r\n"
