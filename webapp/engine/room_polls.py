"""A room's live poll and its blank screen, kept in the store so that every process counts the same answers and
blanks the same screens (the rules of a poll: polls.py). A part of ``Rooms`` (rooms.py), which holds the store."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ..errors import Busy, Invalid, NotAllowed
from . import polls
from .polls import Answer, Poll, Tally
from .room import Room, Withdrawn
from .roomstore import MemoryRoomStore, RedisRoomStore
from .votes import asked


class Ballot(NamedTuple):
    """How a refusal names a kind of ballot: the poll's answers, the vote's votes."""

    kind: str
    doing: str  # what a connection outside the room was refused
    acts: str  # what it does as one voter
    counted: str  # what the box counts


POLL = Ballot("poll", "answering its poll", "answers", "answers")
VOTE = Ballot("vote", "voting", "votes", "votes")


class RoomPolls:
    """What the presenter asks of the room: a poll (open, answered, revealed, withdrawn, ended by a move) and the
    blank screen."""

    _store: MemoryRoomStore | RedisRoomStore
    answers_per_address: int | None  # answers a poll counts from one client address
    followers_per_address: int | None  # signed followers (followers.py) one address gives a poll

    def open_poll(self, room: Room, prompt: Mapping[str, Any] | None) -> Poll:
        session = room.session
        sim = session.require()
        poll = polls.open_poll(sim.position, session.load_id, prompt, list(sim.variants))
        self._store.set_poll(room.code, poll)
        self._store.clear_answers(room.code)
        return poll

    def answer_poll(self, room: Room, sid: str, voter: object, answer: object,
                    address: str | None = None, signed: bool = False) -> Poll:
        """Record the answer of connection ``sid`` as ``voter`` (None: the connection itself), replacing that
        voter's earlier one; the poll as it stands. Counted as ``count`` counts a ballot."""
        voter = self.voter_of(room, sid, voter, POLL)
        poll = self._poll(room)
        if room.session.sim is not None and room.session.sim.position != poll["position"]:
            raise Invalid("this poll has closed: the room has moved on")
        self.count(room.code, voter, polls.checked_answer(poll, answer), address, signed, POLL)
        return poll

    def voter_of(self, room: Room, sid: str, voter: object, words: Ballot) -> str:
        """Who connection ``sid`` answers as (None: the connection itself): only a member of the room answers, and
        a connection as one voter only."""
        if sid not in room.members:
            raise NotAllowed(f"join the room before {words.doing}")
        voter = sid if voter is None else polls.checked_voter(voter)
        if room.voters.setdefault(sid, voter) != voter:
            raise NotAllowed(f"this connection already {words.acts} as another voter")
        return voter

    def count(self, box: str, voter: str, value: Answer, address: str | None, signed: bool, words: Ballot) -> None:
        """``voter``'s ballot in ``box`` (a poll's or a vote's), replacing its earlier one: at most
        polls.MAX_ANSWERS voters, and one client ``address`` gives at most ``answers_per_address`` of them, or, for
        ``signed`` followers (a voter this server signed, followers.py), ``followers_per_address``."""
        bound, setting = (self.followers_per_address, "MAX_FOLLOWERS_PER_ADDRESS") if signed else \
            (self.answers_per_address, "MAX_ANSWERS_PER_ADDRESS")
        counted = self._store.answer(box, voter, value, polls.MAX_ANSWERS,
                                     f"{address or ''}{' followers' if signed else ''}", bound or 0)
        if counted == polls.FULL:
            raise Busy(f"this {words.kind} has counted {polls.MAX_ANSWERS} {words.counted}: no more are taken")
        if counted == polls.ADDRESS_FULL:
            raise NotAllowed(f"this {words.kind} counts at most {bound} {words.counted} from one address ({setting}), "
                             "and yours has given them")

    def close_poll(self, room: Room) -> Poll:
        """The presenter reveals the poll: closed, its answers kept (the reveal shows them)."""
        return self._reveal(room, self._poll(room))

    def cancel_poll(self, room: Room) -> Withdrawn:
        """The presenter withdraws the poll unrevealed: it and its answers are forgotten; what was withdrawn."""
        return self._withdraw(room, self._poll(room))

    def settle_poll(self, room: Room) -> Poll | Withdrawn | None:
        """After the room moved (``save``): its open poll ended if the room has left where it asks
        (``polls.ended_by_move``): the revealed poll, or what was withdrawn, to tell the room; None if nothing ended."""
        poll, sim = self._store.poll(room.code), room.session.sim
        ended = polls.ended_by_move(poll, room.session.load_id, sim.position if sim else None)
        if ended is None or poll is None:
            return None
        return self._reveal(room, poll) if ended == "reveal" else self._withdraw(room, poll)

    def _poll(self, room: Room) -> Poll:
        poll = self._store.poll(room.code)
        if poll is None:
            raise Invalid("no poll is open in this room")
        return poll

    def _reveal(self, room: Room, poll: Poll) -> Poll:
        poll["open"] = False
        self._store.set_poll(room.code, poll)
        self._store.push_turn(asked(room.code), {**poll, **self.tally(room, poll), "source": room.session.source})
        return poll

    def _withdraw(self, room: Room, poll: Poll) -> Withdrawn:
        self._store.set_poll(room.code, None)
        self._store.clear_answers(room.code)
        return {"position": poll["position"], "open": False, "cancelled": True}

    def open_poll_here(self, room: Room) -> Poll | None:
        """The poll open at the room's current position, if any (what a joiner is shown)."""
        poll = self._store.poll(room.code)
        here = room.session.sim is not None and poll is not None and poll["position"] == room.session.sim.position
        return poll if here and poll is not None and poll["open"] else None

    def tally(self, room: Room, poll: Poll) -> Tally:
        return polls.tally(poll, self._store.answers(room.code))

    def answer_of(self, room: Room, voter: str | None) -> Answer | None:
        """``voter``'s answer to the room's poll (a follower back after a reload sees what it answered); None for
        none, or no voter."""
        return None if voter is None else self._store.answer_of(room.code, voter)

    def set_blank(self, room: Room, on: bool) -> None:
        self._store.set_blank(room.code, on)

    def blank(self, room: Room) -> bool:
        return self._store.blank(room.code)
