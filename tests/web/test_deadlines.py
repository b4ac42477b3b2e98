"""Deadlines on what a client sends (webapp/server/deadlines.py, listeners.py): a request body trickled in a byte at a
time is cut once it is due however often a byte comes, and so is a head sent a line at a time; an honest request is
served meanwhile, and also while slow bodies fill a process's every connection under a low file limit. Real servers
(``inflight-scope serve`` in a subprocess), both async modes; every wait is for the server's own signal (an answer,
the connection closed), bounded against a hang, never a measure of time."""

from __future__ import annotations

import contextlib
import json
import re
import select
import threading
from pathlib import Path

import pytest
import requests

from tests.waiting import until
from tests.web.liveserver import LiveServer
from tests.web.test_connections import HANG, LOGS, NO_HTTP_LIMIT, announced, connect, limited_files
from webapp.server.deadlines import SHED_AFTER_SECONDS, Deadlines

MODES = ["eventlet", "threading"]
TRICKLE_SECONDS = 0.3  # a byte this often: an idle timeout would never fire, a total bound does
SLOW_BODY = 1_000_000  # the Content-Length a slow sender announces (under MAX_UPLOAD_BYTES: never a 413)


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_a_body_is_late_by_its_due_time_and_the_longest_waited_are_shed_first():
    clock = Clock()
    deadlines = Deadlines(30, clock=clock)
    deadlines.wait(1, "first", "127.0.0.2", deadlines.due())
    clock.now = 10
    deadlines.wait(2, "second", "::ffff:127.0.0.3", deadlines.due())
    deadlines.wait(3, "fresh", "127.0.0.2", deadlines.due())
    assert deadlines.late(now=29.9) == []
    clock.now = 10 + SHED_AFTER_SECONDS / 2
    assert deadlines.shed(5, "127.0.0.3") == []  # waited too little to be cut for a newcomer
    clock.now = 12
    assert deadlines.shed(1) == ["first"]  # the longest waited
    assert deadlines.shed(5, "127.0.0.2") == ["fresh"]  # of that address only
    deadlines.arrived(2)  # its body came: never late
    assert deadlines.late(now=1000) == [] and len(deadlines) == 0
    deadlines.wait(4, "late", "127.0.0.2", deadlines.due())
    assert deadlines.late(now=clock.now + 30) == ["late"] and deadlines.late(now=1e9) == []  # each once


class Trickle:
    """Sends a byte on each of ``conns`` every TRICKLE_SECONDS until stopped or the connection is gone."""

    def __init__(self, conns):
        self.conns, self.stop = list(conns), threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop.wait(TRICKLE_SECONDS):
            for conn in self.conns:
                with contextlib.suppress(OSError):  # closed by the server (or refused): nothing more to send
                    conn.send(b"x")

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(HANG)

    def __enter__(self):
        return self


def slow_post(server, path: str, source: str = "127.0.0.2", content_type: str = "application/json"):
    conn = connect(server, source)
    conn.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n"
                 f"Content-Length: {SLOW_BODY}\r\n\r\nx".encode())
    return conn


def answer_then_close(conn) -> bytes:
    """Everything the server sends on ``conn`` until it closes it (an AssertionError if it is still open after
    HANG: not cut)."""
    data = b""
    while True:
        try:
            chunk = conn.recv(65536)
        except ConnectionResetError:
            return data
        except TimeoutError:
            raise AssertionError(f"still open after {HANG} s; had {data[:200]!r}") from None
        if not chunk:
            return data
        data += chunk


def status_of(answer: bytes) -> int:
    found = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
    return int(found.group(1)) if found else 0


def polling_session(server) -> str:
    url = server.url + "/socket.io/?EIO=4&transport=polling"
    sid = json.loads(requests.get(url, timeout=HANG).text[1:])["sid"]
    assert requests.post(f"{url}&sid={sid}", data="40", timeout=HANG).status_code == 200
    return f"/socket.io/?EIO=4&transport=polling&sid={sid}"


