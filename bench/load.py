"""Load: hundreds of concurrent Socket.IO sessions, and one presenter with a large audience, on the real server.

Starts `python -m webapp.cli serve` as a subprocess on 127.0.0.1 (eventlet unless --async-mode threading; a fresh
server for every measurement) and drives it from one asyncio process with python-socketio's AsyncClient, every
client its own websocket connection (connected in batches):

  (a) sessions: N clients each load a built-in scenario and step through it K times (seek 0 at the end), closed
      loop: emit `step`, wait for its own `state`, pause so that no client sends more than --client-rate events/s.
      Step -> own state p50/p99/max, steps/s over all clients, and messages lost: every emit must produce exactly
      one `state` with the expected position (missing, duplicated, out of order, timeouts: all must be 0).
  (b) fan-out: a presenter creates a room, loads a scenario into it and steps S times at --pace steps/s (0: as
      fast as its own `state` comes back); M followers join the room, shared among --client-processes processes
      (4; one process receiving 500 followers' states in Python was itself the bottleneck). Every follower must
      receive every state, in order, none twice. Presenter emit -> follower receipt p50/p99/max (perf_counter:
      the system's monotonic clock, the same in every process), the time until the last follower has a step,
      and messages lost.
  (c) --sweep: (a) for N in --sweep-sessions and (b) for M in --sweep-followers (each capped by --max) and where
      p99 crosses --p99-limit ms or losses appear.

Server, client (all its processes) and other processes' CPU (share of one core) and the client's event-loop lag
(every loop's samples) come with each figure: a lagging client loop adds to the latencies it measures.
Bounded: --timeout seconds for the whole run (default 120, 300 with --sweep), then everything is disconnected and
the server terminated. Figures, not assertions; the exit status is 1 if any message was lost or a run timed out.
    python bench/load.py [--async-mode eventlet|threading] [--sessions 200] [--followers 500] [--sweep]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import difflib
import json
import multiprocessing
import os
import random
import resource
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import socketio
from common import median, percentile
from server import HOST, Server, cpu_seconds

import webapp

NOISY = 0.25  # other processes' CPU (share of a core) above which a figure is flagged


# --- clients ---------------------------------------------------------------------------------------------
class Conn:
    """One Socket.IO connection over websocket; records every `state` (receipt time, position) in order."""

    def __init__(self, measure: bool = False):
        self.sio = socketio.AsyncClient(reconnection=False, handle_sigint=False)
        self.states: list[tuple[float, int]] = []
        self.scenario: dict | None = None
        self.errors: list[str] = []
        self.measure = measure
        self.sizes: list[int] = []  # bytes of each state as JSON (only when measuring: it costs client CPU)
        self.closing = False
        self.dropped = False
        self._arrived = asyncio.Event()
        self.sio.on("state", self._on_state)
        self.sio.on("delta", self._on_state)  # a step travels as a delta: it arrives as that position's state
        self.sio.on("scenario", self._on_scenario)
        self.sio.on("error", self._on_error)
        self.sio.on("disconnect", self._on_disconnect)

    def _on_state(self, data):
        self.states.append((time.perf_counter(), data["position"]))
        if self.measure:
            self.sizes.append(len(json.dumps(data, separators=(",", ":")).encode()))
        self._arrived.set()

    def _on_scenario(self, data):
        self.scenario = data

    def _on_error(self, data):
        self.errors.append(f"{data.get('event')}: {data.get('message')}" if isinstance(data, dict) else str(data))
        self._arrived.set()

    def _on_disconnect(self, *_):
        self.dropped = not self.closing
        self._arrived.set()

    async def connect(self, url: str) -> None:
        await self.sio.connect(url, transports=["websocket"], wait_timeout=15)

    async def state(self, index: int, timeout: float) -> tuple[float, int]:
        """The `index`-th state this connection received (waiting up to `timeout`)."""
        end = time.perf_counter() + timeout
        while len(self.states) <= index:
            left = end - time.perf_counter()
            if left <= 0 or self.dropped or self.closing:
                raise TimeoutError
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)
        return self.states[index]


async def connect_all(url: str, count: int, batch: int, timeout: float,
                      opened: list[Conn]) -> tuple[list[Conn], int, float]:
    """(connected clients, failures, seconds): ramp-up in batches of `batch` concurrent connects, each given
    `timeout` seconds. Every client is added to `opened` first (the caller closes them, whatever happens).
    The first client measures its state sizes."""
    t = time.perf_counter()
    conns, failed = [], 0
    for start in range(0, count, batch):
        group = [Conn(measure=start == 0 and i == 0) for i in range(min(batch, count - start))]
        opened += group
        results = await asyncio.gather(*(asyncio.wait_for(c.connect(url), timeout) for c in group),
                                       return_exceptions=True)
        for c, r in zip(group, results):
            if isinstance(r, BaseException):
                failed += 1
            else:
                conns.append(c)
    return conns, failed, time.perf_counter() - t


async def disconnect_all(conns: list[Conn]) -> None:
    async def one(c: Conn):
        c.closing = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(c.sio.disconnect(), 10)
        http = c.sio.eio.http  # a connect that failed or was cancelled leaves its aiohttp session open
        if http is not None and not http.closed:
            await http.close()
    await asyncio.gather(*(one(c) for c in conns))


class Pacer:
    """At most `rate` emits per second from one client (below the server's per-connection limit)."""

    def __init__(self, rate: float):
        self.interval = 1.0 / rate if rate > 0 else 0.0
        self.next = 0.0

    async def wait(self) -> None:
        now = time.perf_counter()
        if self.next > now:
            await asyncio.sleep(self.next - now)
        self.next = max(now, self.next) + self.interval


async def loop_lag(samples: list[float]) -> None:
    """The client's own event-loop lag: how late a 10 ms sleep wakes up."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        samples.append((time.perf_counter() - t - 0.01) * 1000)


def align(expected: list[int], received: list[int]) -> tuple[list[tuple[int, int]], int, int]:
    """(matched (expected index, received index) pairs, missing, duplicated) of two position sequences."""
    if expected == received:
        return [(i, i) for i in range(len(expected))], 0, 0
    matcher = difflib.SequenceMatcher(a=expected, b=received, autojunk=False)
    pairs = [(b.a + k, b.b + k) for b in matcher.get_matching_blocks() for k in range(b.size)]
    duplicated = sum(1 for x, y in zip(received, received[1:]) if x == y)
    return pairs, len(expected) - len(pairs), duplicated


# --- results ---------------------------------------------------------------------------------------------
@dataclass
class Result:
    kind: str
    clients: int
    latencies: list[float] = field(default_factory=list)  # ms
    connect_failed: int = 0
    connect_s: float = 0.0
    missing: int = 0
    duplicated: int = 0
    unexpected: int = 0  # received but matching no expected state (out of order or stray)
    timeouts: int = 0
    errors: list[str] = field(default_factory=list)
    dropped: int = 0
    actions: int = 0  # steps (a) or presenter emits (b)
    seconds: float = 0.0
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    other_cpu: float = 0.0
    lag: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    extra: dict = field(default_factory=dict)
    timed_out: bool = False

    @property
    def lost(self) -> int:
        """States that did not arrive exactly once, in order."""
        return self.missing + self.duplicated + self.unexpected

    @property
    def failures(self) -> int:
        """Everything else that must be zero too."""
        return self.timeouts + len(self.errors) + self.dropped + self.connect_failed + int(self.timed_out)

    def p(self, q: float) -> float:
        return percentile(self.latencies, q) if self.latencies else float("nan")


def machine_cpu() -> float:
    """CPU seconds all processes on this machine have used (Linux /proc/stat; 0 elsewhere)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
        busy = sum(int(x) for i, x in enumerate(fields[:8]) if i not in (3, 4))  # less idle and iowait
        return busy / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError):
        return 0.0


