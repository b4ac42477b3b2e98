"""Every connection's outgoing queue bounded in bytes.

Engine.IO queues what the server sends a connection and a writer (websocket) or the next poll (long-polling)
takes it off as the client reads. A client that asks and never reads would grow that queue, and the server,
without end. ``OutgoingQueue`` wraps the queue Engine.IO makes for each connection (``privates.bound_outgoing``
installs it) and counts the bytes of the messages in it: a message that would take it past ``most`` bytes drops
the connection instead. What it held is let go at once (its memory given back: ``on_drop``), a last ``error``
(kind TooLarge) saying why is the one message left for it, should the client ever read again, and the connection
is closed (Engine.IO's own close, in a task of its own: the message was queued under a handler's lock); a websocket
still blocked on the client DROP_GRACE seconds later has its TCP connection shut.

The process's connections together hold at most PROCESS_QUEUES x ``most`` unread bytes: a message that takes the
total past that drops the connection holding the most unread (told why in the same way), whoever sent to it, so
many slow readers cannot fill the server's memory while each stays under its own bound.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket as _socket
import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ..errors import TooLarge

if TYPE_CHECKING:
    from engineio import Server as EngineServer  # python-engineio has no types: Any
    from engineio.socket import Socket as EngineSocket


class Queue(Protocol):
    """An Engine.IO connection's outgoing queue (a ``queue.Queue`` of its async mode)."""

    def put(self, item: object, /, *args: object, **kwargs: object) -> None: ...
    def get(self, *args: object, **kwargs: object) -> object: ...
    def task_done(self) -> None: ...

log = logging.getLogger(__name__)

DROP_GRACE = 10.0  # seconds a dropped client has to read why before its connection is shut
PROCESS_QUEUES = 32  # the unread bytes of all connections: at most this many connections' bound (256 MiB by default)
MESSAGE = 4  # Engine.IO's MESSAGE packet type (a Socket.IO packet inside)
EVENT = "2"  # Socket.IO's EVENT packet type, to the default namespace


def dropped_reason(most: int) -> str:
    """What a dropped connection is told."""
    return (f"this connection was closed: it had not read {most:,} bytes the server sent it "
            "(MAX_OUTGOING_BYTES); reconnect to go on")


def shed_reason(total: int) -> str:
    """What the connection with the most unread is told when all of them pass the process's bound."""
    return (f"this connection was closed: the server's connections had not read {total:,} bytes (PROCESS_QUEUES x "
            "MAX_OUTGOING_BYTES) and this one had the most unread; reconnect to go on")


def size_of(pkt: object) -> int:
    """The bytes a queued packet holds (its data: a Socket.IO packet as text, or binary)."""
    data = getattr(pkt, "data", None)
    return len(data) if isinstance(data, (str, bytes, bytearray)) else 0


class OutgoingQueue:
    """A connection's outgoing queue (Engine.IO's, wrapped) holding at most ``most`` bytes of messages. Past that
    the connection is dropped: ``drop()`` is called once (it closes the connection) and every later message is
    let go; the close and pings still pass."""

    def __init__(self, inner: Queue, most: int, drop: Callable[[OutgoingQueue], None],
                 farewell: Callable[[str], object], empty_error: type[BaseException],
                 spend: Callable[[int], None] | None = None) -> None:
        self._inner = inner
        self._spend = spend or (lambda change: None)  # told every change of ``bytes`` (the process's total)
        self._empty_error = empty_error  # what the queue's get raises when it is empty
        self.most = most
        self.bytes = 0  # of the messages queued now
        self.dropped = False
        self._drop = drop
        self._farewell = farewell  # text -> the packet that tells the client why
        self._lock = threading.Lock()

    def put(self, pkt: object, *args: object, **kwargs: object) -> None:
        size = size_of(pkt)
        is_message = getattr(pkt, "packet_type", None) == MESSAGE
        with self._lock:
            if is_message and self.dropped:
                return None
            over = is_message and self.bytes + size > self.most
            if not over:
                self.bytes += size
        if over:
            self.give_up(dropped_reason(self.most))
            return None
        self._inner.put(pkt, *args, **kwargs)
        self._spend(size)
        return None

    def give_up(self, reason: str) -> bool:
        """Drop the connection: let go of what is queued, leave ``reason`` as its one message, and close it
        (``drop``); False if it was dropped already."""
        with self._lock:
            if self.dropped:
                return False
            self.dropped = True
            freed = self._empty()
            self._inner.put(self._farewell(reason))
        self._spend(-freed)
        self._drop(self)
        return True

    def _empty(self) -> int:
        """Let go of every packet queued (under the lock); the bytes they held."""
        while True:
            try:
                self._inner.get(block=False)
            except self._empty_error:
                break
            self._inner.task_done()
        freed, self.bytes = self.bytes, 0
        return freed

    def get(self, *args: object, **kwargs: object) -> object:
        pkt = self._inner.get(*args, **kwargs)
        with self._lock:
            taken = min(self.bytes, size_of(pkt))
            self.bytes -= taken
        self._spend(-taken)
        return pkt

    def __getattr__(self, name: str) -> object:  # task_done, join, qsize, empty: as the queue has them
        return getattr(self._inner, name)


