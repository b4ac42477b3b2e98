"""Security headers on every response Flask serves: a Content-Security-Policy with no inline script or style,
plus nosniff, no referrer, same-origin framing and opener, and no powerful browser features.

Three kinds of response get their own policy:

* ``/embed`` is meant to be framed by any page: no ``frame-ancestors`` and no X-Frame-Options.
* The offline HTML download (``/export/<id>.html``, ``POST /export/html``) carries its renderer inline by
  design. Served, it is only ever saved to disk (``Content-Disposition: attachment``), so it gets a sandbox
  that would keep it from running anything in this origin; the file itself carries a ``<meta>`` policy that
  allows exactly its own inline script and style by hash (``webapp/export/offline.py``).
* A response that already has a policy (the exported SVG sets ``export.SVG_POLICY``) keeps it.

Nothing here reads the request body; it is one ``after_request`` hook, installed by ``init_security(app)``.
"""

from __future__ import annotations

from flask import request

PAGE_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
])
# No frame-ancestors at all: "frame-ancestors *" would still refuse hosts without a network scheme, such as
# slides opened from file:// or a sandboxed (opaque-origin) blog frame; Chromium says so and blocks them.
EMBED_POLICY = PAGE_POLICY.replace("; frame-ancestors 'self'", "")
# A download is saved, not shown; were a browser to show it anyway, it runs nothing and fetches nothing here.
DOWNLOAD_POLICY = "sandbox; default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

EMBED_ENDPOINTS = frozenset({"main.embed"})
DOWNLOAD_ENDPOINTS = frozenset({"export.builtin_html", "export.posted_html"})

PERMISSIONS_POLICY = ", ".join(f"{feature}=()" for feature in (
    "accelerometer", "autoplay", "camera", "display-capture", "encrypted-media", "geolocation", "gyroscope",
    "hid", "magnetometer", "microphone", "midi", "payment", "publickey-credentials-get", "screen-wake-lock",
    "serial", "usb", "xr-spatial-tracking",
))

COMMON_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
}


def policy_for(endpoint: str | None) -> str:
    if endpoint in EMBED_ENDPOINTS:
        return EMBED_POLICY
    if endpoint in DOWNLOAD_ENDPOINTS:
        return DOWNLOAD_POLICY
    return PAGE_POLICY


def add_security_headers(response):
    endpoint = request.endpoint
    for name, value in COMMON_HEADERS.items():
        response.headers.setdefault(name, value)
    response.headers.setdefault("Content-Security-Policy", policy_for(endpoint))
    if endpoint not in EMBED_ENDPOINTS:
        response.headers.setdefault("X-Frame-Options", "SAMEORIGIN")
    return response


def init_security(app) -> None:
    app.after_request(add_security_headers)
