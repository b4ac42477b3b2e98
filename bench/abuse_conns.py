"""Connection and HTTP abuse against one server process (issue 33, points 1, 9, 11), loopback only, each phase
bounded in time and in connections. bench/abuse.py runs these phases too (eventlet, as it starts its server);
run here, the server is started under an open-files limit (``prlimit --nofile=N:N``, default 1,024, as the hall's
laptop may have) in either async mode, and its RSS is sampled from /proc all along.

  idleconns   --idle-conns TCP connections that send nothing, from 127.0.0.2-9, held open; each one the server
              closes (refused past a bound, or idle too long) is opened again at once
  slowheaders --slow-conns connections sending a request head one header line a second, never ending it; opened
              again whenever the server cuts one off
  getflood    --flood-threads keep-alive connections from 127.0.0.2 asking GET / back to back (the page: the
              costliest plain GET), each answer counted (200, 429, 503, closed)
  bigpolls    a long-polling session from 127.0.0.3 sends a POST over MAX_MESSAGE_BYTES, then a normal one, then
              opens another session, again and again; every status counted (a 500 would be a failure)
  hall        not an attack: --hall-phones phones from 127.0.0.2 (with --hall-forwarded, from 127.0.0.1 naming that
              address in X-Forwarded-For, as behind a proxy: start the server with --server-env
              INFLIGHT_SCOPE_PROXY_COUNT=1) open a room's page and files, join it and answer its poll
              (tests/web/hall.py, 16 at a time); reported: how many joined, how long all took, the votes counted
  slowbodies  --slow-body-conns connections from 127.0.0.10-29 announcing a 1,000,000-byte body to POST /api/validate
              and sending a byte of it every 5 s, opened again whenever the server cuts one; once all are opened (or
              after 3 s), an honest client (127.0.0.1) asks GET /healthz on a new connection every 0.2 s, its
              statuses counted

The honest viewer (bench/abuse_viewer.py's Viewer, 127.0.0.1, websocket) steps all along; its p50 / p99 / max per
phase are the figures; goal p99 <= 100 ms, max <= 250 ms, the process alive and its RSS bounded.
    python bench/abuse_conns.py [--mode eventlet|threading] [--nofile 1024] [--seconds 8] [--phases ...]
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import select
import socket
import threading
import time
from urllib.parse import urlsplit

PHASES = ("idleconns", "slowheaders", "getflood", "bigpolls", "hall", "slowbodies")
SOURCES = [f"127.0.0.{i}" for i in range(2, 10)]
BODY_SOURCES = [f"127.0.0.{i}" for i in range(10, 30)]  # 20 addresses: past the process's bound at 64 each
BODY_BYTE_SECONDS = 5.0  # a slow body's byte this often
HONEST_AFTER_SECONDS = 3.0  # the honest client of slowbodies begins once all are opened, or after this long


def add_arguments(ap) -> None:
    ap.add_argument("--idle-conns", type=int, default=2000, help="idleconns: connections held (more than 1,024)")
    ap.add_argument("--slow-conns", type=int, default=200, help="slowheaders: connections sending slow heads")
    ap.add_argument("--flood-threads", type=int, default=16, help="getflood: keep-alive connections asking GET /")
    ap.add_argument("--hall-phones", type=int, default=500, help="hall: phones on one address")
    ap.add_argument("--hall-forwarded", default=None, help="hall: the address a proxy on 127.0.0.1 names for all")
    ap.add_argument("--slow-body-conns", type=int, default=1200, help="slowbodies: connections sending slow bodies")


def attackers(name: str, url: str, seconds: float, out, ctx, args) -> tuple[list, int]:
    """The processes of phase ``name`` (not started) and how many reports they put on ``out``."""
    if name == "idleconns":
        return [ctx.Process(target=idle_attack, args=(url, seconds, out, args.idle_conns))], 1
    if name == "slowheaders":
        return [ctx.Process(target=slow_attack, args=(url, seconds, out, args.slow_conns))], 1
    if name == "getflood":
        return [ctx.Process(target=get_flood, args=(url, seconds, out, args.flood_threads))], 1
    if name == "hall":
        return [ctx.Process(target=hall_phase, args=(url, seconds, out, args.hall_phones, args.hall_forwarded))], 1
    if name == "slowbodies":
        return [ctx.Process(target=slow_bodies, args=(url, seconds, out, args.slow_body_conns))], 1
    return [ctx.Process(target=big_polls, args=(url, seconds, out))], 1


def _address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname, parts.port


def _files_for(count: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count + 64:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 256), hard))


def _open(address, source: str, timeout: float = 5.0):
    try:
        conn = socket.create_connection(address, timeout=timeout, source_address=(source, 0))
    except OSError:
        return None
    conn.setblocking(False)
    return conn


def idle_attack(url: str, seconds: float, out, count: int) -> None:
    """``count`` silent connections held; each closed by the server is opened again."""
    _files_for(count)
    address, end = _address(url), time.monotonic() + seconds
    held, opened, closed = [], 0, 0
    most_held = 0
    while time.monotonic() < end:
        while len(held) < count and time.monotonic() < end:
            conn = _open(address, SOURCES[opened % len(SOURCES)])
            opened += 1
            if conn is not None:
                held.append(conn)
            if opened % 100 == 0:
                break
        most_held = max(most_held, len(held))
        readable, _, _ = select.select(held, [], [], 0.05) if held else ([], [], [])
        for conn in readable:  # a silent connection the server speaks on: refused, or closed for idling
            held.remove(conn)
            conn.close()
            closed += 1
    open_at_end = sum(1 for conn in held if not select.select([conn], [], [], 0)[0])
    for conn in held:
        conn.close()
    out.put({"connections opened": opened, "closed by the server": closed, "most held": most_held,
             "still open at the end": open_at_end})


def slow_attack(url: str, seconds: float, out, count: int) -> None:
    """``count`` connections, each sending one header line a second and never the end of the head."""
    _files_for(count)
    address, end = _address(url), time.monotonic() + seconds
    conns: dict = {}
    made = cut = 0
    next_line = time.monotonic()
    while time.monotonic() < end:
        while len(conns) < count:
            conn = _open(address, SOURCES[made % len(SOURCES)])
            made += 1
            if conn is None:
                break
            try:
                conn.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                conns[conn] = 0
            except OSError:
                conn.close()
        if time.monotonic() >= next_line:
            next_line += 1.0
            for conn in list(conns):
                try:
                    conn.send(b"X-Slow: a\r\n")
                    conns[conn] += 1
                except OSError:
                    conns.pop(conn)
                    conn.close()
                    cut += 1
        readable, _, _ = select.select(list(conns), [], [], 0.1) if conns else ([], [], [])
        for conn in readable:
            conns.pop(conn, None)
            conn.close()
            cut += 1
    longest = max(conns.values(), default=0)
    for conn in conns:
        conn.close()
    out.put({"slow connections made": made, "cut off by the server": cut, "header lines of the oldest": longest})


def slow_bodies(url: str, seconds: float, out, count: int) -> None:
    """``count`` connections each sending a body's byte every BODY_BYTE_SECONDS; an honest GET every 0.2 s."""
    _files_for(count)
    address, end = _address(url), time.monotonic() + seconds
    head = b"POST /api/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" \
           b"Content-Length: 1000000\r\n\r\n{"
    conns: dict = {}
    made = cut = 0
    honest: dict[int, int] = {}
    prober = threading.Thread(target=_honest_gets, args=(address, end, honest))
    next_byte = time.monotonic()
    honest_from = next_byte + HONEST_AFTER_SECONDS
    while time.monotonic() < end:
        while len(conns) < count and made < count * 4:
            conn = _open(address, BODY_SOURCES[made % len(BODY_SOURCES)])
            made += 1
            if prober.ident is None and (made >= count or time.monotonic() >= honest_from):
                prober.start()  # once all are opened (or the server has slowed their opening): the honest client
            if conn is None:
                break
            try:
                conn.send(head)
                conns[conn] = 0
            except OSError:
                conn.close()
        now = time.monotonic()
        if now >= next_byte:
            next_byte += BODY_BYTE_SECONDS
            for conn in list(conns):
                try:
                    conn.send(b" ")
                    conns[conn] += 1
                except OSError:
                    conns.pop(conn)
                    conn.close()
                    cut += 1
        for conn in _readable(conns, 0.05):  # answered (refused, 408) or closed: cut off
            conns.pop(conn, None)
            conn.close()
            cut += 1
    held = len(conns)
    for conn in conns:
        conn.close()
    if prober.ident is not None:
        prober.join()
    out.put({"slow bodies made": made, "cut or refused by the server": cut, "held at the end": held,
             "honest GET /healthz": {str(k): v for k, v in sorted(honest.items())}})


