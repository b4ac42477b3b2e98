"""Socket.IO handlers: translate messages to session calls and frames to messages; no queue logic.

Client -> server: load {scenario, variants, range?, position?}, step, back, seek {position}, play {speed}, pause, reset.
Each of these may carry {room, token} to drive a room instead of the connection's own session.
Rooms: create_room (ack {room, token}), join_room {room} (the joiner gets the room's current state),
leave_room {room}.
Server -> client: scenario (on load), state (after every change), error {message, event}.
Diagnostics: echo (answered with the same payload).
"""

from __future__ import annotations

from flask import request
from flask_socketio import SocketIO, emit, join_room, leave_room

from ..engine.rooms import NotAllowed, Rooms
from ..engine.session import NotLoaded, Session, parse_range, parse_speed
from ..model.variant import VARIANTS
from ..presenter import scenario_message, state_message
from ..scenario.errors import ScenarioError
from ..scenario.resolve import resolve

REJECTED = (ScenarioError, NotLoaded, NotAllowed, ValueError, IndexError)


def init_socketio(app) -> SocketIO:
    socketio = SocketIO(app, async_mode=app.config["ASYNC_MODE"], cors_allowed_origins=None)
    sessions: dict[str, Session] = {}
    rooms = Rooms()
    app.extensions["inflight_sessions"] = sessions
    app.extensions["inflight_rooms"] = rooms

    def target(payload: dict):
        """(session, channel, room code): a room's when the payload names one, else the caller's own."""
        if "room" in payload:
            room = rooms.authorize(payload["room"], payload.get("token"))
            return room.session, room.channel, room.code
        return sessions[request.sid], request.sid, None

    def handler(event: str, needs_payload=False):
        def register(fn):
            def wrapped(payload=None):
                if request.sid not in sessions:
                    return
                if not isinstance(payload, dict) and (needs_payload or payload is not None):
                    emit("error", {"message": f"'{event}' expects an object payload", "event": event})
                    return
                payload = payload or {}
                try:
                    session, channel, code = target(payload)
                    with session.lock:
                        loaded = fn(session, payload, channel, code)
                        if loaded:
                            emit("scenario", scenario_message(session, room=code), to=channel)
                        if session.sim is not None:
                            emit("state", state_message(session, room=code), to=channel)
                except REJECTED as err:
                    emit("error", {"message": str(err), "event": event})

            socketio.on_event(event, wrapped)
            return fn

        return register

    @socketio.on("connect")
    def connect(auth=None):
        sessions[request.sid] = Session()

    @socketio.on("disconnect")
    def disconnect(*_):
        session = sessions.pop(request.sid, None)
        if session is not None:
            session.pause()

    @socketio.on("echo")
    def echo(payload=None):
        """Answers with the same payload: a baseline for round-trip measurements."""
        emit("echo", payload)

    @socketio.on("create_room")
    def create_room(payload=None):
        room = rooms.create()
        join_room(room.channel)
        return {"room": room.code, "token": room.token}

    @socketio.on("join_room")
    def join(payload=None):
        try:
            room = rooms.find(payload.get("room") if isinstance(payload, dict) else None)
        except NotAllowed as err:
            emit("error", {"message": str(err), "event": "join_room"})
            return
        join_room(room.channel)
        with room.session.lock:
            if room.session.sim is not None:
                emit("scenario", scenario_message(room.session, room=room.code))
                emit("state", state_message(room.session, room=room.code))

    @socketio.on("leave_room")
    def leave(payload=None):
        if isinstance(payload, dict) and isinstance(payload.get("room"), str):
            leave_room(f"room:{payload['room'].upper()}")

    @handler("load", needs_payload=True)
    def load(session, payload, channel, code):
        variants = payload.get("variants", list(VARIANTS))
        if not isinstance(variants, list) or not variants or any(v not in VARIANTS for v in variants):
            raise ValueError(f"variants must be a non-empty list drawn from {list(VARIANTS)}")
        scenario, scenario_id = resolve(payload.get("scenario"))
        session.load(scenario, variants, scenario_id, parse_range(payload.get("range"), len(scenario.steps)),
                     payload.get("position"))
        return True

    @handler("step")
    def step(session, payload, channel, code):
        session.step()

    @handler("back")
    def back(session, payload, channel, code):
        session.back()

    @handler("seek", needs_payload=True)
    def seek(session, payload, channel, code):
        session.seek(payload.get("position"))

    @handler("reset")
    def reset(session, payload, channel, code):
        session.pause()
        session.seek(session.start)

    @handler("pause")
    def pause(session, payload, channel, code):
        session.require()
        session.pause()

    @handler("play")
    def play(session, payload, channel, code):
        token = session.play(parse_speed(payload.get("speed", session.speed)))
        if token is not None:
            socketio.start_background_task(autoplay, session, token, channel, code)

    def autoplay(session: Session, token: int, channel: str, code) -> None:
        while True:
            socketio.sleep(1.0 / session.speed)
            with session.lock:  # emit under the lock: a pause cannot slip in before an older state
                if not session.autoplay_step(token):
                    return
                socketio.emit("state", state_message(session, room=code), to=channel)
                if not session.playing:
                    return

    return socketio
