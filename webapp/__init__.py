"""Inflight Scope: create_app(config) builds the Flask app and its Socket.IO server."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from .server.settings import Settings

if TYPE_CHECKING:
    from flask import Flask

ROOT = Path(__file__).resolve().parent.parent


def _version() -> str:
    """The app's version, stated once in pyproject.toml: read there in a source tree, else from the installed
    package's metadata."""
    import tomllib
    from importlib import metadata

    source = ROOT / "pyproject.toml"
    if source.is_file():
        return str(tomllib.loads(source.read_text(encoding="utf-8"))["project"]["version"])
    return metadata.version("inflight-scope")


__version__ = _version()

# The defaults of every setting by its config key (server/settings.py owns them).
DEFAULTS = Settings().as_config()


def create_app(config: Mapping[str, object] | None = None) -> Flask:
    """The app, its settings read once (``server/settings.py``: the defaults, ``INFLIGHT_SCOPE_*`` variables, then
    ``config``'s keys; any other key of ``config`` is Flask's)."""
    from flask import Flask  # imported here so `serve` can monkey-patch for eventlet first

    from .server import hosts, listeners, offload, security
    from .server.settings import read_settings
    from .web import (
        answers,
        assets,
        bodies,
        bundles,
        challenges,
        compress,
        editor,
        export,
        find,
        plugins,
        preload,
        remote,
        report,
        roomsummary,
        routes,
        sockets,
        sources,
        story,
        versions,
    )

    app = Flask(__name__, static_folder=str(ROOT / "static"), template_folder=str(ROOT / "templates"))
    settings = app.extensions["inflight_settings"] = read_settings(config)
    app.config.update(config or {})  # Flask's own keys (TESTING, ...)
    app.config.update(settings.as_config())  # a view of the settings, for Flask and tests; code reads the settings
    app.config["MAX_CONTENT_LENGTH"] = settings.max_upload_bytes

    app.register_blueprint(routes.bp)
    app.register_blueprint(export.bp)
    app.register_blueprint(editor.bp)
    app.register_blueprint(versions.bp)
    app.register_blueprint(plugins.bp)
    app.register_blueprint(find.bp)  # /api/operations, /api/find
    app.register_blueprint(challenges.bp)  # /api/challenges
    app.register_blueprint(report.bp)  # /report
    app.register_blueprint(remote.bp)  # /remote/CODE, /api/rooms/CODE/remote
    app.register_blueprint(roomsummary.bp)  # /room/summary
    app.register_blueprint(sources.bp)  # /api/sources/<version>
    story.init_story(app)  # the embed's story mode, /scrollytelling
    answers.init_answers(app)
    assets.init_assets(app)  # /static/v/<version>/...: the pages' files, kept by browsers for good
    preload.init_preload(app)  # <link rel="modulepreload"> for every module a page runs
    bundles.init_bundles(app)  # a page's one stylesheet and one module file, from static/bundle while fresh
    compress.init_compress(app)  # pages gzipped for browsers that accept it
    bodies.init_bodies(app)  # chunked bodies under eventlet
    offload.init_offload(app, settings)
    sockets.init_socketio(app, settings)
    listeners.init_serving(app, settings)  # connection activity, the HTTP rate limit (armed by serve)
    hosts.init_hosts(app, settings)  # around Socket.IO's middleware: ProxyFix, then the Host check
    security.init_security(app)  # last: its middleware is the outermost, so every answer carries the headers
    return app


def server_options(mode: str) -> dict[str, type]:
    """What ``serve`` passes to the server so that its own error answers (before the app) carry the security
    headers too (``webapp/server/security.py``)."""
    from .server.security import server_options as options

    return options(mode)
