"""Step round trip over a real websocket, message size, first page weight.

Starts `inflight-scope serve` as a subprocess (eventlet unless --async-mode threading), then with
python-socketio's client: p50/p99 of `step` -> `delta` against `echo` -> `echo` on the same server
(the ratio is what a step costs beyond the transport), stepping a built-in (whose states and deltas the
server makes once for every viewer: after the first lap they are reused), the same scenario loaded as the
viewer's own document (kept under its load while it is as small as a built-in: after the first lap reused
too, as when a viewer goes back and forth), and that document loaded again at every lap (every step made
anew, as on a viewer's first way through an upload); bytes of the `delta` one
step sends, and of a whole `state`, on a scenario whose v1.28.2 list holds 200 entries (the step appends
one); bytes of the first page load (HTML + CSS + JS modules), as files and as sent with gzip accepted.

Round trips are --gap-ms apart (default 10), as a viewer's steps are (a click, an autoplay beat: 50 ms and
more): the server makes a private step's next messages after sending this one (``Hub.look_ahead``), which
back to back (--gap-ms 0) is charged to whichever message comes next, the echo or the step.
    python bench/round_trip.py [--async-mode eventlet|threading] [--n 500] [--gap-ms 10]
"""

from __future__ import annotations

import argparse
import json
import posixpath
import re
import threading
import time

import requests
import socketio
from common import median, percentile
from server import Server

from webapp.scenario import builtin

SCENARIO = "three-pod-cascade"

def long_list_scenario(entries: int = 200) -> dict:
    """One pod in flight, then enough events to make the v1.28.2 list `entries` long."""
    steps = [{"op": "pop", "expect": "A"}] + [{"op": "event", "event": "NodeAdd"}] * (entries - 1)
    return {"schema": 1, "name": "200 entries", "pods": [{"name": "A"}], "initial_active": ["A"], "steps": steps}


class Client:
    def __init__(self, url: str, gap_ms: float = 0.0):
        self.gap = gap_ms / 1000
        # websocket-client checks the UTF-8 of every text frame it receives in pure Python (~0.4 µs a byte: 2 ms
        # for a 5 kB delta), which a browser does natively: skipped, or this would measure its own client.
        self.sio = socketio.Client(websocket_extra_options={"skip_utf8_validation": True})
        self.got = threading.Event()
        self.last = None
        self.raw_sizes: list[int] = []
        for event in ("state", "delta", "echo", "scenario", "error"):
            self.sio.on(event, self._handler(event))
        self.sio.connect(url, transports=["websocket"])

    def _handler(self, event):
        def on(data=None):
            self.last = (event, data)
            self.got.set()
        return on

    def laps(self, scenario, n: int, reload: bool = False) -> tuple[list[float], list[float]]:
        """Milliseconds of n steps through ``scenario`` (from its start again at the end: sought, or loaded
        again with ``reload``), each followed by an echo: (steps, echoes)."""
        self.call("load", {"scenario": scenario})
        steps, echoes = [], []
        total, position = self.last[1]["total"], 0
        for i in range(n):
            if position == total:
                self.call(*(("load", {"scenario": scenario}) if reload else ("seek", {"position": 0})))
            steps.append(self.call("step"))
            position = self.last[1]["position"]
            echoes.append(self.call("echo", {"i": i}, expect=("echo",)))
        return steps, echoes

    def call(self, event: str, payload=None, expect: tuple[str, ...] = ("state", "delta")) -> float:
        """Milliseconds from emitting ``event`` (``gap`` after the last message) to the next message named in
        ``expect``."""
        time.sleep(self.gap)
        self.got.clear()
        t = time.perf_counter()
        self.sio.emit(event, payload)
        while True:
            if not self.got.wait(10):
                raise TimeoutError(event)
            if self.last[0] in expect:
                return (time.perf_counter() - t) * 1000
            self.got.clear()


def page_weight(base: str) -> tuple[int, int, list[str]]:
    """Bytes of the first page load as files and as sent (gzip accepted, as by every browser), and the files."""
    page = requests.get(base + "/", headers={"Accept-Encoding": "gzip"})
    html = page.text
    urls = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    seen, total, queue = set(), len(page.content), list(urls)
    sent = int(page.headers.get("Content-Length", total))
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        answer = requests.get(base + url, headers={"Accept-Encoding": "gzip"})
        body = answer.content
        total += len(body)
        sent += int(answer.headers.get("Content-Length", len(body)))
        if url.endswith(".js"):
            for dep in re.findall(r'from\s*"(\.{1,2}/[^"]+)"', body.decode()):
                queue.append(posixpath.normpath(posixpath.join(posixpath.dirname(url), dep)))
    return total, sent, sorted(seen)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--async-mode", default="eventlet", choices=("eventlet", "threading"))
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--gap-ms", type=float, default=10.0)
    args = ap.parse_args()
    # n back-to-back round trips would trip the per-connection rate limit: this measures latency, so it is off
    server = Server(args.async_mode, {"INFLIGHT_SCOPE_RATE_LIMIT_PER_SECOND": "0"})
    base = server.url
    try:
        c = Client(base, args.gap_ms)
        steps, echoes = c.laps(SCENARIO, args.n)
        own_steps, own_echoes = c.laps(builtin.get(SCENARIO), args.n)
        new_steps, new_echoes = c.laps(builtin.get(SCENARIO), args.n, reload=True)
        c.call("load", {"scenario": long_list_scenario(), "variants": ["v1.28.1", "v1.28.2"]})
        c.call("seek", {"position": 199})
        c.call("step")
        delta_name, delta = c.last
        delta_size = len(json.dumps(delta, separators=(",", ":")).encode())
        c.call("seek", {"position": 200})
        state = c.last[1]
        size = len(json.dumps(state, separators=(",", ":")).encode())
        entries = len(state["variants"]["v1.28.2"]["state"]["inFlightEvents"])
        c.sio.disconnect()
        weight, sent, files = page_weight(base)
    finally:
        server.stop()
    print(f"async mode {args.async_mode}, {args.n} round trips each, {args.gap_ms:g} ms apart, loopback websocket")
    for label, s, e in ((f"built-in {SCENARIO} (made once for every viewer)", steps, echoes),
                        ("the same as the viewer's own document (kept under its load)", own_steps, own_echoes),
                        ("the same loaded again at every lap (every step made anew)", new_steps, new_echoes)):
        print(label)
        print(f"    step -> delta: p50 {median(s):.2f} ms, p99 {percentile(s, 0.99):.2f} ms")
        print(f"    echo -> echo : p50 {median(e):.2f} ms, p99 {percentile(e, 0.99):.2f} ms")
        print(f"    ratio (p50 step / p50 echo): {median(s) / median(e):.2f}x")
    print(f"one step ({delta_name}) onto a {entries}-entry v1.28.2 list (both variants): {delta_size:,} bytes of JSON")
    print(f"one whole state message at that position (both variants): {size:,} bytes of JSON")
    print(f"first page load: {weight:,} bytes in {len(files) + 1} requests, {sent:,} sent (gzip accepted)")


if __name__ == "__main__":
    main()