async def measured(server: Server, result: Result, body, helpers=()) -> Result:
    """Runs `body`, adding CPU shares (server, the client: this process and its ``helpers`` pids, everything else
    on the machine) and the client's loop lag to `result`."""
    lag_task = asyncio.create_task(loop_lag(result.lag))

    def client() -> float:
        return time.process_time() + sum(cpu_seconds(pid) for pid in helpers)

    s0, c0, m0, t0 = server.cpu(), client(), machine_cpu(), time.perf_counter()
    try:
        await body
    finally:
        wall = max(time.perf_counter() - t0, 1e-9)
        result.server_cpu = (server.cpu() - s0) / wall
        result.client_cpu = (client() - c0) / wall
        result.other_cpu = max(0.0, (machine_cpu() - m0) / wall - result.server_cpu - result.client_cpu)
        lag_task.cancel()
    return result


# --- (a) sessions ----------------------------------------------------------------------------------------
async def sessions(server: Server, result: Result, opened: list[Conn], k: int, scenario: str, rate: float,
                   batch: int, state_timeout: float) -> Result:
    n = result.clients
    conns, result.connect_failed, result.connect_s = await connect_all(server.url, n, batch, state_timeout, opened)
    expected: dict[int, list[int]] = {id(c): [] for c in conns}
    step_indexes: dict[int, list[tuple[int, float]]] = {id(c): [] for c in conns}  # (state index, emit time)
    go = asyncio.Event()
    loaded = [0]
    window: list[float] = []

    async def drive(c: Conn):
        pacer, exp, steps = Pacer(rate), expected[id(c)], step_indexes[id(c)]

        async def emit(event, payload=None, position=None, is_step=False):
            await pacer.wait()
            t = time.perf_counter()
            exp.append(position)
            await c.sio.emit(event, payload)
            got = await c.state(len(exp) - 1, state_timeout)
            if is_step:
                steps.append((len(exp) - 1, t))
            return got

        try:
            try:
                await emit("load", {"scenario": scenario}, 0)
                total = c.scenario["total"]
            finally:
                loaded[0] += 1
            await go.wait()
            await asyncio.sleep(random.random() * pacer.interval)  # no lockstep bursts
            window.append(time.perf_counter())
            position = 0
            for _ in range(k):
                if position == total:
                    await emit("seek", {"position": 0}, 0)
                    position = 0
                position += 1
                await emit("step", None, position, is_step=True)
            window.append(time.perf_counter())
        except (TimeoutError, socketio.exceptions.SocketIOError, TypeError):
            result.timeouts += 1  # this session stops here; what it missed is counted below

    async def body():
        tasks = [asyncio.create_task(drive(c)) for c in conns]
        while loaded[0] < len(conns):
            await asyncio.sleep(0.05)
        go.set()
        await asyncio.gather(*tasks)
        await asyncio.sleep(0.5)  # late or duplicate states show up here

    await measured(server, result, body())
    for c in conns:
        received = [pos for _, pos in c.states]
        pairs, missing, duplicated = align(expected[id(c)], received)
        result.missing += missing
        result.duplicated += duplicated
        result.unexpected += len(received) - len(pairs) - duplicated
        got = {i: j for i, j in pairs}
        for i, t in step_indexes[id(c)]:
            if i in got:
                result.latencies.append((c.states[got[i]][0] - t) * 1000)
        result.errors += c.errors
        result.dropped += c.dropped
        result.sizes += c.sizes
    result.actions = sum(len(s) for s in step_indexes.values())
    result.seconds = (max(window) - min(window)) if window else 0.0
    result.extra["offered"] = len(conns) * rate
    return result


