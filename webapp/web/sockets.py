"""Socket.IO: one class-based namespace whose methods translate messages into engine commands, and a hub that
sends what changed. No queue logic and no words here: the engine moves, the presenter says.

Client -> server: load {scenario, variants, range?, position?}, step, back, seek {position}, play {speed},
pause, reset, sync; each may carry {room, token} to drive a room instead of the connection's own session.
Rooms: create_room (ack {room, token}), claim_room {room, token} (a returning presenter; ack {room, loaded}),
join_room {room, voter?, speaker?, token?} (voter: a follower's id, see poll_answer; speaker: true for the
presenter's speaker view, with the presenter's token, which follows without being in the room; followers are sent
the room's scenes without the presenter's notes and what comes next, presenter.for_audience), leave_room {room}.
A room's presenter: poll_open, poll_reveal, blank {on} (each with {room, token}); a follower: poll_answer {room,
voter?, answers: {variant: choice}} (voter: its tab's id, kept across reconnections; a follower must have joined
the room). Diagnostics: echo (answered with the same payload).
Server -> client: scenario (after load), state {seq, ...} (a whole state: after load, seek, reset, join, sync),
delta {seq, position, playing, speed, room, ops} (after step, back and autoplay: what changed since state seq - 1),
error {message, event, kind}. Rooms: poll {room, position, key, pod, choices, variants, open, answered, counts}
(when a poll opens or is revealed, to the room; a joiner, or a presenter back, during a poll gets it too, a joiner
with yours: {variant: choice} if its voter has answered it, as after a reload; the room
moving off an open poll ends it first: the step it asks about reveals it, any other move withdraws it, {room,
position, open: false, cancelled: true}, as poll_cancel does), poll_tally {room, position, answered, counts}
(each answer, to the presenter only), blank {room, on} (to the room; a joiner, or a presenter back, gets it too
while the screens are blank, with joined: true).

The hub (hub.py) sends what changed, as the delivery protocol (delivery/protocol.py) says: to which channel,
through which queue, numbered how.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

from flask import Flask, current_app, request
from flask_socketio import Namespace, SocketIO, join_room, leave_room

from ..engine import followers
from ..engine.polls import checked_voter
from ..engine.room import Room, channels_of
from ..engine.rooms import Rooms
from ..engine.roomstore import MemoryRoomStore, RedisRoomStore
from ..engine.roomvotes import RoomVotes
from ..engine.session import Session, parse_range, parse_speed
from ..engine.simulation import check_variants
from ..errors import Invalid, TooLarge, UserError
from ..scenario.resolve import resolve
from ..scenario.scenario import Scenario
from ..server import privates
from ..server.codec import JsonPacket, JsonText, QueueJson, more_values_than
from ..server.connections import peer_of
from ..server.guard import Guard, Refusal
from ..server.listeners import Serving
from ..server.offload import offload_of
from ..server.origins import cors_allowed_origins
from ..server.settings import Settings
from . import held
from .answers import REFUSALS
from .connection import request_sid
from .fields import Fields, boolean, check_fields, fields
from .hub import Hub, Target
from .secret import room_secret
from .votes import VOTE_PAYLOADS, VoteEvents

log = logging.getLogger(__name__)

CONNECTION_EVENTS = ("connect", "disconnect")
DRIVE = ("room", "token")  # a message that may act on a room carries its code and the presenter's token
# event -> the fields its payload object may hold (any other is refused by name: a misspelt field would
# otherwise be ignored without a word); None: the handler takes whatever comes.
PAYLOADS = {
    "load": ("scenario", "variants", "position", "range", *DRIVE),
    "step": DRIVE, "back": DRIVE, "reset": DRIVE, "pause": DRIVE,
    "seek": ("position", *DRIVE),
    "play": ("speed", *DRIVE),
    "sync": ("scenario", *DRIVE),
    "claim_room": DRIVE, "join_room": ("voter", "speaker", *DRIVE),
    "poll_open": DRIVE, "poll_reveal": DRIVE, "poll_cancel": DRIVE,
    "poll_answer": ("answers", "voter", *DRIVE),
    "blank": ("on", *DRIVE),
    "echo": None, "create_room": None, "leave_room": None, **VOTE_PAYLOADS,
}
ECHO_VALUES = 1_000  # values an echo's payload may hold (its lists', objects' and scalars' count)
NEEDS_PAYLOAD = frozenset({"load", "seek"})  # an object is required; the others take an optional object
ACK_EVENTS = frozenset({"create_room", "claim_room"})  # answered through the acknowledgement too
FOLLOWER, PRESENTER, SPEAKER = "follower", "presenter", "speaker"  # how a connection follows a room (enter)
SPEAKER_VIEW = "open its speaker view: open it from the presenter's page (Shift+S)"
DROPPED = "dropped %r from %s: its connection closed before it was answered"
UNBUILT = "dropped %r from %s: the client left before its work started"
INTERNAL = "internal error: the server failed to handle this message (it was logged)"


def resolve_source(source: object) -> tuple[Scenario, str | None]:
    """``resolve`` a built-in id, a scenario object, or one a large packet kept as its JSON text (parsed here:
    in a worker process)."""
    return resolve(source.value() if isinstance(source, JsonText) else source)


class Viewers(VoteEvents, Namespace):  # type: ignore[misc]  # Flask-SocketIO has no types: its Namespace is Any
    """The default namespace. Every message is screened once before it gets here (``server/guard.py``), which
    asks ``checked`` for this app's part: an event it has no handler for, the fields a payload may hold.
    ``trigger_event`` (Flask-SocketIO's documented dispatch hook) runs ``on_<event>`` and answers a UserError
    with an ``error`` (and the acknowledgement); anything else is logged with its traceback and answered as
    ``Internal``; ``refuse`` answers the guard's refusals the same way."""

    def __init__(self, hub: Hub, guard: Guard) -> None:
        super().__init__("/")
        self.hub, self.guard = hub, guard
        self.followers: dict[str, str] = {}  # connection -> the signed follower id it came with (followers.py)

    # --- dispatch ------------------------------------------------------------------------------
    def checked(self, event: str, payload: object) -> object:
        """The payload ``on_<event>`` gets (an object, or {} for none, where the event takes fields); Invalid for
        an event without a handler or a payload of another shape."""
        if not hasattr(self, f"on_{event}") or event in CONNECTION_EVENTS:
            raise Invalid(f"unknown event {event[:60]!r}; expected one of {', '.join(self.events())}")
        names = PAYLOADS[event]
        if names is None:
            return payload
        given = {} if payload is None and event not in NEEDS_PAYLOAD else fields(payload, event)
        check_fields(f"'{event}'", given, names)
        return given

    def trigger_event(self, event: str, sid: str, *args: object) -> object:
        if event in CONNECTION_EVENTS:
            return super().trigger_event(event, sid, *args)
        try:
            return super().trigger_event(event, sid, *args)
        except UserError as err:
            self.guard.refused(sid, event)
            return self.refuse(sid, event, err)
        except Exception as err:  # a bug: logged once, answered without its details
            log.exception("handling %r failed", event[:60])
            return self.refuse(sid, event, err)

    def refuse(self, sid: str | None, event: str, err: Exception) -> dict[str, str] | None:
        """Tell connection ``sid`` (if any) why its ``event`` was refused; what its acknowledgement carries."""
        message, kind = (err.reply(), err.kind) if isinstance(err, UserError) else (INTERNAL, "Internal")
        if isinstance(err, REFUSALS):  # one line each, no traceback (answers.py logs HTTP's)
            log.warning("refused %r from %s: %s: %s", event[:60], sid, err.kind, str(err)[:300])
        if sid is not None and (not isinstance(err, Refusal) or err.tell):
            self.hub.send("error", {"message": message, "event": event[:60], "kind": kind}, sid, True)
        return {"error": message} if event in ACK_EVENTS else None

    @classmethod
    def events(cls) -> list[str]:
        return sorted(name[3:] for name in dir(cls) if name.startswith("on_") and name[3:] not in CONNECTION_EVENTS)

    # --- connections ---------------------------------------------------------------------------
    def on_connect(self, auth: object = None) -> None:
        self.hub.sessions[request_sid()] = self.hub.new_session()
        self.hub.placed(request_sid(), request.remote_addr)
        follower = self.hub.rooms.follower(request.cookies.get(followers.COOKIE))  # the room page's, signed
        if follower is not None:
            self.followers[request_sid()] = follower

    def on_disconnect(self, reason: object = None) -> None:
        sid = request_sid()
        self.followers.pop(sid, None)
        session = self.hub.sessions.pop(sid, None)
        self.hub.forget(sid)
        if session is not None:
            session.pause()
            sim = session.sim
            if sim is not None:
                self.hub.trim.session_closed(sum(line.bytes for line in sim.timelines.values()))
        self.hub.leave(sid)  # a room left with nobody stops playing now, and is forgotten soon

    def on_echo(self, payload: object = None) -> None:
        """Answers with the same payload: a baseline for round-trip measurements; at most ECHO_VALUES values (a
        string is one), since encoding the answer runs on the event loop (a 500,000-item list, 1 MB, held it for
        tens of ms a frame: bench/abuse.py listframe)."""
        if more_values_than(payload, ECHO_VALUES):
            raise Invalid(f"echo answers a payload of at most {ECHO_VALUES:,} values (a latency probe)")
        self.hub.send("echo", payload, request_sid(), True)

    # --- commands: each changes one session, then the hub sends what changed -------------------
    def on_load(self, payload: object) -> None:
        payload, sid = fields(payload, "load"), request_sid()
        target = self.hub.target(sid, payload)
        source = payload.get("scenario")
        # An upload is parsed, built and sent in one heavy-work place: the next waits as the text it came as.
        # The session's lock first, as every handler takes them (it may wait for a place holding its lock).
        self.hub.refused.check(source, payload)
        try:
            with self.hub.pending.one(sid, "load"), target.session.lock, self.hub.admitted(source):
                if self.hub.gone(sid):  # left while this waited: nobody to build it for
                    return log.warning(UNBUILT, "load", sid)
                scenario, scenario_id = self.hub.resolve(source)
                if self.hub.gone(sid):
                    return log.warning(DROPPED, "load", sid)
                # The versions asked for, else the ones the scenario opens on (default: v1.28.1 beside v1.28.2).
                variants = check_variants(payload.get("variants", scenario.versions))
                target.session.load(scenario, variants, scenario_id,
                                    parse_range(payload.get("range"), len(scenario.steps)), payload.get("position"))
                self.hub.publish(target, loaded=True)
        except TooLarge as refusal:  # what was built up to the bound is garbage now: given back (the process kept it)
            self.hub.refused.remember(source, payload, refusal)
            self.hub.trim.soon()
            raise
        self.hub.look_ahead(target)

    def on_step(self, payload: object) -> None:
        self.command(fields(payload, "step"), Session.step)

    def on_back(self, payload: object) -> None:
        self.command(fields(payload, "back"), Session.back)

    def on_seek(self, payload: object) -> None:
        payload = fields(payload, "seek")
        position = payload.get("position")
        self.command(payload, lambda session: session.seek(position), whole=True)

    def on_reset(self, payload: object) -> None:
        self.command(fields(payload, "reset"), Session.reset, whole=True)

    def on_pause(self, payload: object) -> None:
        self.command(fields(payload, "pause"), Session.pause)

    def on_play(self, payload: object) -> None:
        payload = fields(payload, "play")
        target = self.hub.target(request_sid(), payload)
        with target.session.lock:
            token = target.session.play(parse_speed(payload.get("speed", target.session.speed)))
            self.hub.publish(target)
        if token is not None:
            self.hub.socketio.start_background_task(self.hub.counted(self.autoplay), target, token)

    def on_sync(self, payload: object) -> None:
        """A client that missed a delta (a gap in ``seq``) asks for the whole state again: of the room it
        follows ({room}; no token needed), or of its own session; with ``scenario: true`` (its state names
        another scenario than the one it holds) the scenario message first."""
        payload, sid = fields(payload, "sync"), request_sid()
        scenario = boolean(payload, "scenario", False)
        with self.hub.pending.one(sid, "sync", self.hub.unread(sid)):
            if "room" in payload:
                room = self.hub.rooms.find(payload["room"])
                target = Target(room.session, room.channel, room)
            else:
                target = Target(self.hub.sessions[sid], sid)
            with target.session.lock:
                target.session.require()
                if not self.hub.gone(sid):
                    self.hub.whole_state(sid, target, scenario=scenario)

    def command(self, payload: Fields, change: Callable[[Session], None], whole: bool = False) -> None:
        """``change(session)`` on the message's target, then send what changed."""
        target = self.hub.target(request_sid(), payload)
        with target.session.lock:
            target.session.require()
            change(target.session)
            self.hub.publish(target, whole=whole)
        self.hub.look_ahead(target)

    def autoplay(self, target: Target, token: int) -> None:
        session = target.session
        while True:
            self.hub.socketio.sleep(1.0 / session.speed)
            with session.lock:  # publish under the lock: a pause cannot slip in before an older state
                try:
                    if target.room is not None:
                        self.hub.rooms.refresh(target.room)  # moved or paused elsewhere since: this task yields
                        if token == session.play_token and not self.hub.rooms.occupied(target.room):
                            self.hub.stop(target, token)  # nobody left to watch it, on any process
                            return
                    if not session.autoplay_step(token):
                        self.hub.stop(target, token)  # at the end (it said so) or replaced (then nothing is sent)
                        return
                    self.hub.publish(target)
                except UserError:  # the store is out of reach, or the room was created again elsewhere
                    session.pause()
                    return
                if not session.playing:
                    return
            self.hub.look_ahead(target)

    # --- rooms ---------------------------------------------------------------------------------
    def on_create_room(self, payload: object = None) -> dict[str, str]:
        room, sid = self.hub.rooms.create(owner=request.remote_addr), request_sid()
        self.hub.rooms.enter(room, sid)
        self.hub.rooms.present(room, sid)
        join_room(room.channel)
        join_room(room.presenter_channel)
        return {"room": room.code, "token": room.token}

    def on_claim_room(self, payload: object) -> dict[str, object]:
        payload, sid = fields(payload, "claim_room"), request_sid()
        with self.hub.pending.one(sid, "claim"):
            room = self.hub.rooms.claim(payload.get("room"), payload.get("token"), owner=request.remote_addr)
            self.hub.rooms.present(room, sid)
            self.enter(room, role=PRESENTER)
        return {"room": room.code, "loaded": room.session.sim is not None}

    def on_join_room(self, payload: object) -> None:
        """A follower joins: it is in the room (it keeps the room playing, it may answer its poll) and is sent its
        scenes as followers see them (``presenter.for_audience``). The presenter's speaker view (``speaker: true``,
        with the presenter's token) is sent them whole, as the presenter is, but is not in the room: it is the
        presenter's second window, not audience, and a room with nobody in it but that stops playing."""
        payload, sid = fields(payload, "join_room"), request_sid()
        speaker = boolean(payload, "speaker", False)
        if speaker and "voter" in payload:
            raise Invalid("a speaker view answers no poll: join_room takes a voter or speaker: true, not both")
        with self.hub.pending.one(sid, "join", self.hub.unread(sid)):
            if speaker:
                room = self.hub.rooms.authorize(payload.get("room"), payload.get("token"), SPEAKER_VIEW)
                self.enter(room, role=SPEAKER)
            else:
                self.enter(self.hub.rooms.find(payload.get("room")), self.voter(payload))
                self.vouch()

    def on_leave_room(self, payload: object = None) -> None:
        code = payload.get("room") if isinstance(payload, dict) else None
        if isinstance(code, str):
            for channel in channels_of(code.upper()):
                leave_room(channel)
            self.hub.leave(request_sid(), code)

    # --- a room's live poll and its blank screen ----------------------------------------------
    def on_poll_open(self, payload: object) -> None:
        """The presenter asks the room where the failing pod will go (what its scene's ``predict`` asks)."""
        room = self.presented(fields(payload, "poll_open"))
        with room.session.lock:
            room.session.require()
            prompt = self.hub.current(Target(room.session, room.channel, room))["scene"]["predict"]
            poll = self.hub.rooms.open_poll(room, prompt)
        self.hub.send_poll(room, poll)

    def on_poll_answer(self, payload: object) -> None:
        """A follower's answer {room, voter, answers: {variant: choice}}: counted for the presenter, never driving."""
        payload, sid = fields(payload, "poll_answer"), request_sid()
        room = self.hub.rooms.find(payload.get("room"))
        poll = self.hub.rooms.answer_poll(room, sid, self.voter(payload), payload.get("answers"),
                                          request.remote_addr, signed=sid in self.followers
                                          and self.hub.rooms.followers_per_address is not None)
        self.hub.send("poll_tally",
                      {"room": room.code, "position": poll["position"], **self.hub.rooms.tally(room, poll)},
                      room.presenter_channel, False)

    def on_poll_reveal(self, payload: object) -> None:
        """The presenter closes the poll: everyone sees how the room answered (then the step shows the truth)."""
        room = self.presented(fields(payload, "poll_reveal"))
        self.hub.send_poll(room, self.hub.rooms.close_poll(room))

    def on_poll_cancel(self, payload: object) -> None:
        """The presenter withdraws the poll without revealing it: followers put it away, late answers are refused."""
        room = self.presented(fields(payload, "poll_cancel"))
        self.hub.send_poll(room, self.hub.rooms.cancel_poll(room))

    def on_blank(self, payload: object) -> None:
        """The presenter blanks (``on`` true) or unblanks every follower's screen."""
        payload = fields(payload, "blank")
        room = self.presented(payload)
        on = boolean(payload, "on")
        self.hub.rooms.set_blank(room, on)  # a follower joining later sees it too
        self.hub.send("blank", {"room": room.code, "on": on}, room.channel, False)

    def voter(self, payload: Fields) -> object:
        """Who this connection answers polls as: its signed follower id (one per browser, however many tabs and
        connections carry it), else the voter its payload names (its tab's, bounded by its address)."""
        return self.followers.get(request_sid(), payload.get("voter"))

    def vouch(self) -> None:
        """A signed follower's websocket, now in a room, counts as a follower of its address, not against its
        connection bound (server/connections.py ``vouch``)."""
        serving: Serving | None = current_app.extensions.get("inflight_serving")
        table = serving.activity.connections if serving else None
        if table is not None and request_sid() in self.followers and \
                str(request.environ.get("HTTP_UPGRADE", "")).lower() == "websocket":
            table.vouch(peer_of(request.environ))

    def presented(self, payload: Fields) -> Room:
        """The room a presenter's message drives, if its token lets this connection drive it."""
        if "room" not in payload:
            raise Invalid("this is for a room's presenter: send {room, token}")
        return self.hub.drive(request_sid(), payload)

    def enter(self, room: Room, voter: object = None, role: str = FOLLOWER) -> None:
        """Follow ``room`` and receive where it is now (as ``voter``, its open poll with that voter's answer). A
        follower or a presenter is counted in the room (Rooms.enter); a follower is sent the scenes as followers
        see them, a presenter and a speaker view whole (on the presenter's channel)."""
        voter = None if voter is None else checked_voter(voter)  # a malformed one is refused before anything is joined
        sid = request_sid()
        if role == SPEAKER:
            room.speakers.add(sid)
        else:
            self.hub.rooms.enter(room, sid)
        # One of the two scene channels at a time: a follower who claims the room (or a presenter who follows it)
        # is sent each scene once, as its new role sees it.
        scenes, other = ((room.audience_channel, room.presenter_channel) if role == FOLLOWER
                         else (room.presenter_channel, room.audience_channel))
        leave_room(other)
        join_room(room.channel)
        join_room(scenes)
        # Read again now that its channels are joined: what another process published since the room was found
        # here is in this state (a delta numbered within it is dropped) or comes after it, never lost between.
        room = self.hub.rooms.refresh(room)
        with room.session.lock:
            if self.hub.gone(sid):  # left while this waited for the room's lock
                return
            self.hub.whole_state(sid, Target(room.session, room.channel, room), rejoin=True)
            poll = self.hub.rooms.open_poll_here(room)
        if poll is not None:  # a joiner during a poll can answer it too; a presenter back can reveal it
            self.hub.send_poll(room, poll, sid, self.hub.rooms.answer_of(room, voter))
        if self.hub.rooms.blank(room):  # the presenter has blanked the screens: so is the joiner's
            self.hub.send("blank", {"room": room.code, "on": True, "joined": True}, sid, True)
        self.send_vote(room, sid, voter)  # a joiner during a vote can vote too (votes.py)


def init_socketio(app: Flask, settings: Settings) -> SocketIO:
    queue = settings.message_queue
    socketio = SocketIO(app, async_mode=settings.async_mode, message_queue=queue,
                        max_http_buffer_size=int(settings.max_message_bytes),
                        cors_allowed_origins=cors_allowed_origins(settings.allowed_origins), serializer=JsonPacket)
    if queue:
        socketio.server.manager.json = QueueJson  # an Encoded message crosses to the other processes as one
    if socketio.server.eio.async_mode == "threading":
        privates.close_websockets_with_connection(socketio.server.eio)  # Werkzeug keeps a websocket's connection
    store = RedisRoomStore(queue, int(settings.room_idle_seconds)) if queue else MemoryRoomStore()
    max_bytes = settings.session_bytes
    offload = offload_of(app)

    def new_session() -> Session:
        return Session(max_bytes=max_bytes, run_apart=offload)

    def resolve_apart(source: object) -> tuple[Scenario, str | None]:
        # a built-in id: small, cached, resolved here (it waits for no lane); a scenario object is parsed and
        # validated in a worker process
        builtin_id = isinstance(source, str)
        return offload(resolve_source, source, small=builtin_id, pure=not builtin_id)

    def turn(source: object) -> AbstractContextManager[None]:
        return nullcontext() if isinstance(source, str) else offload.turn()  # a built-in waits for nothing

    rooms = Rooms(resolve_apart, store, new_session, room_secret(app),
                  empty_grace=float(settings.room_empty_grace_seconds), max_rooms=int(settings.max_rooms) or None,
                  max_per_owner=int(settings.max_rooms_per_address) or None,
                  answers_per_address=int(settings.max_answers_per_address) or None,
                  followers_per_address=int(settings.max_followers_per_address) or None,
                  unattended=float(settings.room_unattended_seconds))
    hub = Hub(socketio, rooms, new_session, resolve_apart, turn, offload.native)
    app.extensions["inflight_sessions"] = hub.sessions
    app.extensions[held.ROOMS] = rooms
    app.extensions["inflight_votes"] = RoomVotes(store, rooms)
    app.extensions[held.HUB] = hub
    guard = app.extensions["inflight_guard"] = Guard(settings, socketio, hub.sessions, rooms, hub.prune)
    viewers = Viewers(hub, guard)
    guard.serve(viewers.checked, viewers.refuse)  # every message screened once, before any handler
    # a client that does not read what it is sent is dropped past MAX_OUTGOING_BYTES, its memory given back
    hub.outgoing = privates.bound_outgoing(socketio.server.eio, int(settings.max_outgoing_bytes), hub.trim.soon)
    socketio.on_namespace(viewers)
    return socketio
