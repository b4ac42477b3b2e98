"""Where the room secret comes from: the environment, or a file made once in the instance folder and kept, so
that a restarted server (another process) accepts the tokens of the rooms it had."""

import stat

import pytest

from webapp import create_app
from webapp.web.secret import FILE, kept_secret, room_secret

ENV = "INFLIGHT_SCOPE_SECRET_KEY"


def app_in(tmp_path):
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True})
    app.instance_path = str(tmp_path / "instance")
    return app


def test_a_secret_is_made_once_and_kept(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    first = room_secret(app_in(tmp_path))
    path = tmp_path / "instance" / FILE
    assert len(first) == 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert room_secret(app_in(tmp_path)) == first  # a restart reads it back


def test_the_environment_wins(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, "from the environment")
    assert room_secret(app_in(tmp_path)) == b"from the environment"
    assert not (tmp_path / "instance" / FILE).exists()


def test_a_damaged_secret_file_is_a_clear_start_up_error(tmp_path):
    path = tmp_path / FILE
    path.write_text("not hex")
    with pytest.raises(RuntimeError, match="does not hold a hex secret"):
        kept_secret(path)


def test_claiming_a_lost_room_needs_its_real_token_over_socket_io(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, "one secret for both processes")
    first = create_app({"ASYNC_MODE": "threading", "TESTING": True})
    ack = first.extensions["socketio"].test_client(first).emit("create_room", {}, callback=True)
    restarted = create_app({"ASYNC_MODE": "threading", "TESTING": True})  # its own, empty room store
    socketio = restarted.extensions["socketio"]
    intruder, presenter = socketio.test_client(restarted), socketio.test_client(restarted)
    refused = intruder.emit("claim_room", {"room": ack["room"], "token": "y" * 43}, callback=True)
    assert "only the presenter" in refused["error"]
    assert presenter.emit("claim_room", ack, callback=True) == {"room": ack["room"], "loaded": False}
    for app in (first, restarted):
        app.extensions["inflight_guard"].sweeper.stop()
