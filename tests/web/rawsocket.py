"""A raw Engine.IO / Socket.IO websocket client for the abuse tests: it sends what it likes, reads only when told
(a client that does not read), and answers the server's pings while it reads."""

from __future__ import annotations

import json
import random
import socket
import time
from urllib.parse import urlsplit

import websocket

from tests.waiting import until

TIMEOUT = 60.0  # a bound against a hang (at load 20 an 8,000-step load took over 30 s): waits end when met


class RawSocket:
    def __init__(self, url: str, receive_buffer: int | None = None, header=(), source: str | None = None):
        """``header``: request header lines for the upgrade (a Cookie, an X-Forwarded-For); ``source``: the local
        address to connect from (a loopback one: 127.0.0.2 is another client than 127.0.0.1)."""
        options = ((socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer),) if receive_buffer else ()
        netloc = urlsplit(url).netloc
        sock = None
        if source is not None:
            host, _, port = netloc.rpartition(":")
            sock = socket.create_connection((host, int(port)), timeout=TIMEOUT, source_address=(source, 0))
        self.ws = websocket.create_connection(f"ws://{netloc}/socket.io/?EIO=4&transport=websocket",
                                              timeout=TIMEOUT, sockopt=options, skip_utf8_validation=True,
                                              header=list(header), socket=sock)
        opened = self.ws.recv()
        assert opened.startswith("0"), opened[:80]
        self.ws.send("40")
        while not self.ws.recv().startswith("40"):
            pass

    def emit(self, event: str, payload=None) -> None:
        self.ws.send("42" + json.dumps([event, payload if payload is not None else {}], separators=(",", ":")))

    def events(self, timeout: float = TIMEOUT):
        """(name, data) of each event as it arrives, until the connection closes (or ``timeout`` passes: an
        AssertionError)."""
        deadline = time.monotonic() + timeout
        while True:
            self.ws.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                message = self.ws.recv()
            except websocket.WebSocketTimeoutException:
                raise AssertionError(f"the connection was still open after {timeout} s") from None
            except (websocket.WebSocketConnectionClosedException, ConnectionError):
                return
            if not message:  # closed
                return
            if message == "2":
                self.ws.send("3")
            elif message.startswith("42"):
                name, *data = json.loads(message[2:])
                yield name, (data[0] if data else None)
            elif message.startswith("1"):  # Engine.IO close
                return

    def until(self, wanted: str, timeout: float = TIMEOUT) -> list[tuple[str, object]]:
        """Every event up to and including the first named ``wanted``."""
        seen = []
        for name, data in self.events(timeout):
            seen.append((name, data))
            if name == wanted:
                return seen
        raise AssertionError(f"closed before {wanted!r} came: {[n for n, _ in seen]}")

    def close(self) -> None:
        self.ws.close()


def generated_scenario(steps: int, seed: int = 2) -> dict:
    from webapp.scenario.generate import generate

    return generate(random.Random(seed).choice, steps, pods=12)


def wait_for_work(server, lane: str, running: int, waiting: int) -> None:
    """Until the server's /healthz says ``lane`` has ``running`` calls running and ``waiting`` waiting."""
    import requests

    seen = []

    def holding() -> bool:
        seen.append(requests.get(server.url + "/healthz", timeout=TIMEOUT).json()["work"][lane])
        return seen[-1] == {"running": running, "waiting": waiting}

    # /healthz is asked at most 10 times a second: under the server's HTTP rate limit
    until(holding, lambda: f"the {lane} lane never held {running} running and {waiting} waiting (last: {seen[-1:]})",
          every=0.1)
