"""Shown: a state message or a delta is kept from the second time its key is asked for (the most recent
ENTRIES kept); without a key it is made every time; a delta taken from the memo carries the seq it is sent with."""

from __future__ import annotations

from webapp.presenter import memo
from webapp.presenter.memo import Shown
from webapp.presenter.messages import delta_message


def state(position: int) -> dict:
    return {"position": position, "total": 9, "variants": {}, "scene": {"caption": f"at {position}"}}


def test_a_state_is_kept_from_its_second_ask_and_made_every_time_without_a_key():
    shown, made = Shown(), []

    def make():
        made.append(1)
        return state(len(made))

    once = shown.state(("a", 1), make)
    assert len(shown) == 0  # asked for once: made and let go
    kept = shown.state(("a", 1), make)
    assert kept is not once and kept == state(2) and len(shown) == 1
    assert shown.state(("a", 1), make) is kept and len(made) == 2
    assert shown.state(None, make) is not shown.state(None, make) and len(made) == 4 and len(shown) == 1


def test_only_the_most_recent_entries_are_kept():
    shown = Shown(entries=2)
    for key in "ab":
        shown.state(key, lambda: state(0))
    kept = shown.state("a", lambda: state(1))
    shown.state("b", lambda: state(2))
    assert shown.state("a", lambda: state(9)) is kept  # used again: now the most recent
    shown.state("c", lambda: state(0))
    shown.state("c", lambda: state(3))
    assert len(shown) == 2
    assert shown.state("b", lambda: state(4))["position"] == 4  # the least recent went (made again, not kept)


def test_keys_asked_for_once_are_remembered_within_a_bound(monkeypatch):
    monkeypatch.setattr(memo, "ASKED", 3)
    shown = Shown()
    for key in "abcd":
        shown.state(key, lambda: state(0))
    shown.state("a", lambda: state(1))  # "a", the oldest of four asked once, was forgotten: once again
    shown.state("d", lambda: state(2))  # "d" was remembered: kept
    assert len(shown) == 1 and shown.state("d", lambda: state(9))["position"] == 2


def test_a_delta_is_kept_per_pair_of_keys_and_carries_its_own_seq():
    shown, old, new = Shown(), state(1), state(2)
    make = lambda seq: lambda: delta_message(seq, old, new)  # noqa: E731
    assert shown.delta(4, "a", "b", make(4)) == delta_message(4, old, new) and len(shown) == 0
    first = shown.delta(5, "a", "b", make(5))
    assert first == delta_message(5, old, new) and len(shown) == 1
    again = shown.delta(8, "a", "b", make(8))
    assert again == {**first, "seq": 8} and again["ops"] is first["ops"] and first["seq"] == 5
    assert shown.delta(3, None, "b", make(3)) == delta_message(3, old, new) and len(shown) == 1
    made_for_another_seq = shown.delta(6, "c", "d", make(0))  # a delta made ahead, before its seq was known
    assert made_for_another_seq["seq"] == 6 and made_for_another_seq["ops"] == first["ops"]
