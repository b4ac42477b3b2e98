"""Open TCP connections: how many one process keeps, how many one address may hold, and how long one may sit
without sending a whole request.

* **The file limit.** Every connection is a file. ``file_limit()`` raises the process's soft limit on open files
  to its hard limit where the system allows it, and ``connection_bound`` keeps connections to three quarters of
  what is left once the files open at start are counted (the rest: static files being sent, worker pipes, Redis,
  eventlet's native threads), and never more than ``MAX_CONNECTIONS``. ``serve`` prints both at start.
* **The bounds** (``Connections.admit``): a connection past ``MAX_CONNECTIONS`` open in the process, or past
  ``MAX_CONNECTIONS_PER_ADDRESS`` from its address, is answered ``REFUSED`` (503 Busy, ``Retry-After``,
  ``Connection: close``) and closed at once, before a request of it is read. Behind a proxy (``PROXY_COUNT`` > 0)
  the proxy's own connections (from ``TRUSTED_PROXIES``, ``hosts.py``) are free of the per-address bound (the
  proxy bounds its clients); a client reaching the port directly is bounded by its own address.
* **A hall's followers** (``Connections.vouch``): a websocket that has joined a room as a signed follower (one
  phone of a hall whose phones share one public address; ``engine/followers.py``) stops counting against its
  address's ``MAX_CONNECTIONS_PER_ADDRESS`` and counts against its ``MAX_FOLLOWERS_PER_ADDRESS`` instead (at most
  ``FOLLOWERS_SHARE`` of the process's connections): 500 phones on one address follow a room under a 1,024-file
  limit, and one address still cannot hold every connection.
* **Idle and slow connections** (``Connections.expired``): a connection that has not sent a whole request head
  for ``IDLE_CONNECTION_SECONDS`` since it opened or since its last answer ended (an idle keep-alive connection,
  or a client sending its headers a byte at a time) is shut down by the server. A connection busy with a request
  (a long poll, a websocket, an upload being read) is never timed out here: Engine.IO's pings end dead ones.
  What is "busy" is told by ``Activity``, a WSGI middleware that marks a connection from the moment the app is
  called with a request of it until its answer is closed. A head cut short by that shutdown (a server may take
  what it read as a whole request) is answered 408 without reaching the app.

A connection is known by its peer's (address, port). Closed connections are found by their socket (``fileno()``
is -1 once closed) at each sweep and whenever a bound is reached; the servers close them (``listeners.py``).
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .security import HEADER_BLOCK

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

Peer = tuple[str, int]  # a connection's peer: address, port


class Sock(Protocol):
    """A server's socket of a connection (eventlet's green socket, or Werkzeug's): what the bounds do with it."""

    def fileno(self) -> int: ...
    def shutdown(self, how: int, /) -> None: ...


RETRY_AFTER_SECONDS = 5
TIMED_OUT = json.dumps({"message": "the request did not arrive in time", "kind": "Busy"}).encode()
SHARE_OF_FILES = 0.75  # of the files left at start, the share connections may take
LEAST_CONNECTIONS = 16
FOLLOWERS_SHARE = 0.75  # of the process's connections, the share one address's followers may hold


@dataclass(frozen=True)
class FileLimit:
    """The process's limit on open files: ``before`` (the soft limit found), ``soft`` (after raising it), ``hard``,
    and ``open_at_start`` (files open when it was measured)."""

    before: int
    soft: int
    hard: int
    open_at_start: int

    def describe(self) -> str:
        raised = f"raised from {self.before:,} to the hard limit" if self.soft > self.before else \
            ("the hard limit" if self.soft == self.hard else f"hard limit {self.hard:,}")
        return f"open files limit {self.soft:,} ({raised})"


def file_limit() -> FileLimit:
    """Raise the soft limit on open files to the hard one (where allowed) and say what it is."""
    try:
        import resource
    except ImportError:  # not a Unix system: no limit known, none raised
        return FileLimit(0, 0, 0, 0)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    before = soft
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if soft == resource.RLIM_INFINITY:
        soft = before = wanted
    elif wanted > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):  # not allowed here: the soft limit stays
            pass
    return FileLimit(before, soft, hard if hard != resource.RLIM_INFINITY else wanted, open_files())


def open_files() -> int:
    """Files this process has open now (Linux: /proc/self/fd; elsewhere a guess)."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return 32


def connection_bound(limit: FileLimit, most: int) -> int:
    """Connections one process may keep: ``most`` (MAX_CONNECTIONS), and below the file limit."""
    if limit.soft <= 0:
        return most
    return max(LEAST_CONNECTIONS, min(most, int((limit.soft - limit.open_at_start) * SHARE_OF_FILES)))


def address_key(address: str) -> str:
    """The address a connection counts against: an IPv4-mapped IPv6 address is its IPv4 address."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    mapped = getattr(ip, "ipv4_mapped", None)
    return str(mapped or ip)


