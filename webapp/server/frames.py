"""What the eventlet server does with a client's websocket frames so that one client cannot stall the hub
(``privates.install_eventlet_frames`` puts these in eventlet's websocket class; figures in bench/abuse.py):

* **Unmasking.** Every frame a client sends is masked with four bytes (RFC 6455, 5.3). eventlet (0.41) unmasks
  it in Python one byte at a time, on the hub. ``apply_mask`` does the same XOR over the whole chunk at once as
  one big integer (``int.from_bytes``).
* **A read budget per connection** (``owed_seconds``). Within the limits (30 messages a second of up to 1 MiB
  each) one client could still make the server read, decode and parse 30 MB a second. A connection is read at
  most ``read_bytes_per_second`` on average (``MAX_MESSAGE_BYTES``: a 1 MiB scenario a second), in bursts of two
  seconds' worth; past that its next message is read only once the excess is paid back. An honest viewer's
  ``load`` of the largest scenario is read at once.
* **Packets parsed apart, one at a time** (``one_at_a_time``): ``codec.JsonPacket.parse_apart`` runs a large
  packet's parse, or a small one's whose JSON nests too deep, on eventlet's tpool, one packet at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from time import monotonic
from typing import TYPE_CHECKING, ParamSpec, TypeVar

if TYPE_CHECKING:
    from .isolated import Runner

T = TypeVar("T")
P = ParamSpec("P")


def apply_mask(data: bytes, mask: bytes | tuple[int, ...], length: int | None = None, offset: int = 0) -> bytes:
    """``data[:length]`` XOR the four-byte ``mask`` repeated, starting at mask byte ``offset % 4``: what
    eventlet's ``RFC6455WebSocket._apply_mask(data, mask, length, offset)`` returns."""
    if length is None:
        length = len(data)
    if length <= 0:
        return b""
    key = bytes(mask[(offset + i) % 4] for i in range(4))
    stream = (key * (length // 4 + 1))[:length]
    return (int.from_bytes(data[:length], "little") ^ int.from_bytes(stream, "little")).to_bytes(length, "little")


read_budget = {"rate": 0.0}  # bytes a connection is read per second on average (0: no bound)


def owed_seconds(ws: object, message: bytes | bytearray | str | None) -> float:
    """How long this connection is not read any further: 0 within its budget (``read_budget["rate"]`` bytes a
    second, bursts of two seconds' worth), else until what it read beyond is paid back. Only one connection is
    held back (TCP pushes back on its sender); the others are read as before."""
    rate = read_budget["rate"]
    if not rate or not message:
        return 0.0
    now = monotonic()
    tokens, last = getattr(ws, "_read_budget", (2 * rate, now))
    tokens = min(2 * rate, tokens + (now - last) * rate) - len(message)
    setattr(ws, "_read_budget", (tokens, now))  # noqa: B010 - kept on eventlet's websocket object
    return -tokens / rate if tokens < 0 else 0.0


def one_at_a_time(run: Runner) -> Runner:
    """``run(fn, *args)`` for one caller at a time; the others wait on the hub (green threads), holding nothing.
    Packets parsed on as many native threads as are free would each want the GIL as the hub does, and the hub
    would get one turn in as many (bench/abuse.py deepframe). One at a time, the hub shares the GIL with one
    thread (a turn every millisecond, ``Offload``), and a connection's packets wait their
    turn unparsed."""
    from eventlet.semaphore import Semaphore

    turn = Semaphore(1)

    def run_in_turn(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        with turn:
            return run(fn, *args, **kwargs)

    return run_in_turn
