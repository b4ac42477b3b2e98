"""A room's follower identity: one per browser, handed out by the room page (a cookie) and signed, so that a
hall's phones sharing one address are each one follower and one vote, and nobody can make one up.

    token = id "." signature        signature = HMAC(secret, "follower" NUL id), 128 bits, base64url

The signature binds the id alone (to this server's room secret, web/secret.py): a token copied to many
connections is the same follower every time, so it answers a poll once (its answer replaces its earlier one); a
token with another id fails the check and counts as no follower (bounded by its address, MAX_ANSWERS_PER_ADDRESS).
What bounds how many ids one address gets is what bounds room pages from it (the HTTP rate limit's hall lane).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

ID_BYTES = 16  # 128 random bits: 22 characters
SIGNATURE_BYTES = 16
COOKIE = "inflight-follower"
COOKIE_SECONDS = 24 * 3600  # one day: a talk, with a reload or a locked phone in it


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _signature(secret: bytes, follower: str) -> str:
    return _b64(hmac.new(secret, b"follower\0" + follower.encode(), hashlib.sha256).digest()[:SIGNATURE_BYTES])


def new_follower(secret: bytes) -> str:
    """A new follower's token."""
    follower = _b64(secrets.token_bytes(ID_BYTES))
    return f"{follower}.{_signature(secret, follower)}"


def follower_of(secret: bytes, token: object) -> str | None:
    """The follower id ``token`` carries if its signature is this server's; None for anything else."""
    if not isinstance(token, str) or len(token) > 64 or token.count(".") != 1:
        return None
    follower, signature = token.split(".")
    if not follower.isascii() or not hmac.compare_digest(signature.encode(), _signature(secret, follower).encode()):
        return None
    return follower
