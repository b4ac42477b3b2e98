"""The one screening stage of Socket.IO messages: ``Guard.screen`` decides, once for every event packet and
before any handler, whether it is handled, and if not, what its sender is told. In order:

1. a packet that could not be decoded (``offences.Malformed``) is an offence: counted, logged once per kind,
   a repeat offender closed; nobody is told;
2. a connection without a session (connecting, or gone) is not answered;
3. an event whose JSON the boundary refused (``codec.Undecodable``: nesting, a long integer, a lone surrogate)
   is an offence too, and answered with an ``error`` naming where;
4. the rate limit (``RATE_LIMIT_PER_SECOND`` / ``RATE_LIMIT_BURST``, ``ratelimit.py``): a message over it is
   dropped, its sender told at most once a second;
5. what python-socketio (5.18) would mishandle: an event a client *names* "connect" or "disconnect" (it would
   reach the connection handlers: a "disconnect" dropped the session of a connection that stayed), a name that
   is not a string (the handler lookup raises), "*" (the catch-all would get the payload as the event name),
   more than one argument (a one-payload handler raises TypeError), binary attachments (the server speaks JSON;
   ``echo`` would send them back);
6. the app's own rule for the message (``check``: an event it has no handler for, the fields a payload may
   hold), and a large payload the codec refused unparsed (``codec.Unread``);
7. ``MAX_ROOMS_PER_CONNECTION``: ``create_room`` (and a ``claim_room`` that re-creates a room) beyond this many
   on one connection is refused: every room can hold a simulation, so rooms are bounded like sessions.

A refusal is answered by the app (``answer``: its ``error`` message, and what an acknowledgement carries). An
event packet over the rate limit is dropped before it is even decoded (``over_limit``). The screen is wired to
python-socketio in ``privates.py``, the one module that touches library internals.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import Invalid, UserError
from . import privates
from .codec import Attached, Undecodable, Unread, carries_binary, event_name
from .offences import Malformed, MalformedPackets
from .ratelimit import ADMIT, REFUSE_AND_TELL, RateLimiter, rate_limit_message
from .sweeper import IdleRooms, IdleSession, Sweeper

if TYPE_CHECKING:
    from flask_socketio import SocketIO

    from .settings import Settings

Check = Callable[[str, object], object]  # (event, payload) -> the payload its handler gets; a UserError otherwise
Answer = Callable[[str | None, str, Exception], object]  # (sid, event, refusal) -> what its acknowledgement carries

RESERVED_EVENTS = ("connect", "disconnect")
ROOM_CREATING_EVENTS = frozenset({"create_room", "claim_room"})  # claim_room re-creates a room that is gone
UNDECODABLE = "an event whose JSON was refused at the boundary (nesting, a long integer, a lone surrogate)"


class Refusal(UserError):
    """A message dropped by the guard; ``tell``: whether the sender is to be told this time."""

    def __init__(self, message: str, tell: bool = True) -> None:
        super().__init__(message)
        self.tell = tell


@dataclass(frozen=True)
class Screened:
    """What ``screen`` decided: ``data`` ([event, payload]) to hand to its handler, else ``refusal`` to answer
    (for ``event``, shown as sent), else nothing (dropped without a word)."""

    sid: str | None = None
    event: str = ""
    data: list[object] | None = None
    refusal: UserError | None = None


DROPPED = Screened()


class Guard:
    """``screen`` every event packet; ``refused`` when a handler refuses one the screen let through.
    ``serve(check, answer)`` puts it in front of the app's handlers: ``check(event, payload)`` -> the payload
    the handler gets (raises a UserError otherwise); ``answer(sid, event, refusal)`` -> what the
    acknowledgement carries."""

    def __init__(self, settings: Settings, socketio: SocketIO, sessions: Mapping[str, IdleSession], rooms: IdleRooms,
                 on_sweep: Callable[[], None] | None = None) -> None:
        rate, burst = float(settings.rate_limit_per_second), float(settings.rate_limit_burst)
        self.limiter = RateLimiter(rate, max(burst, 1)) if rate > 0 else None
        self.rate_refusal = rate_limit_message(rate, burst)
        self.max_rooms = int(settings.max_rooms_per_connection)
        self.rooms_refusal = (f"room limit: one connection may create at most {self.max_rooms} rooms; "
                              "reload the page to start again")
        self.server = socketio.server
        self.sessions = sessions
        self.on_sweep = on_sweep  # what else to forget after a sweep (what was sent to closed connections)
        self._rooms_made: dict[str, int] = {}
        self._lock = threading.Lock()
        self.sweeper = Sweeper(socketio, sessions, rooms, settings.session_idle_seconds,
                               settings.room_idle_seconds, settings.sweep_seconds, on_sweep=self._forget_closed)
        self.malformed = MalformedPackets(self.server, self.limiter)
        self.check: Check | None = None
        self.answer: Answer | None = None

    def serve(self, check: Check, answer: Answer) -> None:
        self.check, self.answer = check, answer
        privates.screen_socketio(self.server, self)

    # --- the screen ------------------------------------------------------------------------------
    def screen(self, eio_sid: str, namespace: str | None, data: object) -> Screened:
        if self.check is None:  # not serving yet
            return DROPPED
        if isinstance(data, Malformed):
            self.offence(eio_sid, data.kind)
            return DROPPED
        sid = self.server.manager.sid_from_eio_sid(eio_sid, namespace or "/")
        if sid is None or sid not in self.sessions:
            return DROPPED
        event = event_name(data)
        try:
            if isinstance(data, Undecodable):
                if self.offence(eio_sid, UNDECODABLE):
                    return DROPPED
                raise Invalid(data.problem)
            self._spend(sid)
            problem = packet_problem(data)
            if problem is not None:
                raise Invalid(problem)
            assert isinstance(data, list)  # packet_problem refuses any other
            payload = data[1] if len(data) > 1 else None
            if isinstance(payload, Unread):  # refused before it was parsed
                raise payload.refusal
            payload = self.check(event, payload)
            self._count_room(sid, event)
        except UserError as refusal:
            return Screened(sid, event, refusal=refusal)
        return Screened(sid, event, data=[event, payload])

    def _spend(self, sid: str) -> None:
        """The rate limit (a Refusal over it), and the sweeper started with the first admitted message."""
        self.sweeper.ensure_running()
        if self.limiter is not None:
            verdict = self.limiter.check(sid)
            if verdict != ADMIT:
                raise Refusal(self.rate_refusal, tell=verdict == REFUSE_AND_TELL)

    def _count_room(self, sid: str, event: str) -> None:
        if event not in ROOM_CREATING_EVENTS:
            return
        with self._lock:
            made = self._rooms_made.get(sid, 0)
            if made < self.max_rooms:
                self._rooms_made[sid] = made + 1
                return
        raise Refusal(self.rooms_refusal)

    def over_limit(self, eio_sid: str, text: object) -> bool:
        """Whether an event packet (``2["name",...``, default namespace) is over its connection's rate limit, asked
        before it is decoded; if so it is dropped, and the sender told at most once a second."""
        if self.limiter is None or not isinstance(text, str) or text[:1] != "2" or text[1:2] == "/":
            return False
        sid = self.server.manager.sid_from_eio_sid(eio_sid, "/")
        verdict = self.limiter.check(sid, spend=False) if sid is not None else ADMIT
        if verdict == REFUSE_AND_TELL and self.answer is not None:
            self.answer(sid, event_name(text), Refusal(self.rate_refusal))
        return verdict != ADMIT

    def offence(self, eio_sid: str | None, kind: str) -> bool:
        """Count an offence (``offences.MalformedPackets``); True if the connection is being closed for it."""
        if self.malformed.report(eio_sid, kind):
            self.malformed.close(eio_sid)
            return True
        return False

    def refused(self, sid: str, event: str) -> None:
        """An event the screen let through was refused by its handler: a room-creating one created no room, so
        it does not count (ten failed claims used up a connection's rooms)."""
        if event in ROOM_CREATING_EVENTS:
            with self._lock:
                if self._rooms_made.get(sid, 0) > 0:
                    self._rooms_made[sid] -= 1

    def _forget_closed(self) -> None:
        open_now = set(self.sessions)
        if self.limiter is not None:
            self.limiter.keep_only(open_now)
        with self._lock:
            for sid in [s for s in self._rooms_made if s not in open_now]:
                del self._rooms_made[sid]
        if self.on_sweep is not None:
            self.on_sweep()


def packet_problem(data: object) -> str | None:
    """What python-socketio would mishandle in an event packet's data (step 5 above), or None."""
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        return "an event needs a name (a string)"
    if data[0] == "*":
        return "unknown event '*'"
    if data[0] in RESERVED_EVENTS:
        return f"'{data[0]}' is the name of a connection event; a client cannot send it"
    if len(data) > 2:
        return f"'{data[0][:60]}' takes one payload, not {len(data) - 1}"
    if isinstance(data, Attached) and carries_binary(data[1:]):  # walked only when the packet has attachments
        return f"'{data[0][:60]}' carries binary data; this server takes JSON only"
    return None
