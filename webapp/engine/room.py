"""One room as a process holds it: its code and token, its session, who is in it here, and its channels."""

from __future__ import annotations

import time
from typing import TypedDict

from .roomstore import RoomRecord
from .session import Session


class Withdrawn(TypedDict):
    """A poll the presenter withdrew, or that the room left unrevealed."""

    position: int
    open: bool
    cancelled: bool


def channels_of(code: str) -> tuple[str, str, str]:
    """Room ``code``'s Socket.IO channels: everyone's, the presenter's, the followers'."""
    return f"room:{code}", f"room:{code}:presenter", f"room:{code}:audience"


class Room:
    def __init__(self, record: RoomRecord, session: Session):
        self.code = record["code"]
        self.token = record["token"]  # HMAC(secret, code): 256 bits, compared in constant time
        # Which incarnation of the room this is: a room re-created under the same code (its record lost, e.g.
        # Redis restarted empty) gets a new epoch, and counts its versions from 0 again.
        self.epoch = record["epoch"]
        self.session = session
        self.version = -1  # the store version this session reflects
        self.owner: str | None = None  # the client address that created it here (MAX_ROOMS_PER_ADDRESS)
        self.members: set[str] = set()  # connections of this process in the room (presenter and followers)
        self.voters: dict[str, str] = {}  # connection -> the voter id it answers the room's polls as, while it lives
        # Whether the room plays, as its record says (the one truth on every process): the process whose autoplay
        # runs it records each tick and its stop; a copy elsewhere only reads it.
        self.playing = record["playing"]
        self.empty_since: float | None = None  # when this process last saw it with no member here
        self.presenters: set[str] = set()  # connections of this process that created, claimed or drove it
        self.speakers: set[str] = set()  # the presenter's speaker views here (joined with its token, not members)
        self.presenter_left: float | None = None  # when the last of them left (None: one is here, or none was)
        self.driven = time.monotonic()  # when it was last driven or moved (here, or seen moved in the store)

    @property
    def seen(self) -> tuple[str | None, int]:
        """What this copy shows, comparable across re-creations: (epoch, version)."""
        return self.epoch, self.version

    @property
    def channel(self) -> str:
        """Where what everyone following the room sees goes (its scenario, polls, blank screens)."""
        return channels_of(self.code)[0]

    @property
    def presenter_channel(self) -> str:
        """Where what only the presenter sees goes: its scenes whole, a poll's answers as they come in (the
        presenter's connections and speaker views)."""
        return channels_of(self.code)[1]

    @property
    def audience_channel(self) -> str:
        """Where the room's scenes go as its followers see them (``presenter.for_audience``)."""
        return channels_of(self.code)[2]

    def speaks(self, sid: str) -> bool:
        """Whether connection ``sid`` here is the presenter's (drives the room, or is its speaker view)."""
        return sid in self.presenters or sid in self.speakers
