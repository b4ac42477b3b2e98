"""HTTP: offline exports of a built-in scenario (by id) or of a scenario object posted as JSON (the editor's).

    GET  /export/<id>.html            the viewer as one self-contained HTML file (a download); it opens at
                                      ?position=n, locked to ?from=a&to=b when given; ?story=1: the story mode
    GET  /export/<id>.svg?position=n&theme=dark  one position as a standalone SVG (n defaults to 0; theme light or
                                      dark, light by default)
    POST /export/html, POST /export/svg?position=n   the same for the scenario object in the body
    GET  /export/<id>.gif, .apng, .mp4, POST /export/gif, /export/apng, /export/mp4   a step range animated
                                      (animated.py)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypedDict

from flask import Blueprint, Response, current_app, request

from ..engine.rules import said
from ..engine.simulation import MAX_PANES
from ..errors import Invalid
from ..export.svg import THEMES, export_svg
from ..scenario.resolve import resolve
from ..scenario.scenario import Scenario
from ..server.offload import apart
from ..server.settings import settings_of
from .bodies import builtin_scenario, index_arg, json_body, shown, versions_field

bp = Blueprint("export", __name__, url_prefix="/export")
SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'"  # a served SVG may never run or fetch anything


def posted_scenario() -> dict[str, object]:
    raw = json_body("a scenario object")
    if not isinstance(raw, dict):
        raise Invalid("expected a scenario object as JSON in the request body")
    return raw


def html_download(source: object, filename: str | None) -> Response:
    """source: a built-in's id or a posted scenario object; filename None: the scenario's name."""
    from .offline import exported_html  # on the first download: under eventlet it blocks the hub once, for ms

    settings = settings_of(current_app)
    name, html = apart(exported_html, source, settings.session_bytes, versions_arg(), opening_args(),
                       settings.sources_store, pure=True, small=isinstance(source, str))  # small: a built-in
    response = Response(html, mimetype="text/html")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename or slug(name)}.html"'
    return response


def svg_response(source: object) -> Response:
    position, shown_position = index_arg("position"), shown(request.args.get("position", ""))
    versions, theme = versions_arg(), request.args.get("theme", "light")
    if theme not in THEMES:
        raise Invalid(f"theme must be one of {', '.join(THEMES)}, not {shown(theme)}")
    svg = apart(_exported_svg, source, position, shown_position, settings_of(current_app).session_bytes, versions,
                theme, pure=True, small=isinstance(source, str))
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Content-Security-Policy"] = SVG_POLICY
    return response


# The whole export, from the scenario's source on, in one piece of work (a worker process under eventlet,
# offload.py): the parsed scenario never crosses back to the server process.
def _exported_svg(source: object, position: int | None, shown_position: str, max_bytes: int | None,
                  versions: Sequence[str] | None, theme: str) -> str:
    scenario, _ = resolved(source)
    total = len(scenario.steps)
    if position is None or position > total:
        raise Invalid(said("position", lo=0, hi=total, got=shown_position))
    return export_svg(scenario, position, max_bytes, versions, theme)


def resolved(source: object) -> tuple[Scenario, str | None]:
    if isinstance(source, str):
        return builtin_scenario(source), source
    return resolve(source)[0], None


class Opening(TypedDict):
    """Where the offline file opens (``export_html``'s keywords)."""

    position: int | None
    range_: tuple[int, int] | None
    story: bool


def opening_args() -> Opening:
    """Where the offline file opens: ``?position=n``, ``?from=a&to=b`` (both or neither), ``?story=1``; Invalid
    names a value that is no step number (one past the scenario's end is refused by ``export_html``)."""
    numbers: dict[str, int | None] = {}
    for name in ("position", "from", "to"):
        if name in request.args:
            numbers[name] = index_arg(name, "")
            if numbers[name] is None:
                raise Invalid(f"{name} must be a step number (0 or more), not {shown(request.args[name])}")
    if ("from" in numbers) != ("to" in numbers):
        raise Invalid("a range needs both from and to")
    story = request.args.get("story", "0")
    if story not in ("0", "1"):
        raise Invalid(f"story must be 1 or 0, not {shown(story)}")
    lo, hi = numbers.get("from"), numbers.get("to")
    range_ = (lo, hi) if lo is not None and hi is not None else None
    return {"position": numbers.get("position"), "range_": range_, "story": story == "1"}


def versions_arg() -> tuple[str, ...] | None:
    """``?versions=v1.28.1,v1.30.14``: the panes to export (absent: the scenario's own); Invalid otherwise."""
    text = request.args.get("versions")
    if text is None:
        return None
    if len(text) > 200:
        raise Invalid(f"versions must be 1 to {MAX_PANES} version names separated by commas")
    return versions_field(text.split(","))


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:80] or "scenario"


@bp.get("/<scenario_id>.html")
def builtin_html(scenario_id: str) -> Response:
    builtin_scenario(scenario_id)  # an unknown id is answered 404 here, taking no heavy-work place
    return html_download(scenario_id, scenario_id)


@bp.get("/<scenario_id>.svg")
def builtin_svg(scenario_id: str) -> Response:
    builtin_scenario(scenario_id)
    return svg_response(scenario_id)


@bp.post("/html")
def posted_html() -> Response:
    return html_download(posted_scenario(), None)


@bp.post("/svg")
def posted_svg() -> Response:
    return svg_response(posted_scenario())


@bp.get("/<scenario_id>.gif")
@bp.get("/<scenario_id>.apng")
@bp.get("/<scenario_id>.mp4")
def builtin_animation(scenario_id: str) -> Response:
    from .animated import animation_response  # on the first animation (PIL, its encoders): the hub waits once, ms

    builtin_scenario(scenario_id)
    return animation_response(scenario_id, request.path.rsplit(".", 1)[1], scenario_id, versions_arg())


@bp.post("/gif")
@bp.post("/apng")
@bp.post("/mp4")
def posted_animation() -> Response:
    from .animated import animation_response  # as above

    source = posted_scenario()
    return animation_response(source, request.path.rsplit("/", 1)[1], slug(str(source.get("name", ""))),
                              versions_arg())
