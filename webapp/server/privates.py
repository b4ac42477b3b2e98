"""The one module of webapp that touches private parts of python-socketio, python-engineio and eventlet. Each
is pinned by name and signature in tests/web/test_library_hooks.py (which also checks that no other module
names them), and pyproject.toml pins the three libraries to exact versions. None has a public hook:

* ``socketio.Server._handle_event`` (``screen_socketio``): the one place every event packet passes before
  python-socketio dispatches it; ``Guard.screen`` runs there. Flask-SocketIO's ``Namespace.trigger_event`` is
  too late: a client's event named "connect" has already reached the connection handler by then, and a name
  that is not a string has already made the handler lookup raise.
* ``socketio.Server._send_packet``: the acknowledgement of a packet the screen refused (python-socketio sends
  one only for an event its handler ran).
* ``socketio.Server._handle_eio_message`` and ``_binary_packet`` (``screen_socketio``): Engine.IO's "message"
  handler, registered with the public ``eio.on``, still has to call python-socketio's; a packet over the rate
  limit is dropped before it is decoded there, and a text packet where a binary attachment is due (or the
  reverse), which python-socketio would mishandle, is an offence.
* ``engineio.Server._async["websocket"]``, the driver table's websocket class, and ``Socket._websocket_handler``
  (bound: its ``__self__.sid`` names the connection): a websocket's frames screened before Engine.IO decodes
  them (``_ScreenedSocket``); under threading, a websocket whose TCP connection ends with it
  (``ClosingWebSocket``, a subclass of ``engineio.async_drivers._websocket_wsgi.SimpleWebSocketWSGI``: Werkzeug
  keeps the connection open after the handshake is done, and a client's disconnect would wait for it).
  Engine.IO takes no websocket class or frame filter as an option.
* ``engineio.socket.Socket.handle_post_request``: the packets of a long-polling POST screened the same way.
* ``engineio.Server.handle_request`` (public, replaced on this server) guarded against its private ``_get_socket``
  raising for a closed session and its ``disconnect`` waiting on a client that does not poll
  (``_session_guard``).
* ``engineio.Server.create_queue`` (a public method, relied on where Engine.IO calls it: each new connection's
  outgoing queue is made by it) (``bound_outgoing``): every connection's outgoing queue bounded in bytes
  (``backpressure.py``). Engine.IO takes no bound nor queue class as an option.
* ``eventlet.websocket.RFC6455WebSocket._apply_mask`` and ``.wait`` (``install_eventlet_frames``): frames
  unmasked at C speed, each connection read within a budget, the hub yielded to after each message
  (``frames.py``). eventlet's websocket server has no option for either; a server in front (nginx) cannot
  unmask for it (RFC 6455 has a proxy forward frames masked).

Every installer checks that what it replaces is the thing it knows, and otherwise leaves the library as it is
with a warning in the log.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import types
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI
from socketio.packet import ACK

from .deadlines import BodyLate
from .frames import apply_mask, owed_seconds, read_budget
from .offences import MalformedPackets, describe, engineio_problem

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment
    from engineio import Server as EngineServer  # python-engineio and python-socketio have no types: Any
    from engineio.socket import Socket as EngineSocket
    from socketio import Server as SocketServer

    from .backpressure import Bound
    from .guard import Guard

WebSocketClass = Callable[["WebSocketHandler", "EngineServer"], "WSGIApplication"]  # a driver's websocket app
Frame = str | bytes | bytearray | None  # a websocket message as a driver's wait() returns it (None: closed)
WebSocketHandler = Callable[..., object]  # Engine.IO's handler of a websocket (its Socket's, bound)


class _WebSocket(Protocol):
    def wait(self) -> Frame: ...

log = logging.getLogger(__name__)


# --- python-socketio: the screen in front of every handler -------------------------------------------------------
def screen_socketio(server: SocketServer, guard: Guard) -> None:
    """Put ``guard`` (``guard.Guard``) in front of this Socket.IO server's handlers, and screen its Engine.IO
    transports (``screen_engineio``, ``screen_polling``)."""
    screen_engineio(server, guard)
    screen_polling(server, guard)
    original_event, original_message = server._handle_event, server._handle_eio_message

    def handle_event(eio_sid: str, namespace: str | None, id: int | None, data: object) -> object:
        screened = guard.screen(eio_sid, namespace, data)
        if screened.data is not None:
            return original_event(eio_sid, namespace, id, screened.data)
        if screened.refusal is not None and guard.answer is not None:
            ack = guard.answer(screened.sid, screened.event, screened.refusal)
            if id is not None:
                server._send_packet(eio_sid, server.packet_class(ACK, namespace=namespace or "/", id=id,
                                                                 data=[] if ack is None else [ack]))
        return None

    def handle_message(eio_sid: str, data: str | bytes) -> object:
        """Engine.IO's "message" handler: a text packet where a binary attachment is due, a binary frame where
        none is (it reached the JSON decoder, whose eventlet path logged a traceback for each), or a packet
        python-socketio itself refuses (a binary one before connecting), is an offence."""
        pending = server._binary_packet.get(eio_sid)
        binary = isinstance(data, (bytes, bytearray))
        if pending is not None and not binary:
            server._binary_packet.pop(eio_sid, None)
            kind = "a text packet where a binary attachment was due"
        elif pending is None and binary:
            kind = "a binary frame where no attachment was due"
        elif guard.over_limit(eio_sid, data):
            return None
        else:
            try:
                return original_message(eio_sid, data)
            except ValueError as err:  # raised by python-socketio's dispatch (handlers run apart from it)
                kind = f"an unexpected Socket.IO packet ({describe(err)})"
        guard.offence(eio_sid, kind)
        return None

    server._handle_event = handle_event
    server.eio.on("message", handle_message)  # registered by name when the server was made


# --- python-engineio: both transports' packets screened before Engine.IO decodes them ----------------------------
class _ScreenedSocket:
    """A websocket whose ``wait()`` never returns a frame Engine.IO cannot decode: it is reported and skipped,
    or, for a connection being closed, ``wait()`` returns None (Engine.IO's "closed by the client")."""

    def __init__(self, ws: _WebSocket, eio_sid: str | None, guard: Guard) -> None:
        self._ws, self._eio_sid, self._guard = ws, eio_sid, guard

    def wait(self) -> Frame:
        while True:
            frame = self._ws.wait()
            problem = engineio_problem(frame)
            if problem is None:
                return frame
            if self._guard.malformed.report(self._eio_sid, problem):
                return None

    def __getattr__(self, name: str) -> object:
        return getattr(self._ws, name)


def screen_engineio(sio_server: SocketServer, guard: Guard) -> None:
    """Give this server's Engine.IO a websocket class whose sockets are ``_ScreenedSocket`` (this server only:
    Engine.IO's driver table is copied, not changed)."""
    def screened(handler: WebSocketHandler) -> WebSocketHandler:
        eio_sid = getattr(getattr(handler, "__self__", None), "sid", None)  # Socket._websocket_handler
        return lambda ws: handler(_ScreenedSocket(ws, eio_sid, guard))

    if not _wrap_websockets(sio_server.eio, screened):
        log.warning("python-engineio has no websocket driver where privates.screen_engineio expects one: websocket "
                    "frames are not screened")


def _wrap_websockets(eio: EngineServer, wrap: Callable[[WebSocketHandler], WebSocketHandler]) -> bool:
    """This Engine.IO server's websocket class (its driver table copied, not changed) calls ``wrap(handler)`` where
    it called Engine.IO's ``handler``; False if it has no websocket driver."""
    websocket_class: WebSocketClass | None = (getattr(eio, "_async", None) or {}).get("websocket")
    if websocket_class is None:
        return False
    inner_class = websocket_class

    class WrappedWebSocket:
        def __init__(self, handler: WebSocketHandler, server: EngineServer) -> None:
            self._inner = inner_class(wrap(handler), server)

        def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
            return self._inner(environ, start_response)

    eio._async = {**eio._async, "websocket": WrappedWebSocket}
    return True


def screen_polling(sio_server: SocketServer, guard: Guard) -> None:
    """The same screen for the long-polling transport: each Engine.IO socket of this server, once made, reads its
    POST bodies with ``_screened_post`` (Engine.IO would log a traceback for a bad packet and answer 200); and
    every Engine.IO request passes ``_session_guard`` first."""
    eio = sio_server.eio
    _session_guard(eio)
    original_connect = eio.handlers.get("connect")
    if original_connect is None:
        return

    def connect(eio_sid: str, environ: WSGIEnvironment, *args: object) -> object:
        socket = eio.sockets.get(eio_sid)
        if socket is not None:
            socket.handle_post_request = _screened_post(socket, guard.malformed)
        return original_connect(eio_sid, environ, *args)

    eio.on("connect", connect)


MAX_LENGTH_DIGITS = 12  # a Content-Length longer than this is refused before it is converted
INVALID_SESSION = b'"Invalid session"'  # Engine.IO's own answer to a session it does not hold


def _session_guard(eio: EngineServer) -> None:
    """In front of ``engineio.Server.handle_request`` (python-engineio 4.15):

    * a polling POST whose body is over ``max_http_buffer_size`` closes its session at once and is answered 413
      with one ``Connection: close`` (its unread body cannot be told from a next request), ours unless the server
      writes its own (``server_says_close``). Engine.IO would answer 400 only after ``disconnect``'s polite close,
      which waits for the client to poll for the close packet: a client that does not poll leaves the request
      hanging, and its session in ``sockets``, closed;
    * a request naming a session that is closed but still held (closing, or left as above) finds it gone, as
      Engine.IO's ``_get_socket`` would: its POST branch asks ``_get_socket`` without catching the KeyError
      ("Session is disconnected"), a 500 with a traceback. Any such KeyError left is answered 400 the same way.
    """
    original = eio.handle_request

    def handle_request(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        sid = _sid_of(environ)
        socket = eio.sockets.get(sid) if sid else None
        if socket is not None and environ.get("REQUEST_METHOD") == "POST" and _over(environ, eio):
            socket.close(wait=False, abort=True)
            eio.sockets.pop(sid, None)
            body = b'"message too large: the session is closed"'
            headers = [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))]
            if not server_says_close(environ):  # said once: two Connection headers are one too many
                headers.append(("Connection", "close"))
            start_response("413 Payload Too Large", headers)
            return [body]
        if socket is not None and socket.closed:
            eio.sockets.pop(sid, None)  # as _get_socket does: Engine.IO then answers "Invalid session", 400
        try:
            answer: Iterable[bytes] = original(environ, start_response)
            return answer
        except KeyError as err:
            if err.args != ("Session is disconnected",):
                raise
            start_response("400 BAD REQUEST", [("Content-Type", "text/plain"),
                                               ("Content-Length", str(len(INVALID_SESSION)))])
            return [INVALID_SESSION]

    eio.handle_request = handle_request


