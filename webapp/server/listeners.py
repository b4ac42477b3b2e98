"""The servers ``serve`` runs, eventlet's or Werkzeug's threading one, each with the connection bounds of
``connections.py``, the deadlines on request bodies of ``deadlines.py`` and the HTTP rate limit of ``httplimit.py``.

* ``init_serving(app, settings)`` (``create_app``, before the Host check and ProxyFix are put around the app)
  installs the three middlewares, idle: an app driven in-process (tests) has no connections.
* ``run(app, mode, host, port, options)`` raises the open-files limit, sets the bounds, arms the middlewares,
  prints what it found, starts the sweep that shuts idle connections down and cuts late bodies, and serves:

  - eventlet: ``eventlet.wsgi.server`` on a ``GuardedListener``, a listening socket whose ``accept`` counts
    every new connection and refuses those past a bound (``Connections.admit``: 503 and closed);
  - threading: Werkzeug's ``ThreadedWSGIServer`` whose ``get_request`` and ``verify_request`` (socketserver's
    documented hooks) do the same.

  A connection refused for a full table is admitted where cutting the slowest bodies makes room (``make_room``).

* **Out of files.** An ``accept`` that fails for want of a file (EMFILE, ENFILE, ENOBUFS, ENOMEM) does not end
  the server (eventlet's loop would exit; socketserver's would spin on the waiting connection): one file is
  kept in reserve (``FileReserve``); it is let go to accept the waiting connection and close it at once, then
  taken again; a line is logged at most every ``LOG_EVERY_SECONDS``. Any other error of ``accept`` but the
  listening socket's own end is logged the same way and the loop goes on.
"""

from __future__ import annotations

import errno
import logging
import os
import socket
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ..errors import UserError
from .connections import FOLLOWERS_SHARE, Activity, Connections, Sock, address_key, connection_bound, file_limit, refuse
from .deadlines import SHED_AFTER_SECONDS, BodyDeadline, Deadlines, cut
from .hosts import is_trusted, proxies_said, proxy_count, trusted_proxies
from .httplimit import HttpLimit
from .settings import settings_of
from .wsgi import set_wsgi

if TYPE_CHECKING:
    from flask import Flask
    from flask_socketio import SocketIO

    from .settings import Settings

Peer = tuple[object, ...]  # what accept() gives: (address, port, ...)
Options = Mapping[str, type | None]  # security.server_options: the server's protocol or request handler class


class Serving(NamedTuple):
    """The middleware ``init_serving`` puts around the app (extensions["inflight_serving"]), armed by ``run``."""

    activity: Activity
    limit: HttpLimit
    deadline: BodyDeadline


class Listener(Protocol):
    """A listening socket (eventlet's green one, or the standard library's)."""

    def accept(self) -> tuple[socket.socket, Peer]: ...
    def fileno(self) -> int: ...


class RoomsKnown(Protocol):
    def exists(self, code: str) -> bool: ...

log = logging.getLogger(__name__)

OUT_OF_FILES = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
LISTENER_GONE = {errno.EBADF, errno.EINVAL, errno.ENOTSOCK}
LOG_EVERY_SECONDS = 10.0
SWEEP_SECONDS = 0.25
# Idle connections shut down per sweep: each wakes its reader at once, so hundreds in one go would be one long
# stall of the event loop; at most 100 a second, a few milliseconds of work each time.
ENDED_PER_SWEEP = 25
WAIT_WITHOUT_RESERVE = 0.05  # seconds an accept without a file to spare waits before trying again
SHED_AT_ONCE = 1  # slow connections cut to make room for one newcomer refused for a full table (more: a flood of
# newcomers would cut more than it takes)
SHED_WAIT_SECONDS = 1.0  # how long that newcomer waits for the cut connections to close
SHED_POLL_SECONDS = 0.005


def init_serving(app: Flask, settings: Settings) -> None:
    """Put ``Activity``, ``BodyDeadline`` and ``HttpLimit`` around the app (idle until ``run`` arms them)."""
    limit = HttpLimit(app.wsgi_app, settings.http_rate_limit_per_second, settings.http_rate_limit_burst,
                      hall=(settings.hall_requests_per_second, settings.hall_requests_burst))
    deadline = BodyDeadline(limit)
    activity = Activity(deadline)
    set_wsgi(app, activity)
    app.extensions["inflight_serving"] = Serving(activity, limit, deadline)


def arm_http_limit(app: Flask | None) -> None:
    """The HTTP rate limit counts this app's requests (``serve``; gunicorn's worker hook)."""
    if app is None:
        return
    serving: Serving | None = app.extensions.get("inflight_serving")
    socketio = app.extensions.get("socketio")
    if serving is None:
        return
    sockets: Mapping[str, object] = socketio.server.eio.sockets if socketio is not None else {}
    serving.limit.arm(lambda sid: sid in sockets, room_opener(app.extensions.get("inflight_rooms")))


def hall_said(settings: Settings) -> str:
    hall = settings.hall_requests_per_second
    return f", rooms' pages, files and new sessions {hall:g}/s (bursts of {settings.hall_requests_burst:g})" \
        if hall else ""


