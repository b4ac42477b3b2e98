"""A deadline on every request body: it arrives whole within ``REQUEST_BODY_SECONDS`` of its head, however it
trickles in (a byte every few seconds resets nothing), or its connection is cut.

* ``BodyDeadline`` (WSGI middleware, ``listeners.init_serving``) gives a request with a body a ``TimedInput``
  in place of ``wsgi.input``: while the app waits in a read of it, the connection is listed in ``Deadlines``
  with the time its body is due. Only a read that waits counts: a body already arrived is never late, however
  long the app takes before it reads it.
* **Late.** The sweep of ``listeners.py`` asks ``Deadlines.late()`` several times a second for the connections
  still waiting past their due time and cuts them (``cut``: their reading side is shut down, so the read wakes
  at once to an end of file). The read then raises ``BodyLate``: a Flask route's answer is 408
  ``{message, kind: "BodyLate"}`` (its error handler); Engine.IO's polling POST ends its session and is answered
  400 (``privates._screened_post``); the connection is closed.
* **Shed.** When a connection is refused for a full table (the process's, or its address's share), the
  listener first cuts the bodies that have waited longest (``Deadlines.shed``: those waiting at least
  ``SHED_AFTER_SECONDS``, of that address for an address's share), else the connection idle longest (a head
  sent slowly: ``Connections.stalest``), and admits the newcomer once that connection has closed: an honest
  client is served while slow senders hold the table, and the slowest go.
* A body that ends before its ``Content-Length`` (the connection cut, or the client gone) raises ``BodyLate``
  too: a request is never run on part of its body.

The connection of a request is the server's socket: eventlet's ``Input.get_socket()``, Werkzeug's
``werkzeug.socket`` (both public). Under gunicorn (``Procfile``) neither the sweep nor this middleware runs:
gunicorn's own ``--timeout`` bounds a worker's request.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from werkzeug.exceptions import RequestTimeout

if TYPE_CHECKING:
    from _typeshed.wsgi import InputStream, StartResponse, WSGIApplication, WSGIEnvironment

from .connections import Sock, address_key

SHED_AFTER_SECONDS = 1.0  # a body waited for (a connection idle) this long may be cut to make room for a newcomer
LATE = "the request body did not arrive within {seconds:g} s"


class BodyLate(RequestTimeout):
    """A body not arrived whole by its due time (or cut short): 408 Busy, never run on part of its body."""

    def __init__(self, seconds: float) -> None:
        super().__init__(LATE.format(seconds=seconds))


class _Waiting:
    __slots__ = ("sock", "key", "due", "since")

    def __init__(self, sock: Sock, key: str, due: float, since: float) -> None:
        self.sock, self.key, self.due, self.since = sock, key, due, since


class Deadlines:
    """The connections waiting in a read of their request's body, each with its due time."""

    def __init__(self, body_seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.body_seconds, self.clock = float(body_seconds), clock
        self.cut_count = {"late": 0, "shed": 0}
        self._waiting: dict[int, _Waiting] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._waiting)

    def due(self) -> float:
        """When a body whose head arrives now is due."""
        return float(self.clock() + self.body_seconds)

    def wait(self, token: int, sock: Sock, address: str, due: float) -> None:
        with self._lock:
            self._waiting[token] = _Waiting(sock, address_key(address), due, self.clock())

    def arrived(self, token: int) -> None:
        with self._lock:
            self._waiting.pop(token, None)

    def late(self, now: float | None = None) -> list[Sock]:
        """The sockets still waiting past their due time (each returned once)."""
        now = self.clock() if now is None else now
        with self._lock:
            found = [token for token, w in self._waiting.items() if now >= w.due]
            socks = [self._waiting.pop(token).sock for token in found]
        self.cut_count["late"] += len(socks)
        return socks

    def shed(self, most: int, address: str | None = None, now: float | None = None) -> list[Sock]:
        """The sockets of at most ``most`` bodies waited for longest (at least SHED_AFTER_SECONDS), of
        ``address`` only if given (each returned once)."""
        now = self.clock() if now is None else now
        key = address_key(address) if address is not None else None
        with self._lock:
            old = sorted((w.since, token) for token, w in self._waiting.items()
                         if now - w.since >= SHED_AFTER_SECONDS and (key is None or w.key == key))
            socks = [self._waiting.pop(token).sock for _, token in old[:most]]
        self.cut_count["shed"] += len(socks)
        return socks


