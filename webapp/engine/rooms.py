"""Rooms: one presenter's session followed by an audience. Only the token holder may drive it."""

from __future__ import annotations

import hmac
import secrets

from .session import Session

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud and typed from a slide
CODE_LENGTH = 6


class NotAllowed(PermissionError):
    pass


class Room:
    def __init__(self, code: str, token: str):
        self.code = code
        self.token = token  # secrets.token_urlsafe: 256 bits, compared in constant time
        self.session = Session()

    @property
    def channel(self) -> str:
        return f"room:{self.code}"


class Rooms:
    def __init__(self):
        self._rooms: dict[str, Room] = {}

    def create(self) -> Room:
        code = self._new_code()
        room = self._rooms[code] = Room(code, secrets.token_urlsafe(32))
        return room

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self._rooms:
                return code

    def find(self, code) -> Room:
        room = self._rooms.get(code.upper()) if isinstance(code, str) else None
        if room is None:
            raise NotAllowed(f"no room {code!r}")
        return room

    def authorize(self, code, token) -> Room:
        """The room, if ``token`` is its presenter token; NotAllowed otherwise (same message either way)."""
        room = self.find(code)
        if not isinstance(token, str) or not hmac.compare_digest(token.encode(), room.token.encode()):
            raise NotAllowed(f"only the presenter of room {room.code} can drive it (missing or wrong token)")
        return room

    def __len__(self) -> int:
        return len(self._rooms)
