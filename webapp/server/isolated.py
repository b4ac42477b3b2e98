"""Work that may run long on a small request (a log import): in a lane of its own, in a worker process in
either async mode, within a CPU budget per call (``cpubudget.budgeted``) and per minute for the process
(``cpubudget.Allowance``), and ended as soon as the client that asked for it has gone.

While the worker runs, the caller waits on two file descriptors at once: the worker's answer and the client's
connection. Under eventlet that wait is green (the event loop serves everyone else meanwhile); under threading
it is the handler's own thread. A client connection that reads as closed (end of file, or reset) ends the
worker (killed: nothing in it is worth keeping) and the call raises ``ClientGone``.
"""

from __future__ import annotations

import _socket
import os
import select
import threading

from ..errors import Busy
from . import workers
from .cpubudget import Allowance, budgeted

WATCH_SECONDS = 5.0  # the longest the wait goes without looking at the worker (a worker that died says so too)


class ClientGone(Busy):
    """The client left before its work ended: nobody is answered."""

    kind = Busy.kind


def client_fd(environ) -> int | None:
    """The file descriptor of the request's client connection, where the server says (eventlet's and Werkzeug's
    servers do); None elsewhere."""
    connection = environ.get("werkzeug.socket")
    if connection is not None:
        return connection.fileno()
    given = environ.get("eventlet.input")
    rfile = getattr(given, "rfile", None)
    try:
        return rfile.fileno() if rfile is not None else None
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


class Isolated:
    """``run(fn, args, client)``: ``fn(*args)`` in a worker process (``fn`` module-level, its arguments and result
    picklable), ``at_once`` running and ``waiting`` more waiting (Busy beyond), each within ``cpu_seconds`` of CPU
    and all within ``per_minute`` CPU seconds a minute; ``client``: the client connection's descriptor, watched."""

    def __init__(self, lane, cpu_seconds: float, per_minute: float, what: str = "log import",
                 settings: tuple[str, str] = ("IMPORT_CPU_SECONDS", "IMPORT_CPU_SECONDS_PER_MINUTE"),
                 read=None):
        self._lane = lane
        self.cpu_seconds, self.what, self.setting = float(cpu_seconds), what, settings[0]
        self.allowance = Allowance(per_minute, f"the {what}s", settings[1])
        self._pool = workers.Pool() if workers.available() else None
        self._pool_lock = threading.Lock()
        self._read = read or (lambda fn, *args: fn(*args))  # reads the answer (a tpool thread under eventlet)
        self.cancelled = 0  # calls ended because their client left

    @property
    def pids(self) -> list[int]:
        return self._pool.pids if self._pool else []

    def close(self) -> None:
        if self._pool:
            with self._pool_lock:
                self._pool.close()

    def run(self, fn, args: tuple, client: int | None = None):
        self.allowance.check()
        with self._lane.place(None if client is None else lambda: self._left(client)):
            left = self._left(client) if client is not None else None
            if left is not None:
                raise left
            call = (fn, self.cpu_seconds, f"this {self.what}", self.setting, args)
            try:
                result, used = self._call(call, client)
            except Exception as err:
                self.allowance.spend(getattr(err, "cpu_used", 0.0))
                raise
            self.allowance.spend(used)
            return result

    def _left(self, client: int) -> ClientGone | None:
        """ClientGone if the client has closed its connection while its work waits for a place."""
        if not gone(client):
            return None
        self.cancelled += 1
        return ClientGone(f"the client left before its {self.what} started")

    def _call(self, call: tuple, client: int | None):
        if self._pool is None:  # no worker processes here (not POSIX): run here, unbounded (a budget needs a worker)
            fn, args = call[0], call[4]
            return fn(*args), 0.0
        with self._pool_lock:
            worker = self._pool.take()
        try:
            return self._answer(worker, call, client)
        finally:
            with self._pool_lock:
                self._pool.give_back(worker)

    def _answer(self, worker, call: tuple, client: int | None):
        if not worker.ask(budgeted, call, {}):
            return worker.answer(budgeted, gone=True)
        watched = [worker.answer_fd] + ([client] if client is not None else [])
        while True:
            ready = select.select(watched, [], [], WATCH_SECONDS)[0]
            if worker.answer_fd in ready:
                return self._read(worker.answer, budgeted)
            if client in ready:
                state = gone(client)
                if state:
                    worker.end(kill=True)
                    self.cancelled += 1
                    raise ClientGone(f"the client left: its {self.what} was stopped")
                if state is None:  # its next request is waiting: nothing more to learn from the connection
                    watched = [worker.answer_fd]
