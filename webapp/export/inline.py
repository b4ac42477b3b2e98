"""Text inside a page's own <style> or <script> element: checked that it stays inside, and its CSP hash source (the
offline file's, offline.py, and the page's inlined stylesheet, web/inline_style.py)."""

from __future__ import annotations

import base64
import hashlib

from markupsafe import Markup


def inline(text: str, element: str) -> Markup:
    """Raw text for a <style> or <script> element; refuses text that would end the element early."""
    if f"</{element}" in text.lower() or "<!--" in text:
        raise ValueError(f"cannot inline text containing '</{element}' or '<!--' in a <{element}> element")
    return Markup(text.replace("\r\n", "\n").replace("\r", "\n"))  # as the HTML parser sees it: hashed so


def source_hash(text: str) -> str:
    """A CSP hash source for an inline element whose content is exactly ``text``."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"
