"""Offload in threading mode (the eventlet path runs in the live-server tests): results, errors, the bounds,
and what a client is told when heavy work is refused as busy."""

import json
import logging
import sys
import threading
import time

import pytest

from tests.waiting import until
from tests.web.viewer import Viewer
from webapp import create_app
from webapp.errors import Busy
from webapp.scenario import builtin
from webapp.scenario.errors import ScenarioError
from webapp.server.isolated import Client, Isolated
from webapp.server.offload import BUSY_IMPORT, Lane, Offload
from webapp.web.bodies import SMALL_BODY_BYTES


def test_returns_the_result_and_raises_the_error():
    offload = Offload("threading", 2, 0)
    assert offload(divmod, 7, 2) == (3, 1)
    with pytest.raises(ScenarioError):
        offload(_refuse)
    assert offload(divmod, 9, 4) == (2, 1)  # a raising call gave its place back


def _refuse():
    raise ScenarioError([{"step": None, "field": "document", "message": "no"}])


@pytest.mark.parametrize("at_once", [1, 2])
def test_at_most_at_once_run_together(at_once):
    """The calls run are held until every other call is parked waiting for a place (its thread blocked in the
    lane's semaphore): none more can start then, so the count of those running is the most that may."""
    offload = Offload("threading", at_once, 10)
    running, release, lock = set(), threading.Event(), threading.Lock()

    def work():
        with lock:
            running.add(threading.get_ident())
        release.wait(30)

    threads = [threading.Thread(target=offload, args=(work,)) for _ in range(6)]
    for t in threads:
        t.start()

    def all_placed():
        with lock:
            inside = set(running)
        return inside if inside and all(t.ident in inside or parked(t) for t in threads) else None

    held = until(all_placed, lambda: f"{len(running)} calls running, the others not all parked waiting for a place")
    release.set()
    for t in threads:
        t.join()
    assert len(held) == at_once, f"{len(held)} calls ran together; at most {at_once} may"


def parked(thread: threading.Thread) -> bool:
    """Whether ``thread`` is blocked in a threading wait (a Condition's, under a semaphore's acquire)."""
    frame = sys._current_frames().get(thread.ident)
    return frame is not None and frame.f_code.co_name == "wait" and frame.f_code.co_filename == threading.__file__


class Occupied:
    """Holds ``n`` calls of an Offload (running or waiting) until released: heavy work, or with ``lane`` (the
    Offload's lane attribute) and ``kwargs`` (how the calls ask for it) another lane's."""

    def __init__(self, offload, n: int, lane: str = "_heavy", **kwargs):
        self.lane, self.n, self.release = getattr(offload, lane), n, threading.Event()
        self.threads = [threading.Thread(target=offload, args=(self.release.wait, 10), kwargs=kwargs)
                        for _ in range(n)]
        for t in self.threads:
            t.start()

    def __enter__(self):
        # every call has entered: one runs, the others wait
        until(lambda: self.lane.pending >= self.n, "the holding calls did not start")
        return self

    def __exit__(self, *exc):
        self.release.set()
        for t in self.threads:
            t.join(10)


def test_past_running_and_waiting_a_call_is_refused_at_once():
    offload = Offload("threading", 1, 1)
    with Occupied(offload, 2):
        started = time.monotonic()
        with pytest.raises(Busy, match="busy"):
            offload(divmod, 1, 1)
        assert time.monotonic() - started < 5  # refused, not queued
    assert offload(divmod, 1, 1) == (1, 0)  # free again once the work is done


def test_calls_made_during_a_turn_run_in_its_place():
    """``turn`` holds one place for a run of calls (a load's parse, build and message): they neither wait for
    another place nor are refused, while a call from elsewhere finds every place taken."""
    offload = Offload("threading", 1, 0)
    with offload.turn():
        assert offload(divmod, 7, 2) == (3, 1) and offload(divmod, 9, 4) == (2, 1)
        with offload.turn():  # nested: the same place
            assert offload(divmod, 1, 1) == (1, 0)
        refused = []
        other = threading.Thread(target=lambda: refused.append(pytest.raises(Busy, offload, divmod, 1, 1)))
        other.start()
        other.join(10)
        assert refused and offload.full
    assert not offload.full and offload(divmod, 5, 5) == (1, 0)


