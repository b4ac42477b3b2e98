"""What should happen next: a room votes on its next action. Plain data and rules; the store keeps it
(roomstore.py, under ``box(code)``), the transport carries it.

The presenter offers two to four actions from where the room stands: steps as the diagram's fork menu makes them
(pop the head of activeQ, deliver an event, fail or finish an in-flight pod, advance the clock), chosen by hand or
proposed (``ranked``: those after which the versions part soonest, by the search of find.py, within a time
budget). Followers vote with one tap: one ballot per voter, replaced by a new one until the vote closes, counted
and bounded per address as a poll's answers are (roomstore.answer). The presenter closes the vote: the action most
voted for (the first offered, on a tie) is applied as a fork of the room's scenario where the vote was opened:
the steps up to there, the action, and the rest kept as the fork's other branch, as static/js/explore-fork.js
``forked`` makes it, its note marked with FORK_MARK (the timeline draws it as a branch) and saying how the room
voted. Each fork is a ``Turn`` of the room's path, so the presenter can undo back to the fork point.

    vote = {position, key, actions: [{step, label}], open}      ballot = {"action": "<index>"}
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypedDict

from ..errors import Invalid
from ..phrases import FORK_MARK, counted, shown
from .find import Search

MIN_ACTIONS, MAX_ACTIONS = 2, 4
EVENTS_OFFERED = 5  # events offered as actions: the palette's (static/js/explore-fork.js PALETTE)
ADVANCE_SECONDS = (1, 60)  # the clock advances offered: the page's default and a minute (a backoff's end)
BALLOT = "action"
Step = dict[str, Any]


class Action(TypedDict):
    step: Step
    label: str


class Vote(TypedDict):
    position: int
    key: str | None  # the load it was opened on (session.load_id)
    actions: list[Action]
    open: bool


class VoteTally(TypedDict):
    """A vote's ballots so far (to the presenter and the speaker view): how many, and per offered action."""

    answered: int
    counts: list[int]


class Turn(TypedDict):
    """A fork the room took: where (``at``), from what (``before``, the source forked), the actions offered, how
    the room voted, which one won, and the step and note forked."""

    at: int
    before: Any
    actions: list[str]
    counts: list[int]
    winner: int
    step: Step  # the winner's, forked with ``note``
    note: str


def box(code: str) -> str:
    """Where the store keeps room ``code``'s vote and ballots (beside its poll and answers)."""
    return f"{code}/vote"


def asked(code: str) -> str:
    """Where the store keeps the polls room ``code`` revealed (a list, as its path is), for its summary."""
    return f"{code}/polls"


def offered(states: Iterable[Mapping[str, Any]], raw: Mapping[str, Any]) -> list[Step]:
    """The actions the diagram's fork menu offers from ``states`` (each version's queue state at one position) of
    the scenario ``raw``: pop if any version has a pod in activeQ; fail and finish each pod in flight (a failure
    rejected by the first plugin the scenario names); the events it delivers or hints at; advancing the clock."""
    states = list(states)
    named = [h["plugin"] for h in raw.get("hints", [])] + \
        [p for s in raw.get("steps", []) for p in s.get("unschedulable_plugins", [])]
    plugins = list(dict.fromkeys(named))[:1]
    steps: list[Step] = [{"op": "pop"}] if any(s["activeQ"] for s in states) else []
    for pod in dict.fromkeys(p for s in states for p in s["inFlightPods"]):
        steps += [{"op": "fail", "pod": pod, "unschedulable_plugins": plugins}, {"op": "done", "pod": pod}]
    events = [h["event"] for h in raw.get("hints", [])] + \
        [s["event"] for s in raw.get("steps", []) if s.get("op") == "event"]
    steps += [{"op": "event", "event": e} for e in list(dict.fromkeys(events))[:EVENTS_OFFERED]]
    return steps + [{"op": "advance_clock", "seconds": s} for s in ADVANCE_SECONDS]


