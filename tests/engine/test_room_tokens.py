"""Room codes and presenter tokens: unique, long, unguessable; the token is compared in constant time."""

import hmac

import pytest

from webapp.engine import rooms as rooms_module
from webapp.engine.rooms import CODE_ALPHABET, CODE_LENGTH, NotAllowed, Rooms
from webapp.engine.roomstore import MemoryRoomStore
from webapp.scenario.resolve import resolve

MANY = 3000


def test_codes_and_tokens_are_unique_over_many_rooms():
    rooms = Rooms(resolve)
    made = [rooms.create() for _ in range(MANY)]
    codes, tokens = {r.code for r in made}, {r.token for r in made}
    assert len(codes) == MANY and len(tokens) == MANY and len(rooms) == MANY
    assert all(len(r.code) == CODE_LENGTH and set(r.code) <= set(CODE_ALPHABET) for r in made)
    assert all(len(t) >= 43 for t in tokens)  # secrets.token_urlsafe(32): 256 bits
    assert not codes & tokens


def test_authorize_compares_tokens_with_hmac_compare_digest(monkeypatch):
    rooms = Rooms(resolve)
    room = rooms.create()
    calls = []
    real = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(rooms_module.hmac, "compare_digest", spy)
    assert rooms.authorize(room.code, room.token) is room
    assert calls == [(room.token.encode(), room.token.encode())]
    wrong = room.token[:-1] + ("A" if room.token[-1] != "A" else "B")
    with pytest.raises(NotAllowed) as refused:
        rooms.authorize(room.code, wrong)
    assert calls[-1] == (wrong.encode(), room.token.encode())
    with pytest.raises(NotAllowed) as missing:
        rooms.authorize(room.code, None)
    assert str(refused.value) == str(missing.value)  # a wrong token and no token read the same
    assert len(calls) == 2  # a non-string is refused before any comparison


def test_a_token_of_another_room_does_not_drive_this_one():
    rooms = Rooms(resolve)
    a, b = rooms.create(), rooms.create()
    with pytest.raises(NotAllowed):
        rooms.authorize(a.code, b.token)


# --- after a restart: only the real presenter may re-create its room -------------------------------------------
def test_a_lost_room_is_re_created_only_for_its_real_token():
    """The store lost the room (a restart without Redis, Redis emptied): its code is on the slide, so a code and
    a well-formed token of one's own must not be enough; the token HMAC(secret, code) is."""
    secret = b"s" * 32
    before = Rooms(resolve, secret=secret)
    room = before.create()
    after = Rooms(resolve, secret=secret)  # the restarted process: same secret, empty store
    with pytest.raises(NotAllowed, match="only the presenter"):
        after.claim(room.code, "x" * 43)
    with pytest.raises(NotAllowed, match="only the presenter"):
        after.claim(room.code, Rooms(resolve, secret=b"t" * 32).token_for(room.code))  # another server's secret
    assert len(after) == 0  # nothing was created by the refusals
    again = after.claim(room.code, room.token)
    assert (again.code, again.token) == (room.code, room.token)


def test_tokens_are_the_secrets_hmac_of_the_code_and_differ_between_secrets():
    one, two = Rooms(resolve, secret=b"a" * 32), Rooms(resolve, secret=b"b" * 32)
    room = one.create()
    assert room.token == one.token_for(room.code) != two.token_for(room.code)
    assert len(room.token) == 43


def test_a_rotated_secret_revokes_old_tokens_for_rooms_the_store_still_holds():
    """A process started with a new secret, sharing the store (Redis) with one under the old secret, refuses the
    old token for every room, even those the store still holds; the token under the new secret drives them."""
    store = MemoryRoomStore()
    old = Rooms(resolve, store=store, secret=b"o" * 32)
    room = old.create()
    new = Rooms(resolve, store=store, secret=b"n" * 32)
    with pytest.raises(NotAllowed, match="only the presenter"):
        new.claim(room.code, room.token)
    assert new.claim(room.code, new.token_for(room.code)).code == room.code
