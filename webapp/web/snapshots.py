"""A session and the room it drives, read as the delivery protocol's ``Snapshot`` (plain values and the readers
of its frames): what the transport hands delivery/protocol.py, which knows no engine."""

from __future__ import annotations

from ..delivery.snapshot import RoomSide, Snapshot
from ..engine.room import Room
from ..engine.session import Session


def snapshot_of(session: Session, room: Room | None, channel: str = "") -> Snapshot | None:
    """What ``session`` shows on ``channel`` (a room's, if ``room``); None when nothing is loaded. A room's
    autoplay as its record says (it may run on another process), a connection's own as its session does."""
    sim = session.sim
    if sim is None:
        return None
    side = RoomSide(room.code, room.seen, room.presenter_channel, room.audience_channel) if room else None
    return Snapshot(channel=channel, load_id=session.load_id, scenario_id=session.scenario_id, serial=session.serial,
                    live_bytes=sim.live_bytes, variants=tuple(sim.variants), position=sim.position,
                    playing=room.playing if room is not None else session.playing, speed=session.speed,
                    range=session.range, room=side, frame=sim.frame, frame_at=sim.frame_at, preview=sim.preview)