def server_says_close(environ: WSGIEnvironment) -> bool:
    """Whether the server writes ``Connection: close`` into this request's answer by itself: Werkzeug's into every
    answer; eventlet's (0.41) where it closes the connection anyway, for a client that asks it or speaks HTTP/1.0
    without keep-alive (``SERVER_PROTOCOL`` is the request's own version: ``listeners.py``), and for a body
    announced with ``Expect: 100-continue`` and left unread (as this answer leaves it)."""
    if str(environ.get("SERVER_SOFTWARE", "")).startswith("Werkzeug"):
        return True
    asked = str(environ.get("HTTP_CONNECTION", "")).lower()
    kept = asked == "keep-alive" or (environ.get("SERVER_PROTOCOL") == "HTTP/1.1" and asked != "close")
    return not kept or str(environ.get("HTTP_EXPECT", "")).lower() == "100-continue"


def _sid_of(environ: WSGIEnvironment) -> str | None:
    for part in str(environ.get("QUERY_STRING") or "").split("&"):
        if part.startswith("sid="):
            return part[4:]
    return None


def _over(environ: WSGIEnvironment, eio: EngineServer) -> bool:
    text = str(environ.get("CONTENT_LENGTH") or "0")
    return text.isascii() and text.isdigit() and len(text) <= MAX_LENGTH_DIGITS \
        and int(text) > int(eio.max_http_buffer_size)  # (a length that is no count: _screened_post's 400)


