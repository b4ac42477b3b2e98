"""What HTTP reads from a request, in one place: a JSON body through the parsing boundary
(``scenario.document.parse_json``), numbers from query parameters with their length checked first, versions
named by the field they came in, and built-in scenarios named in a path.

Chunked bodies: eventlet's server de-chunks a ``Transfer-Encoding: chunked`` body (and ends every body at its
Content-Length) but does not set ``wsgi.input_terminated``, so Werkzeug read such a body as empty.
``init_bodies`` sets it for eventlet's input; Werkzeug then reads the body up to ``MAX_CONTENT_LENGTH``
(= MAX_UPLOAD_BYTES) and answers 413 past it, as for a Content-Length over it. Werkzeug's own server and
gunicorn set it themselves.

Query strings: a byte over 0x7F that a client sent as it is (a browser percent-encodes it) made Werkzeug's
``request.args`` raise UnicodeDecodeError (a 500 on every page and export) when the bytes were not UTF-8.
``init_bodies`` percent-encodes such bytes before Werkzeug reads them: it then reads them as it reads ``%ff``
(valid UTF-8 as its characters, other bytes kept as ``%FF`` text), and each route checks the value as any other.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from flask import Flask, request
from werkzeug.exceptions import RequestEntityTooLarge

from ..engine.simulation import check_variants
from ..errors import Invalid, NotFound
from ..scenario.document import DocumentError, parse_json, too_deep
from ..scenario.resolve import resolve
from ..scenario.scenario import Scenario
from ..server.offload import apart
from ..server.wsgi import set_wsgi

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

_RAW_BYTE = re.compile("[\x80-\xff]")  # QUERY_STRING holds the bytes as sent, one latin-1 character each
MAX_INDEX_DIGITS = 9  # a position or a range end in a query string: no scenario has a billion steps


def json_body(what: str) -> object:
    """The request's body as JSON (whatever its Content-Type), checked at the boundary: 400 naming the field
    for nesting, integers and text that may not pass; 413 over MAX_UPLOAD_BYTES.

    Parsed on the event loop only when it is cheap: a body of at most SMALL_BODY_BYTES that is not too deep.
    Any other body is parsed (and checked, and a nesting refusal located) apart (``offload.apart``, pure: a
    worker process under eventlet) -- a larger one as heavy work, a small deep one in the small lane. Parsing
    2 MB on the hub (a list of a million items, or a million levels of brackets) stalled every other viewer for
    the whole of it (bench/abuse.py, bodies)."""
    data = body_bytes()
    try:
        if len(data) > SMALL_BODY_BYTES:
            return apart(parse_json, data, BODY, pure=True)
        if too_deep(data):  # cheap to tell; where it goes too deep is not (a walk over the tokens before)
            return apart(parse_json, data, BODY, pure=True, small=True)
        return parse_json(data, BODY)
    except DocumentError as err:
        if err.field == "document":
            raise DocumentError(f"expected {what} as JSON in the request body", err.field, err.reason) from None
        raise


BODY = "the request body"  # how a body's refusals name it
SMALL_BODY_BYTES = 16 * 1024  # a body this small is cheap to parse and check: parsed here, offloaded as small work


def small_body() -> bool:
    """Whether the request's body is declared small (a chunked body, of unknown length, is not)."""
    return request.content_length is not None and request.content_length <= SMALL_BODY_BYTES


def body_bytes() -> bytes:
    """The whole request body within MAX_UPLOAD_BYTES, with a Content-Length or chunked; 413 past it. (Werkzeug
    refuses a Content-Length over the limit, but cuts a streamed body at the limit without a word.)"""
    data = request.get_data(cache=False)
    limit = request.max_content_length
    if request.content_length is None and limit is not None and len(data) >= limit \
            and request.environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge()
    return data


def index_arg(name: str, default: str = "0") -> int | None:
    """Query parameter ``name`` as a non-negative integer of at most MAX_INDEX_DIGITS digits (its length is
    checked before it is converted), else None."""
    text = request.args.get(name, default)
    if 0 < len(text) <= MAX_INDEX_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


def builtin_scenario(scenario_id: str) -> Scenario:
    """The built-in scenario a path names (``/export/<id>.svg``, ``/api/scenarios/<id>``); an unknown id is answered
    404 with resolve's message."""
    try:
        return resolve(scenario_id)[0]
    except Invalid as err:  # the built-ins themselves are valid: only an unknown id gets here
        raise NotFound(str(err)) from None


def versions_field(value: object, field: str = "versions") -> tuple[str, ...]:
    """``check_variants`` of what a client sends as ``field`` (a body's field, a query parameter): its refusal
    names that field."""
    try:
        return check_variants(value)
    except Invalid as err:
        raise Invalid(f"{field}: {err}") from None


def shown(text: str, limit: int = 40) -> str:
    """A query value for a message: quoted, cut to ``limit`` characters, its length said if it was cut."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


def init_bodies(app: Flask) -> None:
    wsgi_app = app.wsgi_app

    def readable(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if "eventlet.input" in environ:  # eventlet's Input ends at Content-Length, or at the last chunk
            environ["wsgi.input_terminated"] = True
        query = environ.get("QUERY_STRING", "")
        if not query.isascii():
            environ["QUERY_STRING"] = _RAW_BYTE.sub(lambda byte: f"%{ord(byte[0]):02X}", query)
        return wsgi_app(environ, start_response)

    set_wsgi(app, readable)

