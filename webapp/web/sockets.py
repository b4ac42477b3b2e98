"""Socket.IO handlers: translate messages to session calls and frames to messages; no queue logic.

Client -> server: load {scenario, variants, range?, position?}, step, back, seek {position}, play {speed}, pause, reset.
Each of these may carry {room, token} to drive a room instead of the connection's own session.
Rooms: create_room (ack {room, token}), claim_room {room, token} (a returning presenter; ack {room}),
join_room {room} (the joiner gets the room's current state), leave_room {room}.
Server -> client: scenario (on load), state (after every change), error {message, event}.
Diagnostics: echo (answered with the same payload).

With a message queue (several processes), a room's messages go through the queue to every process;
a connection's own messages stay in its process (``ignore_queue``), so they survive a queue outage.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import request
from flask_socketio import SocketIO, emit, join_room, leave_room

from ..engine.rooms import NotAllowed, Room, Rooms
from ..engine.roomstore import MemoryRoomStore, RedisRoomStore, RoomsUnavailable
from ..engine.session import NotLoaded, Session, parse_range, parse_speed
from ..model.variant import VARIANTS
from ..presenter import scenario_message, state_message
from ..scenario.errors import ScenarioError
from ..scenario.resolve import resolve
from .limits import init_limits, session_bytes, socketio_options
from .offload import Busy

REJECTED = (ScenarioError, NotLoaded, NotAllowed, RoomsUnavailable, Busy, ValueError, IndexError)


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
        return self.room is None


def init_socketio(app) -> SocketIO:
    queue = app.config.get("MESSAGE_QUEUE")
    socketio = SocketIO(app, async_mode=app.config["ASYNC_MODE"], message_queue=queue, **socketio_options(app.config))
    store = RedisRoomStore(queue, app.config["ROOM_IDLE_SECONDS"]) if queue else MemoryRoomStore()
    sessions: dict[str, Session] = {}
    max_bytes = session_bytes(app.config)
    offload = app.extensions["inflight_offload"]

    def new_session() -> Session:
        return Session(max_bytes=max_bytes, run_apart=offload)

    def resolve_apart(source):
        return offload(resolve, source)

    rooms = Rooms(resolve_apart, store, new_session)
    app.extensions["inflight_sessions"] = sessions
    app.extensions["inflight_rooms"] = rooms
    guard = init_limits(app, socketio, sessions, rooms)  # rate limit, idle sweeper, unknown events

    def send(event: str, message: dict, target: Target) -> None:
        socketio.emit(event, message, to=target.channel, ignore_queue=target.private)

    def publish(target: Target, loaded: bool = False) -> None:
        session = target.session
        if target.room is not None:
            rooms.save(target.room)
        if loaded:
            send("scenario", scenario_message(session, room=target.code), target)
        if session.sim is not None:
            send("state", state_message(session, room=target.code), target)

    def reply_error(event: str, err: Exception) -> None:
        # ``kind`` names the error class, so a client can react to one (NotLoaded) without reading the words.
        emit("error", {"message": str(err), "event": event, "kind": type(err).__name__}, ignore_queue=True)

    def target_of(payload: dict) -> Target:
        if "room" in payload:
            room = rooms.authorize(payload["room"], payload.get("token"))
            return Target(room.session, room.channel, room)
        return Target(sessions[request.sid], request.sid)

    def handler(event: str, needs_payload=False):
        def register(fn):
            def wrapped(payload=None):
                if request.sid not in sessions or not guard.admit(event):
                    return
                if not isinstance(payload, dict) and (needs_payload or payload is not None):
                    reply_error(event, ValueError(f"'{event}' expects an object payload"))
                    return
                payload = payload or {}
                try:
                    target = target_of(payload)
                    with target.session.lock:
                        publish(target, loaded=bool(fn(target, payload)))
                except REJECTED as err:
                    reply_error(event, err)

            socketio.on_event(event, wrapped)
            return fn

        return register

    @socketio.on("connect")
    def connect(auth=None):
        sessions[request.sid] = new_session()

    @socketio.on("disconnect")
    def disconnect(*_):
        session = sessions.pop(request.sid, None)
        if session is not None:
            session.pause()

    @socketio.on("echo")
    def echo(payload=None):
        """Answers with the same payload: a baseline for round-trip measurements."""
        if guard.admit("echo"):
            emit("echo", payload, ignore_queue=True)

    def enter(room: Room) -> None:
        """Follow ``room`` and receive where it is now."""
        join_room(room.channel)
        with room.session.lock:
            if room.session.sim is not None:
                emit("scenario", scenario_message(room.session, room=room.code), ignore_queue=True)
                emit("state", state_message(room.session, room=room.code), ignore_queue=True)

    @socketio.on("create_room")
    def create_room(payload=None):
        refused = guard.check("create_room")
        if refused:
            return {"error": refused}
        try:
            room = rooms.create()
        except REJECTED as err:
            reply_error("create_room", err)
            return {"error": str(err)}
        join_room(room.channel)
        return {"room": room.code, "token": room.token}

    @socketio.on("claim_room")
    def claim_room(payload=None):
        refused = guard.check("claim_room")
        if refused:
            return {"error": refused}
        payload = payload if isinstance(payload, dict) else {}
        try:
            room = rooms.claim(payload.get("room"), payload.get("token"))
        except REJECTED as err:  # a room new to this process is loaded here: busy, or too large
            reply_error("claim_room", err)
            return {"error": str(err)}
        enter(room)
        return {"room": room.code, "loaded": room.session.sim is not None}

    @socketio.on("join_room")
    def join(payload=None):
        if not guard.admit("join_room"):
            return
        try:
            enter(rooms.find(payload.get("room") if isinstance(payload, dict) else None))
        except REJECTED as err:
            reply_error("join_room", err)

    @socketio.on("leave_room")
    def leave(payload=None):
        if guard.admit("leave_room") and isinstance(payload, dict) and isinstance(payload.get("room"), str):
            leave_room(f"room:{payload['room'].upper()}")

    @handler("load", needs_payload=True)
    def load(target, payload):
        variants = payload.get("variants", list(VARIANTS))
        if not isinstance(variants, list) or not variants or any(v not in VARIANTS for v in variants):
            raise ValueError(f"variants must be a non-empty list drawn from {list(VARIANTS)}")
        scenario, scenario_id = resolve_apart(payload.get("scenario"))
        target.session.load(scenario, variants, scenario_id,
                            parse_range(payload.get("range"), len(scenario.steps)), payload.get("position"))
        return True

    @handler("step")
    def step(target, payload):
        target.session.step()

    @handler("back")
    def back(target, payload):
        target.session.back()

    @handler("seek", needs_payload=True)
    def seek(target, payload):
        target.session.seek(payload.get("position"))

    @handler("reset")
    def reset(target, payload):
        target.session.pause()
        target.session.seek(target.session.start)

    @handler("pause")
    def pause(target, payload):
        target.session.require()
        target.session.pause()

    @handler("play")
    def play(target, payload):
        token = target.session.play(parse_speed(payload.get("speed", target.session.speed)))
        if token is not None:
            socketio.start_background_task(autoplay, target, token)

    def autoplay(target: Target, token: int) -> None:
        session = target.session
        while True:
            socketio.sleep(1.0 / session.speed)
            with session.lock:  # publish under the lock: a pause cannot slip in before an older state
                if not session.autoplay_step(token):
                    return
                try:
                    publish(target)
                except RoomsUnavailable:
                    session.pause()
                    return
                if not session.playing:
                    return

    return socketio
