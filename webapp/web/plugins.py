"""GET /api/plugins (JSON, read-only): the 1.28 plugin catalogue of webapp/model/plugins.py, per plugin its
registrations (resource, action, upstream file:line, QueueingHint function and the hint the model uses, the scenario
events each matches), and per scenario event label the plugins it wakes, for the viewer and the editor."""

from __future__ import annotations

from functools import cache

from flask import Blueprint, Response, jsonify

from ..model.events import CATALOGUE
from ..model.plugins import catalogue, wakes

bp = Blueprint("plugins", __name__)


@cache
def _body() -> dict[str, object]:
    return {**catalogue(), "events": {label: wakes(event) for label, event in CATALOGUE.items()
                                      if not event.is_wildcard}}


@bp.get("/api/plugins")
def api() -> Response:
    return jsonify(_body())