# --- (b) fan-out -----------------------------------------------------------------------------------------
@dataclass
class Followed:
    """What one follower received: (receipt time, position) of every state, its errors, whether it dropped."""

    states: list
    errors: list
    dropped: bool


async def join(followers: list[Conn], room: str, batch: int, timeout: float) -> int:
    """The followers join ``room`` in batches of ``batch``; how many got no state for it."""
    failed = 0
    for start in range(0, len(followers), batch):
        group = followers[start:start + batch]
        for f in group:
            await f.sio.emit("join_room", {"room": room})
        joined = await asyncio.gather(*(f.state(0, timeout) for f in group), return_exceptions=True)
        failed += sum(isinstance(j, BaseException) for j in joined)
    return failed


def follow(url: str, room: str, count: int, batch: int, state_timeout: float, pipe) -> None:
    """A process of followers (``--client-processes``): ``count`` of them join ``room`` and report
    ("ready", followers, connect/join failures, connect s, join s); given ("drain", n), each waits for its n states
    after its join state, and the process answers ([Followed], its loop-lag samples) and disconnects them."""
    asyncio.run(_follow(url, room, count, batch, state_timeout, pipe))


async def _follow(url: str, room: str, count: int, batch: int, state_timeout: float, pipe) -> None:
    loop, opened, lag = asyncio.get_running_loop(), [], []
    try:
        conns, failed, connect_s = await connect_all(url, count, batch, state_timeout, opened)
        t = time.perf_counter()
        failed += await join(conns, room, batch, state_timeout)
        ready = [c for c in conns if c.states]
        pipe.send(("ready", len(ready), failed, connect_s, time.perf_counter() - t))
        lag_task = asyncio.create_task(loop_lag(lag))
        _, n = await loop.run_in_executor(None, pipe.recv)
        end = time.perf_counter() + state_timeout
        while time.perf_counter() < end and any(len(c.states) <= n for c in ready):
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # duplicates would arrive here
        lag_task.cancel()
        pipe.send(([Followed(c.states, c.errors, c.dropped) for c in ready], lag))
    finally:
        await disconnect_all(opened)


