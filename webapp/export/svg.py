"""export_svg(scenario, position): one position of a scenario as a standalone SVG, both variants side by side.

Drawn on the server from the scene of the state message the browser renders (presenter/scene.py): per
variant the title and tag, the clock, the narration's title, the in-flight list (its items: the front slot,
ghosts of removed elements, the entries, each with its markers) and the four lanes with their chips. Every
word comes from the scene; only the layout and the colours are decided here. Built with ElementTree, so
every text and attribute is escaped; characters XML cannot hold become U+FFFD. The groups carry the page's
data-* hooks (data-variant, data-entry, data-id, data-marker, data-detached, data-queue, data-pod).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ..engine.simulation import Simulation
from ..model.variant import VARIANTS
from ..presenter import state_message

MARGIN, GAP, PANE_WIDTH, PAD = 20, 20, 600, 14
CHAR_WIDTH = 7.0  # of the 12 px sans-serif text, for layout
TITLE_CHAR_WIDTH = 9.0  # of the 15 px bold title
MAX_LABEL = 40  # longer texts are cut with an ellipsis (the hooks and the <title> keep the full name)
ROW_GAP = 10
LANE_LABEL_WIDTH = 170
COLOURS = {
    "bg": "#f6f7f9", "panel": "#ffffff", "fg": "#15191f", "muted": "#5a6472", "border": "#c9d0da",
    "accent": "#1f5fd1", "bug": "#b3261e", "bug-bg": "#fdecea", "fix": "#1d7a3a", "fix-bg": "#e6f4ea",
    "event-bg": "#eef2f8", "event-border": "#55657d", "pod-bg": "#e3f4e8", "pod-border": "#1d7a3a",
    "activeQ": "#1f5fd1", "backoffQ": "#a35c00", "unschedulablePods": "#b3261e", "inFlight": "#00796b",
}
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def export_svg(scenario, position: int, max_bytes: int | None = None) -> str:
    """Raises Invalid for a position outside 0..len(scenario.steps); ``max_bytes`` bounds the simulation's
    checkpoints (as a session's)."""
    sim = Simulation(scenario, VARIANTS, max_bytes=max_bytes)
    sim.seek(position)
    return render(scenario.name, state_message(sim.frame())["scene"])


def render(name: str, scene: dict) -> str:
    """The SVG of one scene (``state_message(frame)["scene"]``)."""
    count = len(scene["panes"])
    width = 2 * MARGIN + count * PANE_WIDTH + (count - 1) * GAP
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": str(width),
                             "font-family": "system-ui, 'DejaVu Sans', sans-serif", "font-size": "12"})
    background = node(svg, "rect", width="100%", height="100%", fill=COLOURS["bg"])
    node(svg, "title", f"{name}: {step_title(scene)}")
    node(svg, "text", name, x=MARGIN, y=30, font_size=18, font_weight="bold", fill=COLOURS["fg"])
    node(svg, "text", step_title(scene), x=MARGIN, y=52, fill=COLOURS["muted"], data_testid="step")
    panes = [pane(svg, variant, p, MARGIN + i * (PANE_WIDTH + GAP), 68)
             for i, (variant, p) in enumerate(scene["panes"].items())]
    bottom = max(bottom for _, bottom in panes)
    for rect, _ in panes:
        rect.set("height", str(bottom - 68))
    height = bottom + MARGIN
    svg.set("height", str(height))
    svg.set("viewBox", f"0 0 {width} {height}")
    background.set("height", str(height))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(svg, encoding="unicode") + "\n"


def step_title(scene: dict) -> str:
    """The picture's heading: which step it shows (this document's own frame around the scene's label)."""
    where = f"position {scene['position']} of {scene['total']}"
    step = scene["step"]
    return f"Step {step['index'] + 1}: {step['label']} ({where})" if step else f"Initial state ({where})"


