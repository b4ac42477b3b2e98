"""Offences: frames that are not Engine.IO or Socket.IO at all, and events whose JSON the boundary refuses.

python-engineio and python-socketio (4.15 / 5.18) meet a frame they cannot decode with a full traceback in the
log (about 1.7 kB a frame) and no limit: an empty frame or one whose first character is not a packet type makes
the websocket handler raise (logged by the server, the connection dropped); ``4`` followed by deeply nested
brackets makes Engine.IO's JSON parser raise RecursionError; a Socket.IO packet of an unknown type, a
``CONNECT_ERROR`` from a client or an id of a hundred digits makes ``Server._handle_eio_message`` raise
(``message handler error``, traceback, connection kept). Here:

* ``engineio_problem(frame)``: what is wrong with a websocket frame or a polling packet as an Engine.IO packet,
  asked *before* Engine.IO decodes it (``privates.py`` screens both transports with it). A MESSAGE must carry a
  Socket.IO packet (a digit first), so Engine.IO never runs its JSON parser on one; other packet types may
  carry a short payload (``2probe``).
* ``codec.JsonPacket.decode`` never raises: a Socket.IO packet it cannot decode, or of a type a client may
  not send, becomes an event whose data is ``Malformed`` (the guard reports it here).
* ``MalformedPackets.report(eio_sid, kind)``: the one rule for offences. An offence is a malformed packet (the
  above), or an event whose JSON the boundary refuses (``codec.Undecodable``: nested too deep, an integer too
  long, a lone surrogate; it is also answered with an ``error``). Each offence counts against the connection's
  rate limit (the same bucket as its messages); each kind is logged once per connection, as one WARNING line
  without a traceback; a connection is closed at its first offence over the rate limit, or its
  ``MALFORMED_PER_CONNECTION + 1``-th (an honest client sends none: a refused event was refused for good, and
  sending it again changes nothing).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from socketio import Server

    from .ratelimit import RateLimiter

log = logging.getLogger(__name__)

MALFORMED_PER_CONNECTION = 20  # offences one connection may commit (malformed or refused packets); the next closes it
CLIENT_PACKET_TYPES = "123456"  # Engine.IO packets a client sends: close, ping, pong, message, upgrade, noop
MAX_CONTROL_PAYLOAD = 64  # "2probe" / "3probe": a control packet's payload is a short word


class Malformed:
    """The data of a Socket.IO packet that could not be decoded (``kind``: what was wrong, one short line)."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        self.kind = kind[:160]

    def __repr__(self) -> str:
        return f"Malformed({self.kind!r})"


def engineio_problem(frame: str | bytes | bytearray | None) -> str | None:
    """None if Engine.IO may decode ``frame`` (a websocket message: text, bytes, or None once closed)."""
    if frame is None or isinstance(frame, (bytes, bytearray)):  # closed; binary: Socket.IO's to judge
        return None
    if not frame:
        return "an empty Engine.IO packet"
    if frame[0] not in CLIENT_PACKET_TYPES:
        return f"Engine.IO packet type {frame[0]!r}"
    if frame[0] == "4":
        if len(frame) < 2 or not ("0" <= frame[1] <= "9"):
            return "an Engine.IO message that is not a Socket.IO packet"
    elif len(frame) > 1 + MAX_CONTROL_PAYLOAD:
        return f"an Engine.IO control packet with {len(frame) - 1} characters of payload"
    return None


def describe(err: BaseException) -> str:
    """One line naming what a decoder refused (no traceback, no payload)."""
    text = str(err).splitlines()[0][:100] if str(err) else ""
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


@dataclass
class Offences:
    """One connection's offences: how many, the kinds already logged, whether it is being closed."""

    count: int = 0
    logged: set[str] = field(default_factory=set)
    closed: bool = False


class MalformedPackets:
    """Per connection (Engine.IO sid): counts offences, logs once per kind, closes repeat offenders."""

    def __init__(self, sio_server: Server, limiter: RateLimiter | None = None,
                 allowed: int = MALFORMED_PER_CONNECTION) -> None:
        self.sio, self.limiter, self.allowed = sio_server, limiter, allowed
        self._seen: dict[str | None, Offences] = {}  # by Engine.IO sid
        self._lock = threading.Lock()

    def report(self, eio_sid: str | None, kind: str) -> bool:
        """One offence (a malformed or refused packet) from ``eio_sid``; True if the connection is being closed for
        it."""
        eio = self.sio.eio
        with self._lock:
            if len(self._seen) > 1024:  # forget connections that are gone
                for gone in [s for s in self._seen if s not in eio.sockets]:
                    del self._seen[gone]
            entry = self._seen.setdefault(eio_sid, Offences())
            entry.count += 1
            first = kind not in entry.logged
            entry.logged.add(kind)
        sid = self.sio.manager.sid_from_eio_sid(eio_sid, "/") if eio_sid is not None else None
        key = sid or eio_sid  # the Socket.IO sid's bucket, which its messages spend too
        over = self.limiter is not None and key is not None and self.limiter.check(key) != "admit"
        if first:
            log.warning("malformed packet from %s: %s (each kind is logged once per connection)", eio_sid, kind)
        if not over and entry.count <= self.allowed:
            return False
        with self._lock:
            if entry.closed:
                return True
            entry.closed = True
        reason = "over the rate limit" if over else f"more than {self.allowed}"
        log.warning("closed %s: %d malformed packets (%s)", eio_sid, entry.count, reason)
        return True

    def close(self, eio_sid: str | None) -> None:
        """Close a connection from one of its handlers (not from its websocket reader), at once: a polite close
        of a long-polling connection would wait for its next poll."""
        eio = self.sio.eio
        socket = eio.sockets.get(eio_sid)
        if socket is not None:
            socket.close(wait=False, abort=True, reason=eio.reason.SERVER_DISCONNECT)
            eio.sockets.pop(eio_sid, None)