def room_opener(rooms: RoomsKnown | None) -> Callable[[str], bool]:
    """``code -> whether that room is open`` for the HTTP limit's hall lane (False when the store is out of reach)."""
    def room_open(code: str) -> bool:
        try:
            return rooms is not None and rooms.exists(code)
        except UserError:
            return False
    return room_open


def bounds(app: Flask) -> tuple[Connections, str]:
    """The connection table for this process (the open-files limit raised first) and the line that says so."""
    settings = settings_of(app)
    limit = file_limit()
    most = connection_bound(limit, int(settings.max_connections))
    per_address = min(int(settings.max_connections_per_address), most)
    proxies = trusted_proxies(settings) if proxy_count(settings) else ()
    table = Connections(most, per_address, float(settings.idle_connection_seconds),
                        exempt=lambda key: is_trusted(key, proxies),
                        followers=min(int(settings.max_followers_per_address), int(most * FOLLOWERS_SHARE)))
    rate = settings.http_rate_limit_per_second
    said = (f"{limit.describe()}: at most {most:,} connections, "
            f"{f'{per_address:,} per address' if per_address else 'no bound per address'} (and "
            f"{table.followers:,} followers of rooms per address), idle ones closed after "
            f"{settings.idle_connection_seconds:g} s; HTTP requests "
            f"{f'{rate:g}/s per address (bursts of {settings.http_rate_limit_burst:g})' if rate else 'not limited'}"
            f"{hall_said(settings) if rate else ''}; "
            f"{proxies_said(settings)}")
    return table, said


def run(app: Flask, mode: str, host: str, port: int, options: Options) -> None:
    """Serve ``app`` on ``host``:``port`` until interrupted (see the module's doc)."""
    table, said = bounds(app)
    seconds = float(settings_of(app).request_body_seconds)
    print(f"{said}; request bodies due within {seconds:g} s" if seconds else f"{said}; request bodies not timed",
          flush=True)
    serving: Serving = app.extensions["inflight_serving"]
    serving.activity.connections = table
    deadlines = Deadlines(seconds) if seconds > 0 else None
    serving.deadline.deadlines = deadlines
    arm_http_limit(app)
    socketio = app.extensions["socketio"]
    socketio.start_background_task(_sweep, socketio, table, deadlines)
    if mode == "eventlet":
        _run_eventlet(app, host, port, table, deadlines, options)
    else:
        _run_threading(app, host, port, table, deadlines, options)


def _sweep(socketio: SocketIO, table: Connections, deadlines: Deadlines | None) -> None:
    """Every SWEEP_SECONDS: forget closed connections, cut idle ones (ENDED_PER_SWEEP at most) and the bodies past
    their due time. A cut shuts the reading side only (``deadlines.cut``): the server answers what it read and
    closes the connection; shut both ways in the middle of a head, eventlet's server kept it open for good, its
    file held."""
    while True:
        socketio.sleep(SWEEP_SECONDS)
        try:
            for sock in table.expired(most=ENDED_PER_SWEEP):
                cut(sock)
            for sock in deadlines.late() if deadlines is not None else ():
                cut(sock)
        except Exception:  # noqa: BLE001 - the sweep must outlive any one connection's oddity
            log.exception("connection sweep failed")


class FileReserve:
    """One open file kept for the moment ``accept`` fails for want of one (see the module's doc)."""

    def __init__(self) -> None:
        self.fd: int | None = None
        self.take()
        self._logged = -float("inf")

    def take(self) -> None:
        if self.fd is None:
            try:
                self.fd = os.open(os.devnull, os.O_RDONLY)
            except OSError:
                self.fd = None

    def shed(self, accept: Callable[[], tuple[socket.socket, Peer]], table: Connections, err: OSError) -> None:
        """Accept the waiting connection with the reserved file, refuse it and close it; then take the file back."""
        self.log(f"out of open files ({errno.errorcode.get(err.errno or 0, err.errno)}) with {len(table):,} "
                  "connections open: new ones are refused until some close")
        if self.fd is None:
            time.sleep(WAIT_WITHOUT_RESERVE)
            self.take()
            return
        os.close(self.fd)
        self.fd = None
        try:
            conn, _ = accept()
        except OSError:
            time.sleep(WAIT_WITHOUT_RESERVE)
        else:
            refuse(conn, table.too_many)
        self.take()

    def log(self, message: str) -> None:
        now = time.monotonic()
        if now - self._logged >= LOG_EVERY_SECONDS:
            self._logged = now
            log.warning("%s (logged at most every %g s)", message, LOG_EVERY_SECONDS)


