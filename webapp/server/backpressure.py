"""Every connection's outgoing queue bounded in bytes.

Engine.IO queues what the server sends a connection and a writer (websocket) or the next poll (long-polling)
takes it off as the client reads. A client that asks and never reads would grow that queue, and the server,
without end. ``OutgoingQueue`` wraps the queue Engine.IO makes for each connection (``privates.bound_outgoing``
installs it) and counts the bytes of the messages in it: a message that would take it past ``most`` bytes drops
the connection instead. What it held is let go at once (its memory given back: ``on_drop``), a last ``error``
(kind TooLarge) saying why is the one message left for it, should the client ever read again, and the connection
is closed (Engine.IO's own close, in a task of its own: the message was queued under a handler's lock); a websocket
still blocked on the client DROP_GRACE seconds later has its TCP connection shut.

The process's connections together hold at most PROCESS_QUEUES x ``most`` unread bytes, and the connections of one
address at most ADDRESS_QUEUES x ``most``: a message that takes either total past its bound drops the connection
holding the most unread among those it counts (told why in the same way), whoever sent to it, so many slow readers
cannot fill the server's memory while each stays under its own bound, and one address cannot take all of it. Those
totals count what the memory holds: a message sent to a room is one object in every follower's queue, counted once
however many of them (a hall of phones behind one address) have it unread.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket as _socket
import threading
import weakref
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, NamedTuple, Protocol

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
ADDRESS_QUEUES = 8  # the unread bytes of one address's connections: at most this many connections' bound (64 MiB)
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


def address_shed_reason(total: int) -> str:
    """What the connection with the most unread of its address is told when that address's pass their bound."""
    return (f"this connection was closed: the connections from your address had not read {total:,} bytes "
            "(ADDRESS_QUEUES x MAX_OUTGOING_BYTES) and this one had the most unread; reconnect to go on")


def size_of(pkt: object) -> int:
    """The bytes a queued packet holds (its data: a Socket.IO packet as text, or binary)."""
    data = getattr(pkt, "data", None)
    return len(data) if isinstance(data, (str, bytes, bytearray)) else 0


class Counted(NamedTuple):
    address: str | None  # the address the message was counted for, if any
    shed: Callable[[], object] | None  # what to do once the queue's lock is let go: drop a connection over a bound


class Watcher(Protocol):
    """Told each message a queue takes in (``queued``) and lets go (``taken``: read, or emptied at a drop), under
    the queue's lock."""

    def queued(self, queue: OutgoingQueue, data: object, size: int) -> Counted: ...
    def taken(self, data: object, size: int, address: str | None) -> None: ...


class OutgoingQueue:
    """A connection's outgoing queue (Engine.IO's, wrapped) holding at most ``most`` bytes of messages. Past that
    the connection is dropped: ``drop()`` is called once (it closes the connection) and every later message is
    let go; the close and pings still pass. ``watcher`` is told every message it holds and lets go."""

    def __init__(self, inner: Queue, most: int, drop: Callable[[OutgoingQueue, str], None],
                 farewell: Callable[[str], object], empty_error: type[BaseException],
                 watcher: Watcher | None = None) -> None:
        self._inner = inner
        self._watcher = watcher
        self._empty_error = empty_error  # what the queue's get raises when it is empty
        self.most = most
        self.bytes = 0  # of the messages queued now
        self.dropped = False
        self._drop = drop
        self._farewell = farewell  # text -> the packet that tells the client why
        self._lock = threading.Lock()
        self._counted: deque[tuple[object, int, str | None]] = deque()  # each packet in ``inner``, in order: its
        # data, bytes and the address they were counted for

    def put(self, pkt: object, *args: object, **kwargs: object) -> None:
        size = size_of(pkt)
        is_message = getattr(pkt, "packet_type", None) == MESSAGE
        with self._lock:
            if is_message and self.dropped:
                return None
            over = is_message and self.bytes + size > self.most
            shed = None if over else self._hold(pkt, size)
        if over:
            self.give_up(dropped_reason(self.most))
        elif shed is not None:
            shed()
        return None

    def _hold(self, pkt: object, size: int) -> Callable[[], object] | None:
        """Queue ``pkt`` and count it (under the lock: the counts and the queue in the same order); what to do
        once the lock is let go."""
        data = getattr(pkt, "data", None)
        counted = self._watcher.queued(self, data, size) if self._watcher is not None and size else Counted(None, None)
        self.bytes += size
        self._counted.append((data, size, counted.address))
        self._inner.put(pkt)
        return counted.shed

    def give_up(self, reason: str) -> bool:
        """Drop the connection: let go of what is queued, leave ``reason`` as its one message, and close it
        (``drop``); False if it was dropped already."""
        with self._lock:
            if self.dropped:
                return False
            self.dropped = True
            self._empty()
            self._hold(self._farewell(reason), 0)
        self._drop(self, reason)
        return True

    def _empty(self) -> None:
        """Let go of every packet queued (under the lock)."""
        while True:
            try:
                self._inner.get(block=False)
            except self._empty_error:
                break
            self._inner.task_done()
            self._let_go()

    def _let_go(self) -> None:
        """Uncount the oldest packet (under the lock): it has left the queue."""
        data, size, address = self._counted.popleft()
        self.bytes -= size
        if self._watcher is not None and size:
            self._watcher.taken(data, size, address)

    def get(self, *args: object, **kwargs: object) -> object:
        pkt = self._inner.get(*args, **kwargs)
        with self._lock:
            self._let_go()
        return pkt

    def __getattr__(self, name: str) -> object:  # task_done, join, qsize, empty: as the queue has them
        return getattr(self._inner, name)