def farewell_packet(reason: str) -> object:
    """The Engine.IO packet of an ``error`` event {message, event, kind} telling a dropped client why."""
    from engineio import packet

    body = json.dumps(["error", {"message": reason, "event": "", "kind": TooLarge.kind}], separators=(",", ":"))
    farewell: object = packet.Packet(packet.MESSAGE, data=EVENT + body)
    return farewell


class Bound:
    """What ``privates.bound_outgoing`` gives each new connection's queue: the bound, and what a drop does (close
    the Engine.IO socket whose queue it is, then ``on_drop``, e.g. give the memory back)."""

    def __init__(self, eio: EngineServer, most: int, on_drop: Callable[[], None] | None = None) -> None:
        self.eio, self.most, self.on_drop = eio, most, on_drop
        self.drops = 0
        self.process_most = PROCESS_QUEUES * most
        self.total = 0  # unread bytes of every connection
        self.queues: weakref.WeakSet[OutgoingQueue] = weakref.WeakSet()
        self._total_lock = threading.Lock()
        self.websockets: weakref.WeakKeyDictionary[EngineSocket, object] = weakref.WeakKeyDictionary()  # its websocket

    def unread(self, eio_sid: str | None) -> int:
        """The bytes queued for connection ``eio_sid`` that it has not read yet (0 for one unknown)."""
        socket = self.eio.sockets.get(eio_sid) if eio_sid is not None else None
        queue = getattr(socket, "queue", None)
        return queue.bytes if isinstance(queue, OutgoingQueue) else 0

    def wrap(self, inner: Queue) -> OutgoingQueue:
        queue = OutgoingQueue(inner, self.most, self.drop, farewell_packet, self.eio.get_queue_empty_exception(),
                              self.spend)
        self.queues.add(queue)
        return queue

    def spend(self, change: int) -> None:
        """Count a change of a connection's unread bytes; past ``process_most`` in all, drop the connection with
        the most unread."""
        with self._total_lock:
            self.total += change
            over = change > 0 and self.total > self.process_most
        if over:
            largest = max((q for q in list(self.queues) if not q.dropped), key=lambda q: q.bytes, default=None)
            if largest is not None:
                largest.give_up(shed_reason(self.total))

    def drop(self, queue: OutgoingQueue) -> None:
        self.drops += 1
        socket = next((s for s in list(self.eio.sockets.values()) if s.queue is queue), None)
        sid = socket.sid if socket is not None else "?"
        log.warning("dropped connection %s: it had not read %s bytes it was sent (MAX_OUTGOING_BYTES)", sid,
                    f"{self.most:,}")
        if socket is not None:
            self.eio.start_background_task(self._end, socket)
        if self.on_drop is not None:
            self.on_drop()

    def _end(self, socket: EngineSocket) -> None:
        """Close the Engine.IO socket (the app forgets the connection), then, if its websocket is still open after
        DROP_GRACE (its writer blocked on a client that does not read), shut its TCP connection."""
        socket.close(wait=False, abort=False)
        self.eio.sleep(DROP_GRACE)
        ws = self.websockets.get(socket)
        raw = getattr(ws, "socket", None) or getattr(ws, "sock", None)  # eventlet's, simple-websocket's
        if raw is not None:
            with contextlib.suppress(OSError):
                raw.shutdown(_socket.SHUT_RDWR)
