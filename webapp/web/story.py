"""The story mode's words for the embed (``/embed?scenario=<id>&story=1``), and the example article.

    GET /scrollytelling      docs/scrollytelling.html: an article whose sections drive an embedded view as they
                             scroll (static/js/scrolly.js), served here so its addresses are the app's own
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, send_file

from .. import ROOT
from ..presenter.story import Story, story
from ..scenario import builtin

bp = Blueprint("story", __name__)
EXAMPLE = ROOT / "docs" / "scrollytelling.html"


def story_page(scenario_id: str, lock_range: tuple[int, int] | None) -> Story | None:
    """A built-in's story over the embed's range; None for a scenario that is no built-in (the editor's)."""
    if scenario_id not in builtin.ids():
        return None
    raw = builtin.get(scenario_id)
    return story(raw["name"], raw.get("description", ""), raw["steps"], lock_range)


@bp.get("/scrollytelling")
def example() -> Response:
    return send_file(EXAMPLE, mimetype="text/html", max_age=0)


def init_story(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals["story_page"] = story_page
