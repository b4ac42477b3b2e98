"""Pure heavy work in worker processes (webapp/server/workers.py, ``Offload(..., pure=True)``).

In the pytest process (never monkey-patched) an Offload is built with ``processes=True``: results, the user
errors a worker raises (same class, message and problems), a bug's exception, a worker that dies. Then the real
eventlet server, where pure work runs in workers by default: a heavy validation runs in a worker process while
the hub answers another viewer, a worker killed during a request is answered Internal and replaced, and errors
raised in a worker reach HTTP and Socket.IO clients as they did when the work ran in the server. Behaviour
only: no timing is asserted."""

from __future__ import annotations

import functools
import json
import os
import random
import signal
import threading
from pathlib import Path

import pytest
import requests
import yaml

from tests.waiting import until
from tests.web.liveserver import LiveServer
from tests.web.procs import children, cpu_ticks
from tests.web.test_live_server import Peer, load
from webapp import create_app
from webapp.errors import Busy, TooLarge, UserError
from webapp.scenario import builtin
from webapp.scenario.errors import ScenarioError
from webapp.scenario.generate import generate
from webapp.scenario.load import load_scenario
from webapp.scenario.resolve import resolve
from webapp.server import workers
from webapp.server.offload import Offload
from webapp.server.workers import WorkerCrashed
from webapp.web import offline
from webapp.web.editor import _checked_text

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "test-artifacts" / "server-logs"
INVALID = {"schema": 1, "name": "bad", "pods": [{"name": "A"}], "initial_active": ["B"],
           "steps": [{"op": "popp"}]}

pytestmark = pytest.mark.skipif(not workers.available(), reason="worker processes need os.posix_spawn")


@pytest.fixture
def offload():
    offload = Offload("threading", 1, 4, processes=True)
    yield offload
    offload.close()