def pane(svg, variant: str, scene_pane: dict, x: int, y: int) -> tuple[ET.Element, int]:
    """Draws one variant's pane; returns its frame (height set by the caller) and its bottom edge."""
    tone = scene_pane["tone"]
    group = node(svg, "g", data_variant=variant)
    frame = node(group, "rect", x=x, y=y, width=PANE_WIDTH, rx=8, fill=COLOURS["panel"], stroke=COLOURS["border"])
    node(group, "rect", x=x, y=y, width=PANE_WIDTH, height=5, fill=COLOURS[tone])
    left = x + PAD
    title = scene_pane["title"]
    node(group, "text", title, x=left, y=y + 26, font_size=15, font_weight="bold", fill=COLOURS[tone],
         data_testid="title")
    node(group, "text", scene_pane["tag"], x=left + len(title) * TITLE_CHAR_WIDTH + 10, y=y + 26,
         fill=COLOURS[tone], data_testid="tag")
    node(group, "text", scene_pane["clock"], x=left, y=y + 46, fill=COLOURS["muted"], data_testid="clock")
    node(group, "text", scene_pane["narration"]["title"], x=left, y=y + 66, font_weight="bold", fill=COLOURS["fg"],
         data_testid="narration")
    listing = scene_pane["list"]
    heading = " · ".join(t for t in (listing["name"], listing["count"], listing["note"]) if t)
    node(group, "text", heading, x=left, y=y + 90, fill=COLOURS["muted"])
    bottom = in_flight_list(node(group, "g", data_list=listing["name"]), listing, left, y + 100)
    bottom = lanes(group, scene_pane["lanes"], left, bottom + 16)
    return frame, bottom + PAD


ITEM_TONES = {"front": "muted", "ghost": "bug", "event": "fg", "pod": "fg"}  # colour of an item's first line


def hooks(it: dict) -> dict:
    """The page's data-* attributes of a list item."""
    if it["kind"] == "front":
        return {"data_front": "true"}
    if it["kind"] == "ghost":
        return {"data_removed_id": it["id"]}
    return {"data_entry": it["kind"], "data_id": it["id"]}


def in_flight_list(group, listing: dict, left: int, top: int) -> int:
    """The list as a row (wrapping) of its items, in the scene's order."""
    if not listing["items"]:
        node(group, "text", listing["empty"], x=left, y=top + 18, font_style="italic", fill=COLOURS["muted"])
        return top + 26
    flow = Flow(left, left + PANE_WIDTH - 2 * PAD, top)
    for it in listing["items"]:
        kind = it["kind"]
        lines = [it["label"]]
        if it.get("sub"):
            lines.append(" · ".join(t for t in (it["sub"], it.get("count")) if t))
        if it.get("unseen"):
            lines.append(it["unseen"])
        style = "unseen" if it.get("unseen") else kind
        item(group, flow, hooks(it), lines, ITEM_TONES[kind], style, it["markers"], it.get("title"))
    return flow.bottom()


BOX_STYLES = {  # fill, stroke, dash, corner radius
    "event": ("event-bg", "event-border", None, 4), "pod": ("pod-bg", "pod-border", None, 16),
    "unseen": ("event-bg", "bug", None, 4), "ghost": ("panel", "bug", "5 3", 4), "front": ("panel", "border", "2 2", 4),
}


