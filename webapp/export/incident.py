"""An incident report made from a scenario (and, for an import, the importer's result): the engine's runs, the
presenter's facts (presenter/report.py) and the before/after frames as the SVG export draws them."""

from __future__ import annotations

import base64
from collections.abc import Sequence

from ..engine.verdicts import incident_runs
from ..presenter.report import Report, report
from ..scenario.logs.importer import Imported
from ..scenario.scenario import Scenario, from_valid_dict
from .svg import THEMES, export_svg


def incident_report(scenario: Scenario, imported: Imported | None = None, max_bytes: int | None = None,
                    versions: Sequence[str] | None = None) -> Report:
    """``imported``: the importer's ``Imported`` (its evidence, verdict and assumptions), or None; ``versions``: the
    ones compared (default: those the scenario opens on)."""
    runs = incident_runs(scenario, versions, max_bytes=max_bytes)
    if imported is None:
        return report(scenario.name, runs, scenario.raw.get("assumptions") or [])
    counts = imported.counts
    return report(scenario.name, runs, imported.assumptions, imported.evidence,
                  counts.verdict() if counts.agreeing else None)


def imported_report(imported: Imported, max_bytes: int | None = None) -> tuple[Scenario, Report]:
    scenario = from_valid_dict(imported.scenario)
    return scenario, incident_report(scenario, imported, max_bytes)


def frames_svg(scenario: Scenario, facts: Report, theme: str = "light", max_bytes: int | None = None) -> list[str]:
    """The before/after frames: the SVG export at each of the report's positions, without the XML declaration
    (to be inlined or written as files alike)."""
    return [export_svg(scenario, p, max_bytes, facts["versions"], theme).split("\n", 1)[1] for p in facts["frames"]]


def data_uri(svg: str) -> str:
    """A frame as an image's address: the page and the offline file show it as an <img>, so the picture's data-*
    hooks stay out of the document (the viewer's own panes carry the same ones)."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def themed_frames(scenario: Scenario, facts: Report, max_bytes: int | None = None) -> list[dict[str, str]]:
    """Each before/after frame in every theme, as image addresses ({theme: data URI}): a page shows the one it is
    drawn in (report.css)."""
    drawn = {theme: frames_svg(scenario, facts, theme, max_bytes) for theme in THEMES}
    return [{theme: data_uri(svgs[i]) for theme, svgs in drawn.items()} for i in range(len(facts["frames"]))]
