"""Fixtures for the web layer, in the style of the Flask tutorial: ``app``, ``client``, ``socketio``."""

import pytest

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
