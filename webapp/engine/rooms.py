"""Rooms: one presenter's session followed by an audience. Only the token holder may drive it.

The store holds what a room is (scenario, position); each process keeps a Session per room it serves and
brings it up to date from the store's record whenever the record's version moved on. ``Rooms`` is the registry
and its authority; its polls and blank screen (room_polls.py) and who is in each room, with the rooms forgotten
(presence.py), are its parts by concern.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable

from ..errors import NotAllowed
from ..phrases import shown
from ..scenario.scenario import Scenario
from . import followers, remote
from .presence import Presence
from .room import Room
from .room_polls import RoomPolls
from .roomstore import MemoryRoomStore, RedisRoomStore, RoomRecord
from .session import Session

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud and typed from a slide
CODE_LENGTH = 6
CODE_PATTERN = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
MIN_TOKEN_LENGTH = 32


class Rooms(RoomPolls, Presence):
    """The registry of rooms and its authority: create, find, claim, authorize, save and follow a room's record
    (its polls and blank screen: room_polls.py; who is in it, and which rooms are forgotten: presence.py)."""

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
        self.remotes = remote.Remotes(self._store, self._secret)  # the presenter's phone (engine/remote.py)

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
        epoch = secrets.token_hex(8)
        while True:
            chosen = code if code is not None else "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            record: RoomRecord = {"code": chosen, "token": self.token_for(chosen), "epoch": epoch, "version": 0,
                                  "source": None, "variants": None, "range": None, "position": 0, "playing": False,
                                  "speed": 1.0, "load_id": None}
            if self._store.add(record):
                room = self._sync(record)
                room.owner = owner
                return room
            if code is not None:
                raise NotAllowed(f"room {code} exists already")

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

    def shown(self, code: str) -> RoomRecord | None:
        """Room ``code``'s record while its followers see a picture (a scenario loaded, the screen not blanked);
        None otherwise. Nothing is made or followed here (a page reads it to draw the room's first frame)."""
        record = self._store.get(code.upper())
        if record is None or record["source"] is None or self._store.blank(record["code"]):
            return None
        return record

    def authorize(self, code: object, token: object, doing: str = "drive it") -> Room:
        """The room, if ``token`` is its presenter token; NotAllowed otherwise, saying who may be ``doing`` what
        was asked (the same message whether the token is missing or wrong). A remote token (engine/remote.py) is
        the presenter's authority over this room too, while its link is not revoked."""
        if remote.is_remote(token):
            return self.remotes.authorize(self.find, code, token)
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
        """Record the room's scenario, position, whether it plays and how fast, after its presenter (or its autoplay)
        changed them, as the next version over whatever another process or greenlet wrote meanwhile."""
        session, sim = room.session, room.session.sim
        while True:
            stored = self._store.get(room.code)
            previous = stored["version"] if stored is not None else None
            if stored is not None and stored["epoch"] != room.epoch:  # re-created since this copy was made
                raise NotAllowed(f"room {room.code} was created again since; join it again")
            record: RoomRecord = {
                "code": room.code, "token": room.token, "epoch": room.epoch,
                "version": (room.version if previous is None else previous) + 1, "source": session.source,
                "variants": list(sim.variants) if sim else None, "range": list(session.range) if sim else None,
                "position": sim.position if sim else 0, "playing": session.playing, "speed": session.speed,
                "load_id": session.load_id}
            if self._store.replace(record, previous):
                break
        room.version, room.playing = record["version"], session.playing

    def _sync(self, record: RoomRecord) -> Room:
        room = self._local.get(record["code"])
        if room is None:
            self._room_for_one_more()  # a room followed here holds a simulation as one made here does
        if room is None or room.token != record["token"] or room.epoch != record["epoch"]:
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
        room.playing = record["playing"]
        session.speed = float(record.get("speed", session.speed))  # what a state says, on every process alike
        if record["source"] is not None:
            # A load is named by its load id (a new one for every load, the presenter's on every process); its source
            # is not compared: through a shared store it comes back as JSON (lists where a Scenario holds tuples,
            # scenario.frozen_step), never equal, and every move reloaded the whole scenario.
            if session.sim is None or session.load_id is None or session.load_id != record.get("load_id"):
                scenario, scenario_id = self._resolve(record["source"])
                shown = record["range"]
                session.load(scenario, record["variants"], scenario_id, (shown[0], shown[1]) if shown else None,
                             record["position"])
            else:
                session.seek(record["position"])
            session.load_id = record.get("load_id")  # the presenter's load, whichever process its viewers are on
        room.version = record["version"]
        return room

    def __len__(self) -> int:
        return len(self._store.codes())
