"""A room's live poll: the presenter asks where a failing pod will go, followers answer on their phones, the presenter
sees the answers come in and reveals. Plain data and rules; the store keeps it, the transport carries it. Answers
are anonymous (counted, never listed), one per follower (a new one replaces it), at most MAX_ANSWERS to a poll and
MAX_ANSWERS_PER_ADDRESS (a setting) from one client address, and never move the room. A follower is its ``voter``
id, drawn by its browser tab and kept across reconnections (a phone whose screen locked comes back on a new
connection and still answers once).

A poll asks about one step of one load (``key``: the session's, webapp/engine/session.py) and lives only while the
room stands where it asks: the room's next move ends it (``ended_by_move``), so no follower is ever left holding a
poll nobody can reveal.

    poll = {position, key, pod, choices, variants, open}      answer = {variant: choice}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from ..errors import Invalid
from ..phrases import shown

MAX_ANSWERS = 5_000  # voters one poll counts: a large hall; beyond it a new voter is refused
# What a store says of an answer (roomstore.py ``answer``): counted, the poll full, or its address's share spent.
COUNTED, FULL, ADDRESS_FULL = 1, 0, -1
VOTER = re.compile(r"[A-Za-z0-9_-]{8,64}")


class Poll(TypedDict):
    position: int
    key: NotRequired[str | None]  # the load it asks about (absent in a poll stored before polls named it)
    pod: str
    choices: list[str]
    variants: list[str]
    open: bool


Answer = dict[str, str]  # variant -> choice


class Tally(TypedDict):
    answered: int
    counts: dict[str, dict[str, int]]


def checked_voter(voter: object) -> str:
    """``voter`` if it is a voter id (8-64 letters, digits, - or _); Invalid otherwise."""
    if not isinstance(voter, str) or not VOTER.fullmatch(voter):
        raise Invalid(f"voter: expected an id of 8 to 64 letters, digits, '-' or '_', got {shown(voter)}")
    return voter


def open_poll(position: int, key: str | None, prompt: Mapping[str, Any] | None, variants: list[str]) -> Poll:
    """A poll about the step after ``position`` of the load ``key``; ``prompt`` is what the scene asks there (its
    ``predict``)."""
    if prompt is None:
        raise Invalid("there is nothing to predict here: a poll opens just before a failure is evaluated")
    return {"position": position, "key": key, "pod": prompt["pod"], "choices": list(prompt["choices"]),
            "variants": list(variants), "open": True}


def ended_by_move(poll: Poll | None, key: str | None, position: int | None) -> str | None:
    """What the room standing at ``position`` of the load ``key`` does to ``poll``: None while it still asks there
    (or is not open); "reveal" once the room has taken the step it asks about (that step shows the truth: however
    the presenter took it, followers see the room's answers and their verdict); "withdraw" after any other move
    (back, a seek elsewhere, another load), where the poll can never be revealed. A poll stored before polls named
    their load (no key) cannot tell which load it asks about: withdrawn."""
    if poll is None or not poll["open"]:
        return None
    asked = poll.get("key"), poll["position"]
    if (key, position) == asked:
        return None
    return "reveal" if (key, position) == (asked[0], asked[1] + 1) else "withdraw"


def checked_answer(poll: Poll | None, answer: object) -> Answer:
    """``answer`` if it answers the open ``poll``: a choice for some of its variants; Invalid otherwise."""
    if poll is None or not poll["open"]:
        raise Invalid("no poll is open in this room")
    if not isinstance(answer, dict) or not answer:
        raise Invalid(f"answers must be an object {{variant: choice}} answering at least one of the poll's variants "
                      f"{poll['variants']}")
    for variant, choice in answer.items():
        if variant not in poll["variants"]:
            raise Invalid(f"answers: {shown(variant)} is not a variant of this poll; expected one of "
                          f"{poll['variants']}")
        if choice not in poll["choices"]:
            raise Invalid(f"answers.{variant}: expected one of {poll['choices']}, got {shown(choice)}")
    return {variant: answer[variant] for variant in poll["variants"] if variant in answer}


def tally(poll: Poll, answers: list[Answer]) -> Tally:
    """{answered, counts: {variant: {choice: n}}}: how many answered, and each variant's histogram."""
    counts = {v: {c: 0 for c in poll["choices"]} for v in poll["variants"]}
    for answer in answers:
        for variant, choice in answer.items():
            if variant in counts and choice in counts[variant]:
                counts[variant][choice] += 1
    return {"answered": len(answers), "counts": counts}
