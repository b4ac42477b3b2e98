"""Fixtures for the web layer, in the style of the Flask tutorial: ``app``, ``client``, ``socketio``."""

import pytest

from tests.waiting import HANG
from tests.web.viewer import Viewer
from webapp import create_app


def one_app():
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True})
    yield app
    # A test that started autoplay leaves a background thread; pausing every session stops it at its next tick.
    for session in list(app.extensions["inflight_sessions"].values()):
        session.pause()
    app.extensions["inflight_guard"].sweeper.stop()  # the idle sweeper ends within a second


# A new app for each test. A file whose tests change nothing another reads may share one (its import worker, a
# fresh interpreter an app starts at its first import, then starts once): app = pytest.fixture(one_app,
# scope="module", name="app").
app = pytest.fixture(one_app, name="app")


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def socketio(app):
    return app.extensions["socketio"]


@pytest.fixture
def make_sio(app, socketio):
    """Factory of Socket.IO test clients (each one is its own server-side session), each seeing deltas folded
    into whole states (tests/web/viewer.py); all disconnected after."""
    clients = []

    def make():
        c = Viewer(socketio.test_client(app))
        assert c.is_connected()
        clients.append(c)
        return c

    yield make
    for c in clients:
        if c.is_connected():
            c.disconnect()


@pytest.fixture
def sio(make_sio):
    return make_sio()


def keep_autoplays(socketio, monkeypatch) -> list:
    """The autoplay tasks ``socketio``'s app starts from now on, each kept as it starts (the real task runs; its
    handle is what a test joins: once it has ended, nothing it sends can come after)."""
    started = []
    start = socketio.start_background_task

    def keeping(target, *args, **kwargs):
        task = start(target, *args, **kwargs)
        if getattr(target, "__name__", "") == "autoplay":
            started.append(task)
        return task

    monkeypatch.setattr(socketio, "start_background_task", keeping)
    return started


@pytest.fixture
def autoplays(socketio, monkeypatch):
    """The ``app``'s autoplay tasks started during the test (``keep_autoplays``)."""
    return keep_autoplays(socketio, monkeypatch)


def ended(tasks) -> None:
    """Once every autoplay task in ``tasks`` has ended (each wakes for its next tick and stops)."""
    assert tasks, "no autoplay task was started"
    for task in tasks:
        task.join(HANG)
        assert not task.is_alive(), "an autoplay task still runs"
