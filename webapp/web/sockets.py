"""Socket.IO handlers: translate messages to session calls and frames to messages; no queue logic.

Client -> server: load {scenario, variants}, step, back, seek {position}, play {speed}, pause, reset.
Server -> client: scenario (on load), state (after every change), error {message}.
Diagnostics: echo (answered with the same payload).
"""

from __future__ import annotations

from flask import request
from flask_socketio import SocketIO, emit

from ..engine.session import NotLoaded, Session, parse_speed
from ..model.variant import VARIANTS
from ..presenter import scenario_message, state_message
from ..scenario.errors import ScenarioError
from .scenarios import resolve


class Rejected(Exception):
    """A message that is answered with ``error`` and changes nothing."""


def init_socketio(app) -> SocketIO:
    socketio = SocketIO(app, async_mode=app.config["ASYNC_MODE"], cors_allowed_origins=None)
    sessions: dict[str, Session] = {}
    app.extensions["inflight_sessions"] = sessions

    def handler(event: str, needs_payload=False):
        def register(fn):
            def wrapped(payload=None):
                session = sessions.get(request.sid)
                if session is None:
                    return
                if not isinstance(payload, dict) and (needs_payload or payload is not None):
                    emit("error", {"message": f"'{event}' expects an object payload", "event": event})
                    return
                try:
                    with session.lock:
                        fn(session, payload or {})
                        if session.sim is not None:
                            emit("state", state_message(session))
                except (Rejected, ScenarioError, NotLoaded, ValueError, IndexError) as err:
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

    @handler("load", needs_payload=True)
    def load(session, payload):
        variants = payload.get("variants", list(VARIANTS))
        if not isinstance(variants, list) or not variants or any(v not in VARIANTS for v in variants):
            raise Rejected(f"variants must be a non-empty list drawn from {list(VARIANTS)}")
        scenario, scenario_id = resolve(payload.get("scenario"))
        session.load(scenario, variants, scenario_id)
        emit("scenario", scenario_message(session))

    @handler("step")
    def step(session, _):
        session.require().step()

    @handler("back")
    def back(session, _):
        session.require().back()

    @handler("seek", needs_payload=True)
    def seek(session, payload):
        session.require().seek(payload.get("position"))

    @handler("reset")
    def reset(session, _):
        session.require()
        session.pause()
        session.sim.seek(0)

    @handler("pause")
    def pause(session, _):
        session.require()
        session.pause()

    @handler("play")
    def play(session, payload):
        token = session.play(parse_speed(payload.get("speed", session.speed)))
        if token is not None:
            socketio.start_background_task(autoplay, request.sid, session, token)

    def autoplay(sid: str, session: Session, token: int) -> None:
        while True:
            socketio.sleep(1.0 / session.speed)
            with session.lock:  # emit under the lock: a pause cannot slip in before an older state
                if not session.autoplay_step(token):
                    return
                socketio.emit("state", state_message(session), to=sid)
                if not session.playing:
                    return

    return socketio