def _honest_gets(address, end: float, statuses: dict) -> None:
    """GET /healthz from 127.0.0.1 on a new connection every 0.2 s until ``end``; each status counted (0: none)."""
    while time.monotonic() < end:
        try:
            with socket.create_connection(address, timeout=5, source_address=("127.0.0.1", 0)) as conn:
                status = _ask(conn, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")[0]
        except OSError:
            status = 0
        statuses[status] = statuses.get(status, 0) + 1
        time.sleep(0.2)


def _readable(conns, timeout: float) -> list:
    """Which of ``conns`` are readable, waiting at most ``timeout`` (poll: file numbers past select's 1,024)."""
    poller = select.poll()
    by_fd = {conn.fileno(): conn for conn in conns}
    for fd in by_fd:
        poller.register(fd, select.POLLIN)
    return [by_fd[fd] for fd, _ in poller.poll(timeout * 1000)]


def _ask(conn, request: bytes) -> tuple[int, bool]:
    """Send ``request`` and read the answer: (status, whether the connection stays open); (0, False) if it closed."""
    conn.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return 0, False
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    status = int(head.split(b" ", 2)[1])
    found = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
    length = int(found.group(1)) if found else 0
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return status, False
        body += chunk
    return status, not re.search(rb"(?i)\r\nconnection: *close", head)


def get_flood(url: str, seconds: float, out, threads: int) -> None:
    """``threads`` keep-alive connections from 127.0.0.2, GET / back to back."""
    address, end = _address(url), time.monotonic() + seconds
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n\r\n"

    def flood():
        conn = None
        while time.monotonic() < end:
            try:
                if conn is None:
                    conn = socket.create_connection(address, timeout=10, source_address=("127.0.0.2", 0))
                status, keep = _ask(conn, request)
            except OSError:
                status, keep = 0, False
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
            if not keep and conn is not None:
                conn.close()
                conn = None
        if conn is not None:
            conn.close()

    workers = [threading.Thread(target=flood) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    out.put({"GET / statuses": {str(k): v for k, v in sorted(statuses.items())}})


def hall_phase(url: str, seconds: float, out, phones: int, forwarded: str | None) -> None:
    """A presenter opens a poll; ``phones`` phones join the room and answer it; held until the phase ends."""
    import queue

    import socketio

    from tests.web.hall import hall, hang_up

    _files_for(phones + 64)
    tallies: queue.Queue = queue.Queue()
    presenter = socketio.Client(reconnection=False)
    presenter.on("poll_tally", lambda data: tallies.put(data["answered"]))
    presenter.connect(url, transports=["websocket"], wait_timeout=30)
    drive = presenter.call("create_room", {}, timeout=30)
    presenter.call("load", {"scenario": "lost-marker", "position": 5, **drive}, timeout=30)
    presenter.call("poll_open", drive, timeout=30)
    end = time.monotonic() + seconds
    source = "127.0.0.1" if forwarded else "127.0.0.2"
    done, took = hall(url, _address(url)[1], drive["room"], phones, source, forwarded, {"v1.28.1": "backoffQ"})
    counted = 0
    while counted < phones and time.monotonic() < end + 30:
        with contextlib.suppress(queue.Empty):
            counted = max(counted, tallies.get(timeout=1))
    problems = sorted({p.problem.split(":")[0] for p in done if p.problem})
    out.put({"joined": sum(p.joined for p in done), "of": phones, "all in s": round(took, 1), "votes": counted,
             "problems": problems})
    time.sleep(max(0.0, end - time.monotonic()))
    hang_up(done)
    presenter.disconnect()


def _whole(answer: bytes) -> bool:
    """Whether ``answer`` is a whole HTTP answer (by its Content-Length, or a chunked body's last chunk)."""
    if b"\r\n\r\n" not in answer:
        return False
    head, body = answer.split(b"\r\n\r\n", 1)
    found = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
    if found:
        return len(body) >= int(found.group(1))
    return body.endswith(b"0\r\n\r\n")


def big_polls(url: str, seconds: float, out) -> None:
    """Long-polling sessions from 127.0.0.3, each sent a POST over the message limit and then a normal one."""
    address, end = _address(url), time.monotonic() + seconds
    path = "/socket.io/?EIO=4&transport=polling"
    big = "42" + json.dumps(["echo", "x" * (1024 * 1024 + 10)])
    statuses: dict[str, int] = {}

    def count(kind: str, status: int) -> None:
        statuses[f"{kind} {status}"] = statuses.get(f"{kind} {status}", 0) + 1

    def request(method: str, target: str, body: str = "") -> tuple[int, bytes]:
        with socket.create_connection(address, timeout=5, source_address=("127.0.0.3", 0)) as conn:
            data = body.encode()
            conn.sendall(f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(data)}\r\n"
                         f"Content-Type: text/plain\r\nConnection: close\r\n\r\n".encode() + data)
            answer = b""
            while not _whole(answer):  # then closed by this side: a server may wait for the client to close
                chunk = conn.recv(65536)
                if not chunk:
                    break
                answer += chunk
        return (int(answer.split(b" ", 2)[1]) if answer else 0), answer.split(b"\r\n\r\n", 1)[-1]

    while time.monotonic() < end:
        try:
            status, body = request("GET", path)
            count("open", status)
            if status != 200:
                time.sleep(0.2)
                continue
            found = re.search(rb'"sid":"([^"]+)"', body)  # (the body may be chunked)
            if found is None:
                count("open without a session", status)
                continue
            sid = found.group(1).decode()
            count("connect", request("POST", f"{path}&sid={sid}", "40")[0])
            count("oversized", request("POST", f"{path}&sid={sid}", big)[0])
            count("after", request("POST", f"{path}&sid={sid}", '42["echo","hi"]')[0])
        except OSError:
            count("failed", 0)
        except ValueError:
            count("unreadable answer", 0)
    out.put({"polling statuses": statuses})


# --- run on its own: a server under a file limit, either async mode, RSS sampled ---------------------------------
def rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            text = f.read()
    except OSError:
        return 0.0
    found = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(found.group(1)) / 1024 if found else 0.0


class LimitedServer:
    """``inflight-scope serve`` under ``prlimit --nofile=N:N`` on a free loopback port (output in a temporary file)."""

    def __init__(self, mode: str, nofile: int, env: dict):
        import subprocess
        import sys
        import tempfile
        import urllib.request

        from server import ROOT, free_port

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed by stop())
        self.proc = subprocess.Popen(
            ["prlimit", f"--nofile={nofile}:{nofile}", sys.executable, "-m", "webapp.cli", "serve", "--host",
             "127.0.0.1", "--port", str(self.port), "--async-mode", mode],
            cwd=ROOT, env={**os.environ, **env}, stdout=self.log, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1):
                    break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("server did not start:\n" + self.output()) from None
                time.sleep(0.1)

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def cpu(self) -> float:
        from server import cpu_seconds

        return cpu_seconds(self.pid)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