def test_an_uploads_load_takes_one_place_for_all_its_heavy_work(monkeypatch):
    """An uploaded scenario is parsed, built and its message made in one place (before: three turns in the
    queue, each load waiting between them holding its parsed scenario); a built-in takes none."""
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True})
    offload = app.extensions["inflight_offload"]
    places, place = [], offload._heavy.place

    def counted(*args):
        places.append(threading.get_ident())
        return place(*args)

    monkeypatch.setattr(offload._heavy, "place", counted)
    sio = Viewer(app.extensions["socketio"].test_client(app))
    sio.emit("load", {"scenario": builtin.get("lost-marker")})
    assert [m["name"] for m in sio.get_received()] == ["scenario", "state"] and len(places) == 1
    sio.emit("load", {"scenario": "gate-off"})
    assert [m["name"] for m in sio.get_received()] == ["scenario", "state"] and len(places) == 1
    assert not offload.full
    sio.disconnect()
    app.extensions["inflight_guard"].sweeper.stop()


@pytest.fixture
def busy_app():
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True, "MAX_LOADS_AT_ONCE": 1, "MAX_LOADS_WAITING": 0})
    yield app
    app.extensions["inflight_guard"].sweeper.stop()


def test_http_answers_503_while_busy(busy_app):
    client = busy_app.test_client()
    uploaded = builtin.get("lost-marker")  # as a scenario object: work of unknown size, done apart
    with Occupied(busy_app.extensions["inflight_offload"], 1):
        response = client.post("/api/replay", json=uploaded)
        assert response.status_code == 503
        assert response.json == {"kind": "Busy", "message": "the server is busy loading, checking or exporting other "
                                                            "scenarios; try again in a moment"}
        assert client.post("/api/replay", json="lost-marker").status_code == 200  # a built-in is not queued
    assert client.post("/api/replay", json=uploaded).status_code == 200


def test_small_work_has_a_lane_of_its_own_bounded_like_heavy_work():
    """Small work does not wait for heavy work's places, and is not unbounded either: a flood of small requests
    gets its own lane's places and waits, then Busy, as heavy work does."""
    offload = Offload("threading", 1, 1, small_at_once=1)
    with Occupied(offload, 2):  # heavy work: every place taken
        assert offload(divmod, 7, 2, small=True, pure=True) == (3, 1)
        with Occupied(offload, 2, "_small", small=True, pure=True):
            with pytest.raises(Busy, match="busy"):
                offload(divmod, 1, 1, small=True, pure=True)
            assert offload(divmod, 9, 4, small=True) == (2, 1)  # small, not pure: here, taking no place at all
    assert offload(divmod, 1, 1, small=True, pure=True) == (1, 0)


def test_searches_have_a_lane_of_their_own_and_fill_no_other():
    """A search (POST /api/find) held a heavy place for seconds: twenty clients searching in a loop refused every
    custom load, export and replay (2,062 of 2,125 answers 503). Searches now wait and are refused in their own
    lane; heavy work runs beside them, and a full heavy lane refuses no search."""
    offload = Offload("threading", 1, 0, search_at_once=1, search_waiting=1)
    with Occupied(offload, 2, "_search", search=True):
        with pytest.raises(Busy, match="other searches"):
            offload(divmod, 1, 1, search=True)
        assert not offload.full and offload(divmod, 7, 2) == (3, 1)  # heavy work: its own place, at once
    with Occupied(offload, 1):  # heavy work: every place taken
        assert offload(divmod, 9, 4, search=True) == (2, 1)


def test_cheap_requests_answer_while_heavy_work_fills_every_place(busy_app):
    """Exports of a built-in, a small scenario's validation and a challenge checked on a small one were refused
    503 Busy behind heavy uploads; a large body still is."""
    client = busy_app.test_client()
    small_text = json.dumps(builtin.get("lost-marker"))
    large_text = json.dumps({**builtin.get("lost-marker"), "description": "x" * (SMALL_BODY_BYTES + 1)})
    with Occupied(busy_app.extensions["inflight_offload"], 1):
        svg = client.get("/export/lost-marker.svg?position=3")
        assert (svg.status_code, svg.mimetype) == (200, "image/svg+xml")
        assert client.get("/export/lost-marker.html").status_code == 200
        checked = client.post("/api/validate", json={"text": small_text, "format": "json"})
        assert checked.status_code == 200 and checked.json["ok"], checked.json
        solved = client.post("/api/challenges/lose-marker/check", json=builtin.get("lost-marker"))
        assert solved.status_code == 200 and solved.json["solved"] is True, solved.json
        assert client.post("/api/validate", json={"text": large_text, "format": "json"}).status_code == 503
        assert client.post("/export/svg?position=3", json=builtin.get("lost-marker")).status_code == 503
    assert client.post("/api/validate", json={"text": large_text, "format": "json"}).status_code == 200


