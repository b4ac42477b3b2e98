"""Inflight Scope: create_app(config) builds the Flask app and its Socket.IO server."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DEFAULTS = {
    "ASYNC_MODE": "eventlet",  # or "threading" (eventlet is in maintenance mode)
    "DEFAULT_SCENARIO": "lost-marker",
    "MAX_UPLOAD_BYTES": 2 * 1024 * 1024,
    "MESSAGE_QUEUE": None,  # e.g. redis://127.0.0.1:6379/0: rooms shared by several processes
    "ROOM_IDLE_SECONDS": 4 * 3600,  # a room nobody drives or joins for this long is forgotten
}


def create_app(config: dict | None = None):
    from flask import Flask  # imported here so `serve` can monkey-patch for eventlet first

    app = Flask(__name__, static_folder=str(ROOT / "static"), template_folder=str(ROOT / "templates"))
    app.config.update(DEFAULTS)
    if os.environ.get("INFLIGHT_SCOPE_ASYNC_MODE"):
        app.config["ASYNC_MODE"] = os.environ["INFLIGHT_SCOPE_ASYNC_MODE"]
    if os.environ.get("INFLIGHT_SCOPE_MESSAGE_QUEUE"):
        app.config["MESSAGE_QUEUE"] = os.environ["INFLIGHT_SCOPE_MESSAGE_QUEUE"]
    app.config.update(config or {})
    app.config["MAX_CONTENT_LENGTH"] = app.config["MAX_UPLOAD_BYTES"]

    from .web import editor, export, routes, security, sockets

    app.register_blueprint(routes.bp)
    app.register_blueprint(export.bp)
    app.register_blueprint(editor.bp)
    security.init_security(app)
    sockets.init_socketio(app)
    return app