def _screened_post(socket: EngineSocket, malformed: MalformedPackets) -> Callable[[WSGIEnvironment], None]:
    """``Socket.handle_post_request`` with each packet of the body screened (``engineio_problem``): a malformed one
    is reported and skipped; for a connection being closed, Engine.IO's own error path closes it (HTTP 400)."""
    from engineio import exceptions, packet, payload

    sid: str | None = socket.sid

    def close() -> None:  # at once (a polite close would wait for the client to poll for it), then Engine.IO's 400
        socket.close(wait=False, abort=True)
        raise exceptions.EngineIOError()

    def handle_post_request(environ: WSGIEnvironment) -> None:
        text = environ.get("CONTENT_LENGTH") or "0"  # checked before int(): Werkzeug passes the header on as sent
        if not (text.isascii() and text.isdigit()) or len(text) > MAX_LENGTH_DIGITS:
            malformed.report(sid, "a polling body whose Content-Length is not a count of bytes")
            close()  # its body cannot be told from the next request's: the connection ends
        length = int(text)
        if length > socket.server.max_http_buffer_size:  # (answered before: _session_guard)
            close()
        try:
            body = environ["wsgi.input"].read(length)
        except BodyLate:  # late, or cut short (deadlines.py): the session ends with its connection
            close()
        problem: str | None
        try:
            frames = body.decode("utf-8").split("\x1e") if body else []
        except UnicodeDecodeError:
            frames, problem = [], "a polling body that is not UTF-8"
        else:
            problem = "more than 16 packets in one polling body" if len(frames) > payload.Payload.max_decode_packets \
                else None
        if problem is not None:
            frames = []
            if malformed.report(sid, problem):
                close()
        for frame in frames:
            problem = engineio_problem(frame)  # "b…" (base64 binary) too: this server takes JSON only
            if problem is not None:
                if malformed.report(sid, problem):
                    close()
                continue
            socket.receive(packet.Packet(encoded_packet=frame))

    return handle_post_request