@pytest.mark.parametrize("mode", MODES)
def test_slow_bodies_and_heads_are_cut_while_an_honest_request_is_served(mode):
    env = {**NO_HTTP_LIMIT, "INFLIGHT_SCOPE_REQUEST_BODY_SECONDS": "2", "INFLIGHT_SCOPE_IDLE_CONNECTION_SECONDS": "2"}
    with LiveServer(mode, LOGS, env=env) as server:
        assert "request bodies due within 2 s" in announced(server)["line"]
        bodies = {path: slow_post(server, path) for path in ("/api/validate", "/api/import", polling_session(server))}
        bodies["/report"] = slow_post(server, "/report", content_type="multipart/form-data; boundary=b")
        head = connect(server)
        head.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and a header line every so often
        with Trickle([*bodies.values(), head]):
            honest = requests.post(server.url + "/api/validate", json={"scenario": "lost-marker"}, timeout=HANG)
            assert honest.status_code < 500 and honest.json(), honest.text
            answers = {path: answer_then_close(conn) for path, conn in bodies.items()}
            cut_head = answer_then_close(head)
        for path, answer in answers.items():
            if path.startswith("/socket.io/"):  # the session ends with its connection: Engine.IO's 400
                assert status_of(answer) == 400, answer[:300]
            else:
                assert status_of(answer) == 408, answer[:300]
        assert b"the request body did not arrive within 2 s" in answers["/api/validate"]
        assert status_of(cut_head) in (0, 408), cut_head[:300]  # shut down; what was read is never run
        assert requests.get(server.url + "/healthz", timeout=HANG).status_code == 200
        assert server.proc.poll() is None
    for conn in [*bodies.values(), head]:
        conn.close()
    assert "Traceback" not in server.log(), server.log()


def slow_head(server, source: str):
    conn = connect(server, source)
    conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    return conn


SLOW = {"bodies": lambda server, source: slow_post(server, "/api/validate", source), "heads": slow_head}


@pytest.mark.parametrize("sent", list(SLOW))
@pytest.mark.parametrize("mode", MODES)
def test_an_honest_client_is_served_while_slow_senders_hold_every_connection(mode, sent):
    """Under a 128-file limit, more slow bodies (or heads) than the process keeps connections for, due only in ten
    minutes: a newcomer refused for the full table has the longest waited of them cut to make room, and is served
    while the others are still held."""
    env = {**NO_HTTP_LIMIT, "INFLIGHT_SCOPE_MAX_CONNECTIONS_PER_ADDRESS": "0",
           "INFLIGHT_SCOPE_REQUEST_BODY_SECONDS": "600", "INFLIGHT_SCOPE_IDLE_CONNECTION_SECONDS": "600"}
    with limited_files(mode, 128, env) as server:
        most = announced(server)["most"]
        slow = [SLOW[sent](server, f"127.0.0.{2 + i % 8}") for i in range(most + 8)]
        try:
            served = []

            def honest() -> bool:
                try:
                    served.append(requests.get(server.url + "/healthz", timeout=HANG).status_code)
                except requests.ConnectionError:  # refused and closed before its request was sent
                    served.append(0)
                return served[-1] == 200

            until(honest, lambda: f"served {served}\n{server.log()}", passing=(OSError,))
            ended = [status_of(answer_then_close(conn)) for conn in slow if answered(conn)]
            assert 408 in ended or (sent == "heads" and 0 in ended), ended  # cut to make room (503: refused at once)
            assert set(ended) <= {0, 408, 503} and len(ended) < len(slow) // 2, ended  # the rest still held
            assert server.proc.poll() is None, server.log()
        finally:
            for conn in slow:
                conn.close()
    assert "Traceback" not in server.log(), server.log()


def answered(conn) -> bool:
    """Whether the server has answered or closed ``conn`` (readable now)."""
    return bool(select.select([conn], [], [], 0)[0])


@pytest.mark.parametrize("mode", MODES)
def test_a_head_cut_short_is_closed_by_the_server_and_its_file_given_back(mode):
    """Connections that stop in the middle of a request line or a head, and never close: once idle past their bound
    the server closes them itself (eventlet kept a connection shut both ways mid-head open for good)."""
    env = {**NO_HTTP_LIMIT, "INFLIGHT_SCOPE_IDLE_CONNECTION_SECONDS": "1"}
    with LiveServer(mode, LOGS, env=env) as server:
        files = Path(f"/proc/{server.proc.pid}/fd")
        before = len(list(files.iterdir()))
        held = [connect(server) for _ in range(10)]
        for i, conn in enumerate(held):
            conn.sendall(b"GET /heal" if i % 2 else b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        try:
            for conn in held:
                answer_then_close(conn)  # the server ends each (an AssertionError if one stays open)
            until(lambda: len(list(files.iterdir())) <= before, lambda: f"{before} before, now {list(files.iterdir())}")
        finally:
            for conn in held:
                conn.close()
        assert server.proc.poll() is None
    assert "Traceback" not in server.log(), server.log()
