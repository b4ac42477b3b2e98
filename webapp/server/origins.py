"""Which browser Origins may open a Socket.IO connection (``ALLOWED_ORIGINS``).

None (the default) means the page's own origin only; a list (or a comma-separated string) allows those as well;
"*" allows any. A connection whose Origin header is not allowed is refused (HTTP 400) before it has a session;
clients that send no Origin (not browsers) are not affected.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

Origins = str | list[str] | None  # "*" (any), the origins listed, or None (the page's own only)


def parse_origins(value: str | Iterable[str] | None) -> Origins:
    """None (the page's own origin only), "*" (any), or a list of origins like "https://slides.example"
    (a comma-separated string is split)."""
    if value is None or value == "*":
        return None if value is None else "*"
    if isinstance(value, str):
        value = value.split(",")
    origins = [origin.strip().rstrip("/") for origin in value if origin and origin.strip()]
    return "*" if "*" in origins else origins or None


class OriginCheck:
    """Engine.IO's ``cors_allowed_origins`` as a callable: the listed origins (none by default) *and* the page's
    own. Given even when nothing is listed, so that Engine.IO's own same-origin rule, which believes any
    X-Forwarded-Host and X-Forwarded-Proto a client sends, is never used."""

    def __init__(self, origins: Iterable[str] = ()) -> None:
        self.origins = frozenset(origins)

    def __call__(self, origin: str | None, environ: WSGIEnvironment) -> bool:
        return origin in self.origins or origin in own_origins(environ)

    def __repr__(self) -> str:
        return f"OriginCheck({sorted(self.origins)})"


def own_origins(environ: WSGIEnvironment) -> set[str]:
    """The page's own origin: the scheme and Host the request arrived with. Behind a proxy trusted by
    PROXY_COUNT, ProxyFix has already put the forwarded ones there (``hosts.py``); forwarded headers are never
    read here (a client could send any)."""
    if "wsgi.url_scheme" not in environ or "HTTP_HOST" not in environ:
        return set()
    return {f"{environ['wsgi.url_scheme']}://{environ['HTTP_HOST']}"}


def cors_allowed_origins(origins: Origins) -> str | OriginCheck:
    """Engine.IO's ``cors_allowed_origins`` for ALLOWED_ORIGINS (as ``parse_origins`` returns it)."""
    return origins if origins == "*" else OriginCheck(origins or ())
