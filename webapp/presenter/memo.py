"""What a viewer is sent, made once for everyone who is shown the same thing.

A built-in scenario is the same document for every viewer, and a simulation is deterministic: at the same
position, with the same versions and settings, every session shows the same state message, and the step from
one such state to the next is the same delta. ``Shown`` keeps the most recent of them (a bounded LRU), so a
class stepping through a lesson, or one viewer going back and forth (in a built-in, or in a scenario of its
own: keyed by its load), has them built at most twice. A key names what a message depends on entirely (the
caller's business: ``Hub.shown``, ``Session.memo_key``); None means "not kept" (a scenario of the viewer's own
larger than a built-in), and the message is made every time.

A message is kept from the second time it is asked for: one asked for once (a viewer's first way through a
scenario of its own, every step new) is made and let go, so the garbage collector never walks it while it sits
in the memo (tens of thousands of containers a lap, walked by every full collection: 0.1-0.2 ms a step made
anew in the median, 0.25-0.45 ms in the mean, in-process); only its key is remembered.

Messages handed out are shared: they must not be changed (nothing does; a ``seq`` is added to a copy).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

ENTRIES = 256  # built-in states are about 35 kB each in memory (at most 53 kB), kept own ones at most ~80 kB
ASKED = 4 * ENTRIES  # keys asked for once, remembered (a tuple of a few atoms each) until asked again


class Shown:
    def __init__(self, entries: int = ENTRIES):
        self.entries = entries
        self._made: OrderedDict = OrderedDict()
        self._asked: OrderedDict = OrderedDict()  # keys asked for once: kept the next time
        self._lock = threading.Lock()  # handlers run on several threads in threading mode

    def state(self, key, make) -> dict:
        """The state message ``make()`` makes, for the ``key`` it depends on."""
        return make() if key is None else self._get(("state", key), make)

    def delta(self, seq: int, old_key, new_key, make) -> dict:
        """The delta message ``make()`` makes (``messages.delta_message``) from the state made for ``old_key``
        to the one made for ``new_key``, numbered ``seq``."""
        made = make() if old_key is None or new_key is None else self._get(("delta", old_key, new_key), make)
        return made if made["seq"] == seq else {**made, "seq": seq}

    def has_state(self, key) -> bool:
        """Whether the state message for ``key`` is kept (asking for it makes nothing)."""
        with self._lock:
            return ("state", key) in self._made

    def _get(self, key, make):
        with self._lock:
            if key in self._made:
                self._made.move_to_end(key)
                return self._made[key]
            again = self._asked.pop(key, False)
            if not again:
                self._asked[key] = True
                if len(self._asked) > ASKED:
                    self._asked.popitem(last=False)
        value = make()  # outside the lock: a build is not held up by another (two may build the same: harmless)
        if again:
            with self._lock:
                self._made[key] = value
                if len(self._made) > self.entries:
                    self._made.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._made)
