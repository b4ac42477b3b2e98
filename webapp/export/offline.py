"""export_html(scenario, scenario_id): the viewer as one self-contained HTML file.

Below the viewer, the incident report of presenter/report.py (templates/_report.html, with the before/after frames
as export_svg draws them) when the versions part.

Every message the browser would receive is computed here (the scenario message and the state message at
every position, both variants) and inlined as JSON; the viewer runs over static/js/local.js instead of
Socket.IO, bundled with its modules into one classic script; the stylesheet is inlined. Nothing is fetched,
so the file works from file:// with no network.

It opens where it was exported: at ``position``, locked to ``range_`` [from, to] when one is given (as an
embed is), and it names the app's version that made it. ``story`` makes it the story mode of the embed
(``webapp/presenter/story.py``): the step notes as paragraphs beside the pinned diagram, followed as they scroll.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from .. import ROOT, __version__
from ..engine.rules import said
from ..engine.simulation import Simulation
from ..errors import Invalid, TooLarge
from ..presenter import scenario_message, state_message
from ..presenter.messages import ScenarioMessage, StateMessage
from ..presenter.sourcepane import pane_payload
from ..presenter.story import story as story_of
from ..scenario.scenario import Scenario
from . import stylesheets, tokens
from .bundle import bundle
from .incident import incident_report, themed_frames
from .inline import inline, source_hash

MAX_STEPS = 2_000  # every position is inlined (a few kB each): this keeps a file in the tens of MB
MAX_FRAME_BYTES = 32 * 1024 * 1024  # ... unless the in-flight lists keep growing: then the bytes are bounded too
ENTRY = ROOT / "static" / "js" / "offline.js"
SCROLLY = ROOT / "static" / "js" / "scrolly.js"  # a classic script: the story mode's, run after the viewer's
STYLESHEETS = tuple(ROOT / "static" / path for path in stylesheets.OFFLINE)
TEMPLATES = Environment(loader=FileSystemLoader(ROOT / "templates"), autoescape=select_autoescape(["html"]))
SCRIPT_JSON_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026"}


class Offline(TypedDict):
    """What the offline file carries: its scenario, the state at every position, and the upstream text's panes."""

    scenario: ScenarioMessage
    frames: list[StateMessage]
    sources: dict[str, dict[str, Any]]  # version -> pane_payload's answer


def messages(scenario: Scenario, scenario_id: str | None, max_bytes: int | None = None,
             versions: Sequence[str] | None = None) -> Offline:
    """{scenario: <scenario message>, frames: [<state message at position 0..total>]} on ``versions`` (default:
    the ones the scenario opens on). ``max_bytes`` bounds the simulation's memory (as a session's)."""
    if len(scenario.steps) > MAX_STEPS:
        raise TooLarge(f"an offline export holds at most {MAX_STEPS} steps; this scenario has "
                             f"{len(scenario.steps)}")
    sim = Simulation(scenario, versions or scenario.versions, max_bytes=max_bytes)
    frames: list[StateMessage] = []
    size = 0
    for position in range(sim.total + 1):
        sim.seek(position)
        frames.append(state_message(sim.frame()))
        size += len(json.dumps(frames[-1], separators=(",", ":")))
        if size > MAX_FRAME_BYTES:
            raise TooLarge(f"an offline export holds at most {MAX_FRAME_BYTES:,} bytes of positions; "
                           f"this scenario passes it at position {position} of {sim.total} "
                           "(its in-flight lists keep growing)")
    return {"scenario": scenario_message(sim.summary(), scenario_id), "frames": frames, "sources": {}}


def script_json(data: object) -> str:
    """JSON that is safe inside a <script> element: no '<', '>' or '&' can end it or open a comment."""
    return json.dumps(data, separators=(",", ":")).translate(SCRIPT_JSON_ESCAPES)


def file_policy(css: str, script: str) -> str:
    """The offline file's own policy (a <meta>, so it holds from file://): its inline style and script by hash,
    nothing else runs, nothing is fetched."""
    return "; ".join([
        "default-src 'none'",
        f"script-src {source_hash(script)}",
        f"style-src {source_hash(css)}",
        "img-src data:",
        "base-uri 'none'",
        "form-action 'none'",
    ])


def opening(total: int, position: int | None, range_: tuple[int, int] | None) -> tuple[int, tuple[int, int] | None]:
    """Where the file opens: (position, the locked range or None); Invalid names what is out of bounds."""
    if range_ is not None:
        lo, hi = range_
        if not 0 <= lo <= hi <= total:
            raise Invalid(said("range", total=total, got=f"[{lo}, {hi}]"))
    lo, hi = range_ or (0, total)
    position = lo if position is None else position
    if not lo <= position <= hi:
        raise Invalid(said("position", lo=lo, hi=hi, got=position))
    return position, range_


def export_html(scenario: Scenario, scenario_id: str | None, max_bytes: int | None = None,
                versions: Sequence[str] | None = None, *, position: int | None = None,
                range_: tuple[int, int] | None = None, story: bool = False,
                source_text: Mapping[str, dict[str, object] | None] | None = None) -> str:
    """The file; it opens at ``position`` (default: the start of ``range_``, else 0), locked to ``range_``.
    ``source_text``: version -> the upstream text a transport has cached (webapp/upstream/), carried along."""
    position, range_ = opening(len(scenario.steps), position, range_)
    data = messages(scenario, scenario_id, max_bytes, versions)
    text = source_text or {}
    data["sources"] = {v: pane_payload(v, text.get(v), links=False) for v in data["scenario"]["variants"]}
    css = inline("\n".join([tokens.css(), *(sheet.read_text(encoding="utf-8") for sheet in STYLESHEETS)]), "style")
    script = inline(bundle(ENTRY) + (SCROLLY.read_text(encoding="utf-8") if story else ""), "script")
    # a story is its own article: no incident report under it
    facts = None if story else incident_report(scenario, max_bytes=max_bytes, versions=versions)
    parted = facts if facts is not None and facts["incident"] is not None else None
    return TEMPLATES.get_template("export.html").render(
        facts=parted,
        svgs=themed_frames(scenario, parted, max_bytes) if parted is not None else [],
        viewer_href=None,
        title=scenario.name,
        scenarios=[{"id": scenario_id or "", "name": scenario.name}],
        scenario_id=scenario_id or "",
        position=position,
        lock_range=range_,
        mode="embed" if story else "main",
        story=story_of(scenario.name, scenario.description, scenario.steps, range_) if story else None,
        app_version=__version__,
        layout="both",
        offline=True,
        policy=file_policy(css, script),
        css=css,
        data=Markup(script_json(data)),
        script=script,
    )
