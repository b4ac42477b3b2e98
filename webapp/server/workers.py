"""Worker processes for CPU-heavy pure functions (``Offload``'s ``pure=True`` work under eventlet).

A native thread (eventlet's tpool) still shares the GIL with the event loop: while it parses and validates a
large scenario the hub gets a fraction of the interpreter and waits for the GIL after every system call
(bench/abuse.py, README "Abuse"). A worker process shares nothing with it: the hub only waits for a pipe.

A ``Pool`` starts its workers lazily, one per call running at once (the Offload's slots bound how many), each
``python -m webapp.server.workers``: a fresh interpreter (never eventlet-monkey-patched, nothing of the server
inherited but its environment) started with ``os.posix_spawn``, talking over two pipes. A call sends
``(fn, args, kwargs)`` pickled (fn by reference: a module-level function) and reads back the result or the
exception, which is raised again in the caller as the same class with the same arguments and attributes (a
ScenarioError keeps its message and problems; any other exception also gets the worker's traceback as a
note). A worker that dies during a call (a crash, a kill, running out of memory) makes the call raise
``WorkerCrashed``, a bug answered as Internal, never a hang; the next call starts a new worker. Workers end
when the server does, in the middle of a call too: at exit, or, the server killed, as soon as their request pipe
hangs up (a thread of the worker waits for that alone, ``_die_with_parent``). At most IDLE_MOST workers wait idle
in a process, whatever its pools (a test run makes many apps): the one idle longest is ended past that.

``Worker.call`` blocks on the pipe: under eventlet it runs in a tpool thread (Offload), in threading mode in the
handler's own thread. It reads and writes with ``posix`` functions, which eventlet does not patch.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import select
import signal
import struct
import sys
import threading
import traceback
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar, cast

if sys.platform == "win32":  # not a POSIX system: no worker processes (Pool.available is False)
    _os = None
else:
    import posix as _os  # the real read/write/waitpid even in a monkey-patched process

HEADER = struct.Struct("!Q")
IN_FD, OUT_FD = 3, 4  # a worker's end of its two pipes
# A worker runs at a lower CPU priority than the server: when both want the CPU (2 cores, the worker busy with
# a validation, the hub with other viewers), the hub gets it first; heavy work waits, viewers do not.
NICENESS = 10
ROOT = Path(__file__).resolve().parents[2]  # the directory that holds the webapp package
IDLE_MOST = 4  # idle workers kept in one process, all its pools together (a server's four lanes: one each)
T = TypeVar("T")


class WorkerCrashed(RuntimeError):
    """A worker process ended before answering (not a UserError: answered as Internal)."""


def available() -> bool:
    return _os is not None and hasattr(os, "posix_spawn")


# --- framing: an 8-byte length, then a pickle ----------------------------------------------------------------
def _send(fd: int, data: bytes) -> None:
    view = memoryview(HEADER.pack(len(data)) + data)
    while view:
        view = view[_os.write(fd, view):]


def _read_exactly(fd: int, n: int) -> bytes | None:
    """n bytes, or None at end of file (the other side is gone)."""
    chunks: list[bytes] = []
    left = n
    while left:
        chunk = _os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _receive(fd: int) -> bytes | None:
    header = _read_exactly(fd, HEADER.size)
    if header is None:
        return None
    return _read_exactly(fd, HEADER.unpack(header)[0])


# --- the parent's side ---------------------------------------------------------------------------------------
class Worker:
    def __init__(self) -> None:
        to_child, self._to = os.pipe()  # non-inheritable: only the ends dup'ed below reach the child
        self._from, from_child = os.pipe()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
        actions = [(os.POSIX_SPAWN_DUP2, to_child, IN_FD), (os.POSIX_SPAWN_DUP2, from_child, OUT_FD),
                   (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                   (os.POSIX_SPAWN_DUP2, 2, 1)]  # a stray print goes to the server's log, not into the pipe
        try:
            self.pid = os.posix_spawn(sys.executable, [sys.executable, "-m", __name__], env, file_actions=actions)
        finally:
            os.close(to_child)
            os.close(from_child)
        self.alive = True

    def call(self, fn: Callable[..., T], args: tuple[object, ...], kwargs: Mapping[str, object]) -> T:
        """fn(*args, **kwargs) in the worker: its result, or its exception raised here."""
        return self.answer(fn) if self.ask(fn, args, kwargs) else self.answer(fn, gone=True)

    def ask(self, fn: Callable[..., object], args: tuple[object, ...], kwargs: Mapping[str, object]) -> bool:
        """Send the call; False if the worker was gone before it. Its answer is ready to read (``answer``) once
        ``answer_fd`` is readable."""
        request = pickle.dumps((fn, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)  # a PicklingError is a bug here
        try:
            _send(self._to, request)
        except OSError:  # EPIPE: it was gone before the request
            return False
        return True

    @property
    def answer_fd(self) -> int:
        return self._from

    def answer(self, fn: Callable[..., T], gone: bool = False) -> T:
        """The answer to the call ``ask`` sent: its result, or its exception raised here."""
        try:
            reply = None if gone else _receive(self._from)
        except OSError:
            reply = None
        if reply is None:
            status = self.end(kill=True)
            raise WorkerCrashed(f"the worker process running {_name(fn)} ended without an answer ({status})")
        kind, *rest = pickle.loads(reply)
        if kind == "ok":
            return cast(T, rest[0])  # what fn returned, unpickled
        if kind == "raise":
            raise _rebuilt(*rest)
        raise RuntimeError(f"{_name(fn)} failed in a worker process with an exception that cannot be "
                           f"sent back:\n{rest[0]}")

    def end(self, kill: bool = False) -> str:
        """Close the pipes (the worker ends at end of file) and reap it; what its exit status was."""
        if not self.alive:
            return "ended"
        self.alive = False
        for fd in (self._to, self._from):
            with contextlib.suppress(OSError):
                os.close(fd)
        if kill:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        try:
            _, status = _os.waitpid(self.pid, 0)
        except ChildProcessError:
            return "already reaped"
        if os.WIFSIGNALED(status):
            return f"killed by signal {os.WTERMSIG(status)}"
        return f"exit status {os.waitstatus_to_exitcode(status)}"


def _name(fn: Callable[..., object]) -> str:
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


def _rebuilt(cls: type[BaseException], args: tuple[object, ...], state: dict[str, object],
             worker_traceback: str) -> BaseException:
    """The worker's exception as an instance of the same class, without calling its __init__ (a ScenarioError
    takes problems, not its message)."""
    from ..errors import UserError

    err = cls.__new__(cls, *args)
    err.args = args
    err.__dict__.update(state)
    if not isinstance(err, UserError):  # a bug: its log shows where it happened
        err.add_note(f"raised in a worker process:\n{worker_traceback}")
    return err


_IDLE: OrderedDict[Worker, Pool] = OrderedDict()  # every pool's idle workers, the one idle longest first
_IDLE_LOCK = threading.Lock()


class Pool:
    """Idle workers, taken by one call at a time and given back. Not thread-safe by itself: the caller takes
    and gives back under its own lock (Offload)."""

    def __init__(self) -> None:
        self._idle: list[Worker] = []
        self._all: set[Worker] = set()
        self._pid = os.getpid()
        atexit.register(self.close)

    def take(self) -> Worker:
        if os.getpid() != self._pid:  # a forked copy (a pre-forking server): those workers are the parent's
            self._idle, self._all, self._pid = [], set(), os.getpid()
        with _IDLE_LOCK:
            if self._idle:
                worker = self._idle.pop()
                _IDLE.pop(worker, None)
                return worker
        worker = Worker()
        self._all.add(worker)
        return worker

    def give_back(self, worker: Worker) -> None:
        if not (worker.alive and worker in self._all):
            self._all.discard(worker)
            return
        with _IDLE_LOCK:
            self._idle.append(worker)
            _IDLE[worker] = self
            ended = [_IDLE.popitem(last=False) for _ in range(len(_IDLE) - IDLE_MOST)]
            for old, pool in ended:
                pool._idle.remove(old)
                pool._all.discard(old)
        for old, _ in ended:
            old.end(kill=True)

    @property
    def pids(self) -> list[int]:
        return [w.pid for w in self._all if w.alive]

    def close(self) -> None:
        if os.getpid() != self._pid:
            return
        with _IDLE_LOCK:
            for worker in self._idle:
                _IDLE.pop(worker, None)
        for worker in list(self._all):
            worker.end(kill=True)  # nothing in a worker is worth waiting for (a search runs for seconds)
        self._idle, self._all = [], set()


# --- the worker's side ---------------------------------------------------------------------------------------
def _die_with_parent(in_fd: int) -> None:
    """Wait for the request pipe to hang up (the server closed it, or ended: killed too), then end this process at
    once, whatever its main thread is computing. Only a hang-up or an error wakes it (it asks for no event)."""
    poller = select.poll()
    poller.register(in_fd, 0)
    while not poller.poll():
        pass
    os._exit(0)


def serve(in_fd: int = IN_FD, out_fd: int = OUT_FD) -> None:
    """Answer calls until the server closes the pipe, or ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the server's terminal reaches the server alone
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    threading.Thread(target=_die_with_parent, args=(in_fd,), daemon=True).start()
    while True:
        request = _receive(in_fd)
        if request is None:
            return
        reply: tuple[str, object] | tuple[str, type[Exception], tuple[object, ...], dict[str, object], str]
        try:
            fn, args, kwargs = pickle.loads(request)
            reply = ("ok", fn(*args, **kwargs))
        except Exception as err:  # noqa: BLE001 - every exception goes back to the caller
            reply = ("raise", type(err), err.args, dict(getattr(err, "__dict__", {})), traceback.format_exc())
        try:
            data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - a result or an exception that cannot be pickled
            data = pickle.dumps(("unsent", reply[4] if len(reply) == 5 else traceback.format_exc()))
        del reply
        _send(out_fd, data)


if __name__ == "__main__":
    serve()
