"""Pages sent gzipped to a browser that accepts it (every browser does): the viewer's page is about 13 kB of HTML
and 3 kB gzipped, which a room of phones on a venue's Wi-Fi asks for at every reload. The pages' files are
gzipped once per version by ``assets``; this is for what templates render, and for the JSON the viewer asks for
as it starts (``/api/plugins``: 46 kB, 3 kB gzipped).

HTML: the pages carry no secret (tokens travel over Socket.IO, never in a page), so compressing one that echoes a
query parameter reveals nothing (BREACH needs a secret and the attacker's text in one compressed body). JSON only
in answer to a GET with no query string: such an answer holds nothing the asker wrote.
Only bodies of MIN_BYTES to MAX_BYTES: a larger one (an offline file) is sent as made, since compressing it
would hold the server's event loop.
"""

from __future__ import annotations

import gzip

from flask import Flask, Response, request

TYPES = frozenset({"text/html"})
JSON_TYPES = frozenset({"application/json"})  # when asked for by a GET without a query (compressible)
MIN_BYTES = 1024  # smaller: gzip's header and the work are not worth it
MAX_BYTES = 256 * 1024  # about 3 ms at level 6


def compressible(response: Response) -> bool:
    if response.mimetype in TYPES:
        return True
    return response.mimetype in JSON_TYPES and request.method in ("GET", "HEAD") and not request.query_string


def compress_page(response: Response) -> Response:
    if not compressible(response):
        return response
    response.vary.add("Accept-Encoding")  # a cache must not hand the gzipped page to a client that did not ask
    if (response.status_code != 200 or response.is_streamed or response.direct_passthrough
            or "Content-Encoding" in response.headers or not request.accept_encodings["gzip"]):
        return response
    body = response.get_data()
    if MIN_BYTES <= len(body) <= MAX_BYTES:
        response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
        response.content_encoding = "gzip"
    return response


def init_compress(app: Flask) -> None:
    app.after_request(compress_page)
