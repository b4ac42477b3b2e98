"""The pages' stylesheet inside the page: a page that draws its first frame into its HTML (firstframe.py) carries
the bundled stylesheet (bundles.py ``pages.css``) in a <style> element, so the browser paints it from the HTML
alone, one round trip, instead of waiting for the stylesheet's own. Its policy allows exactly that element, by its
hash (security.py ``allowing_style``); nothing else inline runs or styles. Without a fresh build the page names
the stylesheets one by one, as every other page does.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from flask import Response, current_app, request
from markupsafe import Markup

from ..export.inline import inline, source_hash
from ..server.security import allowing_style, policy_for
from .bundles import CSS_OUTPUT


@dataclass(frozen=True)
class InlineStyle:
    text: Markup  # the <style> element's content
    source: str  # its CSP hash source


_kept: dict[str, InlineStyle] = {}  # static version -> the stylesheet of that build
_lock = threading.Lock()


def page_style() -> InlineStyle | None:
    """The bundled stylesheet to inline, when the build is fresh (read once per static version)."""
    version = current_app.extensions["asset_version"].current()
    if not current_app.extensions["asset_build"].current(version).css:
        return None
    with _lock:
        if version not in _kept:
            text = (Path(current_app.static_folder or "static") / CSS_OUTPUT).read_text(encoding="utf-8")
            _kept.clear()
            content = inline(text, "style")
            _kept[version] = InlineStyle(content, source_hash(content))
        return _kept[version]


def styled(page: Response, style: InlineStyle | None) -> Response:
    """``page`` with a policy that allows its inline ``style`` (None: the page policy as it is)."""
    if style is not None:
        page.headers["Content-Security-Policy"] = allowing_style(policy_for(request.endpoint), style.source)
    return page