def ranked(raw: Mapping[str, Any], here: int, versions: list[str], candidates: list[Step], budget: float,
           clock: Callable[[], float] = time.monotonic) -> list[tuple[Step, int | None]]:
    """``candidates`` (steps after ``here`` in ``raw``), each with how soon ``versions`` place a pod differently
    after it (0: at that step, 1: at the next, for some candidate taken next; None: not within those), soonest
    first, then in the order offered. The search stops at ``budget`` seconds: what it did not look at is None."""
    search, deadline = Search("divergence", versions), clock() + budget
    prefix = list(raw["steps"])[:here]
    base = {k: v for k, v in raw.items() if k != "branch"}

    def parts(*steps: Step) -> bool:
        return search.first_finding({**base, "steps": [*prefix, *steps]}, since=here) is not None

    soon: dict[int, int] = {}
    for i, step in enumerate(candidates):
        if clock() < deadline and parts(step):
            soon[i] = 0
    for i, step in enumerate(candidates):
        if i not in soon and any(clock() < deadline and parts(step, then) for then in candidates):
            soon[i] = 1
    order = sorted(range(len(candidates)), key=lambda i: (soon.get(i, 2), i))
    return [(candidates[i], soon.get(i)) for i in order]


def proposed(ranking: list[tuple[Step, int | None]]) -> list[Step]:
    """The actions a vote offers when the presenter picks none: the first MAX_ACTIONS of ``ranked``."""
    return [step for step, _ in ranking[:MAX_ACTIONS]]


def open_vote(position: int, key: str | None, steps: list[Step], labels: list[str]) -> Vote:
    if not MIN_ACTIONS <= len(steps) <= MAX_ACTIONS:
        raise Invalid(f"actions: a vote offers {MIN_ACTIONS} to {MAX_ACTIONS} actions, got {len(steps)}")
    if len({str(sorted(s.items())) for s in steps}) != len(steps):
        raise Invalid("actions: each action is offered once")
    return {"position": position, "key": key, "open": True,
            "actions": [{"step": dict(step), "label": label} for step, label in zip(steps, labels)]}


def checked_ballot(vote: Vote | None, action: object) -> dict[str, str]:
    """The ballot for offered action number ``action`` (from 0) of the open ``vote``; Invalid otherwise."""
    if vote is None or not vote["open"]:
        raise Invalid("no vote is open in this room")
    count = len(vote["actions"])
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < count:
        raise Invalid(f"action: expected the number of an offered action, 0 to {count - 1}, got {shown(action)}")
    return {BALLOT: str(action)}


def counts(vote: Vote, ballots: list[dict[str, str]]) -> list[int]:
    """How many voted for each offered action."""
    tally = [0] * len(vote["actions"])
    for ballot in ballots:
        choice = ballot.get(BALLOT, "")
        if choice.isdigit() and int(choice) < len(tally):
            tally[int(choice)] += 1
    return tally


def winner(tally: list[int]) -> int:
    """The action most voted for (the first offered of those tied); Invalid if nobody voted."""
    if not any(tally):
        raise Invalid("nobody has voted yet: wait for votes, or cancel the vote")
    return tally.index(max(tally))


def fork_note(label: str, tally: list[int], name: str, here: int) -> str:
    return (f"{FORK_MARK} The room voted for {label} ({max(tally)} of {counted(sum(tally), 'vote')}). "
            f"Forked from “{name}” after step {here}.")


def forked(base: Mapping[str, Any], here: int, step: Step, note: str) -> dict[str, Any]:
    """``base``'s first ``here`` steps, then ``step`` (its note ``note``); the steps after ``here`` are kept as its
    other branch or, forked at the end of a fork, the fork's own other branch stays."""
    name = str(base.get("name", "scenario"))
    out = {k: v for k, v in base.items() if k != "branch"}
    out["name"] = name if name.endswith(" (fork)") else f"{name} (fork)"
    out["steps"] = [*list(base["steps"])[:here], {**step, "note": note}]
    rest = list(base["steps"])[here:]
    if rest:
        out["branch"] = {"at": here, "name": name, "steps": rest}
    elif "branch" in base:
        out["branch"] = base["branch"]
    return out
