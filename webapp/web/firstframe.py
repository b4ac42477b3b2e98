"""The first frame: the picture a page opens on, drawn on the server into its HTML, so that a phone sees it before
any script or socket (the viewer ``/``, the embed, a room's ``/r/CODE``).

Each pane is the SVG export's (export/svg.py ``render_panes``: one owner of the colours and the geometry), in the
page's theme (both, where the page follows the system's: its stylesheet shows one); the page's grid lays them out
as it lays out the live panes, and the script's first drawing replaces them (page.js). A room's is drawn at its
presenter's current step from the scene its followers are sent (``presenter.for_audience``: no speaker's notes,
nothing of the step to come); a room that shows nothing (no scenario yet, its screen blanked) has none, nor has
a scenario that is no built-in's (the editor's hand-off, a link's inline one: the page reads it). The drawing is
an export's work, bounded as one is (``apart``, the simulation held to the sessions' memory bound): a built-in's is
small work, drawn at once (a page never waits for a worker process to start: a cold one took seconds, past a
browser test's patience on a loaded machine), a room's own scenario is heavy work in a worker process; pictures
are kept (KEPT of them) by what they show. Whatever keeps a picture from being drawn leaves the page without one,
never without the page.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict

from flask import current_app
from markupsafe import Markup

from ..engine.simulation import Simulation
from ..errors import UserError
from ..export.svg import THEMES, render_panes
from ..presenter import for_audience, state_message
from ..scenario import builtin
from ..scenario.resolve import resolve
from ..server.offload import apart
from ..server.settings import settings_of
from ..server.workers import WorkerCrashed
from .held import rooms_of

log = logging.getLogger(__name__)
KEPT = 64  # pictures kept (a built-in's position in a theme, a room's version): tens of kB each


class Drawn(TypedDict):
    """A FirstFrame's fields as a worker process hands them back (its panes as text)."""

    position: int
    counter: str
    panes: tuple[tuple[str, str, str], ...]
    name: str


@dataclass(frozen=True)
class FirstFrame:
    """The picture at ``position``: its panes, (variant, theme, SVG element) each, in the scene's order, every
    theme's; for a page read without its script, the scene's counter, the scenario's name, and its introduction
    where the page shows it open (else None)."""

    position: int
    counter: str
    panes: tuple[tuple[str, str, Markup], ...]
    name: str
    description: str | None = None

    @property
    def count(self) -> int:
        """How many versions are shown side by side (the page's grid: app.css ``.panes[data-count]``)."""
        return len({variant for variant, _, _ in self.panes})


def themes_of(theme: str) -> tuple[str, ...]:
    """The themes a page drawn in ``theme`` ("" follows the system's) needs its picture in."""
    return (theme,) if theme in THEMES else tuple(THEMES)


def for_view(scenario_id: str, position: int, versions: list[str] | None, theme: str,
             told: bool = True) -> FirstFrame | None:
    """The viewer's or the embed's picture of built-in ``scenario_id`` at ``position`` (None: no built-in);
    ``told``: with the introduction (not while Predict withholds it, static/js/spoilers.js)."""
    if scenario_id not in builtin.ids():
        return None
    key = ("view", scenario_id, position, tuple(versions or ()), themes_of(theme))
    picture = _kept(key, lambda: apart(_drawn, scenario_id, position, versions, _max_bytes(), themes_of(theme),
                                       False, small=True))
    if picture is None or not told:
        return picture
    return dataclasses.replace(picture, description=builtin.get(scenario_id).get("description", ""))


def for_room(code: str, theme: str) -> FirstFrame | None:
    """Room ``code``'s picture at its presenter's step as its followers see it (None: it shows none)."""
    try:
        record = rooms_of(current_app).shown(code)
    except UserError as e:  # the rooms' store unreachable: the page follows the room once it is back
        log.info("no first frame for room %s: %s", code, e)
        return None
    if record is None:
        return None
    source, variants, position = record["source"], record["variants"], record["position"]
    key = ("room", code, record["epoch"], record["version"], themes_of(theme))
    built_in = isinstance(source, str)
    return _kept(key, lambda: apart(_drawn, source, position, variants, _max_bytes(), themes_of(theme), True,
                                    pure=not built_in, small=built_in))


def _max_bytes() -> int | None:
    return settings_of(current_app).session_bytes


Key = tuple[object, ...]  # what a picture shows: its kind, its source, position or version, themes
_pictures: OrderedDict[Key, FirstFrame] = OrderedDict()
_lock = threading.Lock()


def _kept(key: Key, draw: Callable[[], Drawn]) -> FirstFrame | None:
    with _lock:
        if key in _pictures:
            _pictures.move_to_end(key)
            return _pictures[key]
    try:
        drawn = draw()
        panes = tuple((variant, theme, Markup(svg)) for variant, theme, svg in drawn["panes"])
        picture = FirstFrame(drawn["position"], drawn["counter"], panes, drawn["name"])
    except (UserError, WorkerCrashed) as e:  # busy, too large, gone: the page opens without its picture
        log.info("no first frame for %s: %s", key[:2], e)
        return None
    with _lock:
        _pictures[key] = picture
        while len(_pictures) > KEPT:
            _pictures.popitem(last=False)
    return picture


def _drawn(source: str | dict[str, Any], position: int, variants: list[str] | None, max_bytes: int | None,
           themes: tuple[str, ...], audience: bool) -> Drawn:
    """A FirstFrame's fields (its panes as text) of ``source`` (a built-in's id or a room's scenario object) at
    ``position`` in each of ``themes``; ``audience``: the scene as a room's followers are sent it. An SVG element is
    safe in the page as it is: export/draw.py escapes every text and attribute."""
    scenario, _ = resolve(source)
    sim = Simulation(scenario, variants or scenario.versions, max_bytes=max_bytes)
    sim.seek(min(position, sim.total))
    message = state_message(sim.frame(), sim.preview() if audience else None)
    scene = (for_audience(message) if audience else message)["scene"]
    panes = tuple((variant, theme, svg) for theme in themes for variant, svg in render_panes(scene, theme))
    return {"position": scene["position"], "counter": scene["counter"], "panes": panes, "name": scenario.name}
