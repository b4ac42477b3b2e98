"""The HTTP rate limit: a token bucket per client address (``HTTP_RATE_LIMIT_PER_SECOND``,
``HTTP_RATE_LIMIT_BURST``; 0 turns it off) over the HTTP requests that reach the app.

* The address is the client's as ProxyFix leaves it (``REMOTE_ADDR``; behind a proxy, the client's only with
  ``PROXY_COUNT`` set). An IPv4-mapped IPv6 address counts as its IPv4 address.
* Socket.IO requests of a session that is open (a long poll, a polling POST, a websocket upgrade, each naming its
  ``sid``) are not counted: each is one connection's, already bounded by the Socket.IO rate limit. Opening a
  session, and any request naming a session that is not open, is counted.
* A request over the limit is answered ``429`` {message, kind: Busy} with ``Retry-After``, after holding it
  ``HOLD_SECONDS`` (a flood from one address is slowed to its open connections a second, each held without
  costing the server CPU); it never reaches the app.
* A file under ``/static/`` costs ``ASSET_COST`` of a request: a page's unbundled module graph is tens of them,
  each served from memory and kept by browsers for good (assets.py), so a page load stays well within the burst.
* **The hall lane.** What a hall's phones ask for, all from one public address, has a bucket of its own per
  address, sized for a hall (``HALL_REQUESTS_PER_SECOND``, ``HALL_REQUESTS_BURST``): the room page of a room that
  is open (``/r/CODE``), files under ``/static/``, and opening a Socket.IO session (each bounded besides: the
  page costs half a millisecond, a file is served from memory, a session is a connection under the connection
  bounds). Everything else (other pages, the API, exports, uploads) stays in the address's own bucket.
* Refusals are logged once per address per ``LOG_EVERY_SECONDS``, with how many there were since.
* Only a served app is limited (``arm``: ``serve`` and gunicorn's worker hook call it): an app driven in-process
  (Flask's test client) has no connections and no clients' addresses.

A page load (the page, its handful of files, Socket.IO's handshake) is a few requests, well within the burst.
"""

from __future__ import annotations

import json
import logging
import math
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .connections import address_key
from .ratelimit import ADMIT, RateLimiter

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

log = logging.getLogger(__name__)

HOLD_SECONDS = 1.0
ASSET_COST = 0.1  # of one request: a page's static file
STATIC_PATH = "/static/"
LOG_EVERY_SECONDS = 60.0
REMEMBERED = 4096  # addresses remembered before the forgotten ones are pruned
SOCKETIO_PATH = "/socket.io"
ROOM_PATH = "/r/"  # a room's page: /r/CODE
ROOM_CODE_MOST = 12


def refusal(what: str, rate: float, burst: float) -> tuple[int, bytes]:
    """(Retry-After seconds, the 429's body) for a bucket of ``rate`` ``what`` a second, bursts of ``burst``."""
    retry_after = max(1, math.ceil(1 / rate)) if rate > 0 else 1
    body = json.dumps({"message": f"too many {what}: more than {rate:g} a second from your address (bursts of "
                                  f"{burst:g}); try again in {retry_after} s", "kind": "Busy"}).encode()
    return retry_after, body


@dataclass
class Refusals:
    """One address's refusals: when it was last logged, and how many since."""

    logged: float = -math.inf
    since: int = 0


class HttpLimit:
    """WSGI middleware (inside ProxyFix): the per-address HTTP rate limit. ``open_session(sid)`` says whether a
    Socket.IO session is open (set by ``arm``)."""

    def __init__(self, app: WSGIApplication, rate: float, burst: float, clock: Callable[[], float] = time.monotonic,
                 hall: tuple[float, float] = (0, 1)) -> None:
        self.app = app
        self.rate, self.burst = float(rate), max(float(burst), 1.0)
        self.limiter = RateLimiter(self.rate, self.burst, clock=clock) if self.rate > 0 else None
        self.hall = RateLimiter(float(hall[0]), max(float(hall[1]), 1.0), clock=clock) \
            if self.limiter is not None and hall[0] > 0 else None
        self.open_session: Callable[[str], bool] | None = None
        self.room_open: Callable[[str], bool] | None = None  # code -> whether that room is open (set by ``arm``)
        self.clock = clock
        self.armed = False
        self.retry_after, self.body = refusal("requests", self.rate, self.burst)
        self.hall_refusal = refusal("room pages, files and new sessions", *hall) if self.hall is not None else None
        self.refused = 0
        self._refusals: dict[str, Refusals] = {}  # by address
        self._lock = threading.Lock()

    def arm(self, open_session: Callable[[str], bool], room_open: Callable[[str], bool] | None = None) -> None:
        self.open_session, self.room_open = open_session, room_open
        self.armed = True

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if not self.armed or self.limiter is None or self._open_session(environ):
            return self.app(environ, start_response)
        key = address_key(str(environ.get("REMOTE_ADDR") or ""))
        path = str(environ.get("PATH_INFO") or "")
        cost = ASSET_COST if path.startswith(STATIC_PATH) else 1.0
        limiter = self.hall if self.hall is not None and self._hall(path, environ) else self.limiter
        if limiter.check(key, cost=cost) == ADMIT:
            if len(limiter) > REMEMBERED:
                limiter.forget_full()
            return self.app(environ, start_response)
        self._note(key)
        time.sleep(HOLD_SECONDS)  # a green sleep under eventlet
        retry_after, body = self.hall_refusal if limiter is self.hall and self.hall_refusal else \
            (self.retry_after, self.body)
        start_response("429 Too Many Requests", [("Content-Type", "application/json"),
                                                 ("Content-Length", str(len(body))),
                                                 ("Retry-After", str(retry_after))])
        return [body]

    def _hall(self, path: str, environ: WSGIEnvironment) -> bool:
        """Whether a request (not of an open session) is in the hall lane: a file, an open room's page, a new
        Socket.IO session (one naming a session that is not open is not)."""
        if path.startswith(STATIC_PATH):
            return True
        if path.startswith(SOCKETIO_PATH):
            return not any(part.startswith("sid=") for part in str(environ.get("QUERY_STRING") or "").split("&"))
        code = path[len(ROOM_PATH):] if path.startswith(ROOM_PATH) else ""
        return bool(code) and "/" not in code and len(code) <= ROOM_CODE_MOST and self.room_open is not None \
            and self.room_open(code)

    def _open_session(self, environ: WSGIEnvironment) -> bool:
        path = str(environ.get("PATH_INFO") or "")
        if not path.startswith(SOCKETIO_PATH) or self.open_session is None:
            return False
        for part in str(environ.get("QUERY_STRING") or "").split("&"):
            if part.startswith("sid="):
                return self.open_session(part[4:])
        return False

    def _note(self, key: str) -> None:
        """Count a refusal; log it if this address was not logged within LOG_EVERY_SECONDS."""
        now = self.clock()
        with self._lock:
            self.refused += 1
            if len(self._refusals) > REMEMBERED:
                for old in [k for k, e in self._refusals.items() if now - e.logged >= LOG_EVERY_SECONDS]:
                    del self._refusals[old]
            entry = self._refusals.setdefault(key, Refusals())
            entry.since += 1
            if now - entry.logged < LOG_EVERY_SECONDS:
                return
            count, entry.logged, entry.since = entry.since, now, 0
        log.warning("HTTP rate limit: %s sent more than %g requests a second (bursts of %g); refused 429: %d since "
                    "it was last logged (once per address every %g s)", key[:60], self.rate, self.burst, count,
                    LOG_EVERY_SECONDS)
