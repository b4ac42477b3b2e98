"""The static files under an address that names their version, kept by browsers for good.

A page names its stylesheets and modules as ``/static/v/<version>/<path>`` (the ``asset`` template global). The
version is a digest of the whole static tree's content, so a changed file comes with a new address and an
unchanged one is never asked for again: a page opened a second time (a reload mid-talk, an audience phone, a
new tab) costs the server none of its some fifty files and the browser no round trips. A module's relative
imports resolve inside the same version, so the whole module graph is covered. An address with another
version (a page from before an upgrade) is still answered, with the current file, but not kept. ``/static/<path>``
stays as Flask serves it (asked again each time), for anything that names a file directly.

A browser that accepts gzip gets the text files (modules, stylesheets) gzipped, each compressed once per version
(``Gzipped``): a first visit over a venue's Wi-Fi or a phone's network moves about two fifths of the bytes.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import mimetypes
import os
import threading
import time
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, request, send_from_directory, url_for
from werkzeug.security import safe_join

from ..export import tokens
from .preload import static_folder

KEPT_SECONDS = 365 * 24 * 3600  # what `immutable` means to a browser: no revalidation while it is kept
CHECK_SECONDS = 1.0  # how stale the version may be after a file changes under a running server
TOKENS_CSS = "css/tokens.css"  # the design tokens' stylesheet (no file: tokens_css)
COMPRESSED = frozenset({".js", ".css", ".svg", ".json", ".txt", ".html", ".map"})  # text: gzip pays

bp = Blueprint("assets", __name__)


class Version:
    """The static tree's version: a digest of its files' content, read again only when a file's size or
    modification time changed (looked at no more than once per ``check_seconds``)."""

    def __init__(self, root: Path, check_seconds: float = CHECK_SECONDS):
        self.root, self.check_seconds = root, check_seconds
        self.lock = threading.Lock()
        self.checked = float("-inf")
        self.signature: tuple[tuple[str, int, int], ...] = ()
        self.digest = ""

    def files(self) -> list[Path]:
        return sorted(Path(folder, name) for folder, _, names in os.walk(self.root) for name in names)

    def current(self) -> str:
        with self.lock:
            if time.monotonic() - self.checked >= self.check_seconds:
                self.checked = time.monotonic()
                files = self.files()
                signature = tuple((str(p.relative_to(self.root)), *self.size_and_time(p)) for p in files)
                if signature != self.signature:
                    self.signature, self.digest = signature, self.content_digest(files)
            return self.digest

    @staticmethod
    def size_and_time(path: Path) -> tuple[int, int]:
        stat = path.stat()
        return stat.st_size, stat.st_mtime_ns

    def content_digest(self, files: list[Path]) -> str:
        digest = hashlib.sha256()
        for path in files:
            digest.update(path.relative_to(self.root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
        return digest.hexdigest()[:12]


class Gzipped:
    """The gzip form of the current version's text files, each made once (dropped when the version changes);
    None for a file gzip does not make smaller or that is not text."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.version = ""
        self.made: dict[str, bytes | None] = {}

    def get(self, version: str, path: str) -> bytes | None:
        if os.path.splitext(path)[1] not in COMPRESSED:
            return None
        with self.lock:
            if version != self.version:
                self.version, self.made = version, {}
            if path in self.made:
                return self.made[path]
        with open(path, "rb") as file:
            data = file.read()
        compressed = gzip.compress(data, compresslevel=9, mtime=0)
        packed = compressed if len(compressed) < len(data) else None
        with self.lock:
            if version == self.version:
                self.made[path] = packed
        return packed


@bp.get("/static/v/<version>/<path:filename>")
def versioned(version: str, filename: str) -> Response:
    current = current_app.extensions["asset_version"].current()
    static = static_folder(current_app)
    if version != current:
        return send_from_directory(static, filename)  # the current file, not kept
    path = safe_join(str(static), filename)
    packed = None
    if path and os.path.isfile(path) and request.accept_encodings["gzip"]:
        packed = current_app.extensions["asset_gzipped"].get(current, path)
    if packed is None:
        response = send_from_directory(static, filename)
    else:
        response = current_app.response_class(packed, mimetype=mimetypes.guess_type(filename)[0])
        response.content_encoding = "gzip"
    response.vary.add("Accept-Encoding")
    return kept(response)


@functools.cache
def tokens_css_bytes() -> tuple[bytes, bytes]:
    """The tokens' stylesheet and its gzip, made once: the tokens are read when the app starts."""
    text = tokens.css().encode()
    return text, gzip.compress(text, compresslevel=9, mtime=0)


@bp.get(f"/static/v/<version>/{TOKENS_CSS}")
def tokens_css(version: str) -> Response:
    """The design tokens' stylesheet: no file, made from static/js/tokens.js (export/tokens.py css), whose content
    the version covers; gzipped and kept as the files are."""
    text, gzipped = tokens_css_bytes()
    packed = gzipped if request.accept_encodings["gzip"] else None
    response = current_app.response_class(packed or text, mimetype="text/css")
    if packed:
        response.content_encoding = "gzip"
    response.vary.add("Accept-Encoding")
    if version == current_app.extensions["asset_version"].current():
        return kept(response)
    response.cache_control.no_cache = True
    return response


def kept(response: Response) -> Response:
    """``response`` kept by browsers for good (its address names the version)."""
    response.cache_control.no_cache = None
    response.cache_control.public = True
    response.cache_control.max_age = KEPT_SECONDS
    response.cache_control.immutable = True
    return response


def asset(path: str) -> str:
    """The versioned address of static file ``path`` (``js/app.js``)."""
    return url_for("assets.versioned", version=current_app.extensions["asset_version"].current(), filename=path)


def init_assets(app: Flask) -> None:
    app.extensions["asset_version"] = Version(static_folder(app))
    app.extensions["asset_gzipped"] = Gzipped()
    app.register_blueprint(bp)
    app.jinja_env.globals["asset"] = asset
