"""Who is in a room, here and on every process (its presenter and followers, counted per process in the store),
and the rooms forgotten: empty for a grace, left unattended by their presenter, idle, or making room for one more
under MAX_ROOMS. A part of ``Rooms`` (rooms.py), which holds the store and this process's copies of the rooms."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import Busy
from .room import Room
from .roomstore import MemoryRoomStore, RedisRoomStore, RoomsUnavailable


class Presence:
    """Presenters, followers and speaker views of this process's rooms, and their eviction."""

    _store: MemoryRoomStore | RedisRoomStore
    _local: dict[str, Room]  # code -> this process's copy of the room
    _reclaimed: list[tuple[str, str]]  # (code, why) of rooms reclaimed, for the hub to tell
    process: str  # this process's name in the store's member counts
    clock: Callable[[], float]
    empty_grace: float | None  # a room nobody is in anywhere is forgotten after it (None: only when idle)
    max_rooms: int | None  # the rooms this process makes or follows
    unattended: float | None  # a room its presenter left, not driven for it, is forgotten (followers or not)

    def _room_for_one_more(self) -> None:
        """Busy if this process holds MAX_ROOMS rooms (made or followed here) once those that can be are
        forgotten."""
        if self.max_rooms is None or len(self._local) < self.max_rooms:
            return
        self.evict_empty()
        if len(self._local) >= self.max_rooms:
            raise Busy(f"room limit: this server holds {len(self._local)} rooms already, made or followed here (at "
                       f"most {self.max_rooms}); try again in a few minutes, once rooms nobody is in have been "
                       "forgotten")

    def present(self, room: Room, sid: str) -> None:
        """``sid`` created, claimed or drives ``room``: its presenter is here."""
        room.presenters.add(sid)
        room.presenter_left = None
        room.driven = self.clock()

    def enter(self, room: Room, sid: str) -> None:
        """``sid`` follows or presents ``room``."""
        if sid in room.members:
            return
        room.members.add(sid)
        room.empty_since = None
        self._store.set_members(room.code, self.process, len(room.members))

    def leave(self, code: object, sid: str) -> bool:
        """``sid`` left ``code``; True if nobody is left in it anywhere (then its autoplay stops at once: the hub
        pauses it and records that it no longer plays; it is forgotten after ``empty_grace``)."""
        room = self._local.get(code.upper()) if isinstance(code, str) else None
        if room is not None:
            room.speakers.discard(sid)
        if room is not None and sid in room.presenters:
            room.presenters.discard(sid)
            if not room.presenters:
                room.presenter_left = self.clock()
        if room is None or sid not in room.members:
            return False
        room.members.discard(sid)  # its voter stays bound: leaving and joining again answers as the same one
        if room.members:
            return False
        room.empty_since = self.clock()
        try:
            if self._store.set_members(room.code, self.process, 0):
                return False
        except RoomsUnavailable:  # who else is in it is unknown: its record expires on its own if nobody is
            return False
        return True

    def leave_all(self, sid: str) -> list[str]:
        """A connection closed: it leaves every room it was in here, and its voter is unbound (its answers stay
        counted; the voter may come back on a new connection). The codes now empty everywhere."""
        for room in self._local.values():
            room.voters.pop(sid, None)
            room.speakers.discard(sid)
        return [code for code, room in list(self._local.items()) if sid in room.members and self.leave(code, sid)]

    def occupied(self, room: Room) -> bool:
        """Whether anybody, on any process, is in ``room`` (its autoplay asks before every step)."""
        return bool(room.members) or self._store.members(room.code) > 0

    def here(self, code: str) -> Room | None:
        """This process's copy of room ``code``, if it holds one."""
        return self._local.get(code)

    def local_codes(self) -> list[str]:
        return list(self._local)

    def evict_empty(self, now: float | None = None) -> list[str]:
        """Forget the rooms this process has seen with nobody in them for ``empty_grace`` seconds and that are
        not playing: this process's copy, and the record when nobody is in it on any process either; and the rooms
        left unattended (``reclaim``)."""
        now = self.clock() if now is None else now
        gone = self.reclaim(now)
        if self.empty_grace is None:
            return gone
        for code, room in list(self._local.items()):
            if room.members or room.empty_since is None or now - room.empty_since < self.empty_grace:
                continue
            with room.session.lock:
                if room.session.playing or room.members:
                    continue
                self._local.pop(code, None)
            try:
                if self._store.members(code) == 0:
                    self._store.drop(code)
            except RoomsUnavailable:
                pass  # the record expires on its own (ROOM_IDLE_SECONDS)
            gone.append(code)
        return gone

    def reclaim(self, now: float | None = None, owner: str | None = None, after: float | None = None) -> list[str]:
        """Forget the rooms (of ``owner`` only, if given) whose presenter was here and left, and that nobody has
        driven since, for ``after`` seconds (``unattended`` unless given), followers or not: this process's copy
        and the record. Not a room that plays. Their codes; ``take_reclaimed`` says them again with why, once."""
        after = self.unattended if after is None else after
        if after is None:
            return []
        now = self.clock() if now is None else now
        gone = []
        for code, room in list(self._local.items()):
            if owner is not None and room.owner != owner:
                continue
            left = room.presenter_left
            if room.presenters or left is None or now - max(left, room.driven) < after:
                continue
            with room.session.lock:
                if room.session.playing or room.presenters:
                    continue
                self._local.pop(code, None)
                room.session.pause()
            try:
                self._store.set_members(code, self.process, 0)
                self._store.drop(code)
            except RoomsUnavailable:
                pass  # the record expires on its own (ROOM_IDLE_SECONDS)
            self._reclaimed.append((code, f"room {code} was closed: its presenter left it and nobody drove it for "
                                          f"{after:g} s"))
            gone.append(code)
        return gone

    def take_reclaimed(self) -> list[tuple[str, str]]:
        """The rooms ``reclaim`` forgot since the last call, with why: their followers are to be told."""
        taken, self._reclaimed = self._reclaimed, []
        return taken

    def evict_idle(self, cutoff: float) -> list[str]:
        """Forget the rooms nobody has driven or joined since ``cutoff`` (a time.monotonic() value): this
        process's copy, and the record when it lives in this process (Redis expires its own). Their codes."""
        idle = [code for code, room in list(self._local.items()) if room.session.touched < cutoff]
        for code in idle:
            room = self._local.pop(code, None)
            if room is not None and room.members:
                room.session.pause()
                self._store.set_members(code, self.process, 0)
            if isinstance(self._store, MemoryRoomStore):
                self._store.drop(code)
        return idle
