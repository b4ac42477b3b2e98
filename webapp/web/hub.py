"""The hub: the sessions, the rooms, and what each channel (a connection, or a room) was last sent. After a
command it reads the target's session (``snapshot_of``), asks the delivery protocol what to send
(delivery/protocol.py: the numbering, the delta base, the fan-out to a room's presenter and followers, which
scenario a connection holds), and emits it; it schedules what comes later (a look ahead, an autoplay's stop).

With a message queue (several processes), a room's messages go through the queue to every process; a connection's
own stay in its process (``ignore_queue``), so they survive a queue outage.

Memory has a ceiling (``MemoryBudget``: MAX_SESSION_MEMORY, a share per address): an upload's load is admitted in
its heavy-work turn only if the address's sessions and the process's have room for one more at MAX_SESSION_BYTES;
each loaded session then holds its counted bytes until its channel goes. When freed memory is given back is the
server's policy (server/trimming.py).
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from dataclasses import dataclass, field

from flask import current_app, has_request_context, request
from flask_socketio import SocketIO

from ..delivery.cache import Message, MessageCache
from ..delivery.protocol import Channel, Command, Out, Publish, Resend, current, deliver, look_ahead, looks_ahead
from ..delivery.snapshot import RoomVersion, Snapshot
from ..engine.memory import MemoryBudget, release_memory, rss_bytes
from ..engine.polls import Answer, Poll, Tally
from ..engine.room import Room, Withdrawn, channels_of
from ..engine.rooms import Rooms
from ..engine.session import Session
from ..engine.simulation import Simulation
from ..errors import UserError
from ..presenter import for_followers, scenario_message
from ..scenario.scenario import Scenario
from ..server.backpressure import Bound
from ..server.codec import Encoded, encoded
from ..server.pending import Pending
from ..server.refusals import Refusals
from ..server.settings import settings_of
from ..server.trimming import Trimmer
from .snapshots import snapshot_of

log = logging.getLogger(__name__)

LoadKey = tuple[str | None, str | None, str | None, int]  # (load id, scenario id, room code, id of the simulation)


@dataclass
class Target:
    """What a message acts on: the caller's own session, or a room's (then ``room`` is set)."""

    session: Session
    channel: str
    room: Room | None = None

    @property
    def code(self) -> str | None:
        return self.room.code if self.room else None

    @property
    def private(self) -> bool:
        """Whether its messages stay in this process (a room's go to every process)."""
        return self.room is None

    @property
    def seen(self) -> RoomVersion | None:
        """The room's version this process shows (None for a private session)."""
        return self.room.seen if self.room else None

    def snapshot(self) -> Snapshot | None:
        return snapshot_of(self.session, self.room, self.channel)


def scenario_of(sim: Simulation, scenario_id: str | None, code: str | None, load_id: str | None
                ) -> tuple[Encoded, Encoded]:
    """The scenario message of a loaded simulation (what a viewer needs once per load), with the id of its load
    (as "key"), encoded where it is made (a long scenario's is over 1 MB of JSON: ``encoded``): as its presenter
    is sent it, and as a room's followers are (``for_followers``; the same for a connection's own)."""
    message = {**scenario_message(sim.summary(), scenario_id, code), "key": load_id}
    whole = encoded(message)
    theirs = for_followers(message) if code is not None else message
    return whole, whole if theirs is message else encoded(theirs)


@dataclass
class Hub:
    """Sessions, rooms and what each channel was last sent."""

    socketio: SocketIO
    rooms: Rooms
    new_session: Callable[[], Session]
    resolve: Callable[[object], tuple[Scenario, str | None]]  # built-in id or scenario object -> (it, id), apart
    turn: Callable[[object], AbstractContextManager[object]] = nullcontext  # source -> one heavy-work place for a load
    native: Callable[..., object] | None = None  # (fn, *args) -> fn(*args) off the event loop (Offload.native)
    sessions: dict[str, Session] = field(default_factory=dict)
    sent: dict[str, Channel] = field(default_factory=dict)  # channel -> what it was last sent (delivery's state)
    cache: MessageCache = field(default_factory=MessageCache)
    refused: Refusals = field(default_factory=Refusals)
    pending: Pending = field(default_factory=Pending)  # one heavy request per connection per kind
    # channel -> (its load and room, the scenario message sent for it): joins and syncs send it again as made
    scenarios: dict[str, tuple[LoadKey, tuple[Encoded, Encoded] | None]] = field(default_factory=dict)
    outgoing: Bound | None = None  # the bound on each connection's unread bytes, once installed
    memory: MemoryBudget | None = None  # what the sessions hold (made from the app's settings when first needed)
    trim: Trimmer = field(init=False)  # when freed memory is given back (server/trimming.py)
    autoplays: int = 0  # autoplay tasks running in this process (/healthz reports it: a test waits on it)
    _counting: threading.Lock = field(default_factory=threading.Lock)

    # Seconds look_ahead waits before it works: a message queued is sent by the connection's writer after a few
    # turns of the event loop, and the step's message goes out before the next one is made.
    AHEAD_AFTER = 0.002

    def __post_init__(self) -> None:
        self.trim = Trimmer(lambda fn: self.socketio.start_background_task(fn), lambda s: self.socketio.sleep(s),
                            lambda: release_memory(self.native),  # malloc_trim runs off the event loop
                            rss_bytes, lambda: self.memory.total if self.memory is not None else 0)

    @contextmanager
    def admitted(self, source: object) -> Iterator[None]:
        """The heavy-work turn of a load (``turn``), in which an upload is admitted only if the memory budget has
        room for one more session at MAX_SESSION_BYTES (Busy, in words, otherwise: a refusal of the moment, not
        remembered as one of the upload)."""
        with self.turn(source):
            if not isinstance(source, str) and has_request_context():
                self.budget().check(request.remote_addr, settings_of(current_app).session_bytes or 0)
            yield

    def budget(self) -> MemoryBudget:
        if self.memory is None:
            settings = settings_of(current_app)
            self.memory = MemoryBudget(int(settings.max_session_memory), int(settings.max_session_memory_per_address))
        return self.memory

    def _hold(self, target: Target) -> None:
        """What the target's session holds now, counted for the address that loaded it."""
        sim = target.session.sim
        if sim is not None and has_request_context():
            self.budget().hold(target.channel, request.remote_addr, sim.bytes)

    def placed(self, sid: str, address: str | None) -> None:
        """Connection ``sid`` comes from ``address``: its unread bytes count for that address's share too."""
        if self.outgoing is not None:
            self.outgoing.placed(self.socketio.server.manager.eio_sid_from_sid(sid, "/"), address)

    def unread(self, sid: str) -> int:
        """The bytes sent to connection ``sid`` that it has not read yet (backpressure.Bound)."""
        if self.outgoing is None:
            return 0
        return self.outgoing.unread(self.socketio.server.manager.eio_sid_from_sid(sid, "/"))

    def gone(self, sid: str) -> bool:
        """Whether connection ``sid`` has closed (work still waiting for it is dropped)."""
        return sid not in self.sessions

    def target(self, sid: str, payload: dict[str, object]) -> Target:
        """What connection ``sid``'s message acts on: the room its payload names, else its own session."""
        if "room" in payload:
            room = self.drive(sid, payload)
            return Target(room.session, room.channel, room)
        return Target(self.sessions[sid], sid)

    def drive(self, sid: str, payload: dict[str, object]) -> Room:
        """The room ``payload`` names, if its token lets connection ``sid`` drive it (who drives a room is in it)."""
        room = self.rooms.authorize(payload.get("room"), payload.get("token"))
        self.rooms.enter(room, sid)
        self.rooms.present(room, sid)
        return room

    def send(self, event: str, message: object, to: str, private: bool) -> None:
        self.socketio.emit(event, message, to=to, ignore_queue=private)

    # --- sending what changed: the delivery protocol says what, the hub sends it -----------------------
    def deliver(self, target: Target, channel: str, command: Command) -> None:
        """``command`` on ``channel``'s state (the target's, or a connection's), its messages sent in order."""
        out, self.sent[channel] = deliver(self.sent.get(channel, Channel()), target.snapshot(), command, self.cache)
        self.emit(target, out)

    def emit(self, target: Target, out: list[Out]) -> None:
        for message in out:
            payload = self.scenario_of(target, message.followers) if message.event == "scenario" else message.payload
            self.send(message.event, payload, message.to, message.private)

    def current(self, target: Target) -> Message:
        """The target's state message as last sent to its channel, if that is still where it stands; else the
        state at its cursor."""
        target.session.require()  # Invalid while nothing is loaded
        snap = target.snapshot()
        assert snap is not None
        return current(self.sent.get(target.channel, Channel()), snap, self.cache)

    def publish(self, target: Target, whole: bool = False, loaded: bool = False) -> None:
        """Send the target's channel what changed: its scenario (``loaded``), then a whole state or a delta."""
        seen = target.seen  # what the room's followers here were sent from, before this move is saved
        self._record_move(target)
        if loaded:
            self._hold(target)
        self.deliver(target, target.channel, Publish(whole, loaded, seen))

    def _record_move(self, target: Target) -> None:
        """A room's move: saved for every process, and the poll it leaves ended (told to the room first)."""
        room = target.room
        if room is None:
            return
        self.rooms.save(room)
        ended = self.rooms.settle_poll(room)
        if ended is not None:
            self.send_poll(room, ended)

    def look_ahead(self, target: Target) -> None:
        """Make the messages of a private session's next step now, while its viewer looks at what was just sent
        (once that has gone out: ``AHEAD_AFTER``), unless the cache holds them already: its ``step`` then only
        sends them (protocol.look_ahead). A first way through an upload has every step made anew; this takes that
        work off the time between the click and the picture. Waiting at every step of a built-in would cost a busy
        server a quarter of its steps (bench/load.py): only what ``looks_ahead`` waits."""
        if not looks_ahead(target.snapshot()):  # asked before the wait, the rest under the lock once it is over
            return
        self.socketio.sleep(self.AHEAD_AFTER)
        with target.session.lock:
            look_ahead(self.sent.get(target.channel), target.snapshot(), self.cache)

    def whole_state(self, sid: str, target: Target, scenario: bool = True, rejoin: bool = False) -> None:
        """The target's current state (after its ``scenario``), to ``sid`` only: a joiner, or a client that
        lost its place. ``rejoin``: a join, whose connection is not sent again the room's scenario message of the
        load it was last sent (it holds it; a client that does not asks for it with ``sync``)."""
        if target.session.sim is None:
            return
        speaks = target.room is not None and target.room.speaks(sid)
        shown = self.sent.get(target.channel) if target.room else None
        self.deliver(target, sid, Resend(sid, speaks, scenario, rejoin, shown))

    def send_poll(self, room: Room, poll: Poll | Withdrawn, sid: str | None = None, yours: Answer | None = None
                  ) -> None:
        """The poll and its tally (a withdrawn one has none), to the whole room (through the queue), or to one
        connection here (with ``yours``, its voter's answer, if any)."""
        to, private = (sid, True) if sid else (room.channel, False)
        tally: Tally | dict[str, object] = {} if "cancelled" in poll else self.rooms.tally(room, poll)
        self.send("poll", {"room": room.code, **poll, **tally, **({"yours": yours} if yours else {})}, to, private)

    def scenario_of(self, target: Target, followers: bool = False) -> Encoded:
        """The target's scenario message (``followers``: as a room's followers are sent it), with the id of its
        load (every state and delta about it carries the same): built and encoded off the event loop once per load
        (a long scenario's summary is heavy), then kept for the channel, so a join or a sync sends it again
        without making it. Under the session's lock."""
        session = target.session
        key = (session.load_id, session.scenario_id, target.code, id(session.sim))
        kept = self.scenarios.get(target.channel)
        if kept is not None and kept[0] == key and kept[1] is not None:
            return kept[1][followers]
        made: tuple[Encoded, Encoded] = session.run_apart(
            scenario_of, session.sim, session.scenario_id, target.code, session.load_id,
            small=session.scenario_id is not None)
        # a room's is sent to every joiner; a connection's own is kept once asked for again (a sync)
        again = target.room is not None or (kept is not None and kept[0] == key)
        self.scenarios[target.channel] = (key, made if again else None)
        return made[followers]

    # --- autoplay that stops without a command ------------------------------------------------------
    def counted(self, task: Callable[[Target, int], None]) -> Callable[[Target, int], None]:
        """``task`` (an autoplay about to start) counted in ``autoplays`` from now until it returns."""
        with self._counting:
            self.autoplays += 1

        @functools.wraps(task)
        def run(target: Target, token: int) -> None:
            try:
                task(target, token)
            finally:
                with self._counting:
                    self.autoplays -= 1
        return run

    def stop(self, target: Target, token: int | None = None) -> None:
        """End the target's autoplay (``token``: only if it is still the one that task holds) and send that it
        stopped: a room's record says it no longer plays, for a joiner on any process, and its channel is told.
        Under the session's lock."""
        session = target.session
        if token is not None and token != session.play_token:
            return  # paused or played again meanwhile: that command has said so
        session.pause()
        self.publish(target)

    def leave(self, sid: str, code: object = None) -> None:
        """``sid`` leaves room ``code`` (None: every room it is in, its connection closed); a room it leaves with
        nobody in it on any process stops playing at once."""
        codes = self.rooms.leave_all(sid) if code is None else [code] if self.rooms.leave(code, sid) else []
        for left in codes:
            room = self.rooms.here(str(left).upper())
            if room is None or not room.session.playing:
                continue
            # the store out of reach: paused here all the same; its record expires on its own
            with room.session.lock, suppress(UserError):
                self.stop(Target(room.session, room.channel, room))

    # --- channels that went -------------------------------------------------------------------------
    def forget(self, channel: str) -> None:
        """Forget what was sent and made ahead for a channel that closed."""
        closed = self.sent.pop(channel, None)
        self.scenarios.pop(channel, None)
        if self.memory is not None:
            self.memory.drop(channel)
        self.trim.channel_closed(closed is not None and closed.scenarios)
        self.cache.forget(channel)

    def prune(self) -> None:
        """Forget what was sent to connections that closed and rooms that were forgotten."""
        for code, why in self.rooms.take_reclaimed():  # its followers here are told, and leave it
            self.send("error", {"message": why, "event": "join_room", "kind": "NotAllowed"}, f"room:{code}", True)
            for channel in channels_of(code):
                self.socketio.close_room(channel)
        live = set(self.sessions) | {f"room:{code}" for code in self.rooms.local_codes()}
        gone = [c for c in {*self.sent, *self.scenarios} if c not in live]
        for channel in gone:
            self.forget(channel)
        if gone:
            self.trim.soon()
