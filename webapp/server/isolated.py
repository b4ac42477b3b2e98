"""Work that may run long on a small request (a log import): in a lane of its own, in a worker process in
either async mode, within a CPU budget per call (``cpubudget.budgeted``) and per minute for the process
(``cpubudget.Allowance``), and ended as soon as the client that asked for it has gone.

While a worker runs a call (an import here, any pure call of Offload), the caller waits on the worker's answer and
on its client (``Client``): the client's connection, where there is one to watch, and what says it has left (a
Socket.IO connection closed), asked every LOOK_SECONDS. Under eventlet that wait is green (the event loop serves
everyone else meanwhile); under threading it is the handler's own thread. A client gone ends the worker (killed:
nothing in it is worth keeping; the next call starts another) and the call raises ``ClientGone``.
"""

from __future__ import annotations

import _socket
import os
import select
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ParamSpec, Protocol, TypeVar

from ..errors import Busy
from . import workers
from .cpubudget import Allowance, budgeted, charged

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from _typeshed.wsgi import WSGIEnvironment

    from .workers import Worker

T = TypeVar("T")
P = ParamSpec("P")

WATCH_SECONDS = 5.0  # the longest the wait goes without looking at the worker (a worker that died says so too)
LOOK_SECONDS = 0.25  # how often a call asks whether its client has left (one with no connection to watch)


class Runner(Protocol):
    """Calls ``fn(*args)`` where the event loop need not wait for it (eventlet's tpool), or here."""

    def __call__(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T: ...


class Place(Protocol):
    """Holds one of a lane's places while a call waits and runs (offload.Lane.place)."""

    def place(self, abandoned: Callable[[], BaseException | None] | None = None,
              address: str | None = None) -> AbstractContextManager[None]: ...


class ClientGone(Busy):
    """The client left before its work ended: nobody is answered."""

    kind = Busy.kind


@dataclass(frozen=True)
class Client:
    """Who waits for a call: its address (per-address bounds), its connection's descriptor to watch (``fd``: HTTP),
    and ``left()``: whether it has gone otherwise (a Socket.IO connection closed)."""

    address: str | None = None
    fd: int | None = None
    left: Callable[[], bool] | None = None

    def gone(self) -> bool:
        return bool((self.fd is not None and gone(self.fd)) or (self.left is not None and self.left()))


def client_fd(environ: WSGIEnvironment) -> int | None:
    """The file descriptor of the request's client connection, where the server says (eventlet's and Werkzeug's
    servers do); None elsewhere."""
    connection = environ.get("werkzeug.socket")
    if connection is not None:
        return int(connection.fileno())
    given = environ.get("eventlet.input")
    rfile = getattr(given, "rfile", None)
    try:
        return int(rfile.fileno()) if rfile is not None else None
    except (OSError, ValueError):
        return None


def gone(fd: int) -> bool | None:
    """Whether the client closed its connection (True), is still there with nothing sent (False), or sent more
    (None: its next request; no longer a sign either way)."""
    try:
        peek = _socket.socket(fileno=os.dup(fd))
    except OSError:
        return True
    try:
        data = peek.recv(1, _socket.MSG_PEEK | _socket.MSG_DONTWAIT)
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        peek.close()  # the copy only
    return None if data else True


def watched(worker: Worker, fn: Callable[..., T], args: tuple[object, ...], kwargs: Mapping[str, object],
            client: Client | None, read: Runner, what: str) -> T:
    """``fn(*args, **kwargs)`` in ``worker``, its answer read by ``read(worker.answer, fn)`` once it comes; the
    worker killed and ClientGone raised (naming ``what``) once ``client`` has gone."""
    if not worker.ask(fn, args, kwargs):
        return worker.answer(fn, gone=True)
    fd = client.fd if client is not None else None
    watched_fds = [worker.answer_fd] + ([fd] if fd is not None else [])
    asks = client is not None and client.left is not None
    while True:
        ready = select.select(watched_fds, [], [], LOOK_SECONDS if asks else WATCH_SECONDS)[0]
        if worker.answer_fd in ready:
            return read(worker.answer, fn)
        state = gone(fd) if fd is not None and fd in ready else False
        if state is None:  # its next request is waiting: nothing more to learn from the connection
            watched_fds = [worker.answer_fd]
        if state or (client is not None and client.left is not None and client.left()):
            read(worker.end, True)  # killed and reaped off the event loop: a large worker takes a while to go
            raise ClientGone(f"the client left: its {what} was stopped")


class Isolated:
    """``run(fn, args, client)``: ``fn(*args)`` in a worker process (``fn`` module-level, its arguments and result
    picklable), ``at_once`` running and ``waiting`` more waiting (Busy beyond), each within ``cpu_seconds`` of CPU
    and all within ``per_minute`` CPU seconds a minute; ``client``: who waits for it (``Client``), watched."""

    def __init__(self, lane: Place, cpu_seconds: float, per_minute: float, what: str = "log import",
                 settings: tuple[str, str] = ("IMPORT_CPU_SECONDS", "IMPORT_CPU_SECONDS_PER_MINUTE"),
                 read: Runner | None = None):
        self._lane = lane
        self.cpu_seconds, self.what, self.setting = float(cpu_seconds), what, settings[0]
        self.allowance = Allowance(per_minute, f"the {what}s", settings[1])
        self._pool = workers.Pool() if workers.available() else None
        self._pool_lock = threading.Lock()
        self._read: Runner = read or here  # reads the answer (a tpool thread under eventlet)
        self.cancelled = 0  # calls ended because their client left

    @property
    def pids(self) -> list[int]:
        return self._pool.pids if self._pool else []

    def close(self) -> None:
        if self._pool:
            with self._pool_lock:
                self._pool.close()

    def run(self, fn: Callable[..., T], args: tuple[object, ...], client: Client | None = None) -> T:
        self.allowance.check()
        with self._lane.place(None if client is None else lambda: self._left(client),
                              None if client is None else client.address):
            left = self._left(client) if client is not None else None
            if left is not None:
                raise left
            try:
                result, used = self._call(fn, args, client)
            except ClientGone:
                self.cancelled += 1
                raise
            except Exception as err:
                self.allowance.spend(charged(err))
                raise
            self.allowance.spend(used)
            return result

    def _left(self, client: Client) -> ClientGone | None:
        """ClientGone if the client has left while its work waits for a place."""
        if not client.gone():
            return None
        self.cancelled += 1
        return ClientGone(f"the client left before its {self.what} started")

    def _call(self, fn: Callable[..., T], args: tuple[object, ...], client: Client | None) -> tuple[T, float]:
        if self._pool is None:  # no worker processes here (not POSIX): run here, unbounded (a budget needs a worker)
            return fn(*args), 0.0
        with self._pool_lock:
            worker = self._pool.take()
        call = (fn, self.cpu_seconds, f"this {self.what}", self.setting, args)
        try:
            return watched(worker, budgeted, call, {}, client, self._read, self.what)
        finally:
            with self._pool_lock:
                self._pool.give_back(worker)


def here(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """A ``Runner`` that calls ``fn`` in this thread."""
    return fn(*args, **kwargs)
