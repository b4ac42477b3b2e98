"""Shown: a state message or a delta is made once per key (the most recent ENTRIES kept); without a key it is
made every time; a delta taken from the memo carries the seq it is sent with."""

from __future__ import annotations

from webapp.presenter.memo import Shown
from webapp.presenter.messages import delta_message


def state(position: int) -> dict:
    return {"position": position, "total": 9, "variants": {}, "scene": {"caption": f"at {position}"}}


def test_a_state_is_made_once_per_key_and_every_time_without_one():
    shown, made = Shown(), []

    def make():
        made.append(1)
        return state(len(made))

    first = shown.state(("a", 1), make)
    assert shown.state(("a", 1), make) is first and len(made) == 1
    assert shown.state(None, make) is not shown.state(None, make) and len(made) == 3


def test_only_the_most_recent_entries_are_kept():
    shown = Shown(entries=2)
    kept = shown.state("a", lambda: state(1))
    shown.state("b", lambda: state(2))
    assert shown.state("a", lambda: state(9)) is kept  # used again: now the most recent
    shown.state("c", lambda: state(3))
    assert len(shown) == 2
    assert shown.state("b", lambda: state(4))["position"] == 4  # the least recent went


def test_a_delta_is_made_once_per_pair_of_keys_and_carries_its_own_seq():
    shown, old, new = Shown(), state(1), state(2)
    first = shown.delta(5, old, new, "a", "b")
    assert first == delta_message(5, old, new)
    again = shown.delta(8, old, new, "a", "b")
    assert again == {**first, "seq": 8} and again["ops"] is first["ops"] and first["seq"] == 5
    assert shown.delta(3, old, new, None, "b") == delta_message(3, old, new) and len(shown) == 1