class Followers:
    """``processes`` processes of followers (``follow``) sharing ``count`` among them; perf_counter is the
    system's monotonic clock, so their receipt times compare with the presenter's emit times."""

    def __init__(self, url: str, room: str, count: int, processes: int, batch: int, state_timeout: float):
        ctx = multiprocessing.get_context("spawn")
        shares = [count // processes + (i < count % processes) for i in range(processes)]
        self.pipes, self.workers = [], []
        for share in (n for n in shares if n):
            mine, theirs = ctx.Pipe()
            worker = ctx.Process(target=follow, args=(url, room, share, batch, state_timeout, theirs), daemon=True)
            worker.start()
            self.pipes.append(mine)
            self.workers.append(worker)

    @property
    def pids(self) -> list[int]:
        return [w.pid for w in self.workers]

    async def answers(self) -> list:
        loop = asyncio.get_running_loop()
        return await asyncio.gather(*(loop.run_in_executor(None, pipe.recv) for pipe in self.pipes))

    async def drain(self, n: int) -> tuple[list[Followed], list[float]]:
        """Every follower's states once each has n after its join state (or the state timeout passed), and the
        processes' loop-lag samples."""
        for pipe in self.pipes:
            pipe.send(("drain", n))
        answers = await self.answers()
        return [f for followed, _ in answers for f in followed], [x for _, lag in answers for x in lag]

    def close(self) -> None:
        for worker in self.workers:
            worker.join(15)  # it disconnects its followers first
            if worker.is_alive():
                worker.terminate()


async def fanout(server: Server, result: Result, opened: list[Conn], s: int, scenario: str, pace: float,
                 batch: int, state_timeout: float, processes: int) -> Result:
    m = result.clients
    presenter = Conn(measure=True)
    opened.append(presenter)
    await asyncio.wait_for(presenter.connect(server.url), state_timeout)
    room = await presenter.sio.call("create_room", timeout=state_timeout)
    if "error" in room:
        raise RuntimeError(f"create_room: {room['error']}")
    drive = {"room": room["room"], "token": room["token"]}
    await presenter.sio.emit("load", {"scenario": scenario, **drive})
    await presenter.state(0, state_timeout)
    total = presenter.scenario["total"]

    followers = Followers(server.url, room["room"], m, processes, batch, state_timeout)
    try:
        ready = await followers.answers()
        result.connect_failed = sum(r[2] for r in ready)
        result.connect_s = max(r[3] for r in ready)
        result.extra["join_s"] = max(r[4] for r in ready)
        followed: list[Followed] = []
        emitted: list[tuple[float, int]] = []  # (presenter emit time, expected position)
        acks: list[float] = []

        async def body():
            pacer, position = Pacer(pace), 0
            start = time.perf_counter()
            for _ in range(s):
                event, payload = ("seek", {"position": 0, **drive}) if position == total else ("step", drive)
                position = 0 if position == total else position + 1
                await pacer.wait()
                t = time.perf_counter()
                emitted.append((t, position))
                await presenter.sio.emit(event, payload)
                try:
                    got = await presenter.state(len(emitted), state_timeout)  # its own copy: the pace's ack
                except TimeoutError:
                    result.timeouts += 1
                    break
                acks.append((got[0] - t) * 1000)
            result.seconds = time.perf_counter() - start
            got, lag = await followers.drain(len(emitted))  # until every follower has every state
            followed.extend(got)
            result.lag += lag

        await measured(server, result, body(), followers.pids)
    finally:
        followers.close()

    positions = [p for _, p in emitted]
    last: dict[int, float] = {}  # expected index -> last follower receipt
    for f in followed:
        received = [pos for _, pos in f.states[1:]]  # the first is the join state
        pairs, missing, duplicated = align(positions, received)
        result.missing += missing
        result.duplicated += duplicated
        result.unexpected += len(received) - len(pairs) - duplicated
        for i, j in pairs:
            when = f.states[j + 1][0]
            result.latencies.append((when - emitted[i][0]) * 1000)
            last[i] = max(last.get(i, 0.0), when)
        result.errors += f.errors
        result.dropped += f.dropped
    result.errors += presenter.errors
    result.dropped += presenter.dropped
    result.sizes = presenter.sizes[1:]
    result.actions = len(emitted)
    result.extra["acks"] = acks
    result.extra["all"] = [(last[i] - emitted[i][0]) * 1000 for i in sorted(last)]
    result.extra["followers"] = len(followed)
    return result


# --- report ----------------------------------------------------------------------------------------------
def ms(x: float) -> str:
    return f"{x:.1f} ms"


def print_result(r: Result, args, label: str) -> None:
    size = sum(r.sizes) / len(r.sizes) if r.sizes else 0
    print(label)
    if r.timed_out:
        print("    TIMED OUT (--timeout): the figures below are partial")
    print(f"    connected {r.clients - r.connect_failed}/{r.clients} in {r.connect_s:.1f} s (batches of {args.batch})"
          + (f", joined the room in {r.extra['join_s']:.1f} s" if "join_s" in r.extra else ""))
    if r.latencies:
        name = "step -> own state" if r.kind == "sessions" else "presenter emit -> follower state"
        print(f"    {name}: p50 {ms(median(r.latencies))}, p99 {ms(r.p(0.99))}, max {ms(max(r.latencies))}"
              f" ({len(r.latencies):,} samples)")
    if r.kind == "sessions" and r.seconds:
        print(f"    throughput: {r.actions / r.seconds:,.0f} steps/s ({r.actions:,} steps in {r.seconds:.1f} s;"
              f" ceiling at --client-rate {args.client_rate:g}/s per client: {r.extra['offered']:,.0f}/s)")
    if r.kind == "fan-out" and r.extra.get("all"):
        every = r.extra["all"]
        acks = r.extra["acks"]
        own = f"; presenter's own state p50 {ms(median(acks))}" if acks else ""
        print(f"    until the last follower has it: p50 {ms(median(every))}, max {ms(max(every))}{own}")
        print(f"    server CPU per presenter step (pushing it to the room): "
              f"{r.server_cpu * r.seconds / max(r.actions, 1) * 1000:.1f} ms")
        print(f"    {r.actions} presenter emits in {r.seconds:.1f} s -> {r.actions * r.extra['followers']:,}"
              f" follower states ({r.actions * r.extra['followers'] / max(r.seconds, 1e-9):,.0f}/s,"
              f" {r.actions * r.extra['followers'] * size / max(r.seconds, 1e-9) / 1e6:.1f} MB/s of JSON)")
    print(f"    lost: {r.lost} (missing {r.missing}, duplicated {r.duplicated}, out of order/stray {r.unexpected});"
          f" timeouts {r.timeouts}, errors {len(r.errors)}, disconnects {r.dropped},"
          f" connect/join failures {r.connect_failed}")
    for e in sorted(set(r.errors))[:3]:
        print(f"      error: {e}")
    lag = f"p99 {ms(percentile(r.lag, 0.99))}, max {ms(max(r.lag))}" if r.lag else "-"
    print(f"    CPU (share of one core; {os.cpu_count()} cores): server {r.server_cpu:.0%}, client {r.client_cpu:.0%},"
          f" other processes {r.other_cpu:.0%};"
          f" client loop lag {lag}; a state message {size:,.0f} bytes of JSON on average")


def limit_setting(env: dict[str, str]) -> str:
    """The server's per-connection rate limit as it will be: DEFAULTS, then INFLIGHT_SCOPE_<KEY> overrides."""
    keys = [k for k in webapp.DEFAULTS if k.startswith("RATE_LIMIT")]
    if not keys:
        return "server rate limit: none in this version (no RATE_LIMIT_* in webapp.DEFAULTS)"
    merged = {**os.environ, **env}
    values = {k: merged.get(f"INFLIGHT_SCOPE_{k}", webapp.DEFAULTS[k]) for k in keys}
    given = ", ".join(f"{k}={v}" for k, v in env.items()) or "none"
    return "server rate limit: " + ", ".join(f"{k}={v}" for k, v in values.items()) + f" (--server-env: {given})"


def raise_open_files(needed: int) -> str:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        new = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))  # the server subprocess inherits it
        soft = new
    return f"open files: soft limit {soft} (needs ~{needed})"


