"""When freed memory is given back to the system (a full garbage collection, then malloc_trim: the app's
``release``): shortly after a session with a scenario closes (a heavy one, or a connection that was sent a
scenario message: what was queued for it, up to MAX_OUTGOING_BYTES, is garbage now), or whenever a channel closes
while the RSS has grown GROWN_BYTES since memory was last given back (a burst of large frames leaves nothing else
behind). However many go at once, memory is given back once (``soon``), after a moment for the rest to end too."""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

MIB = 1024 * 1024
GROWN_BYTES = 64 * MIB  # RSS grown this much since memory was last given back: a channel that closes gives it back
HEAVY_BYTES = 1024 * 1024  # a session this large, once gone, is worth giving its memory back for
SETTLE_SECONDS = 0.5  # what else is ending ends meanwhile


class Trimmer:
    """``background(fn)`` runs ``fn`` as a task of its own, ``sleep`` waits in it (the server's); ``release``
    gives freed memory back, ``rss`` says the process's resident bytes, ``held`` what its sessions hold."""

    def __init__(self, background: Callable[[Callable[[], None]], object], sleep: Callable[[float], object],
                 release: Callable[[], object], rss: Callable[[], int], held: Callable[[], int]) -> None:
        self._background, self._sleep, self._release, self._rss, self._held = background, sleep, release, rss, held
        self.releasing = False  # a release is on its way
        self.settled = 0  # the RSS after memory was last given back

    def soon(self) -> None:
        """Give memory back shortly, once, however many sessions just went."""
        if self.releasing:
            return
        self.releasing = True
        self._background(self._run)

    def _run(self) -> None:
        self._sleep(SETTLE_SECONDS)
        self.releasing = False
        before = self._rss()
        self._release()
        self.settled = self._rss()
        if before - self.settled >= GROWN_BYTES // 8:
            log.warning("memory given back: RSS %d -> %d MiB; sessions hold %d MiB", before // MIB,
                        self.settled // MIB, self._held() // MIB)

    def if_grown(self) -> None:
        """Give memory back if the RSS has grown GROWN_BYTES since it was last given back."""
        now = self._rss()
        if not self.settled:
            self.settled = now
        elif now - self.settled >= GROWN_BYTES:
            self.soon()

    def channel_closed(self, sent_scenarios: bool) -> None:
        """A channel closed (``sent_scenarios``: it was sent a scenario message)."""
        if sent_scenarios:
            self.soon()
        else:
            self.if_grown()

    def session_closed(self, nbytes: int) -> None:
        """A session that held ``nbytes`` of checkpoints closed."""
        if nbytes >= HEAVY_BYTES:
            self.soon()