def test_built_ins_load_at_once_while_heavy_work_fills_every_place(busy_app):
    """Cheap work is not queued behind heavy uploads: a built-in loads (and a room on one is rebuilt) while
    the offload has no place left."""
    socketio = busy_app.extensions["socketio"]
    sio = Viewer(socketio.test_client(busy_app))
    with Occupied(busy_app.extensions["inflight_offload"], 1):
        sio.emit("load", {"scenario": "gate-off"})
        assert [m["name"] for m in sio.get_received()] == ["scenario", "state"]
        presenter, follower = socketio.test_client(busy_app), socketio.test_client(busy_app)
        ack = presenter.emit("create_room", {}, callback=True)
        presenter.emit("load", {"scenario": "lost-marker", **ack})
        busy_app.extensions["inflight_rooms"]._local.clear()  # as in another process: the room is rebuilt
        follower.emit("join_room", {"room": ack["room"]})
        assert [m["name"] for m in follower.get_received()] == ["scenario", "state"]
    for client in (sio, presenter, follower):
        client.disconnect()


def test_a_socket_load_while_busy_is_an_error_and_changes_nothing(busy_app):
    sio = Viewer(busy_app.extensions["socketio"].test_client(busy_app))
    sio.emit("load", {"scenario": "lost-marker"})
    sio.get_received()
    sio.emit("seek", {"position": 3})
    sio.get_received()
    with Occupied(busy_app.extensions["inflight_offload"], 1):
        sio.emit("load", {"scenario": builtin.get("gate-off")})
        [error] = sio.get_received()
        assert error["name"] == "error" and error["args"][0]["kind"] == "Busy"
        sio.emit("step")
        [state] = sio.get_received()
        assert state["args"][0]["position"] == 4 and state["args"][0]["total"] == 6  # still lost-marker
    sio.disconnect()


def test_joining_a_room_this_process_must_load_while_busy_is_an_error(busy_app):
    socketio = busy_app.extensions["socketio"]
    presenter, follower = socketio.test_client(busy_app), socketio.test_client(busy_app)
    ack = presenter.emit("create_room", {}, callback=True)
    presenter.emit("load", {"scenario": builtin.get("lost-marker"), **ack})
    busy_app.extensions["inflight_rooms"]._local.clear()  # as in another process: the room must be rebuilt
    with Occupied(busy_app.extensions["inflight_offload"], 1):
        follower.emit("join_room", {"room": ack["room"]})
        [error] = follower.get_received()
        assert (error["name"], error["args"][0]["kind"], error["args"][0]["event"]) == ("error", "Busy", "join_room")
    follower.emit("join_room", {"room": ack["room"]})
    assert [m["name"] for m in follower.get_received()] == ["scenario", "state"]  # rebuilt once free
    presenter.disconnect()
    follower.disconnect()


def test_each_refusal_is_logged_as_one_line_without_a_traceback(busy_app, caplog):
    """An operator sees the server turning work away: one WARNING line per refused request or message."""
    caplog.set_level(logging.WARNING)
    client = busy_app.test_client()
    sio = Viewer(busy_app.extensions["socketio"].test_client(busy_app))
    with Occupied(busy_app.extensions["inflight_offload"], 1):
        assert client.post("/api/replay", json=builtin.get("lost-marker")).status_code == 503
        sio.emit("load", {"scenario": builtin.get("gate-off")})
    assert client.post("/api/replay", data=b" " * (busy_app.config["MAX_UPLOAD_BYTES"] + 1)).status_code == 413
    refused = [r for r in caplog.records if "refused" in r.getMessage()]
    assert [r.levelname for r in refused] == ["WARNING"] * 3
    assert refused[0].getMessage().startswith("refused POST /api/replay: Busy: the server is busy")
    assert refused[1].getMessage().startswith("refused 'load' from ") and ": Busy: " in refused[1].getMessage()
    assert refused[2].getMessage().startswith("refused POST /api/replay: TooLarge: a body over")
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in refused)
    sio.disconnect()


def test_a_log_import_counts_against_its_clients_address():
    """The import lane bounds the places one address holds, as every lane does: by the client's address (the
    lane was once given the whole Client, a new key per call, so one address could take every place)."""
    lane = Lane(2, 0, BUSY_IMPORT, per_address=1)
    imports = Isolated(lane, cpu_seconds=10, per_minute=60)
    try:
        with lane.place(None, "10.0.0.1"):
            with pytest.raises(Busy, match="your address has 1 requests"):
                imports.run(divmod, (7, 2), Client("10.0.0.1"))
            assert imports.run(divmod, (7, 2), Client("10.0.0.2")) == (3, 1)
        assert lane.pending == 0
    finally:
        imports.close()
