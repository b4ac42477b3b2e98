"""export_svg(scenario, position): one position of a scenario as a standalone SVG, both variants side by side.

Drawn on the server from the same state message the browser renders: per variant the clock, the in-flight
list (entries with their ids; v1.28.1 markers under the element they point at, a detached marker under a
dashed ghost of its removed element), the four lanes with their pods, and the narration's title. Built with
ElementTree, so every text and attribute is escaped; characters XML cannot hold become U+FFFD. The groups
carry the page's data-* hooks (data-variant, data-entry, data-id, data-marker, data-detached, data-queue,
data-pod).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ..engine.session import Session
from ..model.variant import VARIANTS
from ..presenter import state_message

MARGIN, GAP, PANE_WIDTH, PAD = 20, 20, 600, 14
CHAR_WIDTH = 7.0  # of the 12 px sans-serif text, for layout
MAX_LABEL = 40  # longer names are cut with an ellipsis (the full name is in the element's <title>)
ROW_GAP = 10
COLOURS = {
    "bg": "#f6f7f9", "panel": "#ffffff", "fg": "#15191f", "muted": "#5a6472", "border": "#c9d0da",
    "accent": "#1f5fd1", "bug": "#b3261e", "bug-bg": "#fdecea", "fix": "#1d7a3a", "fix-bg": "#e6f4ea",
    "event-bg": "#eef2f8", "event-border": "#55657d", "pod-bg": "#e3f4e8", "pod-border": "#1d7a3a",
    "activeQ": "#1f5fd1", "backoffQ": "#a35c00", "unschedulablePods": "#b3261e", "inFlight": "#00796b",
}
TITLES = {"v1.28.1": ("v1.28.1 · marker into a shared event list", "bug"),
          "v1.28.2": ("v1.28.2 · every in-flight pod has its own entry", "fix")}
LANES = ("activeQ", "backoffQ", "unschedulablePods", "inFlight")
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def export_svg(scenario, position: int, max_bytes: int | None = None) -> str:
    """Raises IndexError for a position outside 0..len(scenario.steps); ``max_bytes`` bounds the simulation's
    checkpoints (as a session's)."""
    session = Session(max_bytes=max_bytes)
    session.load(scenario, VARIANTS, None)
    session.sim.seek(position)
    return render(scenario.name, state_message(session))


def render(name: str, msg: dict) -> str:
    width = 2 * MARGIN + len(msg["variants"]) * PANE_WIDTH + (len(msg["variants"]) - 1) * GAP
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": str(width),
                             "font-family": "system-ui, 'DejaVu Sans', sans-serif", "font-size": "12"})
    background = node(svg, "rect", width="100%", height="100%", fill=COLOURS["bg"])
    node(svg, "title", f"{name}: position {msg['position']} of {msg['total']}")
    node(svg, "text", name, x=MARGIN, y=30, font_size=18, font_weight="bold", fill=COLOURS["fg"])
    node(svg, "text", step_title(msg), x=MARGIN, y=52, fill=COLOURS["muted"], data_testid="step")
    panes = [pane(svg, variant, payload, MARGIN + i * (PANE_WIDTH + GAP), 68)
             for i, (variant, payload) in enumerate(msg["variants"].items())]
    bottom = max(bottom for _, bottom in panes)
    for rect, _ in panes:
        rect.set("height", str(bottom - 68))
    height = bottom + MARGIN
    svg.set("height", str(height))
    svg.set("viewBox", f"0 0 {width} {height}")
    background.set("height", str(height))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(svg, encoding="unicode") + "\n"


def step_title(msg: dict) -> str:
    where = f"position {msg['position']} of {msg['total']}"
    return f"Step {msg['step']['index'] + 1}: {msg['step']['label']} ({where})" if msg["step"] else f"Initial state ({where})"


def pane(svg, variant: str, payload: dict, x: int, y: int) -> tuple[ET.Element, int]:
    """Draws one variant's pane; returns its frame (height set by the caller) and its bottom edge."""
    state, view = payload["state"], payload["view"]
    tag, tone = TITLES[variant]
    group = node(svg, "g", data_variant=variant)
    frame = node(group, "rect", x=x, y=y, width=PANE_WIDTH, rx=8, fill=COLOURS["panel"], stroke=COLOURS["border"])
    node(group, "rect", x=x, y=y, width=PANE_WIDTH, height=5, fill=COLOURS[tone])
    left = x + PAD
    node(group, "text", tag, x=left, y=y + 26, font_size=15, font_weight="bold", fill=COLOURS[tone])
    clock = f"t = {seconds(view['now'])} · cycle {state['schedulingCycle']} · moveRequestCycle {state['moveRequestCycle']}"
    node(group, "text", clock, x=left, y=y + 46, fill=COLOURS["muted"], data_testid="clock")
    node(group, "text", payload["narration"]["title"], x=left, y=y + 66, font_weight="bold", fill=COLOURS["fg"],
         data_testid="narration")
    list_name = "receivedEvents" if variant == "v1.28.1" else "inFlightEvents"
    count = len(view["entries"])
    node(group, "text", f"{list_name} · {count} entr{'y' if count == 1 else 'ies'}", x=left, y=y + 90,
         fill=COLOURS["muted"])
    bottom = in_flight_list(node(group, "g", data_list=list_name), view, left, y + 100)
    bottom = lanes(group, state, view, left, bottom + 16)
    return frame, bottom + PAD


