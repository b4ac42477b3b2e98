"""What a page loads: one stylesheet and two module files when static/bundle holds a fresh build, else the files
one by one.

The pages' stylesheets are STYLESHEETS (the tokens', then export/stylesheets.py's; base.html names them
through ``page_files``); each entry-module set a page runs that is bundled is listed once, in SCRIPTS. ``make bundle``
(tools/bundle.py, esbuild) writes static/bundle: ``pages.css`` (the stylesheets minified into one,
the tokens' stylesheet first), the connection's module (connection.js with the vendored Socket.IO client), one
minified ES module per entry set (its whole graph but the connection) and ``manifest.json``, the digest of every
file each output was made from. The build is committed, so a machine with Python alone serves it. A page uses an
output only while every input it was made from is unchanged (looked at once per static version): after a module
is edited the page loads its modules one by one again, with a preload for each (preload.py), until the build is
made again; tests/web/test_bundle.py keeps the committed build fresh. The outputs live under the versioned
address (assets.py): a new build is a new address, kept by browsers for good like every file there.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, current_app

from ..export import stylesheets
from .assets import TOKENS_CSS, asset, tokens_css_bytes
from .preload import preloads, static_folder

BUILD = "bundle"  # under the static folder
MANIFEST = f"{BUILD}/manifest.json"
CSS_OUTPUT = f"{BUILD}/pages.css"

# Every page's stylesheets, in cascade order (pages add their own after them: editor.html): the tokens' first, then
# those export/stylesheets.py lists for the pages. The next `make bundle` folds a new one in.
STYLESHEETS = (
    TOKENS_CSS,  # made from static/js/tokens.js (assets.tokens_css)
    *stylesheets.PAGES,
)

# The entry-module sets bundled (a page's `{% set modules = [...] %}`) -> the output's path.
SCRIPTS = {
    ("js/app.js", "js/catalogue-view.js"): f"{BUILD}/viewer.js",  # index.html
    ("js/app.js",): f"{BUILD}/app.js",  # embed.html, present.html
    ("js/app.js", "js/story.js"): f"{BUILD}/story.js",  # embed.html in story mode
}
# The tab's Socket.IO connection (with the client library) is bundled alone and named first: its module opens the
# socket as it runs, so the websocket's round trips overlap the download of the rest. The outputs above import it
# as "./connection.js", the same module.
CONNECTION = "js/connection.js"
CONNECTION_OUTPUT = f"{BUILD}/connection.js"

log = logging.getLogger(__name__)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def input_bytes(static: Path, path: str) -> bytes | None:
    """The bytes a build reads for input ``path`` (None: no such file)."""
    if path == TOKENS_CSS:
        return tokens_css_bytes()[0]
    file = static / path
    return file.read_bytes() if file.is_file() else None


def stale_inputs(static: Path, manifest: dict[str, Any], output: str, inputs: list[str] | None = None) -> list[str]:
    """What changed since ``output`` was built: its inputs whose content differs (or that are gone), or
    ``output`` itself when the manifest has no such output or its input list is not ``inputs``."""
    made = manifest.get("outputs", {}).get(output)
    if not made or not (static / output).is_file():
        return [output]
    if inputs is not None and list(made["inputs"]) != list(inputs):
        return [output]
    changed = []
    for path, expected in made["inputs"].items():
        data = input_bytes(static, path)
        if data is None or digest(data) != expected:
            changed.append(path)
    return changed


@dataclass(frozen=True)
class Fresh:
    """The outputs of static/bundle that a page may use at one static version."""
    css: bool
    scripts: frozenset[str]


class Build:
    """Which outputs of static/bundle are fresh, worked out once per static version."""

    def __init__(self, static: Path):
        self.static = static
        self.lock = threading.Lock()
        self.version = ""
        self.fresh = Fresh(False, frozenset())

    def current(self, version: str) -> Fresh:
        with self.lock:
            if version != self.version:
                self.version, self.fresh = version, self.check()
            return self.fresh

    def check(self) -> Fresh:
        try:
            manifest = json.loads((self.static / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            manifest = {}
        stale = {CSS_OUTPUT: stale_inputs(self.static, manifest, CSS_OUTPUT, list(STYLESHEETS))}
        stale |= {output: stale_inputs(self.static, manifest, output)
                  for output in (CONNECTION_OUTPUT, *SCRIPTS.values())}
        for output, changed in stale.items():
            if changed:
                log.warning("%s is older than %s: the pages load those files one by one until `make bundle` "
                            "builds it again", output, ", ".join(changed[:5]))
        scripts = frozenset(o for o in SCRIPTS.values() if not stale[o] and not stale[CONNECTION_OUTPUT])
        return Fresh(not stale[CSS_OUTPUT], scripts)


@dataclass(frozen=True)
class PageFiles:
    stylesheets: tuple[str, ...]  # addresses, in order
    preloads: tuple[str, ...]  # modules named for <link rel="modulepreload">
    scripts: tuple[str, ...]  # <script type="module"> sources


def page_files(entries: Iterable[str] = ()) -> PageFiles:
    """The addresses a page with entry modules ``entries`` names: the build's outputs when fresh, else each file
    (and a preload for every module its entries import)."""
    entry_files = tuple(entries)
    fresh = current_app.extensions["asset_build"].current(current_app.extensions["asset_version"].current())
    stylesheets = (CSS_OUTPUT,) if fresh.css else STYLESHEETS
    output = SCRIPTS.get(entry_files)
    if output is not None and output in fresh.scripts:
        return PageFiles(tuple(map(asset, stylesheets)), (), (asset(CONNECTION_OUTPUT), asset(output)))
    return PageFiles(tuple(map(asset, stylesheets)), tuple(map(asset, preloads(entry_files))),
                     tuple(map(asset, entry_files)))


def init_bundles(app: Flask) -> None:
    app.extensions["asset_build"] = Build(static_folder(app))
    app.jinja_env.globals["page_files"] = page_files
