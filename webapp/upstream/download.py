"""One file fetched over HTTP(S) for `sources fetch`, whole within a total deadline: connecting, the answer's
headers and its body together. A server that drips bytes is cut when the deadline passes (a watchdog shuts the
socket, which ends any read in progress), and the fetch says so. Proxies named in the environment (https_proxy,
no_proxy) are honoured."""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import urllib.request
from urllib.parse import urlsplit

from ..errors import Unavailable, UserError

MOST_BYTES = 2_000_000  # a queue file is ~70 kB; a longer answer is not it


class TooLong(UserError):
    """An answer longer than any queue file."""


def _connection(url: str, limit: float) -> tuple[http.client.HTTPConnection, str]:
    """A connection for ``url`` (through the environment's proxy when one applies) and the target to ask for."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Unavailable(f"cannot fetch {url}: only http and https addresses are read")
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    proxy = None if urllib.request.proxy_bypass(parts.hostname) else urllib.request.getproxies().get(parts.scheme)
    if not proxy:
        return kind(parts.hostname, parts.port, timeout=limit), target
    via = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    if parts.scheme == "http":  # a plain proxy is asked for the whole address
        return http.client.HTTPConnection(via.hostname or "", via.port, timeout=limit), url
    conn = http.client.HTTPSConnection(via.hostname or "", via.port, timeout=limit)
    conn.set_tunnel(parts.hostname, parts.port)
    return conn, target


def _late(url: str, limit: float) -> Unavailable:
    return Unavailable(f"{url} was not answered in full within {limit:g} s: cut at the deadline (a stalled or "
                       "dripping server)")


def download(url: str, limit: float) -> bytes:
    """The body at ``url``, all of it within ``limit`` seconds (the sources_timeout setting); Unavailable when it
    is not reachable, not answered 200 or not whole in time; TooLong beyond MOST_BYTES."""
    conn, target = _connection(url, limit)
    cut = threading.Event()

    def watchdog() -> None:
        cut.set()
        sock = conn.sock
        if sock is not None:
            with contextlib.suppress(OSError):  # the plain socket's shutdown: it ends a read in progress
                socket.socket.shutdown(sock, socket.SHUT_RDWR)

    timer = threading.Timer(limit, watchdog)
    timer.daemon = True
    timer.start()
    try:
        conn.request("GET", target, headers={"User-Agent": "inflight-scope sources fetch"})
        answer = conn.getresponse()
        if answer.status != 200:
            raise Unavailable(f"{url} answered {answer.status} {answer.reason}")
        body = answer.read(MOST_BYTES + 1)
    except (OSError, http.client.HTTPException) as e:
        if cut.is_set():
            raise _late(url, limit) from None
        reason = getattr(e, "reason", None) or e
        raise Unavailable(f"cannot reach {url}: {reason} (no network? the pane shows the paraphrase)") from None
    finally:
        timer.cancel()
        conn.close()
    if cut.is_set():  # the read ended because the socket was shut: what came is not the whole answer
        raise _late(url, limit)
    if len(body) > MOST_BYTES:
        raise TooLong(f"{url} answered more than {MOST_BYTES:,} bytes: not a queue file")
    return body