def in_flight_list(group, view: dict, left: int, top: int) -> int:
    """The list as a row (wrapping) of items: front-slot markers, ghosts of removed elements, entries."""
    by_key: dict[str, list] = {}
    for m in view.get("markers", []):
        key = f"ghost:{m['previousEvent']}" if m["detached"] else (m["previousEvent"] or "front")
        by_key.setdefault(key, []).append(m)
    unseen_by: dict[str, list] = {}
    for m in view.get("markers", []):
        for event_id in m["unseen"]:
            unseen_by.setdefault(event_id, []).append(m["pod"])
    flow = Flow(left, left + PANE_WIDTH - 2 * PAD, top)
    if "front" in by_key:
        item(group, flow, {"data_front": "true"}, ("nil",), "muted", "front", by_key["front"], "→ walks from the front")
    for key in (k for k in by_key if k.startswith("ghost:")):
        removed = key.removeprefix("ghost:")
        item(group, flow, {"data_removed_id": removed}, (removed, "removed"), "bug", "ghost", by_key[key], "Next() = nil")
    for entry in view["entries"]:
        attrs = {"data_entry": entry["kind"], "data_id": entry["id"]}
        if entry["kind"] == "pod":
            lines = (f"[{entry['pod']}]", "orphaned" if entry["orphaned"] else "pod entry")
        else:
            count = f" · n={entry['inFlightPodsNum']}" if "inFlightPodsNum" in entry else ""
            lines = (entry["event"], entry["id"] + count)
        unseen = unseen_by.get(entry["id"])
        style = "unseen" if unseen else entry["kind"]
        extra = [f"unseen by {', '.join(unseen)}"] if unseen else []
        item(group, flow, attrs, lines + tuple(extra), "fg", style, by_key.get(entry["id"], []))
    if not view["entries"] and not by_key:
        node(group, "text", "(empty)", x=left, y=top + 18, font_style="italic", fill=COLOURS["muted"])
        return top + 26
    return flow.bottom()


BOX_STYLES = {  # fill, stroke, dash, corner radius
    "event": ("event-bg", "event-border", None, 4), "pod": ("pod-bg", "pod-border", None, 16),
    "unseen": ("event-bg", "bug", None, 4), "ghost": ("panel", "bug", "5 3", 4), "front": ("panel", "border", "2 2", 4),
}


def item(group, flow, attrs: dict, lines: tuple, tone: str, style: str, markers: list, marker_note: str = "") -> None:
    labels = [short(line) for line in lines]
    width = max(64, max(len(t) for t in labels) * CHAR_WIDTH + 16)
    marker_labels = [marker_text(m, marker_note) for m in markers]
    width = max(width, *(len(t) * CHAR_WIDTH + 12 for t in marker_labels)) if marker_labels else width
    box_height = 10 + 16 * len(labels)
    x, y = flow.place(width, box_height + 22 * len(markers))
    g = node(group, "g", **attrs)
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
        node(marker, "title", f"{m['pod']}'s previousEvent marker" + (
            f" {m['previousEvent']} was removed: it cannot see {', '.join(m['unseen']) or 'later events'}"
            if m["detached"] else ""))


def marker_text(m: dict, note: str) -> str:
    return f"{short(m['pod'])} {'⇡' if m['detached'] else '↑'}{' ' + note if note else ''}"


def lanes(group, state: dict, view: dict, left: int, top: int) -> int:
    members = {"activeQ": state["activeQ"], "backoffQ": state["backoffQ"],
               "unschedulablePods": state["unschedulablePods"],
               "inFlight": [name for name, pod in view["pods"].items() if pod["where"] == "inFlight"]}
    label_width = 150
    for queue in LANES:
        lane = node(group, "g", data_queue=queue)
        flow = Flow(left + label_width, left + PANE_WIDTH - 2 * PAD, top + 4)
        for pod in members[queue]:
            text = short(pod)
            x, y = flow.place(len(text) * CHAR_WIDTH + 18, 22)
            chip = node(lane, "g", data_pod=pod)
            node(chip, "rect", x=x, y=y, width=len(text) * CHAR_WIDTH + 18, height=22, rx=10, fill=COLOURS["panel"],
                 stroke=COLOURS[queue], stroke_width=2)
            node(chip, "text", text, x=x + 9, y=y + 15, font_weight="bold", fill=COLOURS["fg"])
            node(chip, "title", pod)
        bottom = max(flow.bottom(), top + 30)
        node(lane, "rect", x=left, y=top, width=5, height=bottom - top, fill=COLOURS[queue])
        node(lane, "text", queue, x=left + 12, y=top + 19, font_weight="bold", fill=COLOURS["muted"])
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


def seconds(value: float) -> str:
    return f"{int(value) if float(value).is_integer() else f'{value:.2f}'} s"


def node(parent, tag: str, text: str | None = None, **attrs) -> ET.Element:
    """A child element; attribute names use '_' for '-'; None attributes are left out; text is XML-safe."""
    element = ET.SubElement(parent, tag, {
        name.replace("_", "-"): xml_safe(str(value)) for name, value in attrs.items() if value is not None})
    if text is not None:
        element.text = xml_safe(text)
    return element


def xml_safe(text: str) -> str:
    return NOT_XML.sub("\ufffd", text)
