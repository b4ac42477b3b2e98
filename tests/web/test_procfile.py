"""The Procfile's own command (gunicorn, one eventlet worker) serves the app: the page, Socket.IO over a real
WebSocket, and heavy loads built off the worker's event loop."""

import gc
import shlex
import signal
import subprocess
import sys

import pytest
import requests

from tests.web.liveserver import ROOT, LiveServer
from tests.web.test_live_server import LOGS, TIMEOUT, Peer, assert_a_heavy_load_does_not_hold_up, load


def procfile_command(port: int) -> list[str]:
    line = next(x for x in (ROOT / "Procfile").read_text().splitlines() if x.startswith("web:"))
    argv = shlex.split(line.removeprefix("web:").replace("${PORT:-8000}", str(port)))
    assert argv[0] == "gunicorn"
    return [sys.executable, "-m", "gunicorn", *argv[1:]]  # the project's gunicorn, wherever PATH points


@pytest.fixture(scope="module")
def gunicorn():
    with LiveServer("eventlet", LOGS, command=procfile_command) as live:
        yield live
        # gunicorn's quick shutdown (the last test has stopped it already; TERM would wait out the grace)
        live.proc.send_signal(signal.SIGINT)


@pytest.fixture
def peer_pair(gunicorn):
    peers = [Peer(gunicorn.url), Peer(gunicorn.url)]
    yield peers
    for peer in peers:
        peer.close_in_background().join(timeout=TIMEOUT)


def test_the_procfile_serves_the_page_under_eventlet(gunicorn):
    health = requests.get(gunicorn.url + "/healthz", timeout=TIMEOUT).json()
    assert (health["status"], health["async_mode"]) == ("ok", "eventlet")
    page = requests.get(gunicorn.url + "/?scenario=lost-marker", timeout=TIMEOUT)
    assert page.status_code == 200 and "Content-Security-Policy" in page.headers


def test_the_procfile_steps_over_a_websocket(peer_pair):
    peer, _ = peer_pair
    load(peer)
    peer.emit("step")
    assert peer.expect("state")["position"] == 1


def test_the_procfile_builds_heavy_loads_off_the_event_loop(peer_pair):
    assert_a_heavy_load_does_not_hold_up(*peer_pair)


def test_a_restart_with_viewers_connected_is_over_within_the_procfiles_grace(gunicorn, peer_pair):
    """Last in this module (it stops the server): gunicorn's TERM waits for open connections, websockets
    included, up to --graceful-timeout; the Procfile's 5 s, not gunicorn's default 30 s, then cuts them."""
    peer, _ = peer_pair
    load(peer)
    gunicorn.proc.send_signal(signal.SIGTERM)
    try:
        code = gunicorn.proc.wait(timeout=25)  # 5 s of grace and the worker's own shutdown; 30 s without it
    except subprocess.TimeoutExpired:
        pytest.fail("gunicorn still running 25 s after TERM with a viewer connected")
    assert code == 0, gunicorn.log()


def test_the_procfiles_worker_freezes_its_start_up_objects():
    """The hook gunicorn runs once the worker has loaded the app (the Procfile's --config): start-up objects
    leave the collector's reach, as under `serve`. (The live tests above start gunicorn with that config.)"""
    from webapp.server import gunicorn_conf

    assert "--config python:webapp.server.gunicorn_conf" in (ROOT / "Procfile").read_text()
    gc.unfreeze()
    try:
        gunicorn_conf.post_worker_init(worker=None)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()  # this test process collects as before
