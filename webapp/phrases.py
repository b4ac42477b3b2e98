"""Counts and lists in words, said one way by every layer (the importer's counts, the validator's list lengths,
the presenter's names): "1 line", "2 lines"; "a, b and c"; "a, b and 3 more". Pure: the standard library only."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

# What starts the note of a step made by forking (a room's vote, the diagram's fork menu): the timeline marks it
# (static/js/timeline.js reads the same mark), and a room's followers are told it (it tells nothing ahead).
FORK_MARK = "⎇"


def agreeing(n: int, noun: str) -> str:
    """The noun that agrees with ``n``: "line", "lines"."""
    return f"{noun}{'' if n == 1 else 's'}"


def counted(n: int, noun: str) -> str:
    """``n`` with the noun that agrees with it: "1 line", "2 lines"."""
    return f"{n:,} {agreeing(n, noun)}"


def joined(names: Iterable[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    names = list(names)
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def listed(names: Sequence[str], most: int = 8) -> str:
    """At most ``most`` names, then how many more."""
    more = len(names) - most
    return ", ".join(names[:most]) + (f" and {more} more" if more > 0 else "")


def shown(value: object) -> str:
    """A value a user sent, said short and in the words of JSON (never the whole value, never Python's repr: "null",
    "true", "a list of 3 items")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return str(value) if abs(value) < 10**18 else "a very large integer"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(value[:40] + "..." if len(value) > 40 else value)
    if isinstance(value, list | tuple):
        return f"a list of {counted(len(value), 'item')}"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"
