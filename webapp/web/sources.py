"""GET /api/sources/VERSION: a version's source map with the paraphrase, and the upstream text when this machine
has it cached (`inflight-scope sources fetch`); the page never fetches from upstream itself."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from ..presenter.sourcepane import pane_payload
from ..server.settings import settings_of
from ..upstream.cache import offered

bp = Blueprint("sources", __name__)


@bp.get("/api/sources/<version>")
def api(version: str) -> Response:
    payload = pane_payload(version, None)  # NotFound for an unknown version, before any file is read
    payload["text"] = offered(version, settings_of(current_app).sources_store)
    return jsonify(payload)
