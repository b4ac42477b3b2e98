"""CPU-heavy work of a handler (parsing a scenario, building its simulation, a dry run, an export) run off
the event loop.

Under eventlet every connection shares one OS thread: a load that takes two seconds would stall every other
viewer for two seconds. eventlet's ``tpool`` runs it on a native thread instead; the hub keeps serving while
the GIL is shared. Work marked ``pure=True`` (a module-level function of picklable data, its result plain data:
parsing and validating a scenario, the editor's checks, an export, a search) runs in a worker process instead
(webapp/server/workers.py), the tpool thread only waiting for its pipe: it shares no GIL with the hub. Under
threading each handler already has its own thread, so other work runs where it is; pure work still runs in a
worker process (a thread cannot be stopped once its client has left: a process can), except in a Flask test app
(``app.testing``: tests replace functions in this process).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypedDict, TypeVar

from flask import Flask, current_app, has_request_context, request

from ..errors import Busy
from . import isolated, privates, workers
from .codec import JsonPacket
from .frames import one_at_a_time
from .isolated import Client, ClientGone, Isolated, Runner, client_fd, here, watched

if TYPE_CHECKING:
    from .settings import Settings

T = TypeVar("T")
Abandoned = Callable[[], BaseException | None]  # asked while a call waits for its place: the exception that ends it


class Occupancy(TypedDict):
    running: int  # calls holding a running place
    waiting: int  # calls waiting for one


class Offload:
    """``offload(fn, *args)``: fn's result (or exception), computed apart from the event loop. At most
    ``at_once`` run together and ``waiting`` more wait; past that a call is refused at once with Busy.
    ``offload(fn, *args, small=True)``: work known to be small (a built-in scenario, a small request body) is
    never queued behind heavy uploads nor refused because of them: it runs here at once, or where it is also
    pure in a lane of its own (``small_at_once`` running, as many waiting as heavy work may, in worker processes
    like heavy work: a flood of small requests shares no GIL with the event loop, and is refused Busy past its
    lane's bounds as heavy work is past its own).
    ``offload(fn, *args, search=True)``: a search (POST /api/find: seconds of work however small its request) runs
    in a lane of its own (``search_at_once`` running, ``search_waiting`` waiting, refused Busy past them): a flood
    of searches refused every other upload, export and replay while it filled the heavy lane.
    ``offload(fn, *args, pure=True)``: fn is a module-level function whose arguments and result pickle (it
    changes nothing the caller sees): with ``processes`` (init_offload's default but in a test app) it runs in a worker
    process, one per slot, started when first needed; its exceptions come back as raised there, a worker that
    dies makes the call raise WorkerCrashed (Internal).
    ``offload(fn, *args, imported=True)``: a log import (seconds of CPU from a small upload) runs in a lane of its
    own, in a worker process in either async mode, within IMPORT_CPU_SECONDS per call and
    IMPORT_CPU_SECONDS_PER_MINUTE for the process (isolated.py).
    Work nobody waits for stops: every call has a ``client`` (isolated.Client: given, or the Flask request it is
    made in, ``client_of``); a call waiting for its place ends once its client has left, and pure work in a
    worker process has the worker killed (ClientGone). One address holds at most ``per_address`` places of a lane
    (running or waiting; fewer than the lane's all): past that its call is refused Busy, whoever else waits.
    ``with offload.turn():`` one place held for a run of calls (an upload's parse, build and message): the
    calls this thread (green thread) makes inside run in it, neither queued again nor refused, so no half-made
    load waits between two of them holding its parsed scenario."""

    def __init__(self, async_mode: str, at_once: int, waiting: int, processes: bool | None = None,
                 small_at_once: int = 1, search_at_once: int = 1, search_waiting: int = 2,
                 import_cpu_seconds: float = 10, import_cpu_per_minute: float = 30, per_address: int = 0,
                 client_of: Callable[[], Client | None] | None = None):
        # Bounds the work in progress: a build may hold up to MAX_SESSION_BYTES before it is refused.
        self._heavy = Lane(at_once, waiting, BUSY, per_address)
        self._small = Lane(small_at_once, waiting, BUSY_SMALL, per_address)
        self._search = Lane(search_at_once, search_waiting, BUSY_SEARCH, per_address)
        self.client_of: Callable[[], Client | None] = client_of or (lambda: None)  # the Client of the request
        self._turns: set[int] = set()  # the threads (green threads) holding a place through ``turn``
        if async_mode == "eventlet":
            from eventlet import tpool  # only in the eventlet server process, which is monkey-patched

            self._run: Runner = tpool.execute
            # The hub waits for the GIL at every I/O call while a build runs: hand it over every millisecond
            # instead of every five (bench/heavy_load.py measures another viewer's steps during loads).
            sys.setswitchinterval(0.001)
        else:
            self._run = here
        if processes is None:
            processes = async_mode == "eventlet"
        self._pool = workers.Pool() if processes and workers.available() else None
        self._pool_lock = threading.Lock()
        self._import = Lane(1, IMPORTS_WAITING, BUSY_IMPORT, per_address)
        self.imports = Isolated(self._import, import_cpu_seconds,
                                import_cpu_per_minute, read=self._run)
        self.cancelled = 0  # pure calls whose worker was killed because their client left

    @property
    def full(self) -> bool:
        """Whether heavy work would be refused now."""
        return self._heavy.full

    def occupancy(self) -> dict[str, Occupancy]:
        """Each lane's calls running and waiting now (what /healthz reports)."""
        lanes = {"heavy": self._heavy, "small": self._small, "search": self._search, "import": self._import}
        return {name: lane.occupancy() for name, lane in lanes.items()}

    @property
    def worker_pids(self) -> list[int]:
        """The worker processes running now (none before the first pure call, nor without processes)."""
        return self._pool.pids if self._pool else []

    def close(self) -> None:
        """End the worker processes (they also end at exit); a later pure call starts new ones."""
        self.imports.close()
        if self._pool:
            with self._pool_lock:
                self._pool.close()

    def __call__(self, fn: Callable[..., T], *args: object, small: bool = False, pure: bool = False,
                 search: bool = False, imported: bool = False, client: Client | None = None, **kwargs: object) -> T:
        client = client or self.client_of()
        if imported:
            return self.imports.run(fn, args, client)
        if search:
            with self._search.place(*_watching(client)):
                return self._work(fn, args, kwargs, pure, client)
        if small and not pure:
            return fn(*args, **kwargs)
        if small:
            with self._small.place(*_watching(client)):
                return self._work(fn, args, kwargs, pure, client)
        with self.turn(client):  # a place of its own, or the one this thread's turn holds
            return self._work(fn, args, kwargs, pure, client)

    @contextmanager
    def turn(self, client: Client | None = None) -> Iterator[None]:
        ident = threading.get_ident()
        if ident in self._turns:  # already holding one
            yield
            return
        with self._heavy.place(*_watching(client or self.client_of())):
            self._turns.add(ident)
            try:
                yield
            finally:
                self._turns.discard(ident)

    def native(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` on a native thread under eventlet, here otherwise, taking no place: for a call that
        works in C with the GIL released (malloc_trim), which the event loop need not wait for."""
        return self._run(fn, *args)

    def _work(self, fn: Callable[..., T], args: tuple[object, ...], kwargs: Mapping[str, object], pure: bool,
              client: Client | None) -> T:
        if pure and self._pool is not None:
            return self._in_worker(self._pool, fn, args, kwargs, client)
        return self._run(fn, *args, **kwargs)

    def _in_worker(self, pool: workers.Pool, fn: Callable[..., T], args: tuple[object, ...],
                   kwargs: Mapping[str, object], client: Client | None) -> T:
        with self._pool_lock:  # taken and given back here, never in the tpool thread (a green lock)
            worker = pool.take()
        try:
            return watched(worker, fn, args, kwargs, client, self._run, "work")
        except ClientGone:
            self.cancelled += 1
            raise
        finally:
            with self._pool_lock:
                pool.give_back(worker)


class Lane:
    """At most ``at_once`` calls run together and ``waiting`` more wait their turn; past that a call is refused at
    once with Busy. One address holds at most ``per_address`` of those places (0: the lane's all but one, at
    least one), so it never holds them all."""

    def __init__(self, at_once: int, waiting: int, busy: str, per_address: int = 0):
        self._slots = threading.BoundedSemaphore(at_once)
        self._busy = busy  # what a refused call is told
        self._most = at_once + waiting
        self.per_address = min(per_address or self._most, max(1, self._most - 1))
        self.pending = 0  # calls running or waiting
        self.running = 0  # calls holding a running place
        self._by_address: dict[str, int] = {}  # address -> its calls running or waiting
        self._count_lock = threading.Lock()

    @property
    def full(self) -> bool:
        return self.pending >= self._most

    def occupancy(self) -> Occupancy:
        with self._count_lock:
            return {"running": self.running, "waiting": self.pending - self.running}

    @contextmanager
    def place(self, abandoned: Abandoned | None = None, address: str | None = None) -> Iterator[None]:
        """A running place, waited for if need be; Busy at once if ``at_once + waiting`` are taken, or
        ``per_address`` by ``address``. ``abandoned``: asked every LOOK_SECONDS while this waits; once true, the
        wait ends with what it raised or returned (an exception) instead."""
        with self._count_lock:
            if self.pending >= self._most:
                raise Busy(self._busy)
            held = self._by_address.get(address, 0) if address is not None else 0
            if held >= self.per_address:
                raise Busy(busy_address(held))
            self.pending += 1
            if address is not None:
                self._by_address[address] = held + 1
        try:
            while not self._slots.acquire(timeout=LOOK_SECONDS if abandoned else None):
                given_up = abandoned() if abandoned else None
                if given_up:
                    raise given_up
            with self._count_lock:
                self.running += 1
            try:
                yield
            finally:
                with self._count_lock:
                    self.running -= 1
                self._slots.release()
        finally:
            with self._count_lock:
                self.pending -= 1
                if address is not None:
                    self._by_address[address] -= 1
                    if not self._by_address[address]:
                        del self._by_address[address]


def _watching(client: Client | None) -> tuple[Abandoned | None, str | None]:
    """Lane.place's arguments for a call ``client`` waits for: ends the wait once it has left; its address."""
    if client is None:
        return None, None
    return (lambda: ClientGone("the client left before its work started") if client.gone() else None), client.address


def busy_address(held: int) -> str:
    return (f"your address has {held} requests of this kind running or waiting (at most {held}: "
            "MAX_LOADS_PER_ADDRESS); send this again once one is answered")


BUSY = "the server is busy loading, checking or exporting other scenarios; try again in a moment"
BUSY_SMALL = "the server is busy with many small requests; try again in a moment"
BUSY_SEARCH = "the server is busy with other searches; try again in a moment"
BUSY_IMPORT = "the server is busy importing other logs; try again in a moment"
LOOK_SECONDS = isolated.LOOK_SECONDS  # how often a call waiting for its place looks whether its client has left
IMPORTS_WAITING = 2  # log imports that may wait for the one running
EARLY_REFUSAL_BYTES = 64 * 1024  # a POST body over this is refused before it is read while the queue is full


def init_offload(app: Flask, settings: Settings) -> Offload:
    offload = Offload(settings.async_mode, int(settings.max_loads_at_once), int(settings.max_loads_waiting),
                      search_at_once=int(settings.max_searches_at_once),
                      search_waiting=int(settings.max_searches_waiting),
                      import_cpu_seconds=float(settings.import_cpu_seconds),
                      import_cpu_per_minute=float(settings.import_cpu_seconds_per_minute),
                      per_address=int(settings.max_loads_per_address), client_of=request_client,
                      processes=settings.async_mode == "eventlet" or not app.testing)
    app.extensions["inflight_offload"] = offload
    if settings.async_mode == "eventlet":  # the eventlet server process (serve, gunicorn's worker)
        from eventlet import tpool

        # websocket frames unmasked at C speed, each connection read within a budget, the hub yielded to
        privates.install_eventlet_frames(read_bytes_per_second=int(settings.max_message_bytes))
        JsonPacket.parse_apart = one_at_a_time(tpool.execute)  # a packet's JSON, on a native thread
        JsonPacket.refuse_large = lambda: Busy(BUSY) if offload.full else None  # a load, unparsed

    @app.before_request
    def refuse_before_reading() -> None:
        """A large body that would be refused Busy anyway is refused before the event loop reads and parses it:
        clients that retry at once after a 503 kept the loop busy doing that only to refuse them
        (bench/abuse.py, costly validations)."""
        if offload.full and request.method == "POST" and (request.content_length or 0) > EARLY_REFUSAL_BYTES:
            raise Busy(BUSY)

    return offload


def offload_of(app: Flask) -> Offload:
    offload: Offload = app.extensions["inflight_offload"]
    return offload


def request_client() -> Client | None:
    """The client of the Flask request this runs in (None outside one): its address, and how to tell it has left: an
    HTTP request's connection watched, a Socket.IO connection's session gone (its websocket is read by the server:
    never watched here)."""
    if not has_request_context():
        return None
    sid = getattr(request, "sid", None)
    if sid is not None:
        sessions = current_app.extensions.get("inflight_sessions", {})
        return Client(request.remote_addr, left=lambda: sid not in sessions)
    return Client(request.remote_addr, client_fd(request.environ))


def apart(fn: Callable[..., T], *args: object, small: bool = False, pure: bool = False, search: bool = False,
          imported: bool = False, client: Client | None = None, **kwargs: object) -> T:
    """In a request: ``fn(*args)`` run by the app's Offload (the flags: see Offload), its client watched
    (``request_client``): the work ends if the client leaves. There is no request context there: pass data."""
    return offload_of(current_app)(fn, *args, small=small, pure=pure, search=search, imported=imported, client=client,
                   **kwargs)