def refusal(message: str) -> bytes:
    """A whole HTTP answer, 503 Busy, for a connection closed before it is read (security headers included)."""
    body = json.dumps({"message": message, "kind": "Busy"}).encode()
    head = (f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"Retry-After: {RETRY_AFTER_SECONDS}\r\nConnection: close\r\n").encode("latin-1")
    return head + HEADER_BLOCK + b"\r\n" + body


def refuse(conn: socket.socket, answer: bytes) -> None:
    """Send ``answer`` if it fits in the new connection's send buffer at once (never wait), then close it."""
    try:
        conn.settimeout(0)
        conn.send(answer)
    except OSError:
        pass
    with contextlib.suppress(OSError):
        conn.shutdown(socket.SHUT_RDWR)
    conn.close()


class _Open:
    __slots__ = ("sock", "key", "busy", "since", "ending", "follower")

    def __init__(self, sock: Sock, key: str, now: float) -> None:
        self.sock, self.key, self.busy, self.since, self.ending, self.follower = sock, key, 0, now, False, False


class Connections:
    """The open connections of one server process (see the module's doc)."""

    def __init__(self, most: int, per_address: int, idle_seconds: float, clock: Callable[[], float] = time.monotonic,
                 exempt: Callable[[str], bool] | None = None, followers: int = 0) -> None:
        self.most, self.per_address, self.idle_seconds, self.clock = int(most), int(per_address), idle_seconds, clock
        # address -> free of the per-address bound (a trusted proxy)
        self.exempt: Callable[[str], bool] = exempt or (lambda key: False)
        self.followers = int(followers)  # an address's vouched followers, besides its per_address (0: none)
        self.refused = {"process": 0, "address": 0}
        self._open: dict[Peer, _Open] = {}
        self._per_key: dict[str, int] = {}
        self._followers: dict[str, int] = {}  # address -> its connections vouched for as followers
        self._lock = threading.Lock()
        self.too_many = refusal(f"this server holds its most connections ({self.most:,}); try again shortly")
        self.too_many_here = refusal(f"too many connections from your address (at most {self.per_address:,}); "
                                     "close some, or try again shortly")

    def __len__(self) -> int:
        return len(self._open)

    def admit(self, sock: Sock, peer: object) -> bytes | None:
        """Count a new connection; None if admitted, else the answer it is refused with (the caller sends it)."""
        peer = _peer(peer)
        key = address_key(peer[0])
        with self._lock:
            if len(self._open) >= self.most:
                self._reap()
                if len(self._open) >= self.most:
                    self.refused["process"] += 1
                    return self.too_many
            if self.per_address and self._per_key.get(key, 0) >= self.per_address and not self.exempt(key):
                self._reap(key)
                if self._per_key.get(key, 0) >= self.per_address:
                    self.refused["address"] += 1
                    return self.too_many_here
            old = self._open.pop(peer, None)
            if old is not None:
                self._forget(old)
            self._open[peer] = _Open(sock, key, self.clock())
            self._per_key[key] = self._per_key.get(key, 0) + 1
        return None

    def busy(self, peer: Peer) -> bool:
        """A request of this connection reached the app; False if the connection is being shut down for idling (a
        head cut short by the shutdown must not run as a request)."""
        with self._lock:
            entry = self._open.get(peer)
            if entry is not None:
                entry.busy += 1
                return not entry.ending
        return True

    def done(self, peer: Peer) -> None:
        """A request's answer has ended: the connection is idle from now."""
        with self._lock:
            entry = self._open.get(peer)
            if entry is not None:
                entry.busy = max(0, entry.busy - 1)
                entry.since = self.clock()

    def stalest(self, most: int, key: str | None = None, idle_for: float = 0.0) -> list[Sock]:
        """The sockets of at most ``most`` connections idle longest (at least ``idle_for`` s; of address ``key`` only,
        if given), each returned once: those ``expired`` would find first, found early to make room
        (``listeners.make_room``)."""
        now = self.clock()
        with self._lock:
            idle = sorted((entry.since, peer) for peer, entry in self._open.items()
                          if not entry.busy and not entry.ending and now - entry.since >= idle_for
                          and (key is None or entry.key == key))
            for _, peer in idle[:most]:
                self._open[peer].ending = True
            return [self._open[peer].sock for _, peer in idle[:most]]

    def expired(self, now: float | None = None, most: int = 1 << 30) -> list[Sock]:
        """Forget closed connections; the sockets of at most ``most`` of those idle past ``idle_seconds`` (each
        returned once)."""
        now = self.clock() if now is None else now
        found: list[Sock] = []
        with self._lock:
            self._reap()
            if self.idle_seconds:
                for entry in self._open.values():
                    if len(found) >= most:
                        break
                    if not entry.busy and not entry.ending and now - entry.since >= self.idle_seconds:
                        entry.ending = True
                        found.append(entry.sock)
        return found

    def vouch(self, peer: object) -> bool:
        """Connection ``peer`` is a room's signed follower: it counts against its address's followers, not its
        per-address bound, while its address has fewer than ``followers`` of them; whether it was moved."""
        with self._lock:
            entry = self._open.get(_peer(peer))
            if entry is None or entry.follower:
                return False
            if self._followers.get(entry.key, 0) >= self.followers:
                self._reap(entry.key)  # followers that went leave their places
                if self._followers.get(entry.key, 0) >= self.followers:
                    return False
            entry.follower = True
            self._followers[entry.key] = self._followers.get(entry.key, 0) + 1
            self._count(self._per_key, entry.key, -1)
        return True

    def per_address_now(self) -> dict[str, int]:
        with self._lock:
            return dict(self._per_key)

    def _reap(self, key: str | None = None) -> None:
        """Forget the connections (of ``key``, or all) whose socket is closed. Under the lock."""
        gone = [peer for peer, entry in self._open.items()
                if (key is None or entry.key == key) and _closed(entry.sock)]
        for peer in gone:
            self._forget(self._open.pop(peer))

    def _forget(self, entry: _Open) -> None:
        self._count(self._followers if entry.follower else self._per_key, entry.key, -1)

    @staticmethod
    def _count(counts: dict[str, int], key: str, change: int) -> None:
        left = counts.get(key, 0) + change
        if left > 0:
            counts[key] = left
        else:
            counts.pop(key, None)


