"""The one cache of what viewers are sent: state messages and deltas, found by the view they show.

A simulation is deterministic and a built-in scenario is one document for everyone: two viewers shown the same
``View`` (the same load, versions, position, settings and room) are sent the same state message, and the step
from one view to another is the same delta. ``view_of`` says which view a session shows: a built-in is named by
its id (every viewer of it shares its messages); a scenario of the viewer's own by the serial of its load (only
its session shows it, but a viewer going back and forth has each message made once) while its simulation is as
small as a built-in's; a larger one has no view (its messages are made every time: kept, each would cost more
memory than a built-in's).

The cache has two tiers, both found by view:

- kept: the most recent ENTRIES messages, each kept from the second time it is asked for. One asked for once (a
  viewer's first way through a scenario of its own, every step new) is made and let go, so the garbage
  collector never walks it while it sits here; only its view is remembered (the last ASKED).
- made ahead: per channel, the state and the delta of the step its viewer is likely to take next
  (``Hub.look_ahead``), made while the viewer looks at this one; replaced by the channel's next look ahead,
  dropped with the channel. Taking one counts as an ask, as making one does.

Messages handed out are shared: they must not be changed (nothing does; a ``seq`` is added to a copy).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

from ..engine.room import Room
from ..engine.session import Session

ENTRIES = 256  # built-in states are about 35 kB each in memory (at most 53 kB), kept own ones at most ~80 kB
ASKED = 4 * ENTRIES  # entries asked for once, remembered (a tuple of a few atoms each) until asked again
KEPT_LIVE_BYTES = 96 * 1024  # the largest own simulation whose messages are kept (built-ins: 52 to 72 kB live)

Message = dict[str, Any]
Make = Callable[[], Message]


class View(NamedTuple):
    """What a state message shows, entirely."""

    load: str | int  # a built-in's id, or the serial of a load of the viewer's own (``Session.serial``)
    versions: tuple[str, ...]
    position: int
    playing: bool
    speed: float
    range: tuple[int, int]
    room: str | None  # the room's code, or None for the viewer's own session


Entry = tuple[str, View] | tuple[str, View, View]  # ("state", view) or ("delta", from, to)


def view_of(session: Session, room: Room | None, position: int | None = None) -> View | None:
    """The view ``session`` shows at its cursor (or at ``position``), to ``room`` or to its own viewer; None when
    nothing is loaded, or for a scenario of the viewer's own larger than a built-in."""
    sim = session.sim
    if sim is None:
        return None
    if session.scenario_id is not None:
        load: str | int = session.scenario_id
    elif sim.live_bytes <= KEPT_LIVE_BYTES:
        load = session.serial
    else:
        return None
    playing = room.playing if room is not None else session.playing  # a room's as its record says (hub.playing)
    return View(load, sim.variants, sim.position if position is None else position, playing,
                session.speed, session.range, room.code if room else None)


class MessageCache:
    def __init__(self, entries: int = ENTRIES) -> None:
        self.entries = entries
        self._kept: OrderedDict[Entry, Message] = OrderedDict()
        self._asked: OrderedDict[Entry, bool] = OrderedDict()  # entries asked for once: kept the next time
        self._ahead: dict[str, dict[Entry, Message]] = {}  # channel -> the entries made ahead for it
        self._lock = threading.Lock()  # handlers run on several threads in threading mode

    def state(self, view: View | None, make: Make, channel: str | None = None) -> Message:
        """The state message showing ``view``: kept, made ahead for ``channel``, or made now by ``make``."""
        return make() if view is None else self._get(("state", view), make, channel)

    def delta(self, seq: int, old: View | None, new: View | None, make: Make, channel: str | None = None) -> Message:
        """The delta (``messages.delta_message``) from the state showing ``old`` to the one showing ``new``: kept,
        made ahead for ``channel``, or made now by ``make``; numbered ``seq``."""
        made = make() if old is None or new is None else self._get(("delta", old, new), make, channel)
        return made if made["seq"] == seq else {**made, "seq": seq}

    def holds(self, channel: str, old: View, new: View) -> bool:
        """Whether the step from ``old`` to ``new`` on ``channel`` finds its messages here: the state kept, or the
        state and the delta made ahead for the channel."""
        with self._lock:
            ahead = self._ahead.get(channel, {})
            return ("state", new) in self._kept or (("state", new) in ahead and ("delta", old, new) in ahead)

    def put_ahead(self, channel: str, old: View, new: View, state: Message, delta: Message) -> None:
        """The state showing ``new`` and the delta to it from ``old``, made before ``channel`` asks for them."""
        with self._lock:
            self._ahead[channel] = {("state", new): state, ("delta", old, new): delta}

    def forget(self, channel: str) -> None:
        """Drop what was made ahead for ``channel`` (it closed)."""
        with self._lock:
            self._ahead.pop(channel, None)

    def _get(self, entry: Entry, make: Make, channel: str | None) -> Message:
        with self._lock:
            if entry in self._kept:
                self._kept.move_to_end(entry)
                return self._kept[entry]
            made = self._ahead.get(channel, {}).get(entry) if channel is not None else None
            again = self._asked.pop(entry, False)
            if not again:
                self._asked[entry] = True
                if len(self._asked) > ASKED:
                    self._asked.popitem(last=False)
        value = made if made is not None else make()  # outside the lock: a build is not held up by another
        if again:
            with self._lock:
                self._kept[entry] = value
                if len(self._kept) > self.entries:
                    self._kept.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._kept)
