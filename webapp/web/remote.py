"""The speaker's phone as a clicker (engine/remote.py): the remote's page, ``GET /remote/CODE`` (its token in the
URL fragment, never sent here: the page hands it over its socket), and the presenter's requests for the link,
each with the presenter token in a JSON body {token}: ``POST /api/rooms/CODE/remote`` answers {link, qr} (the
link on the first address an audience can open, ``/api/audience``, and its QR code as SVG, made here and shown only
on the presenter's screen), ``POST /api/rooms/CODE/remote/revoke`` answers {revoked: true} and tells the room's
remotes (``remote`` {room, revoked: true} on the presenter's channel). A remote token cannot ask for either.

The remote drives with the events every presenter sends ({room, token} with its remote token: step, back, blank,
poll_open, poll_reveal, poll_cancel) and follows the room as the speaker view does (join_room {speaker: true}).
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from ..engine.remote import is_remote
from ..engine.room import Room
from ..errors import Invalid, NotAllowed
from ..server.offload import apart
from ..server.settings import settings_of
from .audience import audience, qr_svg
from .bodies import json_body
from .held import hub_of, rooms_of
from .routes import ROOM_PATTERN

bp = Blueprint("remote", __name__)
DOING = "make or revoke its phone remote"


@bp.get("/remote/<code>")
def remote_page(code: str) -> str:
    """The phone's remote of room CODE; it says itself what is wrong with its link (no token, a code no room's)."""
    code = code.upper()
    return render_template("remote.html", room=code if ROOM_PATTERN.fullmatch(code) else "")


def _presenters_room(code: str) -> Room:
    """Room ``code``, if the body's token is its presenter token (never a remote token)."""
    body = json_body("{token}: the room's presenter token")
    token = body.get("token") if isinstance(body, dict) else None
    if not isinstance(body, dict) or set(body) - {"token"}:
        raise Invalid("expected {\"token\": the room's presenter token} as JSON in the request body")
    if is_remote(token):
        raise NotAllowed(f"a remote link cannot make or revoke the phone remote of room {code.upper()}: only the "
                         "presenter's screen can")
    return rooms_of(current_app).authorize(code, token, DOING)


@bp.post("/api/rooms/<code>/remote")
def remote_link(code: str) -> Response:
    room = _presenters_room(code)
    token = rooms_of(current_app).remotes.issue(room)
    base = audience(request.scheme, request.host, settings_of(current_app).listen)["urls"][0]
    link = f"{base}/remote/{room.code}#{token}"
    answer = jsonify({"link": link, "qr": apart(qr_svg, link, pure=True, small=True)})
    answer.headers["Cache-Control"] = "no-store"
    return answer


@bp.post("/api/rooms/<code>/remote/revoke")
def remote_revoke(code: str) -> Response:
    room = _presenters_room(code)
    rooms_of(current_app).remotes.revoke(room)
    hub_of(current_app).send("remote", {"room": room.code, "revoked": True},
                                                room.presenter_channel, False)
    return jsonify({"revoked": True})