def main() -> None:
    import argparse
    import multiprocessing
    import urllib.request

    from abuse_viewer import Viewer, summed
    from common import gathered, median, percentile

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=("eventlet", "threading"), default="eventlet")
    ap.add_argument("--nofile", type=int, default=1024, help="the server's open-files limit (soft and hard)")
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--settle", type=float, default=1.0)
    ap.add_argument("--pace", type=float, default=20.0)
    ap.add_argument("--phases", default="quiet," + ",".join(PHASES))
    ap.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE")
    add_arguments(ap)
    args = ap.parse_args()
    server = LimitedServer(args.mode, args.nofile, dict(i.split("=", 1) for i in args.server_env))
    said = next((line for line in server.output().splitlines() if line.startswith("open files limit")), "")
    ctx = multiprocessing.get_context("spawn")
    rows, alive = [], True
    with urllib.request.urlopen(server.url + "/", timeout=60):  # the page served once, as to its first visitor
        pass
    try:
        viewer = Viewer(server.url, args.pace)
        viewer.start()
        for name in [p for p in args.phases.split(",") if p]:
            out = ctx.Queue()
            procs, expected = attackers(name, server.url, args.seconds + args.settle, out, ctx, args) \
                if name != "quiet" else ([], 0)
            for p in procs:
                p.start()
            start = time.perf_counter() + args.settle
            rss, stop_at = [], time.monotonic() + args.seconds + args.settle
            while time.monotonic() < stop_at:
                rss.append(rss_mib(server.pid))
                alive = alive and server.proc.poll() is None
                time.sleep(0.25)
            end = time.perf_counter()
            reports = gathered(out, expected, procs, 60)
            rows.append((name, viewer.between(start, end), summed(reports), max(rss), rss_mib(server.pid),
                         server.proc.poll() is None))
        viewer.stopped.set()
        viewer.join(15)
        failures = viewer.failures
    finally:
        server.stop()
    refusals = [line for line in server.output().splitlines() if "HTTP rate limit" in line or "out of open" in line]
    print(f"{args.mode}, one server process under prlimit --nofile={args.nofile}; {said}; honest viewer steps "
          f"{args.pace:g}/s, {args.seconds:g} s counted per phase; viewer timeouts {failures}; "
          f"{len(refusals)} refusal lines logged; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    print("| phase | steps | p50 ms | p99 ms | max ms | RSS max / after MiB | alive | attackers got |")
    print("|---|---|---|---|---|---|---|---|")
    for name, xs, report, rss_max, rss_after, up in rows:
        figures = f"{median(xs):.1f} | {percentile(xs, 0.99):.1f} | {max(xs):.0f}" if xs else "- | - | -"
        print(f"| {name} | {len(xs)} | {figures} | {rss_max:.0f} / {rss_after:.0f} | {'yes' if up else 'NO'} | "
              f"{json.dumps(report)} |")


if __name__ == "__main__":
    main()