# --- the threading server: a websocket's TCP connection ends with it ---------------------------------------------
REPLY_SECONDS = 1.0  # how long the end waits for simple-websocket's reader to send the server's close frame back


class ClosingWebSocket(SimpleWebSocketWSGI):  # type: ignore[misc]  # python-engineio has no types: its class is Any
    """``SimpleWebSocketWSGI`` that, once the websocket has ended, shuts its connection down (both directions):
    RFC 6455 (7.1.1) has the server close the TCP connection first, and Werkzeug's request handler would wait on
    it for a next request that never comes. Before that it waits (``REPLY_SECONDS`` at most) for
    simple-websocket's reader thread, which wakes the handler before it has sent the reply to a client's close."""

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        try:
            answer: Iterable[bytes] = super().__call__(environ, start_response)
            return answer
        finally:
            reader = getattr(getattr(self, "ws", None), "thread", None)
            if reader is not None and reader is not threading.current_thread():
                reader.join(REPLY_SECONDS)  # its close frame is sent (or the client never answered ours)
            connection = environ.get("werkzeug.socket")
            if connection is not None:
                with contextlib.suppress(OSError):  # already gone
                    connection.shutdown(socket.SHUT_RDWR)


def close_websockets_with_connection(eio_server: EngineServer) -> None:
    """This Engine.IO server (threading mode) serves its websockets through ``ClosingWebSocket``, where its
    driver table holds the class that subclasses (else it warns and changes nothing)."""
    drivers = getattr(eio_server, "_async", None)
    if not isinstance(drivers, dict) or drivers.get("websocket") is not SimpleWebSocketWSGI:
        log.warning("python-engineio's threading websocket is not the one privates.py knows: left as it is")
        return
    eio_server._async = {**drivers, "websocket": ClosingWebSocket}


