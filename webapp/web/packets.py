"""Malformed packets: frames that are not Engine.IO or Socket.IO at all, answered at the boundary.

python-engineio and python-socketio (4.15 / 5.18) meet a frame they cannot decode with a full traceback in the
log (about 1.7 kB a frame) and no limit: an empty frame or one whose first character is not a packet type makes
the websocket handler raise (logged by the server, the connection dropped); ``4`` followed by deeply nested
brackets makes Engine.IO's JSON parser raise RecursionError; a Socket.IO packet of an unknown type, a
``CONNECT_ERROR`` from a client or an id of a hundred digits makes ``Server._handle_eio_message`` raise
(``message handler error``, traceback, connection kept). Here:

* ``engineio_problem(frame)``: what is wrong with a websocket frame as an Engine.IO packet, checked *before*
  Engine.IO decodes it (``screen_engineio`` wraps the server's websocket class, so ``ws.wait()`` never hands
  Engine.IO such a frame; ``screen_polling`` does the same for the packets of a long-polling POST). A MESSAGE
  must carry a Socket.IO packet (a digit first), so Engine.IO never runs its JSON parser on one; other packet
  types may carry a short payload (``2probe``).
* ``limits.JsonPacket.decode`` never raises: a Socket.IO packet it cannot decode, or of a type a client may
  not send, becomes an event whose data is ``Malformed`` (``limits.screen_packets`` reports it here).
* ``MalformedPackets.report(eio_sid, kind)``: the one rule for offences. An offence is a malformed packet (the
  above), or an event whose JSON the boundary refuses (``limits.Undecodable``: nested too deep, an integer too
  long, a lone surrogate; it is also answered with an ``error``). Each offence counts against the connection's
  rate limit (the same bucket as its messages); each kind is logged once per connection, as one WARNING line
  without a traceback; a connection is closed at its first offence over the rate limit, or its
  ``MALFORMED_PER_CONNECTION + 1``-th (an honest client sends none: a refused event was refused for good, and
  sending it again changes nothing). A connection that kept sending packets nested too deep was never closed:
  each one cost its parse and an ``error``, for as long as it kept within the rate limit.
"""

from __future__ import annotations

import logging
import threading

log = logging.getLogger(__name__)

MALFORMED_PER_CONNECTION = 20  # offences one connection may commit (malformed or refused packets); the next closes it
CLIENT_PACKET_TYPES = "123456"  # Engine.IO packets a client sends: close, ping, pong, message, upgrade, noop
MAX_CONTROL_PAYLOAD = 64  # "2probe" / "3probe": a control packet's payload is a short word


class Malformed:
    """The data of a Socket.IO packet that could not be decoded (``kind``: what was wrong, one short line)."""

    __slots__ = ("kind",)

    def __init__(self, kind: str):
        self.kind = kind[:160]

    def __repr__(self) -> str:
        return f"Malformed({self.kind!r})"


def engineio_problem(frame) -> str | None:
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


class MalformedPackets:
    """Per connection (Engine.IO sid): counts offences, logs once per kind, closes repeat offenders."""

    def __init__(self, sio_server, limiter=None, allowed: int = MALFORMED_PER_CONNECTION):
        self.sio, self.limiter, self.allowed = sio_server, limiter, allowed
        self._seen: dict[str, list] = {}  # eio sid -> [count, kinds logged, closed]
        self._lock = threading.Lock()

    def report(self, eio_sid, kind: str) -> bool:
        """One offence (a malformed or refused packet) from ``eio_sid``; True if the connection is being closed for
        it."""
        eio = self.sio.eio
        with self._lock:
            if len(self._seen) > 1024:  # forget connections that are gone
                for gone in [s for s in self._seen if s not in eio.sockets]:
                    del self._seen[gone]
            entry = self._seen.setdefault(eio_sid, [0, set(), False])
            entry[0] += 1
            first = kind not in entry[1]
            entry[1].add(kind)
        sid = self.sio.manager.sid_from_eio_sid(eio_sid, "/") if eio_sid is not None else None
        key = sid or eio_sid  # the Socket.IO sid's bucket, which its messages spend too
        over = self.limiter is not None and key is not None and self.limiter.check(key) != "admit"
        if first:
            log.warning("malformed packet from %s: %s (each kind is logged once per connection)", eio_sid, kind)
        if not over and entry[0] <= self.allowed:
            return False
        with self._lock:
            if entry[2]:
                return True
            entry[2] = True
        reason = "over the rate limit" if over else f"more than {self.allowed}"
        log.warning("closed %s: %d malformed packets (%s)", eio_sid, entry[0], reason)
        return True

    def close(self, eio_sid) -> None:
        """Close a connection from one of its handlers (not from its websocket reader), at once: a polite close
        of a long-polling connection would wait for its next poll."""
        eio = self.sio.eio
        socket = eio.sockets.get(eio_sid)
        if socket is not None:
            socket.close(wait=False, abort=True, reason=eio.reason.SERVER_DISCONNECT)
            eio.sockets.pop(eio_sid, None)


