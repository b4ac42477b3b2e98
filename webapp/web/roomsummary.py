"""A room's summary after the talk (engine/summary.py), posted by its presenter (the socket event summary_post,
votes.py) and kept in the room store for summary.KEEP_HOURS under a key no one can guess, so any process serves
its page:

    GET /room/summary/<key>   the scenario, the forks the room voted (what was offered, how it voted), each
                              prediction poll's answers against where the pod went, a link opening the run at each
                              point; no token, no voter

A summary no longer kept is NotFound (404), in words.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, current_app, render_template, url_for

from ..engine.room import Room
from ..engine.roomvotes import RoomVotes
from ..engine.summary import KEEP_HOURS, summary
from ..errors import NotFound
from ..server.offload import apart
from .report import MAX_ADDRESS, inline

bp = Blueprint("roomsummary", __name__)


def post(votes: RoomVotes, room: Room) -> str:
    """Keep ``room``'s summary; the address of its page."""
    room.session.require()
    page = apart(summary, room.session.source, votes.path(room), votes.polls(room), pure=True)
    until = datetime.now(UTC).timestamp() + KEEP_HOURS * 3600
    key = secrets.token_urlsafe(16)
    votes.keep_summary(key, {**page, "until": until}, KEEP_HOURS * 3600)
    return url_for("roomsummary.page", key=key)


def opening(point: dict[str, Any]) -> str | None:
    """The viewer's address opening ``point`` ({source, position}); None where the scenario is too long for one."""
    source, position = point["source"], point["position"]
    if isinstance(source, str):
        return url_for("main.index", scenario=source, position=position)
    href = url_for("main.index", inline=inline(source), position=position)
    return href if len(href) <= MAX_ADDRESS else None


@bp.get("/room/summary/<key>")
def page(key: str) -> str:
    kept = current_app.extensions["inflight_votes"].summary(key) if len(key) < 64 else None
    if kept is None:
        raise NotFound(f"this room summary is no longer kept: a summary is kept {KEEP_HOURS} hours after its "
                       "presenter posted it")
    until = datetime.fromtimestamp(kept["until"], UTC).strftime("%Y-%m-%d %H:%M UTC")
    return render_template("room_summary.html", s=kept, until=until, keep_hours=KEEP_HOURS, opening=opening)