# --- eventlet's websocket server --------------------------------------------------------------------------------
_SAMPLE = (bytes(range(256)) * 5 + b"\x00\xff" * 7, (0x12, 0xAB, 0x00, 0xFF))


def unmasks_as_apply_mask(original: Callable[..., bytes]) -> bool:
    """Whether ``original`` (eventlet's unmasking) gives the bytes ``frames.apply_mask`` gives, on a sample."""
    data, mask = _SAMPLE
    try:
        return all(original(data, mask, length, offset) == apply_mask(data, mask, length, offset)
                   for length, offset in ((len(data), 0), (1001, 3), (4, 1), (0, 2), (77, 6)))
    except Exception:  # noqa: BLE001 - another signature: not the method this replaces
        return False


def install_eventlet_frames(read_bytes_per_second: float = 0) -> bool:
    """eventlet's websocket unmasks with ``frames.apply_mask`` and, after each message, sleeps what the read
    budget owes (``frames.owed_seconds``; at least one turn of the hub), once per process; a later call only
    changes the read rate. True if the patches are in place. Only the eventlet server process calls it."""
    from eventlet import sleep, websocket

    read_budget["rate"] = float(read_bytes_per_second)
    cls = websocket.RFC6455WebSocket
    if getattr(cls.wait, "yields_to_hub", False):
        return True
    if not unmasks_as_apply_mask(cls._apply_mask):
        log.warning("eventlet's websocket unmasking is not the one webapp/server/frames.py replaces; eventlet is "
                    "left as it is (large frames will stall the server while they are read)")
        return False
    original_wait = cls.wait

    def wait(self: object) -> Frame:
        message: Frame = original_wait(self)
        sleep(owed_seconds(self, message))  # at least let this message's handler and every other greenlet run
        return message

    wait.yields_to_hub = True  # type: ignore[attr-defined]  # a mark on eventlet's method: this patch is in place
    wait.__doc__ = original_wait.__doc__
    cls._apply_mask = staticmethod(apply_mask)
    cls.wait = wait
    return True


# --- python-engineio: each connection's outgoing queue bounded in bytes --------------------------------------------
def bound_outgoing(eio_server: EngineServer, most_bytes: int,
                   on_drop: Callable[[], None] | None = None) -> Bound | None:
    """Each connection this Engine.IO server opens from now on queues at most ``most_bytes`` for its client
    (``backpressure.OutgoingQueue``): Engine.IO makes a connection's queue with its ``create_queue``, wrapped here;
    and each websocket is known by its Engine.IO socket (the driver table's class wrapped, as ``screen_engineio``
    does), so that a dropped one is ended. The ``backpressure.Bound`` in place (None, with a warning, where
    Engine.IO makes its queues otherwise)."""
    from engineio.base_socket import BaseSocket

    from .backpressure import Bound

    made = eio_server.create_queue
    if "create_queue" not in BaseSocket.__init__.__code__.co_names:
        log.warning("python-engineio makes a connection's queue otherwise than privates.bound_outgoing knows: "
                    "outgoing queues are left unbounded")
        return None
    bound = Bound(eio_server, most_bytes, on_drop)
    eio_server.create_queue = lambda *args, **kwargs: bound.wrap(made(*args, **kwargs))

    def tracking(handler: WebSocketHandler) -> WebSocketHandler:
        owner = getattr(handler, "__self__", None)  # the Engine.IO socket (Socket._websocket_handler)

        def tracked(socket: EngineSocket, ws: object) -> object:
            bound.websockets[socket] = ws
            try:
                return handler(ws)
            finally:
                bound.websockets.pop(socket, None)

        return types.MethodType(tracked, owner) if owner is not None else handler

    _wrap_websockets(eio_server, tracking)  # each websocket known by its Engine.IO socket, for a drop to end it
    return bound
