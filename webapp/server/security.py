"""Security headers on every response Flask serves: a Content-Security-Policy with no inline script and no inline
style but a page's own stylesheet, allowed by its hash (``allowing_style``), plus nosniff, no referrer,
same-origin framing and opener, and no powerful browser features.

Three kinds of response get their own policy:

* ``/embed`` is meant to be framed by any page: no ``frame-ancestors`` and no X-Frame-Options.
* The offline HTML download (``/export/<id>.html``, ``POST /export/html``) carries its renderer inline by
  design. Served, it is only ever saved to disk (``Content-Disposition: attachment``), so it gets a sandbox
  that would keep it from running anything in this origin; the file itself carries a ``<meta>`` policy that
  allows exactly its own inline script and style by hash (``webapp/export/offline.py``).
* A response that already has a policy (the exported SVG sets ``export.SVG_POLICY``) keeps it.

Every response, not only Flask's, gets the headers (``PAGE_POLICY`` unless Flask chose another):

* Flask's responses: the ``after_request`` hook (it knows the endpoint) sets them and records the endpoint in
  the WSGI environ;
* everything else the app answers, whatever it is: Engine.IO's polling responses and its 400s (a refused
  Origin), the 400 of a disallowed Host (``hosts.py``), a 500 of a middleware that raised: ``SecurityHeaders``,
  the outermost WSGI middleware, adds those still missing to every ``start_response``;
* what the server itself answers before the app is called (a request line too long: 414; a header line too
  long or too many headers: 400 / 431; a malformed request line or Content-Length: 400): ``server_options(mode)``
  gives ``serve`` a request handler for eventlet.wsgi (``protocol``) or Werkzeug's server (``request_handler``)
  that writes the headers into those answers too. gunicorn's own error answers (``Procfile``) are not covered:
  they are written by its worker, before any app code (docs/deployment.md).

Nothing here reads the request body. ``init_security(app)`` installs the hook and, once every other
middleware is in place, the outer middleware (``create_app`` calls it last).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

from flask import Flask, Response, request

from .wsgi import set_wsgi

if TYPE_CHECKING:
    from _typeshed import OptExcInfo
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment
    from werkzeug.serving import WSGIRequestHandler


log = logging.getLogger(__name__)

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


def allowing_style(policy: str, source: str) -> str:
    """``policy`` that also allows the inline <style> element whose hash source is ``source`` (a page that carries
    its stylesheet inline, web/inline_style.py): that element alone, no style attribute, nothing unsafe."""
    if not source.startswith("'sha256-"):
        raise ValueError(f"expected a sha256 hash source, not {source[:40]!r}")
    return policy.replace("style-src 'self'", f"style-src 'self' {source}", 1)


# A dict the outer middleware puts in the WSGI environ; the hook notes in it which Flask endpoint answered. A
# dict, not a plain value: Flask-SocketIO's middleware hands Flask a (shallow) copy of the environ.
ANSWER_KEY = "inflight_scope.answer"


def security_headers(endpoint: str | None) -> dict[str, str]:
    """The headers a response of ``endpoint`` carries (None: not a Flask endpoint, or none matched)."""
    headers = {**COMMON_HEADERS, "Content-Security-Policy": policy_for(endpoint)}
    if endpoint not in EMBED_ENDPOINTS:
        headers["X-Frame-Options"] = "SAMEORIGIN"
    return headers


DEFAULT_HEADERS = security_headers(None)


def add_security_headers(response: Response) -> Response:
    endpoint = request.endpoint
    answer = request.environ.get(ANSWER_KEY)
    if answer is not None:
        answer["endpoint"] = endpoint
    for name, value in security_headers(endpoint).items():
        response.headers.setdefault(name, value)
    return response


# --- every response of the app ----------------------------------------------------------------------------
INTERNAL_BODY = b'{"message": "internal error: the server failed to answer this request", "kind": "Internal"}'


class SecurityHeaders:
    """WSGI middleware: every ``start_response`` of the wrapped app gets the security headers it lacks (for the
    endpoint Flask recorded, else the strict page policy). An exception raised before the answer started (not a
    websocket's, not a connection error) is logged and answered 500 with them, not left to the server's own bare
    500. The app's iterable is passed on as it is (eventlet's websocket relies on its identity)."""

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        started: list[bool] = []
        answer: dict[str, str | None] = {}
        environ[ANSWER_KEY] = answer

        def secure_start_response(status: str, headers: list[tuple[str, str]],
                                  exc_info: OptExcInfo | None = None) -> Callable[[bytes], object]:
            started.append(True)
            present = {name.lower() for name, _ in headers}
            wanted = security_headers(answer["endpoint"]) if "endpoint" in answer else DEFAULT_HEADERS
            headers = list(headers) + [(n, v) for n, v in wanted.items() if n.lower() not in present]
            return start_response(status, headers, exc_info)

        try:
            return self.app(environ, secure_start_response)
        except Exception as err:
            # An answer already begun, a websocket (the threading driver ends one by raising ConnectionError for
            # Werkzeug to drop the connection), a connection error: the server's business, as before.
            if started or environ.get("HTTP_UPGRADE") or isinstance(err, OSError):
                raise
            log.exception("internal error before an answer started: %s %s", environ.get("REQUEST_METHOD"),
                          str(environ.get("PATH_INFO", ""))[:200])
            secure_start_response("500 Internal Server Error", [("Content-Type", "application/json"),
                                                                ("Content-Length", str(len(INTERNAL_BODY)))])
            return [INTERNAL_BODY]


# --- what the server answers by itself --------------------------------------------------------------------
HEADER_BLOCK = "".join(f"{name}: {value}\r\n" for name, value in DEFAULT_HEADERS.items()).encode("latin-1")
_ERROR_STATUS_LINE = re.compile(rb"HTTP/\d\.\d [45]\d\d[^\r\n]*\r\n")


def with_headers(data: bytes) -> bytes:
    """``data`` with HEADER_BLOCK after its status line, if it starts a 4xx/5xx answer; else unchanged."""
    found = _ERROR_STATUS_LINE.match(data) if isinstance(data, (bytes, bytearray)) else None
    return data if found is None else bytes(data[:found.end()]) + HEADER_BLOCK + bytes(data[found.end():])


class _Writable(Protocol):
    def write(self, data: bytes, /) -> object: ...


class _ErrorAnswerFile:
    """The connection's write file while eventlet.wsgi reads a request: its own error answers (raw bytes written
    in one piece, or the stdlib's ``send_error``, status line and headers in one write) get HEADER_BLOCK."""

    def __init__(self, raw: _Writable) -> None:
        self.raw = raw

    def write(self, data: bytes) -> object:
        return self.raw.write(with_headers(data))

    def __getattr__(self, name: str) -> object:
        return getattr(self.raw, name)


