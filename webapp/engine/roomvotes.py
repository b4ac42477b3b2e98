"""A room's vote on its next action (votes.py), kept in the room store so that every process counts the same
ballots and any process can close it; and the room's path, the forks its votes took, for undo and the summary."""

from __future__ import annotations

from typing import Any

from ..errors import Invalid
from . import votes
from .room import Room
from .room_polls import VOTE
from .rooms import Rooms
from .roomstore import MemoryRoomStore, RedisRoomStore
from .votes import Step, Turn, Vote


class RoomVotes:
    def __init__(self, store: MemoryRoomStore | RedisRoomStore, rooms: Rooms):
        self._store, self._rooms = store, rooms

    def open(self, room: Room, steps: list[Step], labels: list[str]) -> Vote:
        """A new vote where the room stands (it replaces any other, ballots and all)."""
        sim = room.session.require()
        vote = votes.open_vote(sim.position, room.session.load_id, steps, labels)
        self._store.set_poll(votes.box(room.code), vote)  # type: ignore[arg-type]
        self._store.clear_answers(votes.box(room.code))
        return vote

    def vote(self, room: Room) -> Vote | None:
        return self._store.poll(votes.box(room.code))  # type: ignore[return-value]

    def open_here(self, room: Room) -> Vote | None:
        """The room's open vote, if it is about the load on screen (what a joiner is shown)."""
        vote = self.vote(room)
        return vote if vote is not None and vote["open"] and vote["key"] == room.session.load_id else None

    def cast(self, room: Room, sid: str, voter: object, action: object, address: str | None, signed: bool) -> Vote:
        """Connection ``sid``'s ballot as ``voter`` (None: the connection), replacing that voter's earlier one;
        bounded as a poll's answers are (Rooms.answer_poll): members only, one voter per connection, at most
        MAX_ANSWERS voters, and per client address the poll's bound (``signed`` followers: theirs)."""
        voter = self._rooms.voter_of(room, sid, voter, VOTE)
        vote = self.open_here(room)
        if vote is None:
            raise Invalid("no vote is open in this room: the presenter has closed it, or not opened one yet")
        self._rooms.count(votes.box(room.code), voter, votes.checked_ballot(vote, action), address, signed, VOTE)
        return vote

    def counts(self, room: Room, vote: Vote) -> list[int]:
        return votes.counts(vote, self._store.answers(votes.box(room.code)))

    def ballot_of(self, room: Room, voter: str | None) -> int | None:
        """The action ``voter`` voted for (a phone back after a reload is shown its own), if any."""
        ballot = None if voter is None else self._store.answer_of(votes.box(room.code), voter)
        return int(ballot[votes.BALLOT]) if ballot else None

    def close(self, room: Room) -> tuple[Vote, list[int], int]:
        """The presenter closes the open vote: (it, its counts, the winning action's number). Nothing is changed
        when nobody voted."""
        vote = self._open(room)
        tally = self.counts(room, vote)
        won = votes.winner(tally)
        vote["open"] = False
        self._store.set_poll(votes.box(room.code), vote)  # type: ignore[arg-type]
        return vote, tally, won

    def cancel(self, room: Room) -> None:
        self._open(room)
        self._store.set_poll(votes.box(room.code), None)
        self._store.clear_answers(votes.box(room.code))

    def _open(self, room: Room) -> Vote:
        vote = self.vote(room)
        if vote is None or not vote["open"]:
            raise Invalid("no vote is open in this room")
        if vote["key"] != room.session.load_id:
            raise Invalid("the room has loaded another scenario since this vote opened: cancel it")
        return vote

    # --- the path the room took ---------------------------------------------------------------------------
    def took(self, room: Room, turn: Turn) -> None:
        self._store.push_turn(room.code, turn)

    def path(self, room: Room) -> list[Turn]:
        return self._store.turns(room.code)

    def polls(self, room: Room) -> list[Any]:
        """The polls the room revealed, oldest first (Rooms records each as it is revealed)."""
        return self._store.turns(votes.asked(room.code))

    def keep_summary(self, key: str, page: dict[str, Any], seconds: float) -> None:
        self._store.keep_summary(key, page, seconds)

    def summary(self, key: str) -> dict[str, Any] | None:
        page: dict[str, Any] | None = self._store.summary(key)
        return page

    def undo(self, room: Room) -> Turn:
        """The room's last fork, taken off its path (the presenter goes back to where it was made)."""
        turn: Turn | None = self._store.pop_turn(room.code)
        if turn is None:
            raise Invalid("the room has taken no fork by vote: nothing to undo")
        return turn
