"""export_svg(scenario, position): one position of a scenario as a standalone SVG, both variants side by side.

Drawn on the server from the scene of the state message the browser renders (presenter/scene.py), in the
page's visual language: per variant a pane (pane.py: its head, the diagram with the list, the lanes and the
pointers' arrows, arrows.py; then the caption and the invariants), under the panes the legend (legend.py); laid
out as a preset says (preset.py: the page's, or a slide's, its panes stacked, no legend, its text large). Every
word comes from the scene; only the layout is decided here; the colours (of either theme), the lanes' shares and
the arrows' numbers are the design tokens (tokens.py, from static/js/tokens.js, which the page reads too).

Built with ElementTree, so every text and attribute is escaped; characters XML cannot hold become U+FFFD. No
script, no reference outside the document (shapes, not markers or patterns). The groups carry the page's
data-* hooks: data-variant, data-testid (diagram, pane-time, caption, …), data-entry/data-id/data-key,
data-walked="true", data-ghost="true", data-removed-id, data-unseen-by, data-marker/data-detached,
data-queue with data-pod chips and data-timer, data-pointer/data-pod/data-target/data-key/data-route, data-legend.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from ..engine.simulation import Simulation
from ..presenter import state_message
from ..presenter.shapes import Pane as ScenePane
from ..presenter.shapes import Scene
from ..scenario.scenario import Scenario
from . import draw
from .draw import node, paint
from .legend import legend
from .pane import PANE_WIDTH, Pane
from .preset import FULL, Preset
from .tokens import THEMES

__all__ = ["THEMES", "export_svg", "render", "render_panes"]  # THEMES: the names of the themes it draws in

MARGIN, GAP = 20, 20
FONT_SIZE = 12  # the ordinary text's (the svg element's font-size)


def export_svg(scenario: Scenario, position: int, max_bytes: int | None = None, versions: Sequence[str] | None = None,
               theme: str = "light") -> str:
    """Raises Invalid for a position outside 0..len(scenario.steps); ``max_bytes`` bounds the simulation's
    memory (as a session's); ``versions``: the panes (default: the ones the scenario opens on); ``theme``: a key
    of THEMES."""
    sim = Simulation(scenario, versions or scenario.versions, max_bytes=max_bytes)
    sim.seek(position)
    return render(scenario.name, state_message(sim.frame())["scene"], theme)


def render(name: str, scene: Scene, theme: str = "light", preset: Preset = FULL) -> str:
    """The SVG of one scene (``state_message(frame)["scene"]``) in ``theme``'s colours, laid out as ``preset``."""
    width = picture_width(len(scene["panes"]), preset)
    with draw.theme(theme), draw.least_font(preset.least_font(width)):
        return _render(name, scene, preset, width)


def picture_width(panes: int, preset: Preset = FULL) -> int:
    """The picture's width in SVG units with ``panes`` versions: side by side, or one above the other."""
    across = 1 if preset.stacked else panes
    return 2 * MARGIN + across * PANE_WIDTH + (across - 1) * GAP


def least_font(panes: int, preset: Preset = FULL) -> float:
    """The least font size the picture's ordinary text has, in SVG units (FONT_SIZE or the preset's floor)."""
    return max(FONT_SIZE, preset.least_font(picture_width(panes, preset)))


def render_panes(scene: Scene, theme: str = "light") -> list[tuple[str, str]]:
    """(variant, SVG element) for each pane of ``scene`` alone, in ``theme``'s colours, with no XML declaration and no
    namespace (an HTML parser puts an inline ``<svg>`` in SVG's): a page lays them out in its own grid (the first
    frame, web/firstframe.py)."""
    with draw.theme(theme):
        return [(variant, _pane_alone(variant, p)) for variant, p in scene["panes"].items()]


def _pane_alone(variant: str, scene_pane: ScenePane) -> str:
    svg = _root(PANE_WIDTH)
    svg.set("preserveAspectRatio", "xMidYMin meet")  # scaled into a taller box: at its top, as the page's pane
    svg.set("role", "img")
    svg.set("aria-label", f"{scene_pane['title']} pane")
    pane = Pane(svg, variant, scene_pane, 0, 0)
    bottom = pane.finish(pane.bottom)
    pane.frame.set("height", f"{bottom:g}")
    height = math.ceil(bottom) + 1  # the frame's stroke, half outside its box
    svg.set("height", str(height + 1))
    svg.set("viewBox", f"-1 -1 {PANE_WIDTH + 2} {height + 1}")
    svg.set("width", str(PANE_WIDTH + 2))
    del svg.attrib["xmlns"]
    return ET.tostring(svg, encoding="unicode")


def _root(width: int) -> ET.Element:
    """An SVG element ``width`` units wide, in the picture's font."""
    return ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": str(width),
                              "font-family": "system-ui, 'DejaVu Sans', sans-serif",
                              "font-size": f"{draw.font(FONT_SIZE):g}"})


def _render(name: str, scene: Scene, preset: Preset, width: int) -> str:
    svg = _root(width)
    background = node(svg, "rect", width="100%", height="100%", fill=paint("bg"))
    node(svg, "title", f"{name}: {step_title(scene)}")
    node(svg, "text", name, x=MARGIN, y=30, font_size=18, font_weight="bold", fill=paint("fg"))
    node(svg, "text", step_title(scene), x=MARGIN, y=52, fill=paint("muted"), data_testid="step")
    top = 68
    bottom = (_stacked if preset.stacked else _side_by_side)(svg, scene, top)
    if preset.legend:
        bottom = legend(svg, scene.get("legend") or [], MARGIN, bottom + 14, width - 2 * MARGIN)
    height = math.ceil(bottom + MARGIN)
    svg.set("height", str(height))
    svg.set("viewBox", f"0 0 {width} {height}")
    background.set("height", str(height))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(svg, encoding="unicode") + "\n"


def _side_by_side(svg: ET.Element, scene: Scene, top: float) -> float:
    """The panes in a row from ``top``, their captions lined up under the diagrams; returns their bottom edge."""
    panes = [Pane(svg, variant, p, MARGIN + i * (PANE_WIDTH + GAP), top)
             for i, (variant, p) in enumerate(scene["panes"].items())]
    diagram_bottom = max((p.bottom for p in panes), default=top)
    bottom = max((p.finish(diagram_bottom) for p in panes), default=top)
    for p in panes:
        p.frame.set("height", str(bottom - top))
    return bottom


def _stacked(svg: ET.Element, scene: Scene, top: float) -> float:
    """The panes one above the other from ``top``, GAP apart; returns the last one's bottom edge."""
    bottom = top - GAP
    for variant, p in scene["panes"].items():
        pane = Pane(svg, variant, p, MARGIN, bottom + GAP)
        bottom = pane.finish(pane.bottom)
        pane.frame.set("height", str(bottom - pane.y))
    return max(bottom, top)


def step_title(scene: Scene) -> str:
    """The picture's heading: which step it shows (this document's own frame around the scene's label)."""
    where = f"position {scene['position']} of {scene['total']}"
    step = scene["step"]
    return f"Step {step['index'] + 1}: {step['label']} ({where})" if step else f"Initial state ({where})"
