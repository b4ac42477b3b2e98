"""The speaker's phone as a clicker: a room's remote token, the presenter's authority over that room on a link.

A remote token is ``REMOTE_PREFIX`` + HMAC(secret, code, epoch, nonce), as the presenter token is HMAC(secret,
code): the nonce is drawn when the presenter asks for the link and kept in the room store beside the room's record
(``set_remote`` / ``remote``), so every process checks the same one. Revoking forgets the nonce (a new link draws
another), and the token names the room's epoch: a room that ends, or is made again under its code, takes every
remote link with it. A rotated secret revokes them too, as it does the presenter token. The token drives that one
room only, never another, and never makes or revokes a remote link (only the presenter token does:
``issue``/``revoke`` take the room it authorized).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable
from typing import TypeGuard

from ..errors import NotAllowed
from ..phrases import shown
from .room import Room
from .roomstore import MemoryRoomStore, RedisRoomStore

REMOTE_PREFIX = "r."  # a remote token starts so, and a presenter token (base64url of a digest) never has a dot


def is_remote(token: object) -> TypeGuard[str]:
    """Whether ``token`` is shaped as a remote token (checked by ``Remotes.authorize``, not here)."""
    return isinstance(token, str) and token.startswith(REMOTE_PREFIX)


def ended(code: str) -> str:
    return f"room {code} has ended: this remote link no longer drives it"


def revoked(code: str) -> str:
    return (f"this remote link for room {code} was revoked on the presenter's screen (or replaced by a newer one); "
            "open the new link from the presenter's screen")


class Remotes:
    """Room remote links: issued, revoked and checked against the nonce the room store keeps."""

    def __init__(self, store: MemoryRoomStore | RedisRoomStore, secret: bytes):
        self._store, self._secret = store, secret

    def _token(self, room: Room, nonce: str) -> str:
        message = f"remote\0{room.code}\0{room.epoch}\0{nonce}".encode()
        digest = hmac.new(self._secret, message, hashlib.sha256).digest()
        return REMOTE_PREFIX + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    def issue(self, room: Room) -> str:
        """The room's remote token: the one issued already, else a new one (a presenter's page reloaded shows the
        same link, so the phone holding it keeps working)."""
        nonce = self._store.remote(room.code)
        if nonce is None:
            nonce = secrets.token_hex(16)
            self._store.set_remote(room.code, nonce)
        return self._token(room, nonce)

    def revoke(self, room: Room) -> None:
        """Every remote link of the room stops working, on every process."""
        self._store.set_remote(room.code, None)

    def authorize(self, find: Callable[[object], Room], code: object, token: str) -> Room:
        """The room, if ``token`` is its current remote token; NotAllowed saying why not otherwise (the room
        ended, or the link was revoked)."""
        try:
            room = find(code)
        except NotAllowed:
            raise NotAllowed(ended(code.upper() if isinstance(code, str) else shown(code))) from None
        nonce = self._store.remote(room.code)
        if nonce is None or not hmac.compare_digest(token.encode(), self._token(room, nonce).encode()):
            raise NotAllowed(revoked(room.code))
        return room