class Tally:
    """The bytes of the distinct payloads some queues hold: one object in many queues counts once."""

    def __init__(self) -> None:
        self.bytes = 0
        self._held: dict[int, tuple[object, int]] = {}  # id(payload) -> (the payload, the queued packets holding it)

    def add(self, data: object, size: int) -> None:
        held = self._held.get(id(data))
        if held is None:
            self.bytes += size
        self._held[id(data)] = (data, 1 if held is None else held[1] + 1)

    def remove(self, data: object, size: int) -> None:
        _, count = self._held.pop(id(data))
        if count > 1:
            self._held[id(data)] = (data, count - 1)
        else:
            self.bytes -= size

    def __bool__(self) -> bool:
        return bool(self._held)


def farewell_packet(reason: str) -> object:
    """The Engine.IO packet of an ``error`` event {message, event, kind} telling a dropped client why."""
    from engineio import packet

    body = json.dumps(["error", {"message": reason, "event": "", "kind": TooLarge.kind}], separators=(",", ":"))
    farewell: object = packet.Packet(packet.MESSAGE, data=EVENT + body)
    return farewell


class Bound:
    """What ``privates.bound_outgoing`` gives each new connection's queue: the bound, what a drop does (close the
    Engine.IO socket whose queue it is, then ``on_drop``, e.g. give the memory back), and the process's and each
    address's unread bytes (``placed`` says a connection's address)."""

    def __init__(self, eio: EngineServer, most: int, on_drop: Callable[[], None] | None = None) -> None:
        self.eio, self.most, self.on_drop = eio, most, on_drop
        self.drops = 0
        self.process_most = PROCESS_QUEUES * most
        self.address_most = ADDRESS_QUEUES * most
        self._process = Tally()
        self._addresses: dict[str, Tally] = {}  # address -> what its connections hold unread
        self._address_of: weakref.WeakKeyDictionary[OutgoingQueue, str] = weakref.WeakKeyDictionary()
        self.queues: weakref.WeakSet[OutgoingQueue] = weakref.WeakSet()
        self._total_lock = threading.Lock()
        self.websockets: weakref.WeakKeyDictionary[EngineSocket, object] = weakref.WeakKeyDictionary()  # its websocket

    @property
    def total(self) -> int:
        """The unread bytes of every connection (a payload held by many counted once)."""
        return self._process.bytes

    def of_address(self, address: str) -> int:
        """The unread bytes of ``address``'s connections (a payload held by many counted once)."""
        tally = self._addresses.get(address)
        return tally.bytes if tally is not None else 0

    def unread(self, eio_sid: str | None) -> int:
        """The bytes queued for connection ``eio_sid`` that it has not read yet (0 for one unknown)."""
        queue = self._queue(eio_sid)
        return queue.bytes if queue is not None else 0

    def placed(self, eio_sid: str, address: str | None) -> None:
        """Connection ``eio_sid`` comes from ``address``: what it is sent from now on counts for that address too
        (it has been sent nothing yet but Engine.IO's handshake)."""
        queue = self._queue(eio_sid)
        if queue is not None and address is not None:
            with self._total_lock:
                self._address_of[queue] = address

    def _queue(self, eio_sid: str | None) -> OutgoingQueue | None:
        socket = self.eio.sockets.get(eio_sid) if eio_sid is not None else None
        queue = getattr(socket, "queue", None)
        return queue if isinstance(queue, OutgoingQueue) else None

    def wrap(self, inner: Queue) -> OutgoingQueue:
        queue = OutgoingQueue(inner, self.most, self.drop, farewell_packet, self.eio.get_queue_empty_exception(),
                              self)
        self.queues.add(queue)
        return queue

    def queued(self, queue: OutgoingQueue, data: object, size: int) -> Counted:
        """Count a message ``queue`` holds now. Past ``process_most`` in all, the connection with the most unread
        is to be dropped; past ``address_most`` for the queue's address, the one of that address with the most."""
        with self._total_lock:
            self._process.add(data, size)
            address = self._address_of.get(queue)
            tally = None if address is None else self._addresses.setdefault(address, Tally())
            if tally is not None:
                tally.add(data, size)
            if self._process.bytes > self.process_most:
                return Counted(address, partial(self._shed, None, shed_reason(self._process.bytes)))
            if tally is not None and tally.bytes > self.address_most:
                return Counted(address, partial(self._shed, address, address_shed_reason(tally.bytes)))
            return Counted(address, None)

    def taken(self, data: object, size: int, address: str | None) -> None:
        """Uncount a message a queue no longer holds (read, or let go at a drop), counted for ``address``."""
        with self._total_lock:
            self._process.remove(data, size)
            if address is not None:
                tally = self._addresses[address]
                tally.remove(data, size)
                if not tally:
                    del self._addresses[address]

    def _shed(self, address: str | None, reason: str) -> None:
        """Drop the connection with the most unread (of ``address``, if given)."""
        queues = [q for q in list(self.queues) if not q.dropped and address in (None, self._address_of.get(q))]
        largest = max(queues, key=lambda q: q.bytes, default=None)
        if largest is not None:
            largest.give_up(reason)

    def drop(self, queue: OutgoingQueue, reason: str) -> None:
        self.drops += 1
        socket = next((s for s in list(self.eio.sockets.values()) if s.queue is queue), None)
        sid = socket.sid if socket is not None else "?"
        log.warning("dropped connection %s: %s", sid, reason.removeprefix("this connection was closed: "))
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
