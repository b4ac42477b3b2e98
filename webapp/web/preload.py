"""Every ES module a page will run, named in its <head> as ``<link rel="modulepreload">``.

Without it the browser finds the module graph one import level per round trip (five levels under app.js: about
250 ms on loopback, several times that over a venue's Wi-Fi or a phone's network); with it every module is
requested at once, with the page. A template lists its entry modules once (``{% set modules = [...] %}``);
base.html turns them into the preloads and the ``<script type="module">`` tags.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from flask import Flask, current_app

# `import {...} from "./x.js"`, `import "./x.js"`, `export {...} from "./x.js"`: a relative static import
RELATIVE = re.compile(r"""^\s*(?:import\s*(?:[^'"]*?\bfrom\s*)?|export\b[^'"]*?\bfrom\s*)(["'])(\.{1,2}/[^"']+)\1""",
                      re.MULTILINE)


@lru_cache(maxsize=32)
def module_graph(static: Path, entries: tuple[str, ...]) -> tuple[str, ...]:
    """The static paths (``js/x.js``) of the modules the entries import, directly or not, each once, in the
    order they are first reached; the entries themselves are not included (their script tags fetch them)."""
    seen: dict[str, None] = {}
    pending = list(entries)
    while pending:
        key = pending.pop(0)
        source = (static / key).read_text(encoding="utf-8")
        for match in RELATIVE.finditer(source):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(key), match.group(2)))
            if target not in seen and target not in entries:
                seen[target] = None
                pending.append(target)
    return tuple(seen)


def preloads(entries: Iterable[str]) -> tuple[str, ...]:
    return module_graph(static_folder(current_app), tuple(entries))


def static_folder(app: Flask) -> Path:
    """The app's static folder (create_app gives it one)."""
    if app.static_folder is None:
        raise RuntimeError("the app has no static folder")
    return Path(app.static_folder)


def init_preload(app: Flask) -> None:
    app.jinja_env.globals["preloads"] = preloads
