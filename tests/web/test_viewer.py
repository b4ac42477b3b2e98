"""tests/web/viewer.py's Folder, as the live-server tests use it: python-socketio's client handles each message on a
thread of its own, so messages sent in order can be handled in another; what a test reads is the order sent."""

import itertools

from tests.web.viewer import Folder


def sent_in_order(sio) -> list:
    """scenario, state, delta, delta: a load and two steps, as the server sent them (the in-process client keeps
    the order)."""
    sio.client.emit("load", {"scenario": "lost-marker"})
    sio.client.emit("step")
    sio.client.emit("step")
    return [(m["name"], m["args"][0]) for m in sio.client.get_received()]


def test_a_strict_client_reads_the_order_sent_whatever_order_its_threads_handle_them(sio):
    sent = sent_in_order(sio)
    assert [name for name, _ in sent] == ["scenario", "state", "delta", "delta"]
    expected = Folder()
    read = [m for message in sent for m in expected.arrived(*message)]
    assert [name for name, _ in read] == ["scenario", "state", "state", "state"]
    for handled in itertools.permutations(sent):
        folder = Folder()
        got = [m for message in handled for m in folder.arrived(*message)]
        assert got == read, [name for name, _ in handled]
        assert folder.early == {}
