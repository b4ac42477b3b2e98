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
    # Hosts and proxies (webapp/web/hosts.py); INFLIGHT_SCOPE_ALLOWED_HOSTS / INFLIGHT_SCOPE_PROXY_COUNT.
    "ALLOWED_HOSTS": None,  # Host names answered: None = localhost and IP literals only; a list (".x.org": subdomains too), or "*"
    "PROXY_COUNT": 0,  # reverse proxies in front whose X-Forwarded-For/Proto/Host are believed (ProxyFix); 0 = none
    # Abuse limits (webapp/web/limits.py); each can be set as INFLIGHT_SCOPE_<KEY> in the environment.
    "ALLOWED_ORIGINS": None,  # browser Origins allowed to open Socket.IO: None = the page's own only; a list, or "*"
    "MAX_MESSAGE_BYTES": 1024 * 1024,  # a larger Socket.IO message closes the connection
    "MAX_SESSION_BYTES": 32 * 1024 * 1024,  # memory one simulation may hold: source, checkpoints, live state; 0 = no bound
    "MAX_TRACE_ENTRIES": 250_000,  # list entries a whole trace (/api/replay, /api/trace) may hold, per variant
    # Loads, dry runs and exports run off the event loop (webapp/web/offload.py), one at a time: they are CPU-bound
    # and share the GIL with the hub, so a second one at once starves the other viewers (bench/abuse.py: an honest
    # viewer's step p99 654 ms with 2 while validations pile up, 93 ms with 1, and more of the heavy work done).
    "MAX_LOADS_AT_ONCE": 1,
    "MAX_LOADS_WAITING": 16,  # more of them may wait; beyond that one is refused at once ("busy")
    "MAX_SEARCHES_AT_ONCE": 1,  # POST /api/find: searches run in a lane of their own, never ahead of loads
    "MAX_SEARCHES_WAITING": 2,
    "RATE_LIMIT_PER_SECOND": 30,  # Socket.IO messages per connection (token bucket); 0 = no limit
    "RATE_LIMIT_BURST": 60,  # messages a connection may send at once before the rate applies
    "MAX_ROOMS_PER_CONNECTION": 10,  # create_room calls one connection may make (each room can hold a simulation)
    "MAX_ROOMS_PER_ADDRESS": 20,  # rooms one client address may have open in a process at once; 0 = no bound
    "MAX_ROOMS": 200,  # rooms one process may hold at once (made here or followed here); 0 = no bound
    "ROOM_EMPTY_GRACE_SECONDS": 60,  # a room with nobody in it (paused at once) is forgotten after this long
    "SESSION_IDLE_SECONDS": 1800,  # a connection nobody drives for this long loses its simulation (load again)
    "SWEEP_SECONDS": 60,  # how often idle sessions and rooms are looked for
}


def create_app(config: dict | None = None):
    from flask import Flask  # imported here so `serve` can monkey-patch for eventlet first

    app = Flask(__name__, static_folder=str(ROOT / "static"), template_folder=str(ROOT / "templates"))
    app.config.update(DEFAULTS)
    if os.environ.get("INFLIGHT_SCOPE_ASYNC_MODE"):
        app.config["ASYNC_MODE"] = os.environ["INFLIGHT_SCOPE_ASYNC_MODE"]
    if os.environ.get("INFLIGHT_SCOPE_MESSAGE_QUEUE"):
        app.config["MESSAGE_QUEUE"] = os.environ["INFLIGHT_SCOPE_MESSAGE_QUEUE"]
    from .web import (answers, assets, bodies, challenges, compress, editor, export, find, hosts, limits, offload, plugins,
                      preload, routes, security, sockets, versions)

    limits.read_environment(app.config)
    hosts.read_environment(app.config)
    app.config.update(config or {})
    app.config["MAX_CONTENT_LENGTH"] = app.config["MAX_UPLOAD_BYTES"]

    app.register_blueprint(routes.bp)
    app.register_blueprint(export.bp)
    app.register_blueprint(editor.bp)
    app.register_blueprint(versions.bp)
    app.register_blueprint(plugins.bp)
    app.register_blueprint(find.bp)  # /api/operations, /api/find
    app.register_blueprint(challenges.bp)  # /api/challenges
    answers.init_answers(app)
    assets.init_assets(app)  # /static/v/<version>/...: the pages' files, kept by browsers for good
    preload.init_preload(app)  # <link rel="modulepreload"> for every module a page runs
    compress.init_compress(app)  # pages gzipped for browsers that accept it
    bodies.init_bodies(app)  # chunked bodies under eventlet
    offload.init_offload(app)
    sockets.init_socketio(app)
    hosts.init_hosts(app)  # around Socket.IO's middleware: ProxyFix, then the Host check
    security.init_security(app)  # last: its middleware is the outermost, so every answer carries the headers
    return app


def server_options(mode: str) -> dict:
    """What ``serve`` passes to the server so that its own error answers (before the app) carry the security
    headers too (``webapp/web/security.py``)."""
    from .web.security import server_options as options

    return options(mode)