async def run_point(kind: str, n: int, args, env: dict, timeout: float) -> Result:
    """One measurement on a fresh server, bounded by `timeout` seconds; every client is disconnected and the
    server terminated at the end, timed out or not."""
    server = Server(args.async_mode, env)
    result, opened = Result(kind, n), []
    try:
        if kind == "sessions":
            work = sessions(server, result, opened, args.steps, args.scenario, args.client_rate, args.batch,
                            args.state_timeout)
        else:
            work = fanout(server, result, opened, args.presenter_steps, args.scenario, args.pace, args.batch,
                          args.state_timeout, args.client_processes)
        try:
            await asyncio.wait_for(work, max(timeout, 1))
        except TimeoutError:
            result.timed_out = True
        return result
    finally:
        await disconnect_all(opened)
        server.stop()


async def main_async(args) -> int:
    env = dict(item.split("=", 1) for item in args.server_env)
    deadline = time.monotonic() + args.timeout
    print(f"async mode {args.async_mode}, loopback {HOST}, scenario {args.scenario},"
          f" client pacing <= {args.client_rate:g} events/s per connection,"
          f" (b)'s followers in {args.client_processes} client processes")
    print(limit_setting(env))
    print(raise_open_files(2 * max(args.sessions, args.followers + 1, args.max if args.sweep else 0) + 256))
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    print()
    bad = 0
    if not args.sweep:
        for kind, n, label in (
                ("sessions", args.sessions,
                 f"(a) {args.sessions} sessions x {args.steps} steps each, closed loop"),
                ("fan-out", args.followers,
                 f"(b) 1 presenter + {args.followers} followers, {args.presenter_steps} steps at "
                 + (f"{args.pace:g} steps/s" if args.pace else "the presenter's own ack rate"))):
            if n <= 0:  # --sessions 0 or --followers 0 runs only the other part
                continue
            r = await run_point(kind, n, args, env, deadline - time.monotonic())
            print_result(r, args, label)
            bad += r.lost + r.failures
        return 1 if bad else 0

    rows: dict[str, list[Result]] = {"sessions": [], "fan-out": []}
    for kind, values in (("sessions", args.sweep_sessions), ("fan-out", args.sweep_followers)):
        for n in values:
            if not 0 < n <= args.max:
                continue
            if deadline - time.monotonic() < 5:
                print(f"{kind} {n}: skipped (--timeout)")
                continue
            r = await run_point(kind, n, args, env, deadline - time.monotonic())
            rows[kind].append(r)
            bad += r.lost + r.failures
            print_result(r, args, f"{kind}: {n} " + ("sessions" if kind == "sessions" else "followers"))
    print()
    print(f"sweep summary (async mode {args.async_mode}; p99 limit {args.p99_limit:g} ms)")
    print(f"{'':10} {'clients':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'rate/s':>8} {'lost':>5} {'fail':>5}"
          f" {'srv CPU':>7} {'cli CPU':>7} {'others':>7} {'lag p99':>8}")
    for kind, results in rows.items():
        for r in results:
            rate = (r.actions / r.seconds if kind == "sessions" else
                    r.actions * r.extra.get("followers", 0) / r.seconds) if r.seconds else 0
            lag = percentile(r.lag, 0.99) if r.lag else float("nan")
            p50 = median(r.latencies) if r.latencies else float("nan")
            mx = max(r.latencies) if r.latencies else float("nan")
            print(f"{kind:10} {r.clients:>7} {p50:>8.1f} {r.p(0.99):>8.1f} {mx:>8.1f} {rate:>8,.0f}"
                  f" {r.lost:>5} {r.failures:>5} {r.server_cpu:>7.0%} {r.client_cpu:>7.0%} {r.other_cpu:>7.0%}"
                  f" {lag:>8.1f}"
                  + ("  * busy machine" if r.other_cpu > NOISY else ""))
        if any(r.other_cpu > NOISY for r in results):
            print(f"  * other processes used more than {NOISY:.0%} of a core meanwhile: repeat that point"
                  f" (--sweep-{'sessions' if kind == 'sessions' else 'followers'} N) on a quiet machine")
        over = next((r.clients for r in results if not r.latencies or r.p(0.99) > args.p99_limit), None)
        lossy = next((r.clients for r in results if r.lost or r.failures), None)
        unit = "sessions" if kind == "sessions" else "followers"
        print(f"  {kind}: p99 > {args.p99_limit:g} ms " + (f"from {over} {unit}" if over else "nowhere in the sweep")
              + "; losses " + (f"from {lossy} {unit}" if lossy else "none"))
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--async-mode", default="eventlet", choices=("eventlet", "threading"))
    ap.add_argument("--scenario", default="three-pod-cascade", help="built-in scenario id")
    ap.add_argument("--sessions", type=int, default=200, help="(a) concurrent sessions N (0: skip (a))")
    ap.add_argument("--steps", type=int, default=None, help="(a) steps per session K (100; 50 with --sweep)")
    ap.add_argument("--client-rate", type=float, default=20.0,
                    help="(a) most events/s one session sends (stay below the server's per-connection limit)")
    ap.add_argument("--followers", type=int, default=500, help="(b) followers M (0: skip (b))")
    ap.add_argument("--presenter-steps", type=int, default=None, help="(b) presenter emits S (50; 30 with --sweep)")
    ap.add_argument("--pace", type=float, default=5.0,
                    help="(b) presenter steps/s; 0: as fast as acknowledged (may pass the server's per-connection"
                         " rate limit: --server-env INFLIGHT_SCOPE_RATE_LIMIT_PER_SECOND=0 lifts it, where the"
                         " server has that setting)")
    ap.add_argument("--client-processes", type=int, default=4,
                    help="(b) processes the followers are shared among (the presenter has this one)")
    ap.add_argument("--sweep", action="store_true", help="(c) sweep N and M instead of one (a) and one (b)")
    ap.add_argument("--sweep-sessions", type=lambda s: [int(x) for x in s.split(",")], default=[50, 100, 200, 400])
    ap.add_argument("--sweep-followers", type=lambda s: [int(x) for x in s.split(",")],
                    default=[100, 250, 500, 1000])
    ap.add_argument("--max", type=int, default=1000, help="(c) most connections at one sweep point")
    ap.add_argument("--p99-limit", type=float, default=100.0, help="(c) the p99 to report crossing, ms")
    ap.add_argument("--batch", type=int, default=50, help="connections opened concurrently during ramp-up")
    ap.add_argument("--state-timeout", type=float, default=10.0, help="seconds to wait for one state")
    ap.add_argument("--timeout", type=float, default=None, help="seconds for the whole run (120; 300 with --sweep)")
    ap.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                    help="environment for the server, e.g. a per-connection rate-limit setting")
    args = ap.parse_args()
    if args.timeout is None:
        args.timeout = 300.0 if args.sweep else 120.0
    if args.steps is None:
        args.steps = 50 if args.sweep else 100
    if args.presenter_steps is None:
        args.presenter_steps = 30 if args.sweep else 50
    if any("=" not in item for item in args.server_env):
        ap.error("--server-env takes NAME=VALUE")
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
