"""The offline HTML file's work for GET /export/<id>.html and POST /export/html (export.py), run as one piece in a
worker process: export/offline.py (jinja2, the bundler, the incident report) loads with this module, on the first
download, never at the server's start."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..export.offline import export_html
from ..upstream.cache import offered
from .export import Opening, resolved


def exported_html(source: object, max_bytes: int | None, versions: Sequence[str] | None,
                  opening: Opening | None = None, store: Path | None = None) -> tuple[str, str]:
    """(the scenario's name, the HTML); ``store``: where this machine keeps the upstream text it fetched."""
    scenario, scenario_id = resolved(source)
    text = {v: offered(v, store) for v in versions or scenario.versions} if store else {}
    at = opening or Opening(position=None, range_=None, story=False)
    return scenario.name, export_html(scenario, scenario_id, max_bytes, versions, source_text=text,
                                      position=at["position"], range_=at["range_"], story=at["story"])
