"""GET /versions (a page) and /api/versions (JSON): per version, can the lost marker happen, and why, derived by
running the model (webapp/engine/verdicts.py); words from webapp/presenter/verdicts.py; and every change after
1.31 with its pull requests and the lesson that shows it (webapp/presenter/changes.py)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template

from ..engine.verdicts import CASE, lost_marker_verdicts
from ..presenter.changes import CHANGES, CHANGES_HEADER
from ..presenter.verdicts import HEADER, rows

bp = Blueprint("versions", __name__)


@bp.get("/versions")
def page() -> str:
    return render_template("versions.html", header=HEADER, rows=rows(lost_marker_verdicts()), case=CASE,
                           changes_header=CHANGES_HEADER, changes=CHANGES)


@bp.get("/api/versions")
def api() -> Response:
    return jsonify(list(lost_marker_verdicts()))
