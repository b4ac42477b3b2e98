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

from ..errors import Invalid, NotAllowed
from . import polls
from .roomstore import MemoryRoomStore
from .session import Session

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud and typed from a slide
CODE_LENGTH = 6
CODE_PATTERN = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
MIN_TOKEN_LENGTH = 32


class Room:
    def __init__(self, record: dict, session: Session):
        self.code = record["code"]
        self.token = record["token"]  # HMAC(secret, code): 256 bits, compared in constant time
        # Which incarnation of the room this is: a room re-created under the same code (its record lost, e.g.
        # Redis restarted empty) gets a new epoch, and counts its versions from 0 again.
        self.epoch = record.get("epoch")
        self.session = session
        self.version = -1  # the store version this session reflects

    @property
    def seen(self) -> tuple:
        """What this copy shows, comparable across re-creations: (epoch, version)."""
        return self.epoch, self.version

    @property
    def channel(self) -> str:
        return f"room:{self.code}"

    @property
    def presenter_channel(self) -> str:
        """Where what only the presenter sees goes (a poll's answers as they come in)."""
        return f"room:{self.code}:presenter"


class Rooms:
    def __init__(self, resolve, store=None, new_session=Session, secret: bytes | None = None):
        self._resolve = resolve  # built-in id or scenario object -> (Scenario, id)
        self._store = store or MemoryRoomStore()
        self._new_session = new_session
        self._local: dict[str, Room] = {}
        # A room's token is HMAC(secret, code): any process sharing the secret can tell the real presenter's
        # token from another, even for a room the store has lost (web/secret.py says where it comes from).
        self._secret = secret or secrets.token_bytes(32)

    def token_for(self, code: str) -> str:
        digest = hmac.new(self._secret, code.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()  # 43 characters, 256 bits

    def create(self, code: str | None = None) -> Room:
        record = {"code": code, "token": None, "source": None, "variants": None, "range": None, "position": 0,
                  "version": 0, "epoch": secrets.token_hex(8)}
        while True:
            if record["code"] is None:
                record["code"] = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            record["token"] = self.token_for(record["code"])
            if self._store.add(record):
                return self._sync(record)
            if code is not None:
                raise NotAllowed(f"room {code} exists already")
            record["code"] = None

    def find(self, code) -> Room:
        record = self._store.get(code.upper()) if isinstance(code, str) else None
        if record is None:
            raise NotAllowed(f"no room {code!r}")
        room = self._sync(record)
        room.session.touched = time.monotonic()  # driven or joined: not idle
        return room

    def authorize(self, code, token) -> Room:
        """The room, if ``token`` is its presenter token; NotAllowed otherwise (same message either way)."""
        room = self.find(code)
        if not isinstance(token, str) or not hmac.compare_digest(token.encode(), room.token.encode()):
            raise NotAllowed(f"only the presenter of room {room.code} can drive it (missing or wrong token)")
        return room

    def claim(self, code, token) -> Room:
        """A presenter coming back (reconnect, server restart): its room, re-created if it is gone, and only for
        the holder of the room's real token (knowing the code from the slide is not enough)."""
        valid = isinstance(code, str) and CODE_PATTERN.fullmatch(code.upper()) and isinstance(token, str) \
            and len(token) >= MIN_TOKEN_LENGTH
        if not valid:
            raise NotAllowed("claim_room needs the room code and its presenter token")
        try:
            return self.authorize(code, token)
        except NotAllowed:
            code = code.upper()
            if self._store.get(code) is not None or not hmac.compare_digest(token.encode(),
                                                                            self.token_for(code).encode()):
                raise NotAllowed(f"only the presenter of room {code} can claim it (missing or wrong token)") from None
            return self.create(code)

    def save(self, room: Room) -> None:
        """Record the room's scenario and position after its presenter changed them."""
        session = room.session
        record = self._store.get(room.code) or {"code": room.code, "token": room.token, "version": room.version,
                                                 "epoch": room.epoch}
        if record.get("epoch") != room.epoch:  # re-created since this copy was made (autoplay holds one)
            raise NotAllowed(f"room {room.code} was created again since; join it again")
        record.update(source=session.source, variants=list(session.sim.variants) if session.sim else None,
                      range=list(session.range) if session.sim else None,
                      position=session.sim.position if session.sim else 0, version=record["version"] + 1)
        self._store.put(record)
        room.version = record["version"]

    def _sync(self, record: dict) -> Room:
        room = self._local.get(record["code"])
        if room is None or room.token != record["token"] or room.epoch != record.get("epoch"):
            if room is not None:  # another incarnation: nothing of the old one is served
                room.session.pause()
            room = self._local[record["code"]] = Room(record, self._new_session())
        if room.version == record["version"]:
            return room
        session = room.session
        if record["source"] is not None:
            loaded = (session.source, list(session.sim.variants) if session.sim else None,
                      list(session.range) if session.sim else None)
            if loaded != (record["source"], record["variants"], record["range"]):
                scenario, scenario_id = self._resolve(record["source"])
                session.load(scenario, record["variants"], scenario_id, tuple(record["range"]), record["position"])
            else:
                session.seek(record["position"])
        room.version = record["version"]
        return room

    # --- the room's live poll (polls.py): kept in the store, so every process counts the same answers ----
    def open_poll(self, room: Room, prompt: dict | None) -> dict:
        poll = polls.open_poll(room.session.require().position, prompt, list(room.session.sim.variants))
        self._store.set_poll(room.code, poll)
        self._store.clear_answers(room.code)
        return poll

    def answer_poll(self, room: Room, voter: str, answer) -> dict:
        """Record ``voter``'s answer (replacing an earlier one); the poll as it stands."""
        poll = self._store.poll(room.code)
        if poll is not None and room.session.sim is not None and room.session.sim.position != poll["position"]:
            raise Invalid("this poll has closed: the room has moved on")
        self._store.answer(room.code, voter, polls.checked_answer(poll, answer))
        return poll

    def close_poll(self, room: Room) -> dict:
        poll = self._store.poll(room.code)
        if poll is None:
            raise Invalid("no poll is open in this room")
        poll["open"] = False  # answers are kept: the reveal shows them
        self._store.set_poll(room.code, poll)
        return poll

    def open_poll_here(self, room: Room) -> dict | None:
        """The poll open at the room's current position, if any (what a joiner is shown)."""
        poll = self._store.poll(room.code)
        here = room.session.sim is not None and poll is not None and poll["position"] == room.session.sim.position
        return poll if here and poll["open"] else None

    def tally(self, room: Room, poll: dict) -> dict:
        return polls.tally(poll, self._store.answers(room.code))

    def local_codes(self) -> list[str]:
        return list(self._local)

    def evict_idle(self, cutoff: float) -> list[str]:
        """Forget the rooms nobody has driven or joined since ``cutoff`` (a time.monotonic() value): this
        process's copy, and the record when it lives in this process (Redis expires its own). Their codes."""
        idle = [code for code, room in list(self._local.items()) if room.session.touched < cutoff]
        for code in idle:
            self._local.pop(code, None)
            if isinstance(self._store, MemoryRoomStore):
                self._store.drop(code)
        return idle

    def __len__(self) -> int:
        return len(self._store.codes())