def raised(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except Exception as err:  # noqa: BLE001
        return err
    pytest.fail(f"{fn.__name__} raised nothing")


def test_no_worker_until_pure_work_then_one_reused(offload):
    assert offload.worker_pids == []
    assert offload(divmod, 7, 2) == (3, 1)  # not pure: here
    assert offload.worker_pids == []
    assert offload(divmod, 7, 2, pure=True) == (3, 1)
    pids = offload.worker_pids
    assert len(pids) == 1 and pids[0] != os.getpid()
    assert offload(divmod, 9, 4, pure=True) == (2, 1)
    assert offload.worker_pids == pids
    offload.close()
    assert offload.worker_pids == []
    with pytest.raises(ProcessLookupError):
        os.kill(pids[0], 0)  # ended and reaped


def test_results_are_those_computed_here(offload):
    text = json.dumps(builtin.get("lost-marker"))
    assert offload(_checked_text, text, "json", pure=True) == _checked_text(text, "json")
    here, _ = resolve(builtin.get("lost-marker"))
    there, scenario_id = offload(resolve, builtin.get("lost-marker"), pure=True)
    assert scenario_id is None and there == here and there.raw == here.raw


def test_a_user_error_comes_back_as_itself(offload):
    here, there = raised(load_scenario, INVALID), raised(offload, load_scenario, INVALID, pure=True)
    assert type(there) is ScenarioError
    assert str(there) == str(here) and there.problems == here.problems and there.as_json() == here.as_json()
    here = raised(offline.exported_html, "lost-marker", 1000, None)  # checkpoints over the session bound
    there = raised(offload, offline.exported_html, "lost-marker", 1000, None, pure=True)
    assert type(here) is type(there) is TooLarge
    # the same words; the bytes it counts for the source differ by process (which strings are shared)
    assert str(there).split("(")[0] == str(here).split("(")[0] and "passes 1,000 bytes" in str(there)
    assert offload(divmod, 1, 1, pure=True) == (1, 0)  # the worker is still there after raising


def test_a_bug_comes_back_as_its_exception_with_the_workers_traceback(offload):
    err = raised(offload, int, "x", pure=True)
    assert type(err) is ValueError and str(err) == "invalid literal for int() with base 10: 'x'"
    assert not isinstance(err, UserError)
    assert "raised in a worker process" in err.__notes__[0] and "Traceback" in err.__notes__[0]


def test_a_worker_that_dies_is_a_crash_not_a_hang_and_is_replaced(offload):
    offload(divmod, 1, 1, pure=True)
    [first] = offload.worker_pids
    err = raised(offload, os._exit, 3, pure=True)
    assert type(err) is WorkerCrashed and not isinstance(err, UserError)
    assert "exit status 3" in str(err)
    assert offload.worker_pids == []
    assert offload(divmod, 5, 2, pure=True) == (2, 1)
    assert offload.worker_pids != [first]


def in_worker(fifo: Path) -> int:
    """A write end of ``fifo`` once a call reading it is in its worker: a call that reads a FIFO nobody writes blocks
    there, and a writer can open the FIFO only while a reader holds it open (ENXIO before). Closing the write end
    ends that call (it reads an empty text)."""
    return until(lambda: os.open(fifo, os.O_WRONLY | os.O_NONBLOCK), f"no call ever opened {fifo.name} in a worker",
                 passing=(OSError,))


def test_a_worker_killed_during_a_call_is_a_crash(offload, tmp_path):
    fifo = tmp_path / "never-written"
    os.mkfifo(fifo)
    done = []
    caller = threading.Thread(target=lambda: done.append(raised(offload, Path.read_text, fifo, pure=True)))
    caller.start()
    writer = in_worker(fifo)
    try:
        os.kill(offload.worker_pids[0], signal.SIGKILL)
        caller.join(10)
    finally:
        os.close(writer)
    assert not caller.is_alive()
    assert type(done[0]) is WorkerCrashed and "killed by signal 9" in str(done[0])


def test_pure_work_keeps_the_bounds(offload, tmp_path):
    """A pure call takes a place like any other: past running and waiting it is refused at once."""
    small = Offload("threading", 1, 0, processes=True)
    fifo = tmp_path / "held"
    os.mkfifo(fifo)
    try:
        holder = threading.Thread(target=small, args=(Path.read_text, fifo), kwargs={"pure": True})
        holder.start()
        writer = in_worker(fifo)  # the lane's one place is taken until the writer closes
        with pytest.raises(Busy):
            small(divmod, 1, 1, pure=True)
        os.close(writer)
        holder.join(10)
        assert not holder.is_alive()
        assert small(divmod, 1, 1, pure=True) == (1, 0)
    finally:
        small.close()


# --- the eventlet server ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server():
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs Linux /proc to see the worker processes")
    with LiveServer("eventlet", LOGS) as live:
        yield live
        assert live.proc.poll() is None, f"the server died during the tests:\n{live.log()}"


HEAVY_STEPS = 8_000


@functools.cache
def heavy_text() -> str:
    """A valid scenario whose /api/validate takes about a second (parsing 220 kB of YAML, then a dry run); made
    once (generating and dumping it is most of the cost on this side)."""
    return yaml.safe_dump(generate(random.Random(2).choice, HEAVY_STEPS, pods=12), sort_keys=False)


def idle_worker(server) -> int:
    """The server's one worker process, started if need be by a small validation, and idle."""
    text = json.dumps(builtin.get("lost-marker"))
    assert requests.post(server.url + "/api/validate", json={"text": text}, timeout=60).status_code == 200
    [worker] = children(server.proc.pid)
    return worker


def busy(server, body: dict) -> tuple[Post, int]:
    """A heavy validation posted, once the worker is seen working on it: (its request, the worker)."""
    worker = idle_worker(server)
    before = cpu_ticks(worker)
    post = Post(server.url + "/api/validate", body)
    post.start()
    until(lambda: cpu_ticks(worker) >= before + 5, "the worker did not start working")
    return post, worker


class Post(threading.Thread):
    def __init__(self, url: str, body: dict):
        super().__init__(daemon=True)
        self.url, self.body, self.response = url, body, None

    def run(self):
        self.response = requests.post(self.url, json=self.body, timeout=120)


def test_the_hub_answers_another_viewer_during_a_heavy_validation(server):
    viewer = Peer(server.url)
    try:
        load(viewer)
        post, worker = busy(server, {"text": heavy_text(), "format": "yaml"})
        for position in range(1, 5):
            viewer.emit("step")
            assert viewer.expect("state")["position"] == position
        assert post.is_alive(), "the validation was answered before the viewer's steps"
        assert worker in children(server.proc.pid)  # the work was in this worker all along
        post.join(120)
        assert post.response.status_code == 200
        assert post.response.json()["ok"] is True and post.response.json()["total"] == HEAVY_STEPS
    finally:
        viewer.client.disconnect()


def test_a_worker_killed_during_a_request_is_internal_and_replaced(server):
    post, worker = busy(server, {"text": heavy_text(), "format": "yaml"})
    os.kill(worker, signal.SIGKILL)
    post.join(60)
    assert post.response.status_code == 500
    assert post.response.json()["kind"] == "Internal"
    text = json.dumps(builtin.get("lost-marker"))
    answer = requests.post(server.url + "/api/validate", json={"text": text, "format": "json"}, timeout=60)
    assert answer.status_code == 200 and answer.json() == _checked_text(text, "json")
    assert worker not in children(server.proc.pid)
    assert "WorkerCrashed" in server.log() and "killed by signal 9" in server.log()


def test_errors_raised_in_a_worker_reach_clients_as_they_did_in_the_server(server):
    here = create_app({"ASYNC_MODE": "threading", "TESTING": True})
    try:
        local = here.test_client()
        for path in ("/export/html", "/export/svg?position=0", "/api/trace"):
            remote = requests.post(server.url + path, json=INVALID, timeout=60)
            expected = local.post(path, json=INVALID)
            assert (remote.status_code, remote.json()) == (expected.status_code, expected.json), path
            assert remote.json()["kind"] == "ScenarioError"
        remote = requests.post(server.url + "/export/svg?position=99", json=builtin.get("lost-marker"), timeout=60)
        assert remote.status_code == 400 and remote.json() == local.post("/export/svg?position=99",
                                                                         json=builtin.get("lost-marker")).json
    finally:
        here.extensions["inflight_guard"].sweeper.stop()
    viewer = Peer(server.url)
    try:
        viewer.emit("load", {"scenario": INVALID})
        error = viewer.expect("error")
        assert error["message"] == str(raised(load_scenario, INVALID)) and error["kind"] == "ScenarioError"
    finally:
        viewer.client.disconnect()