def item(group, flow, attrs: dict, lines: list, tone: str, style: str, markers: list, title: str | None) -> None:
    labels = [short(line) for line in lines]
    marker_labels = [short(m["text"]) for m in markers]
    width = max(64, *(len(t) * CHAR_WIDTH + 16 for t in labels), *(len(t) * CHAR_WIDTH + 12 for t in marker_labels))
    box_height = 10 + 16 * len(labels)
    x, y = flow.place(width, box_height + 22 * len(markers))
    g = node(group, "g", **attrs)
    if title:
        node(g, "title", title)
    fill, stroke, dash, radius = BOX_STYLES[style]
    node(g, "rect", x=x, y=y, width=width, height=box_height, rx=radius, fill=COLOURS[fill], stroke=COLOURS[stroke],
         stroke_width=2, stroke_dasharray=dash)
    for i, text in enumerate(labels):
        node(g, "text", text, x=x + width / 2, y=y + 19 + 16 * i, text_anchor="middle",
             font_weight="bold" if i == 0 else None, fill=COLOURS["bug" if i >= 2 else tone if i == 0 else "muted"])
    for i, (m, text) in enumerate(zip(markers, marker_labels)):
        marker = node(g, "g", data_marker=m["pod"], data_detached="true" if m["detached"] else "false")
        top = y + box_height + 4 + 22 * i
        colour = COLOURS["bug" if m["detached"] else "accent"]
        node(marker, "rect", x=x, y=top, width=width, height=18, rx=4, fill=COLOURS["panel"], stroke=colour,
             stroke_dasharray="4 2" if m["detached"] else None)
        node(marker, "text", text, x=x + width / 2, y=top + 13, text_anchor="middle", font_weight="bold", fill=colour)
        node(marker, "title", m["title"])


def lanes(group, scene_lanes: list, left: int, top: int) -> int:
    """One row per lane: its colour bar, icon and label, then its chips (wrapping)."""
    for lane in scene_lanes:
        queue = lane["queue"]
        g = node(group, "g", data_queue=queue)
        node(g, "title", lane["help"])
        flow = Flow(left + LANE_LABEL_WIDTH, left + PANE_WIDTH - 2 * PAD, top + 4)
        for c in lane["chips"]:
            name, detail = short(c["pod"]), c["detail"]
            width = (len(name) + (len(detail) + 1 if detail else 0)) * CHAR_WIDTH + 18
            x, y = flow.place(width, 22)
            chip = node(g, "g", data_pod=c["pod"])
            node(chip, "title", c["title"])
            node(chip, "rect", x=x, y=y, width=width, height=22, rx=10, fill=COLOURS["panel"], stroke=COLOURS[queue],
                 stroke_width=2)
            text = node(chip, "text", name, x=x + 9, y=y + 15, font_weight="bold", fill=COLOURS["fg"])
            if detail:
                node(text, "tspan", detail, dx=CHAR_WIDTH, font_weight="normal", fill=COLOURS["muted"])
        bottom = max(flow.bottom(), top + 30)
        node(g, "rect", x=left, y=top, width=5, height=bottom - top, fill=COLOURS[queue])
        node(g, "text", lane["icon"], x=left + 12, y=top + 19, fill=COLOURS[queue])
        node(g, "text", lane["label"], x=left + 28, y=top + 19, font_weight="bold", fill=COLOURS["muted"])
        top = bottom + 6
    return top


class Flow:
    """Places boxes left to right, wrapping onto a new row at ``right``."""

    def __init__(self, left: float, right: float, top: float):
        self.left, self.right = left, right
        self.x, self.y, self.row_height = left, top, 0.0

    def place(self, width: float, height: float) -> tuple[float, float]:
        if self.x > self.left and self.x + width > self.right:
            self.x, self.y, self.row_height = self.left, self.y + self.row_height + ROW_GAP, 0.0
        position = (self.x, self.y)
        self.x += width + 8
        self.row_height = max(self.row_height, height)
        return position

    def bottom(self) -> float:
        return self.y + self.row_height


def short(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def node(parent, tag: str, text: str | None = None, **attrs) -> ET.Element:
    """A child element; attribute names use '_' for '-'; None attributes are left out; text is XML-safe."""
    element = ET.SubElement(parent, tag, {
        name.replace("_", "-"): xml_safe(str(value)) for name, value in attrs.items() if value is not None})
    if text is not None:
        element.text = xml_safe(text)
    return element


def xml_safe(text: str) -> str:
    return NOT_XML.sub("\ufffd", text)
