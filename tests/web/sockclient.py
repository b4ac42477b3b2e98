"""A python-socketio client for the live tests that keeps every event it is sent, in order, and waits for one."""

from __future__ import annotations

import queue

import socketio as socketio_client

TIMEOUT = 30.0  # a bound against a hang: every wait ends as soon as what it waits for comes
EVENTS = ("scenario", "state", "delta", "error", "poll", "poll_tally", "blank", "remote", "vote", "vote_tally")


class Client:
    def __init__(self, url: str):
        self.inbox: queue.Queue = queue.Queue()
        self.sio = socketio_client.Client(reconnection=False)
        for name in EVENTS:
            self.sio.on(name, self._keeper(name))
        self.sio.connect(url, transports=["websocket"], wait_timeout=TIMEOUT)

    def _keeper(self, name):
        return lambda data=None: self.inbox.put((name, data))

    def call(self, event: str, payload=None):
        """Send and wait for the acknowledgement: what the handler answered, after every event it sent."""
        return self.sio.call(event, payload if payload is not None else {}, timeout=TIMEOUT)

    def wait_for(self, name: str, where=lambda data: True, timeout: float = TIMEOUT):
        """The first ``name`` event (that ``where`` accepts) from now on; those before it are let go."""
        while True:
            try:
                got, data = self.inbox.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no {name!r} within {timeout} s") from None
            if got == name and where(data):
                return data

    def received(self) -> list[tuple[str, object]]:
        out = []
        while True:
            try:
                out.append(self.inbox.get_nowait())
            except queue.Empty:
                return out

    def close(self) -> None:
        if self.sio.connected:
            self.sio.disconnect()