class _ScreenedSocket:
    """A websocket whose ``wait()`` never returns a frame Engine.IO cannot decode: it is reported and skipped,
    or, for a connection being closed, ``wait()`` returns None (Engine.IO's "closed by the client")."""

    def __init__(self, ws, eio_sid, malformed: MalformedPackets):
        self._ws, self._eio_sid, self._malformed = ws, eio_sid, malformed

    def wait(self):
        while True:
            frame = self._ws.wait()
            problem = engineio_problem(frame)
            if problem is None:
                return frame
            if self._malformed.report(self._eio_sid, problem):
                return None

    def __getattr__(self, name):
        return getattr(self._ws, name)


def screen_engineio(sio_server, malformed: MalformedPackets) -> None:
    """Give this server's Engine.IO a websocket class whose sockets are ``_ScreenedSocket`` (this server only:
    Engine.IO's driver table is copied, not changed)."""
    eio = sio_server.eio
    websocket_class = (getattr(eio, "_async", None) or {}).get("websocket")
    if websocket_class is None:  # tests/web/test_library_hooks.py pins what it expects
        log.warning("python-engineio has no websocket driver where packets.screen_engineio expects one: websocket "
                    "frames are not screened")
        return

    class ScreenedWebSocket:
        def __init__(self, handler, server):
            eio_sid = getattr(getattr(handler, "__self__", None), "sid", None)  # Socket._websocket_handler
            self._inner = websocket_class(lambda ws: handler(_ScreenedSocket(ws, eio_sid, malformed)), server)

        def __call__(self, environ, start_response):
            return self._inner(environ, start_response)

    eio._async = {**eio._async, "websocket": ScreenedWebSocket}


def screen_polling(sio_server, malformed: MalformedPackets) -> None:
    """The same screen for the long-polling transport: each Engine.IO socket of this server, once made, reads its
    POST bodies with ``_screened_post`` (Engine.IO would log a traceback for a bad packet and answer 200)."""
    eio = sio_server.eio
    original_connect = eio.handlers.get("connect")
    if original_connect is None:
        return

    def connect(eio_sid, environ, *args):
        socket = eio.sockets.get(eio_sid)
        if socket is not None:
            socket.handle_post_request = _screened_post(socket, malformed)
        return original_connect(eio_sid, environ, *args)

    eio.on("connect", connect)


MAX_LENGTH_DIGITS = 12  # a Content-Length longer than this is refused before it is converted


def _screened_post(socket, malformed: MalformedPackets):
    """``Socket.handle_post_request`` with each packet of the body screened (``engineio_problem``): a malformed one
    is reported and skipped; for a connection being closed, Engine.IO's own error path closes it (HTTP 400)."""
    from engineio import exceptions, packet, payload

    def close():  # at once (a polite close would wait for the client to poll for it), then Engine.IO's 400
        socket.close(wait=False, abort=True)
        raise exceptions.EngineIOError()

    def handle_post_request(environ):
        text = environ.get("CONTENT_LENGTH") or "0"  # checked before int(): Werkzeug passes the header on as sent
        if not (text.isascii() and text.isdigit()) or len(text) > MAX_LENGTH_DIGITS:
            malformed.report(socket.sid, "a polling body whose Content-Length is not a count of bytes")
            close()  # its body cannot be told from the next request's: the connection ends
        length = int(text)
        if length > socket.server.max_http_buffer_size:
            raise exceptions.ContentTooLongError()
        body = environ["wsgi.input"].read(length)
        try:
            frames = body.decode("utf-8").split("\x1e") if body else []
        except UnicodeDecodeError:
            frames, problem = [], "a polling body that is not UTF-8"
        else:
            problem = "more than 16 packets in one polling body" if len(frames) > payload.Payload.max_decode_packets \
                else None
        if problem is not None:
            frames = []
            if malformed.report(socket.sid, problem):
                close()
        for frame in frames:
            problem = engineio_problem(frame)  # "b…" (base64 binary) too: this server takes JSON only
            if problem is not None:
                if malformed.report(socket.sid, problem):
                    close()
                continue
            socket.receive(packet.Packet(encoded_packet=frame))

    return handle_post_request