def accept_guarded(listener: Listener, table: Connections, reserve: FileReserve, once: bool = False,
                   deadlines: Deadlines | None = None) -> tuple[socket.socket, Peer]:
    """``listener.accept()`` until a connection is admitted: (conn, peer). Raises only when the listening socket
    is closed, or, with ``once`` (a blocking listener: socketserver asks again when another connection waits),
    an OSError when the one connection waiting was refused. A connection refused for a full table is admitted
    where cutting slow bodies makes room (``make_room``)."""
    while True:
        try:
            conn, peer = listener.accept()
        except OSError as err:
            if listener.fileno() < 0 or err.errno in LISTENER_GONE:
                raise
            if err.errno in OUT_OF_FILES:
                reserve.shed(listener.accept, table, err)
            else:  # the client gave up before it was accepted, or the like
                reserve.log(f"accept failed: {err}")
            if once:
                raise
            continue
        answer = table.admit(conn, peer)
        if answer is not None and deadlines is not None:
            answer = make_room(table, deadlines, conn, peer, answer)
        if answer is None:
            return conn, peer
        refuse(conn, answer)
        if once:
            raise ConnectionRefusedError("refused: over a connection bound")


def make_room(table: Connections, deadlines: Deadlines, conn: socket.socket, peer: Peer,
              answer: bytes) -> bytes | None:
    """A newcomer refused for a full table (the process's, or its address's share): the body waited for longest
    (of its address, for its address's share) is cut (``Deadlines.shed``), else the connection idle longest (a
    head sent slowly, an idle keep-alive: ``Connections.stalest``; where IDLE_CONNECTION_SECONDS bounds them) is
    shut down, either at least SHED_AFTER_SECONDS old; the newcomer is admitted once that connection has closed,
    within SHED_WAIT_SECONDS; else ``answer``, its refusal, stands."""
    address = str(peer[0]) if answer == table.too_many_here else None
    shed: list[Sock] = deadlines.shed(SHED_AT_ONCE, address)
    for sock in shed:
        cut(sock)
    if not shed and table.idle_seconds:  # (idle connections kept for good: none is cut for a newcomer either)
        shed = table.stalest(SHED_AT_ONCE, address_key(address) if address is not None else None, SHED_AFTER_SECONDS)
        for sock in shed:
            cut(sock)
    if not shed:
        return answer
    waited_until = time.monotonic() + SHED_WAIT_SECONDS
    refused: bytes | None = answer
    while refused is not None and time.monotonic() < waited_until:
        time.sleep(SHED_POLL_SECONDS)  # (green under eventlet: the cut connections answer and close meanwhile)
        refused = table.admit(conn, peer)
    return refused


class GuardedListener:
    """eventlet's listening socket with ``accept_guarded`` as its ``accept``; the rest is the socket's own."""

    def __init__(self, sock: Listener, table: Connections, deadlines: Deadlines | None = None) -> None:
        self._sock, self._table, self._reserve, self._deadlines = sock, table, FileReserve(), deadlines

    def accept(self) -> tuple[socket.socket, Peer]:
        return accept_guarded(self._sock, self._table, self._reserve, deadlines=self._deadlines)

    def __getattr__(self, name: str) -> object:
        return getattr(self._sock, name)


def _run_eventlet(app: Flask, host: str, port: int, table: Connections, deadlines: Deadlines | None,
                  options: Options) -> None:
    import eventlet
    import eventlet.wsgi

    family, _, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    listener = GuardedListener(eventlet.listen(address, family), table, deadlines)
    options = {**options, "protocol": request_version_protocol(options.get("protocol") or eventlet.wsgi.HttpProtocol)}
    # The pool is never what bounds connections (the table is): a full pool would stop accepting altogether.
    eventlet.wsgi.server(listener, app, log_output=False, max_size=table.most + 64, **options)


def request_version_protocol(protocol: type) -> type:
    """eventlet.wsgi's protocol whose environ's ``SERVER_PROTOCOL`` is the request's own version (PEP 3333; eventlet
    says "HTTP/1.0" for every request): whether eventlet keeps a connection open depends on it
    (``privates.server_says_close``)."""

    class RequestVersion(protocol):  # type: ignore[misc]  # eventlet has no types: its protocol class is Any
        request_version: str

        def get_environ(self) -> dict[str, object]:
            environ: dict[str, object] = super().get_environ()
            environ["SERVER_PROTOCOL"] = self.request_version
            return environ

    return RequestVersion


def _run_threading(app: Flask, host: str, port: int, table: Connections, deadlines: Deadlines | None,
                   options: Options) -> None:
    from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

    given = options.get("request_handler")
    handler = given if isinstance(given, type) and issubclass(given, WSGIRequestHandler) else WSGIRequestHandler

    class QuietRefusals(handler):  # type: ignore[misc,valid-type]  # the handler class chosen at run time
        """Werkzeug's access log, without a line per refused request (httplimit.py logs those per address)."""

        def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
            if str(getattr(code, "value", code)) != "429":
                super().log_request(code, size)

    class BoundedServer(ThreadedWSGIServer):
        reserve = FileReserve()

        def get_request(self) -> tuple[socket.socket, Peer]:
            return accept_guarded(self.socket, table, self.reserve, once=True, deadlines=deadlines)

        def verify_request(self, request: object, client_address: object) -> bool:
            return True  # admitted in get_request

    server = BoundedServer(host, port, app, handler=QuietRefusals)
    print(f" * Running on http://{host}:{port} (threading)", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()

