"""Socket.IO: a room votes on what happens next (engine/votes.py). The handlers the namespace (sockets.py) mixes
in; the vote and its ballots live in the room store (engine/roomvotes.py), so every process counts the same.

Client -> server: the presenter's vote_offer {room, token} (answered with what it may offer), vote_open {room,
token, actions?: [step, ...]} (2 to 4 steps as a scenario writes them; none: those proposed, after which the
versions part soonest), vote_close {room, token} (the action most voted for is forked into the room's scenario
where the vote opened: every version plays it), vote_cancel {room, token}, vote_undo {room, token} (the room's
last fork by vote taken back: the scenario before it, at the fork point); a follower's vote_answer {room, voter?,
action: n} (one ballot per voter, changeable until the vote closes); after the talk, the presenter's summary_post
{room, token} (the room's summary kept, roomsummary.py).
Server -> client: vote_offer {room, position, actions: [{step, label, soon}], proposed: n} (the fork menu's
actions where the room stands, soonest to part the versions first, the first n proposed; to the presenter who
asked); vote {room, position, key, actions:
[{step, label}], open: true} when a vote opens (to the room; a joiner during a vote gets it, with yours: n if its
voter has voted), vote {room, position, open: false, counts, answered, winner, label} when it closes (then the
fork's scenario and state), vote {room, open: false, cancelled: true}; vote_tally {room, position, answered,
counts} (each ballot, to the presenter and the speaker view only); summary {room, href} (the posted summary's
address, to the presenter who posted it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from flask import current_app, request

from ..engine import votes
from ..engine.room import Room
from ..engine.roomvotes import RoomVotes
from ..engine.summary import raw_of
from ..engine.votes import Vote
from ..errors import Invalid, NotAllowed
from ..phrases import FORK_MARK, shown
from ..presenter.words import step_label
from ..scenario.errors import ScenarioError
from ..server.offload import apart
from . import roomsummary
from .connection import request_sid
from .fields import Fields, fields
from .find import budget_seconds
from .hub import Hub, Target

DRIVE = ("room", "token")
VOTE_PAYLOADS = {"vote_offer": DRIVE, "vote_open": ("actions", *DRIVE), "vote_close": DRIVE, "vote_cancel": DRIVE,
                 "vote_undo": DRIVE, "vote_answer": ("action", "voter", *DRIVE), "summary_post": DRIVE}


class VoteEvents:
    """The vote's handlers, mixed into the namespace (sockets.py ``Viewers``, which gives what is declared here)."""

    hub: Hub
    followers: dict[str, str]
    presented: Callable[[Fields], Room]  # the room a presenter's message drives, if its token may
    voter: Callable[[Fields], object]  # who this connection answers as

    @property
    def votes(self) -> RoomVotes:
        return cast(RoomVotes, current_app.extensions["inflight_votes"])

    def driven(self, payload: object, event: str) -> tuple[Room, Target]:
        """The standing room a presenter's ``event`` drives, and the target its moves act on."""
        given = fields(payload, event)
        self.standing(given)
        room = self.presented(given)
        return room, Target(room.session, room.channel, room)

    def standing(self, payload: Fields) -> str:
        """The room's code, if the room stands; a clear refusal if it has ended (or never was)."""
        code = payload.get("room")
        if not isinstance(code, str) or not self.hub.rooms.exists(code):
            raise NotAllowed(f"room {shown(code)} has ended (or never was): it takes no votes")
        return code.upper()

    def on_vote_offer(self, payload: object) -> None:
        """What the presenter may offer the room from where it stands: the fork menu's actions, soonest to part the
        versions first (``soon``: 0 at that step, 1 at the next, null not within those), to this connection only."""
        room, target = self.driven(payload, "vote_offer")
        with target.session.lock:
            here = target.session.require().position
            ranking = self.ranking(target)
        self.hub.send("vote_offer", {"room": target.code, "position": here, "proposed": len(votes.proposed(ranking)),
                                     "actions": [{"step": step, "label": step_label(step), "soon": soon}
                                                 for step, soon in ranking]},
                      request_sid(), True)

    def on_vote_open(self, payload: object) -> None:
        """The presenter asks the room what should happen next: the actions given, else those proposed."""
        room, target = self.driven(payload, "vote_open")
        session = target.session
        with session.lock:
            raw, here = raw_of(session.source), session.require().position
            given = fields(payload, "vote_open").get("actions")
            steps = self.checked_steps(votes.proposed(self.ranking(target)) if given is None else given)
            for i, step in enumerate(steps):
                try:
                    self.hub.resolve(votes.forked(raw, here, step, FORK_MARK))
                except ScenarioError as err:
                    raise Invalid(f"actions[{i}] cannot be played here: {err}") from None
            self.votes.open(room, steps, [step_label(step) for step in steps])
        self.send_vote(room)

    @staticmethod
    def ranking(target: Target) -> list[tuple[dict[str, Any], int | None]]:
        """What the fork menu offers where the room stands, soonest to part the versions first (votes.ranked,
        off the event loop within Find's time budget). Under the session's lock."""
        session = target.session
        sim, raw = session.require(), raw_of(session.source)
        offered = votes.offered((v["state"] for v in sim.frame()["variants"].values()), raw)
        return apart(votes.ranked, raw, sim.position, list(sim.variants), offered, budget_seconds(), pure=True,
                     search=True)

    @staticmethod
    def checked_steps(steps: object) -> list[dict[str, Any]]:
        if not isinstance(steps, list) or not all(isinstance(s, dict) and isinstance(s.get("op"), str)
                                                  for s in steps):
            raise Invalid(f"actions: expected a list of {votes.MIN_ACTIONS} to {votes.MAX_ACTIONS} steps like "
                          f"{{\"op\": \"pop\"}}, got {shown(steps)}")
        if not votes.MIN_ACTIONS <= len(steps) <= votes.MAX_ACTIONS:
            raise Invalid(f"actions: a vote offers {votes.MIN_ACTIONS} to {votes.MAX_ACTIONS} actions, "
                          f"got {len(steps)}")
        return steps

    def on_vote_answer(self, payload: object) -> None:
        """A follower's one tap: counted for the presenter, never driving."""
        given = fields(payload, "vote_answer")
        room = self.hub.rooms.find(self.standing(given))
        sid = request_sid()
        vote = self.votes.cast(room, sid, self.voter(given), given.get("action"), request.remote_addr,
                               signed=sid in self.followers
                               and self.hub.rooms.followers_per_address is not None)
        self.send_tally(room, vote)

    def on_vote_close(self, payload: object) -> None:
        """The presenter closes the vote: the winning action is forked into the room's scenario."""
        room, target = self.driven(payload, "vote_close")
        room, session = room, target.session
        with session.lock:
            vote, counts, won = self.votes.close(room)
            here, before = vote["position"], session.source
            raw = raw_of(before)
            action = vote["actions"][won]
            note = votes.fork_note(action["label"], counts, str(raw.get("name", "")), here)
            fork = votes.forked(raw, here, action["step"], note)
            self.hub.send("vote", {"room": room.code, "position": here, "open": False, "counts": counts,
                                   "answered": sum(counts), "winner": won, "label": action["label"]},
                          room.channel, False)
            self.load(target, fork, here + 1)
            self.votes.took(room, {"at": here, "before": before, "actions": [a["label"] for a in vote["actions"]],
                                   "counts": counts, "winner": won, "step": action["step"], "note": note})

    def on_vote_cancel(self, payload: object) -> None:
        room, target = self.driven(payload, "vote_cancel")
        self.votes.cancel(room)
        self.hub.send("vote", {"room": target.code, "open": False, "cancelled": True}, target.channel, False)

    def on_vote_undo(self, payload: object) -> None:
        """The presenter takes the room's last fork by vote back: its scenario before, at the fork point."""
        room, target = self.driven(payload, "vote_undo")
        with target.session.lock:
            turn = self.votes.undo(room)
            self.load(target, turn["before"], turn["at"])

    def on_summary_post(self, payload: object) -> None:
        """The presenter posts the room's summary (roomsummary.py): its address, to the presenter alone."""
        room, target = self.driven(payload, "summary_post")
        with target.session.lock:
            href = roomsummary.post(self.votes, room)
        self.hub.send("summary", {"room": target.code, "href": href}, request_sid(), True)

    def load(self, target: Target, source: Any, position: int) -> None:
        """Load ``source`` into the room at ``position``, for every version it shows. Under the session's lock."""
        session = target.session
        with self.hub.admitted(source):
            scenario, scenario_id = self.hub.resolve(source)
            session.load(scenario, list(session.require().variants), scenario_id, None, position)
        self.hub.publish(target, loaded=True)

    def send_vote(self, room: Room, sid: str | None = None, voter: str | None = None) -> None:
        """The room's open vote, to the room (through the queue) or to one connection here that joins it (with
        its voter's ballot; the tally too if it is the presenter's)."""
        vote = self.votes.open_here(room)
        if vote is None:
            return
        yours = self.votes.ballot_of(room, voter) if sid else None
        to, private = (sid, True) if sid else (room.channel, False)
        self.hub.send("vote", {"room": room.code, **vote, **({"yours": yours} if yours is not None else {})},
                      to, private)
        if sid is None or room.speaks(sid):
            self.send_tally(room, vote, sid)

    def send_tally(self, room: Room, vote: Vote, sid: str | None = None) -> None:
        counts = self.votes.counts(room, vote)
        self.hub.send("vote_tally", {"room": room.code, "position": vote["position"], "answered": sum(counts),
                                     "counts": counts}, sid or room.presenter_channel, sid is not None)
