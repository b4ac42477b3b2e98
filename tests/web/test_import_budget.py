"""Log imports are bounded in CPU time, per import and per process, run in a worker process in both async modes
(the event loop keeps serving meanwhile), and end when their client leaves. Real servers, both async modes."""

import socket
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests
import socketio as socketio_client

from tests.waiting import logged, until
from tests.web.heavy_logs import costly_log
from tests.web.liveserver import LiveServer
from tests.web.rawsocket import TIMEOUT
from tests.web.test_live_server import LOGS

COSTLY = costly_log()  # seconds of CPU
GOOD = (LOGS.parents[1] / "tests" / "data" / "logs" / "five-minute-incident.log")


def import_worker(server) -> int:
    """The pid of the server's worker process once it has one (the import lane's: the first import starts it)."""
    def child() -> int | None:
        for task in Path(f"/proc/{server.proc.pid}/task").iterdir():
            try:
                children = (task / "children").read_text().split()
            except FileNotFoundError:  # a thread that ended after the listing
                continue
            if children:
                return int(children[0])
        return None

    return until(child, "the server started no worker process", TIMEOUT)


def post(url, data):
    return requests.post(url + "/api/import?name=x.log", data=data, timeout=120)


@pytest.fixture(scope="module", params=["eventlet", "threading"])
def mode(request):
    return request.param


def serve(mode, **env):
    return LiveServer(mode, LOGS, env={f"INFLIGHT_SCOPE_{k}": str(v) for k, v in env.items()})


def test_an_import_over_its_cpu_budget_is_stopped_with_an_error_naming_it(mode):
    with serve(mode, IMPORT_CPU_SECONDS=1) as server:
        answer = post(server.url, COSTLY)
        assert answer.status_code == 400, answer.text[:300]
        assert answer.json()["kind"] == "TooLarge"
        assert "1 s of CPU time (IMPORT_CPU_SECONDS)" in answer.json()["message"]
        ok = post(server.url, GOOD.read_bytes())  # the worker serves the next import
        assert ok.status_code == 200 and ok.json()["scenario"]["steps"]
        assert server.proc.poll() is None


def test_the_imports_of_a_process_share_a_cpu_budget_per_minute(mode):
    with serve(mode, IMPORT_CPU_SECONDS=1, IMPORT_CPU_SECONDS_PER_MINUTE="0.5") as server:
        assert post(server.url, COSTLY).status_code == 400  # spends at least a second: the minute's half second
        refused = post(server.url, GOOD.read_bytes())
        assert refused.status_code == 503, refused.text[:300]
        assert refused.json()["kind"] == "Busy"
        message = refused.json()["message"]
        assert "0.5 s of CPU time for this minute (IMPORT_CPU_SECONDS_PER_MINUTE)" in message
        assert "try again in" in message


def test_an_import_whose_client_left_is_stopped(mode):
    with serve(mode, IMPORT_CPU_SECONDS=600) as server:
        parts = urlsplit(server.url)
        raw = socket.create_connection((parts.hostname, parts.port), timeout=TIMEOUT)
        raw.sendall(f"POST /api/import?name=x.log HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                    f"Content-Type: text/plain\r\nContent-Length: {len(COSTLY)}\r\n\r\n".encode() + COSTLY)
        worker = import_worker(server)
        raw.close()
        logged(server, "the client left")
        until(lambda: not Path(f"/proc/{worker}").exists(), f"worker {worker} was not killed and reaped", TIMEOUT)
        assert post(server.url, GOOD.read_bytes()).status_code == 200


def test_the_server_keeps_serving_viewers_while_an_import_runs(mode):
    with serve(mode, IMPORT_CPU_SECONDS=600) as server:
        answers = []
        importing = threading.Thread(target=lambda: answers.append(post(server.url, COSTLY)))
        importing.start()
        import_worker(server)
        viewer = socketio_client.Client(reconnection=False)
        try:
            viewer.connect(server.url, transports=["websocket"], wait_timeout=TIMEOUT)
            states = []
            viewer.on("state", states.append)
            viewer.call("load", {"scenario": "lost-marker"}, timeout=TIMEOUT)
            for _ in range(5):
                viewer.call("step", {}, timeout=TIMEOUT)
            assert importing.is_alive()  # every step was answered while the import still ran
        finally:
            viewer.disconnect()
        importing.join(120)
        assert answers and answers[0].status_code == 400  # the log needs too many rounds: refused, in words