class _Handler(Protocol):
    request_version: str


def _answer_with_headers(handler: _Handler) -> None:
    """The stdlib answers a request line it cannot parse (no version, or a bad one) as if it were HTTP/0.9: a
    bare body, no status line, no headers. Answer it as HTTP/1.0 instead, so it carries its status and the
    security headers (as nginx answers such a request)."""
    if handler.request_version == "HTTP/0.9":
        handler.request_version = "HTTP/1.0"


def eventlet_protocol() -> type:
    """eventlet.wsgi's HttpProtocol whose own error answers (414, 400 "Header Line Too Long" / "Headers Too
    Large" / "Bad Request", the stdlib's 400 / 431 / 505) carry the security headers. While the app answers,
    the plain file is used (the app's answers have them already). Imported on demand: only ``serve`` under
    eventlet, which has monkey-patched, needs it."""
    from eventlet import wsgi

    class SecureHttpProtocol(wsgi.HttpProtocol):  # type: ignore[misc]  # eventlet has no types: its class is Any
        wfile: _Writable

        def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
            _answer_with_headers(self)
            super().send_error(code, message, explain)

        def setup(self) -> None:
            super().setup()
            self.wfile = _ErrorAnswerFile(self.wfile)

        def handle_one_response(self) -> object:
            guarded = self.wfile
            if isinstance(guarded, _ErrorAnswerFile):
                self.wfile = guarded.raw
            try:
                return super().handle_one_response()
            finally:
                self.wfile = guarded

    return SecureHttpProtocol


def werkzeug_request_handler() -> type[WSGIRequestHandler]:
    """Werkzeug's development server handler whose own error answers (``send_error``: 414 request line too
    long, 431 header line too long or too many headers, 400 malformed, 505) carry the security headers."""
    from werkzeug.serving import WSGIRequestHandler

    class SecureRequestHandler(WSGIRequestHandler):
        _answering_error = False

        def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
            _answer_with_headers(self)
            self._answering_error = True
            try:
                super().send_error(code, message, explain)
            finally:
                self._answering_error = False

        def end_headers(self) -> None:
            if self._answering_error:
                for name, value in DEFAULT_HEADERS.items():
                    self.send_header(name, value)
            super().end_headers()

    return SecureRequestHandler


def server_options(mode: str) -> dict[str, type]:
    """Keyword arguments for ``SocketIO.run`` so the server's own answers carry the headers too."""
    if mode == "eventlet":
        return {"protocol": eventlet_protocol()}
    return {"request_handler": werkzeug_request_handler()}


def init_security(app: Flask) -> None:
    """The hook; then, outermost of every WSGI middleware (call it after the others are installed), the
    headers on every other answer."""
    app.after_request(add_security_headers)
    set_wsgi(app, SecurityHeaders(app.wsgi_app))
