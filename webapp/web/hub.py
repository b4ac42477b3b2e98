"""The hub: the sessions, the rooms, and what each channel (a connection, or a room) was last sent. It sends a
channel what changed after a command: the scenario after a load, then a whole state or a delta against what the
channel holds, taking both from the one message cache (message_cache.py).

A channel's ``seq`` numbers the states it was sent: a room's is its record's version in the store (the same in
every process), a connection's own counts up. With a message queue (several processes), a room's messages go
through the queue to every process; a connection's own stay in its process (``ignore_queue``), so they survive a
queue outage.

Memory has a ceiling (``MemoryBudget``: MAX_SESSION_MEMORY, a share per address): an upload's load is admitted in
its heavy-work turn only if the address's sessions and the process's have room for one more at MAX_SESSION_BYTES;
each loaded session then holds its counted bytes until its channel goes. Memory freed is given back to the system
(``release_soon``) after a session with a scenario closes, or whenever a channel closes while the RSS has grown
GROWN_BYTES since it was last given back (a burst of large frames leaves nothing else behind).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from dataclasses import dataclass, field
from typing import Any

from flask import current_app, has_request_context, request
from flask_socketio import SocketIO

from ..engine.memory import MemoryBudget, release_memory, rss_bytes
from ..engine.room import Room, channels_of
from ..engine.rooms import Rooms
from ..engine.session import Session
from ..engine.simulation import Simulation
from ..errors import TooLarge, UserError
from ..presenter import delta_message, for_audience, for_followers, scenario_message, state_message
from ..server.codec import Encoded, JsonText, encoded
from ..server.settings import settings_of
from .message_cache import Message, MessageCache, View, view_of
from .pending import Pending

RoomVersion = tuple[str | None, int]  # Room.seen: (epoch, record version)
log = logging.getLogger(__name__)
MIB = 1024 * 1024
GROWN_BYTES = 64 * MIB  # RSS grown this much since memory was last given back: a channel that closes gives it back


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


@dataclass
class Sent:
    """What one channel was last sent: deltas are made against it."""

    seq: int = 0
    message: Message | None = None  # the state message without its seq
    version: RoomVersion | None = None  # the room's version ``message`` shows (None: a private session)
    view: View | None = None  # what ``message`` shows (``view_of``), if its messages are kept

    def base(self, version: RoomVersion | None) -> Message | None:
        """The state message a delta can go from, if the channel holds the room's at ``version`` (or, private, any
        state at all)."""
        return self.message if self.version == version else None


class Refusals:
    """The TooLarge refusals of the last KEPT large uploads: the same upload sent again is refused at once, without
    being simulated up to the bound again."""

    KEPT = 32

    def __init__(self) -> None:
        self._said: dict[tuple[Any, ...], str] = {}  # upload -> its refusal's message

    @staticmethod
    def _upload(source: object, payload: dict[str, Any]) -> tuple[Any, ...] | None:
        """What a large upload's refusal depends on (its text, hashed where the packet kept it, and how it is to be
        loaded), or None for anything else."""
        if not isinstance(source, JsonText):
            return None
        return (hash(source.text), len(source.text),
                *(json.dumps(payload.get(name)) for name in ("variants", "range", "position")))

    def check(self, source: object, payload: dict[str, Any]) -> None:
        """Refuse an upload that was refused already."""
        upload = self._upload(source, payload)
        if upload is not None and upload in self._said:
            raise TooLarge(self._said[upload])

    def remember(self, source: object, payload: dict[str, Any], refusal: TooLarge) -> None:
        upload = self._upload(source, payload)
        if upload is None:
            return
        self._said[upload] = str(refusal)
        while len(self._said) > self.KEPT:
            del self._said[next(iter(self._said))]

    def __len__(self) -> int:
        return len(self._said)


def playing(session: Session, room: Room | None) -> bool:
    """Whether the channel's autoplay runs: a room's as its record says (its autoplay may run on another
    process), a connection's own session's."""
    return room.playing if room is not None else session.playing


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
    resolve: Callable[[Any], tuple[Any, str | None]]  # built-in id or scenario object -> (Scenario, id), apart
    turn: Callable[[Any], AbstractContextManager[Any]] = nullcontext  # source -> one heavy-work place for a load
    native: Callable[..., Any] | None = None  # (fn, *args) -> fn(*args) off the event loop (Offload.native)
    sessions: dict[str, Session] = field(default_factory=dict)
    sent: dict[str, Sent] = field(default_factory=dict)  # channel -> what it was last sent
    cache: MessageCache = field(default_factory=MessageCache)
    releasing: bool = False  # a release of freed memory is on its way
    refused: Refusals = field(default_factory=Refusals)
    pending: Pending = field(default_factory=Pending)  # one heavy request per connection per kind
    # channel -> (its load and room, the scenario message sent for it): joins and syncs send it again as made
    scenarios: dict[str, tuple[tuple[Any, ...], tuple[Encoded, Encoded] | None]] = field(default_factory=dict)
    outgoing: Any = None  # the bound on each connection's unread bytes (backpressure.Bound), once installed
    sent_scenarios: set[str] = field(default_factory=set)  # connections sent a scenario message: memory on leaving
    held: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # connection -> (room, load, as follower) last sent
    memory: MemoryBudget | None = None  # what the sessions hold (made from the app's settings when first needed)
    settled: int = 0  # the RSS after memory was last given back

    HEAVY_BYTES = 1024 * 1024  # a session this large, once gone, is worth giving its memory back for
    # Seconds look_ahead waits before it works: a message queued is sent by the connection's writer after a few
    # turns of the event loop, and the step's message goes out before the next one is made.
    AHEAD_AFTER = 0.002

    @contextmanager
    def admitted(self, source: Any):
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

    def release_soon(self) -> None:
        """Give memory back to the system (engine/memory.py) shortly, once, however many sessions just went."""
        if self.releasing:
            return
        self.releasing = True
        self.socketio.start_background_task(self._release)

    def _release(self) -> None:
        self.socketio.sleep(0.5)  # let whatever else is ending end too
        self.releasing = False
        before = rss_bytes()
        release_memory(self.native)  # malloc_trim runs off the event loop
        self.settled = rss_bytes()
        if before - self.settled >= GROWN_BYTES // 8:
            held = self.memory.total if self.memory is not None else 0
            log.warning("memory given back: RSS %d -> %d MiB; sessions hold %d MiB", before // MIB,
                        self.settled // MIB, held // MIB)

    def release_if_grown(self) -> None:
        """Give memory back if the RSS has grown GROWN_BYTES since it was last given back."""
        now = rss_bytes()
        if not self.settled:
            self.settled = now
        elif now - self.settled >= GROWN_BYTES:
            self.release_soon()

    def unread(self, sid: str) -> int:
        """The bytes sent to connection ``sid`` that it has not read yet (backpressure.Bound)."""
        if self.outgoing is None:
            return 0
        return self.outgoing.unread(self.socketio.server.manager.eio_sid_from_sid(sid, "/"))

    def gone(self, sid: str) -> bool:
        """Whether connection ``sid`` has closed (work still waiting for it is dropped)."""
        return sid not in self.sessions

    def target(self, sid: str, payload: dict[str, Any]) -> Target:
        if "room" in payload:
            room = self.rooms.authorize(payload["room"], payload.get("token"))
            self.rooms.enter(room, sid)  # whoever drives a room is in it
            self.rooms.present(room, sid)
            return Target(room.session, room.channel, room)
        return Target(self.sessions[sid], sid)

    def send(self, event: str, message: Any, to: str, private: bool) -> None:
        self.socketio.emit(event, message, to=to, ignore_queue=private)

    # --- state messages -----------------------------------------------------------------------------
    def state_of(self, target: Target) -> tuple[Message, View | None]:
        """The target's state message at its cursor, from the cache or made now, and the view it shows."""
        session = target.session
        view = view_of(session, target.room)
        return self.cache.state(view, lambda: self.make_state(session, target.room, session.require().frame()),
                                target.channel), view

    def make_state(self, session: Session, room: Room | None, frame: dict[str, Any]) -> Message:
        """The state message of ``frame`` with the session's settings (a room's narrates the next step too)."""
        settings = {"playing": playing(session, room), "speed": session.speed, "range": session.range,
                    "room": room.code if room else None}
        message = state_message(frame, session.require().preview() if room else None, settings)
        return {**message, **settings}

    def current(self, target: Target) -> Message:
        """The target room's state message as last sent to it, if that is still where it stands; else the state
        at its cursor."""
        sent = self.sent.get(target.channel)
        held = sent.base(target.seen) if sent and target.room else None
        return held if held is not None else self.state_of(target)[0]

    # --- sending what changed -----------------------------------------------------------------------
    def publish(self, target: Target, whole: bool = False, loaded: bool = False) -> None:
        """Send the target's channel what changed: its scenario (``loaded``), then a whole state or a delta."""
        sent = self.sent.setdefault(target.channel, Sent())
        seen = target.seen  # what the room's followers here were sent from, before this move is saved
        self._record_move(target)
        if loaded:
            if target.private:  # the connection's own load: it holds no room's scenario any more
                self.sent_scenarios.add(target.channel)
                self.held.pop(target.channel, None)
            room = target.room
            for to, followers in [(room.presenter_channel, False), (room.audience_channel, True)] if room else [
                    (target.channel, False)]:
                self.send("scenario", self.scenario_of(target, followers), to, target.private)
            self._hold(target)
        if target.session.sim is None:
            return
        message, view = self.state_of(target)
        seq = self._next_seq(target, sent)
        base = None if whole or loaded else sent.base(seen)
        if base is None:
            self._send_state(target, seq, message)
        else:
            self._send_delta(target, seq, (base, sent.view), (message, view))
        sent.seq, sent.message, sent.version, sent.view = seq, message, target.seen, view

    def _record_move(self, target: Target) -> None:
        """A room's move: saved for every process, and the poll it leaves ended (told to the room first)."""
        room = target.room
        if room is None:
            return
        self.rooms.save(room)
        ended = self.rooms.settle_poll(room)
        if ended is not None:
            self.send_poll(room, ended)

    @staticmethod
    def _next_seq(target: Target, sent: Sent) -> int:
        """A room's record version (the same on every process); a connection's own count, one up."""
        return target.room.version if target.room else sent.seq + 1

    def _send_state(self, target: Target, seq: int, message: Message, sid: str | None = None) -> None:
        """A whole state to the target's channel, or to one connection ``sid`` here. A room's goes whole to its
        presenter's channel and ``for_audience`` to its followers (``sid``: as that connection is)."""
        head = {"seq": seq, "key": target.session.load_id}
        room = target.room
        if sid:
            shown = message if room is None or room.speaks(sid) else for_audience(message)
            self.send("state", {**head, **shown}, sid, True)
        elif room is None:
            self.send("state", {**head, **message}, target.channel, True)
        else:
            self.send("state", {**head, **message}, room.presenter_channel, False)
            self.send("state", {**head, **for_audience(message)}, room.audience_channel, False)

    def _send_delta(self, target: Target, seq: int, old: tuple[Message, View | None],
                    new: tuple[Message, View | None]) -> None:
        """The delta from the (message, view) ``old`` the channel holds to ``new``, with the settings whole (a
        room's followers: from and to the messages ``for_audience``)."""
        session = target.session
        delta = self.cache.delta(seq, old[1], new[1], lambda: delta_message(seq, old[0], new[0]), target.channel)
        settings = {"key": session.load_id, "playing": playing(session, target.room), "speed": session.speed,
                    "room": target.code}
        room = target.room
        if room is None:
            return self.send("delta", {**delta, **settings}, target.channel, True)
        self.send("delta", {**delta, **settings}, room.presenter_channel, False)
        followers = delta_message(seq, for_audience(old[0]), for_audience(new[0]))
        self.send("delta", {**followers, **settings}, room.audience_channel, False)

    def look_ahead(self, target: Target) -> None:
        """Make the messages of a private session's next step now, while its viewer looks at what was just sent
        (once that has gone out: ``AHEAD_AFTER``), unless the cache holds them already: its ``step`` then only
        sends them. A first way through an upload has every step made anew; this takes that work off the time
        between the click and the picture. Not for a built-in (its messages are kept for every viewer after its
        first two; waiting here at every step costs a busy server a quarter of its steps, bench/load.py), nor for
        a session without a view (larger than a built-in: the next frame would double the live part
        MAX_SESSION_BYTES counts once, memory.LIVE_FACTOR)."""
        session = target.session
        # What holds for the whole load is asked before the wait (the rest under the lock, once it is over): a
        # scenario without a view waits at no step.
        if not target.private or session.scenario_id is not None or view_of(session, None) is None:
            return
        self.socketio.sleep(self.AHEAD_AFTER)
        sent = self.sent.get(target.channel)
        with session.lock:
            if sent is None or sent.message is None or sent.view is None or session.sim is None:
                return
            position = session.sim.position + 1
            view = view_of(session, None, position)
            if position > session.range[1] or view is None or self.cache.holds(target.channel, sent.view, view):
                return
            message = self.make_state(session, None, session.sim.frame_at(position))
            self.cache.put_ahead(target.channel, sent.view, view, message, delta_message(0, sent.message, message))

    def whole_state(self, sid: str, target: Target, scenario: bool = True, rejoin: bool = False) -> None:
        """The target's current state (after its ``scenario``), to ``sid`` only: a joiner, or a client that
        lost its place. ``rejoin``: a join, whose connection is not sent again the room's scenario message of the
        load it was last sent (it holds it; a client that does not asks for it with ``sync``)."""
        if target.session.sim is None:
            return
        message = self.current(target)
        seq = target.room.version if target.room else self.sent.setdefault(sid, Sent()).seq
        followers = target.room is not None and not target.room.speaks(sid)
        load = (target.code, target.session.load_id, followers)  # a follower who claims the room is sent it whole
        if scenario and not (rejoin and self.held.get(sid) == load):
            self.sent_scenarios.add(sid)
            self.held[sid] = load
            self.send("scenario", self.scenario_of(target, followers), sid, True)
        self._send_state(target, seq, message, sid)

    def send_poll(self, room: Room, poll: dict[str, Any], sid: str | None = None,
                  yours: dict[str, Any] | None = None) -> None:
        """The poll and its tally (a withdrawn one has none), to the whole room (through the queue), or to one
        connection here (with ``yours``, its voter's answer, if any)."""
        to, private = (sid, True) if sid else (room.channel, False)
        tally = {} if poll.get("cancelled") else self.rooms.tally(room, poll)
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
        made = session.run_apart(scenario_of, session.sim, session.scenario_id, target.code, session.load_id,
                                 small=session.scenario_id is not None)
        # a room's is sent to every joiner; a connection's own is kept once asked for again (a sync)
        again = target.room is not None or (kept is not None and kept[0] == key)
        self.scenarios[target.channel] = (key, made if again else None)
        return made[followers]

    # --- autoplay that stops without a command ------------------------------------------------------
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
        self.sent.pop(channel, None)
        self.scenarios.pop(channel, None)
        self.held.pop(channel, None)
        if self.memory is not None:
            self.memory.drop(channel)
        if channel in self.sent_scenarios:  # what was queued for it (up to MAX_OUTGOING_BYTES) is garbage now
            self.sent_scenarios.discard(channel)
            self.release_soon()
        else:
            self.release_if_grown()
        self.cache.forget(channel)

    def prune(self) -> None:
        """Forget what was sent to connections that closed and rooms that were forgotten."""
        for code, why in self.rooms.take_reclaimed():  # its followers here are told, and leave it
            self.send("error", {"message": why, "event": "join_room", "kind": "NotAllowed"}, f"room:{code}", True)
            for channel in channels_of(code):
                self.socketio.close_room(channel)
        live = set(self.sessions) | {f"room:{code}" for code in self.rooms.local_codes()}
        gone = [c for c in {*self.sent, *self.scenarios, *self.held} if c not in live]
        for channel in gone:
            self.forget(channel)
        if gone:
            self.release_soon()
