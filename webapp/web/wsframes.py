"""Patches to eventlet's websocket server (RFC 6455) so that one client's frames cannot stall the hub.
Installed by the eventlet server process only (``install()``, from ``offload.init_offload`` in eventlet mode:
``serve`` and gunicorn's eventlet worker); a process that does not serve with eventlet (the tests) never loads them.

* **Unmasking.** Every frame a client sends is masked with four bytes (RFC 6455, 5.3). eventlet (0.41) unmasks
  it in Python one byte at a time (``RFC6455WebSocket._apply_mask``: a generator making a one-byte ``bytes``
  per byte): about 0.4 s for one 0.9 MiB frame, on the hub. ``apply_mask`` does the same XOR over the whole
  chunk at once as one big integer (``int.from_bytes``): about 5 ms, the same bytes.
* **Yielding between messages.** A green socket's ``recv`` returns at once while data is waiting, without
  going back to the hub: a client that keeps its connection full of frames kept the greenlet reading them
  for as long as it kept sending (``bench/abuse.py``: another viewer's step waited for the whole 4–9 s of
  the attack, even with fast unmasking). ``RFC6455WebSocket.wait`` now yields to the hub after each message, so
  the handler Engine.IO started for that message, and every other connection, run before the next one is
  read (which also bounds how far the reading gets ahead of the handling).
* **Packets parsed apart, one at a time** (``one_at_a_time``): ``JsonPacket.parse_apart`` runs a large packet's
  parse, or a small one's whose JSON nests too deep, on eventlet's tpool, one packet at a time.
* **A read budget per connection.** Within the limits (30 messages a second of up to 1 MiB each) one client
  could still make the server read, decode and parse 30 MB a second. A connection is read at most
  ``read_bytes_per_second`` on average (``MAX_MESSAGE_BYTES``: a 1 MiB scenario a second), in bursts of two
  seconds' worth; past that its next message is read only once the excess is paid back. An honest viewer's
  ``load`` of the largest scenario is read at once.

``install()`` checks that eventlet's method gives the same bytes as ``apply_mask`` on a sample first, and leaves
an eventlet whose methods mean something else alone, with a warning.
"""

from __future__ import annotations

import logging
from time import monotonic

log = logging.getLogger(__name__)


def apply_mask(data, mask, length=None, offset=0) -> bytes:
    """``data[:length]`` XOR the four-byte ``mask`` repeated, starting at mask byte ``offset % 4``: what
    eventlet's ``RFC6455WebSocket._apply_mask(data, mask, length, offset)`` returns."""
    if length is None:
        length = len(data)
    if length <= 0:
        return b""
    key = bytes(mask[(offset + i) % 4] for i in range(4))
    stream = (key * (length // 4 + 1))[:length]
    return (int.from_bytes(data[:length], "little") ^ int.from_bytes(stream, "little")).to_bytes(length, "little")


_read = {"rate": 0.0}  # bytes a connection is read per second on average (0: no bound); set by install()


def _owed_seconds(ws, message) -> float:
    """How long this connection is not read any further: 0 within its budget (``_read["rate"]`` bytes a second,
    bursts of two seconds' worth), else until what it read beyond is paid back. Only one connection is held
    back (TCP pushes back on its sender); the others are read as before."""
    rate = _read["rate"]
    if not rate or not message:
        return 0.0
    now = monotonic()
    tokens, last = getattr(ws, "_read_budget", (2 * rate, now))
    tokens = min(2 * rate, tokens + (now - last) * rate) - len(message)
    ws._read_budget = (tokens, now)
    return -tokens / rate if tokens < 0 else 0.0


_SAMPLE = (bytes(range(256)) * 5 + b"\x00\xff" * 7, (0x12, 0xAB, 0x00, 0xFF))


def _agrees(original) -> bool:
    data, mask = _SAMPLE
    try:
        return all(original(data, mask, length, offset) == apply_mask(data, mask, length, offset)
                   for length, offset in ((len(data), 0), (1001, 3), (4, 1), (0, 2), (77, 6)))
    except Exception:  # noqa: BLE001 - another signature: not the method this replaces
        return False


def install(read_bytes_per_second: float = 0) -> bool:
    """Put the patches in place (once; a later call only changes the read rate); True if they are in place."""
    from eventlet import sleep, websocket

    _read["rate"] = float(read_bytes_per_second)
    cls = websocket.RFC6455WebSocket
    if getattr(cls.wait, "yields_to_hub", False):
        return True
    if not _agrees(cls._apply_mask):
        log.warning("eventlet's websocket unmasking is not the one webapp/web/wsframes.py replaces; eventlet is "
                    "left as it is (large frames will stall the server while they are read)")
        return False
    original_wait = cls.wait

    def wait(self):
        message = original_wait(self)
        sleep(_owed_seconds(self, message))  # at least let this message's handler and every other greenlet run
        return message

    wait.yields_to_hub = True
    wait.__doc__ = original_wait.__doc__
    cls._apply_mask = staticmethod(apply_mask)
    cls.wait = wait
    from eventlet import tpool

    from .limits import JsonPacket

    JsonPacket.parse_apart = staticmethod(one_at_a_time(tpool.execute))  # a packet's JSON, on a native thread
    return True


def one_at_a_time(run):
    """``run(fn, *args)`` for one caller at a time; the others wait on the hub (green threads), holding nothing.
    Packets parsed apart were parsed on as many native threads as were free (20): four connections sending
    packets nested too deep kept a dozen threads parsing, each wanting the GIL as the hub does, which then got
    it one turn in a dozen (bench/abuse.py deepframe: another viewer's step p99 213 ms). One at a time, the hub
    shares the GIL with one thread (a turn every millisecond, ``Offload``), and a connection's packets wait their
    turn unparsed."""
    from eventlet.semaphore import Semaphore

    turn = Semaphore(1)

    def run_in_turn(fn, *args):
        with turn:
            return run(fn, *args)

    return run_in_turn