def cut(sock: Sock) -> None:
    """Shut the reading side of a connection: its read wakes to an end of file (the answer can still be sent)."""
    with contextlib.suppress(OSError):  # already gone
        sock.shutdown(socket.SHUT_RD)


class TimedInput:
    """``wsgi.input`` whose reads are listed in ``Deadlines`` while they wait, and which raises ``BodyLate`` for a
    body that ends before its ``length`` (None: chunked, its end told by the server). It offers what WSGI's input
    offers and nothing else of the server's (a ``readinto`` would read past the deadline)."""

    def __init__(self, raw: InputStream, length: int | None, deadlines: Deadlines, sock: Sock, address: str,
                 due: float) -> None:
        self._raw, self._left, self._deadlines = raw, length, deadlines
        self._sock, self._address, self._due = sock, address, due

    def read(self, size: int | None = -1) -> bytes:
        return self._timed(self._raw.read, size)

    def readline(self, size: int | None = -1) -> bytes:
        return self._timed(self._raw.readline, size)

    def readlines(self, hint: int | None = -1) -> list[bytes]:
        return list(iter(self.readline, b""))

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.readline, b"")

    def _timed(self, read: Callable[..., bytes], size: int | None) -> bytes:
        if self._left == 0 or size == 0:
            return b""
        asked = size if size is not None and size >= 0 else None
        if self._left is not None and (asked is None or asked > self._left):
            asked = self._left  # never a read past the body (a next request's bytes)
        token = id(self)
        self._deadlines.wait(token, self._sock, self._address, self._due)
        try:
            data = read(asked) if asked is not None else read()
        except OSError:
            raise BodyLate(self._deadlines.body_seconds) from None  # cut: eventlet's chunked reader says so
        finally:
            self._deadlines.arrived(token)
        if self._left is not None:
            self._left -= len(data)
            # A read of the server's buffered file returns less than asked only at an end of file; a line, also
            # where it ends.
            ended = asked is not None and len(data) < asked and (read != self._raw.readline or not data.endswith(b"\n"))
            if self._left > 0 and ended:
                raise BodyLate(self._deadlines.body_seconds)
        return data


def connection_of(environ: WSGIEnvironment) -> Sock | None:
    """The server's socket of this request (eventlet's or Werkzeug's), or None."""
    sock: Sock | None = environ.get("werkzeug.socket")
    if sock is None:
        get_socket = getattr(environ.get("eventlet.input"), "get_socket", None)
        sock = get_socket() if get_socket is not None else None
    return sock


def body_length(environ: WSGIEnvironment) -> int | None:
    """The declared length of the request's body (0: none), or None for a chunked body."""
    if "chunked" in str(environ.get("HTTP_TRANSFER_ENCODING", "")).lower():
        return None
    text = str(environ.get("CONTENT_LENGTH") or "0")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else 0


class BodyDeadline:
    """WSGI middleware: a ``TimedInput`` for each request with a body (see the module's doc); ``deadlines`` None
    (an app driven in-process, or by gunicorn) passes every request through."""

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app
        self.deadlines: Deadlines | None = None

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        deadlines = self.deadlines
        length = body_length(environ)
        sock = connection_of(environ) if deadlines is not None and length != 0 else None
        if sock is None or deadlines is None:
            return self.app(environ, start_response)
        environ["wsgi.input"] = TimedInput(environ["wsgi.input"], length, deadlines, sock,
                                           str(environ.get("REMOTE_ADDR") or ""), deadlines.due())
        return self.app(environ, start_response)