def _peer(peer: object) -> Peer:
    return (str(peer[0]), int(peer[1])) if isinstance(peer, tuple) and len(peer) >= 2 else (str(peer), 0)


def _closed(sock: Sock) -> bool:
    try:
        return sock.fileno() < 0
    except OSError:
        return True


def end(sock: Sock) -> None:
    """Shut a connection down from another thread: its reader wakes to end of file and its server closes it."""
    with contextlib.suppress(OSError):  # already gone
        sock.shutdown(socket.SHUT_RDWR)


class Activity:
    """WSGI middleware: tells ``connections`` when a request of a connection is in the app and when its answer
    has ended. The connection is the request's peer as the server saw it (``REMOTE_ADDR``, ``REMOTE_PORT``; before
    ProxyFix, whose ``werkzeug.proxy_fix.orig`` keeps it). ``connections`` None: passes every request through."""

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app
        self.connections: Connections | None = None

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        table = self.connections
        if table is None:
            return self.app(environ, start_response)
        peer = peer_of(environ)
        if not table.busy(peer):
            table.done(peer)
            start_response("408 Request Timeout", [("Content-Type", "application/json"), ("Connection", "close"),
                                                   ("Content-Length", str(len(TIMED_OUT)))])
            return [TIMED_OUT]
        try:
            answer = self.app(environ, start_response)
        except BaseException:
            table.done(peer)
            raise
        if isinstance(answer, list):  # kept a list: a server sets Content-Length from a list's length
            return _EndingList(answer, lambda: table.done(peer))
        return _Answer(answer, lambda: table.done(peer))


def peer_of(environ: WSGIEnvironment) -> Peer:
    """The connection's peer (address, port) as the server saw it."""
    original = environ.get("werkzeug.proxy_fix.orig") or environ
    try:
        port = int(environ.get("REMOTE_PORT") or 0)
    except ValueError:
        port = 0
    return (str(original.get("REMOTE_ADDR") or environ.get("REMOTE_ADDR") or ""), port)


class _Answer:
    """An answer's iterable whose ``close`` also calls ``ended`` (once)."""

    def __init__(self, answer: Iterable[bytes], ended: Callable[[], None]) -> None:
        self._answer: Iterable[bytes] = answer
        self._ended: Callable[[], None] | None = ended

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._answer)

    def close(self) -> None:
        try:
            close = getattr(self._answer, "close", None)
            if close is not None:
                close()
        finally:
            ended, self._ended = self._ended, None
            if ended is not None:
                ended()


class _EndingList(list[bytes]):
    """A list answer whose ``close`` calls ``ended`` (once)."""

    def __init__(self, answer: Iterable[bytes], ended: Callable[[], None]) -> None:
        super().__init__(answer)
        self._ended: Callable[[], None] | None = ended

    def close(self) -> None:
        ended, self._ended = self._ended, None
        if ended is not None:
            ended()
