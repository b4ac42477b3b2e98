"""Idle eviction: a background sweeper drops the simulation of a connection nobody has driven for
``SESSION_IDLE_SECONDS`` (it then answers "no scenario loaded" until it loads again), forgets a room idle for
``ROOM_IDLE_SECONDS`` (this process's copy, and its record in the in-memory store) and a room nobody has been in for
``ROOM_EMPTY_GRACE_SECONDS``; it looks every ``SWEEP_SECONDS``. It starts with the first admitted message and stops
once no connection and no room is left (so idle test apps leave no thread behind). A sweep that drops anything logs
how much (an operator sees eviction at work; a test waits on it).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Protocol, TypedDict

from flask_socketio import SocketIO

log = logging.getLogger(__name__)


class IdleSession(Protocol):
    """What the sweeper reads of a connection's session (engine.session.Session) and how it drops its simulation."""

    @property
    def lock(self) -> AbstractContextManager[object]: ...
    @property
    def sim(self) -> object | None: ...
    @property
    def playing(self) -> bool: ...
    @property
    def touched(self) -> float: ...
    def evict(self) -> None: ...


class IdleRooms(Protocol):
    """What the sweeper asks of this process's rooms (engine.rooms.Rooms)."""

    def evict_idle(self, cutoff: float) -> list[str]: ...
    def evict_empty(self, now: float | None = None) -> list[str]: ...
    def local_codes(self) -> list[str]: ...


class Swept(TypedDict):
    sessions: int  # simulations dropped
    rooms: list[str]  # the codes of the rooms forgotten


class Sweeper:
    """Drops the simulation of sessions idle for ``session_idle`` seconds, forgets rooms idle for ``room_idle``
    and rooms nobody has been in for their grace (``Rooms.evict_empty``, ROOM_EMPTY_GRACE_SECONDS); runs as a
    Socket.IO background task while there is a connection or a room. ``sweep(now)`` takes the clock of the
    Rooms it sweeps (time.monotonic unless a test gives both another)."""

    TICK = 1.0  # the longest a stop() or the last disconnection waits for the task to notice

    def __init__(self, socketio: SocketIO, sessions: Mapping[str, IdleSession], rooms: IdleRooms,
                 session_idle: float, room_idle: float, interval: float, on_sweep: Callable[[], None] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.socketio, self.sessions, self.rooms = socketio, sessions, rooms
        self.session_idle, self.room_idle, self.interval = float(session_idle), float(room_idle), float(interval)
        self.on_sweep = on_sweep  # called after each sweep (the rate limiter forgets closed connections)
        self.clock = clock
        self._lock = threading.Lock()
        self._running = False
        self._stopped = False

    @property
    def running(self) -> bool:
        return self._running

    def sweep(self, now: float | None = None) -> Swept:
        """One pass; returns {"sessions": n evicted, "rooms": [codes]}."""
        now = self.clock() if now is None else now
        evicted = 0
        for session in list(self.sessions.values()):
            if session.sim is None or now - session.touched < self.session_idle:
                continue
            with session.lock:  # not in the middle of a handler; a playing session touches itself every step
                if session.sim is not None and not session.playing and now - session.touched >= self.session_idle:
                    session.evict()
                    evicted += 1
        rooms = self.rooms.evict_idle(now - self.room_idle) + self.rooms.evict_empty(now)
        if evicted or rooms:
            log.warning("swept: %d idle sessions dropped their simulation (SESSION_IDLE_SECONDS), %d rooms forgotten",
                        evicted, len(rooms))
        if self.on_sweep is not None:
            self.on_sweep()
        return {"sessions": evicted, "rooms": rooms}

    def ensure_running(self) -> None:
        with self._lock:
            if self._running or self._stopped:
                return
            self._running = True
        self.socketio.start_background_task(self._run)

    def stop(self) -> None:
        """The task ends within TICK seconds and is not started again."""
        self._stopped = True

    def _idle(self) -> bool:
        return not self.sessions and not self.rooms.local_codes()

    def _run(self) -> None:
        last = self.clock()
        try:
            while True:
                self.socketio.sleep(min(self.TICK, self.interval))
                if self._stopped:
                    return
                if self.clock() - last >= self.interval:
                    last = self.clock()
                    self.sweep()
                with self._lock:  # decided under the lock ensure_running takes: no connection slips between
                    if self._idle():
                        self._running = False
                        return
        finally:
            with self._lock:
                self._running = False
