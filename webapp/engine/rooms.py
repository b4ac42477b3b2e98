"""Rooms: one presenter's session followed by an audience. Only the token holder may drive it.

The store holds what a room is (scenario, position); each process keeps a Session per room it serves and
brings it up to date from the store's record whenever the record's version moved on.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import Busy, Invalid, NotAllowed
from ..phrases import shown
from ..scenario.scenario import Scenario
from . import followers, polls
from .polls import Answer, Poll, Tally
from .room import Room, Withdrawn
from .roomstore import MemoryRoomStore, RedisRoomStore, RoomRecord, RoomsUnavailable
from .session import Session
from .votes import asked

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud and typed from a slide
CODE_LENGTH = 6
CODE_PATTERN = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
MIN_TOKEN_LENGTH = 32


class Rooms:
    def __init__(self, resolve: Callable[[object], tuple[Scenario, str | None]],
                 store: MemoryRoomStore | RedisRoomStore | None = None, new_session: Callable[[], Session] = Session,
                 secret: bytes | None = None, empty_grace: float | None = None, max_rooms: int | None = None,
                 max_per_owner: int | None = None, clock: Callable[[], float] = time.monotonic,
                 answers_per_address: int | None = None, unattended: float | None = None,
                 followers_per_address: int | None = None):
        self._resolve = resolve  # built-in id or scenario object -> (Scenario, id)
        self._store = store or MemoryRoomStore()
        self._new_session = new_session
        self._local: dict[str, Room] = {}
        # A room nobody is in anywhere is forgotten once it has been so for empty_grace seconds (None: only
        # when idle); this process makes at most max_rooms rooms, max_per_owner of them for one address.
        self.empty_grace, self.max_rooms, self.max_per_owner = empty_grace, max_rooms, max_per_owner
        # a poll counts at most answers_per_address answers from one client address; a room whose presenter has
        # left and that nobody has driven for ``unattended`` seconds is forgotten, followers or not
        self.answers_per_address, self.unattended = answers_per_address, unattended
        # signed followers (followers.py) one address gives a poll: each is one phone of a hall behind one address
        self.followers_per_address = followers_per_address
        self._reclaimed: list[tuple[str, str]] = []  # (code, why) of rooms reclaimed, for the hub to tell
        self.clock = clock
        self.process = secrets.token_hex(8)  # this process's name in the store's member counts
        # A room's token is HMAC(secret, code): any process sharing the secret can tell the real presenter's
        # token from another, even for a room the store has lost (web/secret.py says where it comes from).
        self._secret = secret or secrets.token_bytes(32)

    def new_follower(self) -> str:
        """A new follower's signed token (the room page hands it to a browser)."""
        return followers.new_follower(self._secret)

    def follower(self, token: object) -> str | None:
        """The follower id of a token this server signed; None for any other value."""
        return followers.follower_of(self._secret, token)

    def token_for(self, code: str) -> str:
        digest = hmac.new(self._secret, code.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()  # 43 characters, 256 bits

    def create(self, code: str | None = None, owner: str | None = None) -> Room:
        """A new room (``code`` given: a lost room made again); ``owner`` is the client address asking. Past a
        bound, rooms that can be are forgotten first: the address's own whose presenter left a grace ago, and any
        room empty for its grace or unattended (``reclaim``)."""
        owned = sum(1 for room in self._local.values() if owner is not None and room.owner == owner)
        if owner is not None and self.max_per_owner is not None and owned >= self.max_per_owner:
            self.reclaim(owner=owner, after=self.empty_grace)
            owned = sum(1 for room in self._local.values() if room.owner == owner)
        self._room_for_one_more()
        if owner is not None and self.max_per_owner is not None and owned >= self.max_per_owner:
            forgotten = "once it has been idle" if self.empty_grace is None else \
                f"{self.empty_grace:g} s after everyone has left it"
            raise NotAllowed(f"room limit: your address has {owned} rooms open here (at most "
                             f"{self.max_per_owner}); a room is forgotten {forgotten}")
        record: RoomRecord = {"code": code, "token": None, "source": None, "variants": None, "range": None,
                              "position": 0, "playing": False, "version": 0, "epoch": secrets.token_hex(8)}
        while True:
            if record["code"] is None:
                record["code"] = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            record["token"] = self.token_for(record["code"])
            if self._store.add(record):
                room = self._sync(record)
                room.owner = owner
                return room
            if code is not None:
                raise NotAllowed(f"room {code} exists already")
            record["code"] = None

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

    def refresh(self, room: Room) -> Room:
        """``room``'s copy here brought up to its record (its autoplay asks before every step): a room another
        process has moved, paused or made again since is followed, and the autoplay here stops."""
        record = self._store.get(room.code)
        if record is None:
            raise NotAllowed(f"room {room.code} is gone; join it again")
        return self._sync(record)

    def find(self, code: object) -> Room:
        record = self._store.get(code.upper()) if isinstance(code, str) else None
        if record is None:
            raise NotAllowed(f"no room {shown(code)}")
        room = self._sync(record)
        room.session.touched = time.monotonic()  # driven or joined: not idle
        return room

    def exists(self, code: str) -> bool:
        """Whether room ``code`` is open (on any process sharing the store); nothing is made or followed here."""
        return self._store.get(code.upper()) is not None

    def authorize(self, code: object, token: object, doing: str = "drive it") -> Room:
        """The room, if ``token`` is its presenter token; NotAllowed otherwise, saying who may be ``doing`` what
        was asked (the same message whether the token is missing or wrong)."""
        room = self.find(code)
        # Checked against this process's current secret, not the stored token: a rotated secret revokes every
        # older token at once, on every process, even for rooms another process made and Redis still holds.
        if not isinstance(token, str) or not hmac.compare_digest(token.encode(), self.token_for(room.code).encode()):
            raise NotAllowed(f"only the presenter of room {room.code} can {doing} (missing or wrong token)")
        return room

    def claim(self, code: object, token: object, owner: str | None = None) -> Room:
        """A presenter coming back (reconnect, server restart): its room, re-created if it is gone, and only for
        the holder of the room's real token (knowing the code from the slide is not enough)."""
        valid = isinstance(code, str) and CODE_PATTERN.fullmatch(code.upper()) and isinstance(token, str) \
            and len(token) >= MIN_TOKEN_LENGTH
        if not valid or not isinstance(code, str) or not isinstance(token, str):
            raise NotAllowed("claim_room needs the room code and its presenter token")
        try:
            return self.authorize(code, token)
        except NotAllowed:
            code = code.upper()
            if self._store.get(code) is not None or not hmac.compare_digest(token.encode(),
                                                                            self.token_for(code).encode()):
                raise NotAllowed(f"only the presenter of room {code} can claim it (missing or wrong token)") from None
            return self.create(code, owner)

    def save(self, room: Room) -> None:
        """Record the room's scenario, position and whether it plays, after its presenter (or its autoplay) changed
        them, as the next version over whatever another process or greenlet wrote meanwhile (the last one wins)."""
        session = room.session
        while True:
            record = self._store.get(room.code)
            previous = record["version"] if record is not None else None
            record = record or {"code": room.code, "token": room.token, "version": room.version, "epoch": room.epoch}
            if record.get("epoch") != room.epoch:  # re-created since this copy was made (autoplay holds one)
                raise NotAllowed(f"room {room.code} was created again since; join it again")
            record.update(source=session.source, variants=list(session.sim.variants) if session.sim else None,
                          range=list(session.range) if session.sim else None,
                          position=session.sim.position if session.sim else 0, load_id=session.load_id,
                          playing=session.playing, version=record["version"] + 1)
            if self._store.replace(record, previous):
                break
        room.version, room.playing = record["version"], session.playing

    def _sync(self, record: RoomRecord) -> Room:
        room = self._local.get(record["code"])
        if room is None:
            self._room_for_one_more()  # a room followed here holds a simulation as one made here does
        if room is None or room.token != record["token"] or room.epoch != record.get("epoch"):
            old, room = room, Room(record, self._new_session())
            room.empty_since = self.clock()
            if old is not None:  # another incarnation: nothing of the old one is served; its followers stay
                old.session.pause()
                room.owner, room.members, room.empty_since = old.owner, old.members, old.empty_since
                room.presenters, room.presenter_left, room.speakers = old.presenters, old.presenter_left, old.speakers
                if room.members:
                    self._store.set_members(room.code, self.process, len(room.members))
            self._local[record["code"]] = room
        if room.version == record["version"]:
            return room
        session = room.session
        room.driven = self.clock()  # moved since this copy last looked: driven, here or elsewhere
        if session.playing:  # moved by another process since: the autoplay here yields to it
            session.pause()
        room.playing = bool(record.get("playing"))
        if record["source"] is not None:
            # A load is named by its load id (a new one for every load, the presenter's on every process); its source
            # is not compared: through a shared store it comes back as JSON (lists where a Scenario holds tuples,
            # scenario.frozen_step), never equal, and every move reloaded the whole scenario.
            if session.sim is None or session.load_id is None or session.load_id != record.get("load_id"):
                scenario, scenario_id = self._resolve(record["source"])
                session.load(scenario, record["variants"], scenario_id, tuple(record["range"]), record["position"])
            else:
                session.seek(record["position"])
            session.load_id = record.get("load_id")  # the presenter's load, whichever process its viewers are on
        room.version = record["version"]
        return room

    # --- the room's live poll (polls.py): kept in the store, so every process counts the same answers ----
    def open_poll(self, room: Room, prompt: Mapping[str, Any] | None) -> Poll:
        session = room.session
        sim = session.require()
        poll = polls.open_poll(sim.position, session.load_id, prompt, list(sim.variants))
        self._store.set_poll(room.code, poll)
        self._store.clear_answers(room.code)
        return poll

    def answer_poll(self, room: Room, sid: str, voter: object, answer: object,
                    address: str | None = None, signed: bool = False) -> Poll | None:
        """Record the answer of connection ``sid`` as ``voter`` (None: the connection itself), replacing that
        voter's earlier one; the poll as it stands. Only a member of the room answers, a connection answers
        as one voter only, and one client ``address`` gives at most ``answers_per_address`` voters, or, for
        ``signed`` followers (a voter this server signed, followers.py), ``followers_per_address``."""
        if sid not in room.members:
            raise NotAllowed("join the room before answering its poll")
        voter = sid if voter is None else polls.checked_voter(voter)
        if room.voters.setdefault(sid, voter) != voter:
            raise NotAllowed("this connection already answers as another voter")
        poll = self._store.poll(room.code)
        if poll is not None and room.session.sim is not None and room.session.sim.position != poll["position"]:
            raise Invalid("this poll has closed: the room has moved on")
        bound, setting = (self.followers_per_address, "MAX_FOLLOWERS_PER_ADDRESS") if signed else \
            (self.answers_per_address, "MAX_ANSWERS_PER_ADDRESS")
        counted = self._store.answer(room.code, voter, polls.checked_answer(poll, answer), polls.MAX_ANSWERS,
                                     f"{address or ''}{' followers' if signed else ''}", bound or 0)
        if counted == polls.FULL:
            raise Busy(f"this poll has counted {polls.MAX_ANSWERS} answers: no more are taken")
        if counted == polls.ADDRESS_FULL:
            raise NotAllowed(f"this poll counts at most {bound} answers from one address ({setting}), and yours has "
                             "given them")
        return poll

    def close_poll(self, room: Room) -> Poll:
        """The presenter reveals the poll: closed, its answers kept (the reveal shows them)."""
        return self._reveal(room, self._poll(room))

    def cancel_poll(self, room: Room) -> Withdrawn:
        """The presenter withdraws the poll unrevealed: it and its answers are forgotten; what was withdrawn."""
        return self._withdraw(room, self._poll(room))

    def settle_poll(self, room: Room) -> Poll | Withdrawn | None:
        """After the room moved (``save``): its open poll ended if the room has left where it asks
        (``polls.ended_by_move``): the revealed poll, or what was withdrawn, to tell the room; None if nothing ended."""
        poll, sim = self._store.poll(room.code), room.session.sim
        ended = polls.ended_by_move(poll, room.session.load_id, sim.position if sim else None)
        if ended is None or poll is None:
            return None
        return self._reveal(room, poll) if ended == "reveal" else self._withdraw(room, poll)

    def _poll(self, room: Room) -> Poll:
        poll = self._store.poll(room.code)
        if poll is None:
            raise Invalid("no poll is open in this room")
        return poll

    def _reveal(self, room: Room, poll: Poll) -> Poll:
        poll["open"] = False
        self._store.set_poll(room.code, poll)
        self._store.push_turn(asked(room.code), {**poll, **self.tally(room, poll), "source": room.session.source})
        return poll

    def _withdraw(self, room: Room, poll: Poll) -> Withdrawn:
        self._store.set_poll(room.code, None)
        self._store.clear_answers(room.code)
        return {"position": poll["position"], "open": False, "cancelled": True}

    def open_poll_here(self, room: Room) -> Poll | None:
        """The poll open at the room's current position, if any (what a joiner is shown)."""
        poll = self._store.poll(room.code)
        here = room.session.sim is not None and poll is not None and poll["position"] == room.session.sim.position
        return poll if here and poll is not None and poll["open"] else None

    def tally(self, room: Room, poll: Poll) -> Tally:
        return polls.tally(poll, self._store.answers(room.code))

    def answer_of(self, room: Room, voter: str | None) -> Answer | None:
        """``voter``'s answer to the room's poll (a follower back after a reload sees what it answered); None for
        none, or no voter."""
        return None if voter is None else self._store.answer_of(room.code, voter)

    def set_blank(self, room: Room, on: bool) -> None:
        self._store.set_blank(room.code, on)

    def blank(self, room: Room) -> bool:
        return self._store.blank(room.code)

    # --- who is in a room: its presenter and followers, counted per process in the store ---------------
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

    def __len__(self) -> int:
        return len(self._store.codes())
