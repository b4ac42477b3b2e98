"""One pending heavy request per connection per kind: a load, a whole-state sync, a room join. A repeat sent while
the first is still being answered is refused Busy at once (with the hint to wait for the first answer) instead of
queueing behind it: a client re-sending a heavy request in a loop holds at most one place, never a queue of them.
An answer counts as pending until the client has read it: a sync or a join asked while more than UNREAD_BYTES sent
to the connection are still unread is refused the same way (its answer would only lengthen the queue that
MAX_OUTGOING_BYTES bounds, each made at a cost).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import Busy

UNREAD_BYTES = 1024 * 1024  # unread bytes past which a connection's sync or join waits for it to read
WHAT = {"load": "load", "sync": "sync", "join": "join of a room", "claim": "claim of a room"}


class Pending:
    def __init__(self) -> None:
        self._held: set[tuple[str, str]] = set()
        self._lock = threading.Lock()

    @contextmanager
    def one(self, sid: str, kind: str, unread: int = 0) -> Iterator[None]:
        """Held while ``sid``'s request of ``kind`` is answered; Busy if one is already, or if ``unread`` (the
        bytes sent to ``sid`` it has not read) is over UNREAD_BYTES."""
        key = (sid, kind)
        if unread > UNREAD_BYTES:
            raise Busy(f"the answers to your last requests ({unread:,} bytes) have not been read yet; send this "
                       f"{WHAT[kind]} again once they are (retry in a moment)")
        with self._lock:
            if key in self._held:
                raise Busy(f"your last {WHAT[kind]} is still being answered; send this again once it is "
                           "(retry in a moment)")
            self._held.add(key)
        try:
            yield
        finally:
            with self._lock:
                self._held.discard(key)

    def __len__(self) -> int:
        return len(self._held)
