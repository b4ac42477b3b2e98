"""HTTP: offline exports of a built-in scenario (by id) or of a scenario object posted as JSON (the editor's).

    GET  /export/<id>.html            the viewer as one self-contained HTML file (a download)
    GET  /export/<id>.svg?position=n  one position as a standalone SVG (n defaults to 0)
    POST /export/html, POST /export/svg?position=n   the same for the scenario object in the body
"""

from __future__ import annotations

import re

from flask import Blueprint, Response, current_app, request

from ..engine.simulation import MAX_VARIANTS, check_variants
from ..errors import Invalid, NotFound
from ..export.offline import export_html
from ..export.svg import export_svg
from ..scenario.resolve import resolve
from .bodies import index_arg, json_body, shown
from .limits import session_bytes
from .offload import apart

bp = Blueprint("export", __name__, url_prefix="/export")
SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'"  # a served SVG may never run or fetch anything


def builtin_scenario(scenario_id: str):
    """The built-in scenario; an unknown id is answered 404 with resolve's message."""
    try:
        return resolve(scenario_id)[0]
    except Invalid as err:  # the built-ins themselves are valid: only an unknown id gets here
        raise NotFound(str(err)) from None


def posted_scenario():
    raw = json_body("a scenario object")
    if not isinstance(raw, dict):
        raise Invalid("expected a scenario object as JSON in the request body")
    return apart(resolve, raw)[0]


def html_download(scenario, scenario_id: str | None, filename: str) -> Response:
    html = apart(export_html, scenario, scenario_id, session_bytes(current_app.config), versions_arg())
    response = Response(html, mimetype="text/html")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}.html"'
    return response


def svg_response(scenario) -> Response:
    position, total = index_arg("position"), len(scenario.steps)
    if position is None or position > total:
        raise Invalid(f"position must be an integer in 0..{total}, got {shown(request.args.get('position', ''))}")
    svg = apart(export_svg, scenario, position, session_bytes(current_app.config), versions_arg())
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Content-Security-Policy"] = SVG_POLICY
    return response


def versions_arg():
    """``?versions=v1.28.1,v1.30.14``: the panes to export (absent: the scenario's own); Invalid otherwise."""
    text = request.args.get("versions")
    if text is None:
        return None
    if len(text) > 200:
        raise Invalid(f"versions must be 1 to {MAX_VARIANTS} version names separated by commas")
    return check_variants(text.split(","))


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:80] or "scenario"


@bp.get("/<scenario_id>.html")
def builtin_html(scenario_id: str):
    return html_download(builtin_scenario(scenario_id), scenario_id, scenario_id)


@bp.get("/<scenario_id>.svg")
def builtin_svg(scenario_id: str):
    return svg_response(builtin_scenario(scenario_id))


@bp.post("/html")
def posted_html():
    scenario = posted_scenario()
    return html_download(scenario, None, slug(scenario.name))


@bp.post("/svg")
def posted_svg():
    return svg_response(posted_scenario())
