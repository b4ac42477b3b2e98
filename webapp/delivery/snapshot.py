"""What a channel's session shows now, as plain values: the one thing the delivery protocol reads of a session
(the transport takes it from the engine's session and room; nothing here moves a cursor)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

RoomVersion = tuple[str | None, int]  # a room's (epoch, record version): comparable across re-creations
Frame = Callable[[], Mapping[str, Any]]


@dataclass(frozen=True)
class RoomSide:
    """The room a channel shows, if any: its code, the version of its record this process shows, and the channels
    its scenes go to (whole to its presenter's, ``for_audience`` to its followers')."""

    code: str
    seen: RoomVersion
    presenter_channel: str
    audience_channel: str


@dataclass(frozen=True)
class Snapshot:
    """A loaded session on its channel (a connection's own, or a room's), as it stands."""

    channel: str
    load_id: str | None  # the id of its load: every message about it carries it ("key")
    scenario_id: str | None  # a built-in's id (its messages are shared by every viewer), None for an upload
    serial: int  # the load's serial in this process (names an upload's messages)
    live_bytes: int  # the live part of the simulation (an upload's messages are kept only while it is small)
    variants: tuple[str, ...]
    position: int
    playing: bool  # a room's as its record says, a connection's own as its session does
    speed: float
    range: tuple[int, int]
    room: RoomSide | None
    frame: Frame  # everything true at the cursor
    frame_at: Callable[[int], Mapping[str, Any]]  # everything true at another position, built now
    preview: Callable[[], Mapping[str, Any] | None]  # what the next step does (a room's presenter is told)
