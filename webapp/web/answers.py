"""How HTTP answers errors, in one place: a UserError is answered with its status and ``as_json()``; a body
over MAX_UPLOAD_BYTES with 413; Werkzeug's own refusals (no such route 404, a wrong method 405) with its page,
or on the API (``/api/``, ``/export/``) with JSON {message, kind} as every other error there; anything else is
a bug: logged with its traceback once, answered 500 with kind ``Internal``. A refusal for load (Busy, TooLarge,
the 413) is logged as one line, without a traceback. Socket.IO answers the same family in ``sockets.py``
(``Viewers.refuse``)."""

from __future__ import annotations

import json
import logging

from flask import Flask, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from ..errors import Busy, TooLarge, UserError
from ..server.settings import settings_of

log = logging.getLogger(__name__)
REFUSALS = (Busy, TooLarge)  # logged: an operator wants to know when the server turns work away
API = ("/api/", "/export/")  # answered in JSON only

INTERNAL = {"message": "internal error: the server failed to answer this request (it was logged)", "kind": "Internal"}


def user_error(err: UserError) -> ResponseReturnValue:
    if isinstance(err, REFUSALS):
        log.warning("refused %s %s: %s: %s", request.method, request.path[:200], err.kind, str(err)[:300])
    return jsonify(err.as_json()), err.status


def too_large(_err: Exception) -> ResponseReturnValue:
    limit = settings_of(current_app).max_upload_bytes
    log.warning("refused %s %s: TooLarge: a body over %d bytes", request.method, request.path[:200], limit)
    return jsonify({"message": f"the request body is larger than {limit} bytes", "kind": "TooLarge"}), 413


def http_error(err: HTTPException) -> ResponseReturnValue:
    """Werkzeug's answer (its headers kept: a 405's Allow), its page replaced by JSON on the API."""
    response = err.get_response()
    if request.path.startswith(API):
        response.set_data(json.dumps({"message": err.description, "kind": type(err).__name__}))
        response.mimetype = "application/json"
    return response


def internal(err: Exception) -> ResponseReturnValue:
    current_app.logger.exception("internal error", exc_info=err)
    return jsonify(INTERNAL), 500


def init_answers(app: Flask) -> None:
    app.register_error_handler(UserError, user_error)
    app.register_error_handler(RequestEntityTooLarge, too_large)
    app.register_error_handler(HTTPException, http_error)  # 404, 405, ...
    app.register_error_handler(Exception, internal)
