"""Work stops when nobody waits for it (issue 39, item 4): an animated export whose client has left has its worker
process killed (its CPU stops), one address holds at most MAX_LOADS_PER_ADDRESS places of the heavy lane while
another address is served, and the server's workers end with it, killed in the middle of an export. Real servers,
both async modes; every wait is on the server's own signal (its log, its processes), bounded generously."""

from __future__ import annotations

import functools
import http.client
import json
import os
import signal
import socket
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.waiting import logged, until
from tests.web.liveserver import LiveServer
from tests.web.procs import children, cpu_ticks
from tests.web.rawsocket import generated_scenario
from tests.web.test_live_server import LOGS
from webapp.server import workers

BOUND = 120.0  # seconds: a bound against a hang on a busy machine, never a measure
EXPORT = "/export/apng?width=640"  # 56 frames of a 2,000-step scenario's last 30 steps: many seconds of CPU
WORKING_TICKS = os.sysconf("SC_CLK_TCK")  # 1 s of CPU: the call has reached the worker (a busy machine gives it little)
HONEST = "/export/lost-marker.gif?from=0&to=2&width=320"

pytestmark = pytest.mark.skipif(not (workers.available() and Path("/proc/self/stat").exists()),
                                reason="needs worker processes and Linux /proc")


@functools.cache
def heavy_body() -> bytes:
    return json.dumps(generated_scenario(2_000)).encode()


@pytest.fixture(scope="module", params=["eventlet", "threading"])
def mode(request):
    return request.param


def serve(mode: str, **env) -> LiveServer:
    return LiveServer(mode, LOGS, env={f"INFLIGHT_SCOPE_{k}": str(v) for k, v in env.items()})


def post_raw(url: str, path: str, body: bytes, source: str = "127.0.0.1") -> socket.socket:
    """A POST sent on a connection of its own from ``source`` (a loopback address), its answer not read."""
    parts = urlsplit(url)
    raw = socket.create_connection((parts.hostname, parts.port), timeout=BOUND, source_address=(source, 0))
    raw.sendall(f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    return raw


def get(url: str, path: str, source: str = "127.0.0.1", body: bytes | None = None) -> tuple[int, bytes]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=BOUND, source_address=(source, 0))
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request("POST" if body is not None else "GET", path, body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def working_worker(server) -> int:
    """The worker process computing the heavy export: one that has used WORKING_TICKS of CPU (more than a worker's
    start; the export needs many times that)."""
    def busy():
        return next((pid for pid in children(server.proc.pid) if (cpu_ticks(pid) or 0) >= WORKING_TICKS), None)
    return until(busy, "no worker process was seen computing the export")


def test_an_abandoned_export_is_stopped_and_an_honest_one_is_answered(mode):
    with serve(mode) as server:
        raw = post_raw(server.url, EXPORT, heavy_body())
        worker = working_worker(server)
        raw.close()
        logged(server, "the client left: its work was stopped")
        until(lambda: cpu_ticks(worker) is None, "the abandoned export's worker did not end")
        status, data = get(server.url, HONEST)
        assert status == 200 and data[:6] == b"GIF89a"
        assert server.proc.poll() is None


def test_one_address_holds_at_most_its_share_of_the_heavy_lane(mode):
    with serve(mode, MAX_LOADS_PER_ADDRESS=1) as server:
        raw = post_raw(server.url, EXPORT, heavy_body())
        working_worker(server)
        status, data = get(server.url, HONEST)  # the same address, again: refused at once, in words
        assert status == 503 and json.loads(data)["kind"] == "Busy"
        assert "MAX_LOADS_PER_ADDRESS" in json.loads(data)["message"]
        answers = []
        honest = threading.Thread(target=lambda: answers.append(get(server.url, HONEST, source="127.0.0.2")))
        honest.start()  # another address: it waits for the place
        raw.close()  # the first leaves: its place goes to the other address
        honest.join(BOUND)
        assert answers and answers[0][0] == 200 and answers[0][1][:6] == b"GIF89a"


def test_the_workers_end_with_the_server_killed_during_an_export(mode):
    with serve(mode) as server:
        raw = post_raw(server.url, EXPORT, heavy_body())
        try:
            worker = working_worker(server)
            os.kill(server.proc.pid, signal.SIGKILL)
            server.proc.wait(BOUND)
            until(lambda: cpu_ticks(worker) is None, "the worker went on after its server was killed")
        finally:
            raw.close()
