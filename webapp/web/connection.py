"""The connection a Socket.IO event came on: the one reader of Flask-SocketIO's ``sid`` on Flask's request."""

from __future__ import annotations

from flask import request


def request_sid() -> str:
    """The Socket.IO session id of the connection whose event (or connect, or disconnect) is being handled.

    Flask-SocketIO sets it as the attribute ``sid`` on Flask's request object for each event it dispatches (its
    documented ``request.sid``); Flask's ``Request`` type does not declare it, so it is read here by name, and
    checked: outside a Socket.IO handler there is none (a RuntimeError, a bug: no client input reaches it)."""
    sid = getattr(request, "sid", None)
    if not isinstance(sid, str):
        raise RuntimeError("no Socket.IO event is being handled: the request carries no sid")
    return sid
