"""export_svg(scenario, position): one position of a scenario as a standalone SVG, both variants side by side.

Drawn on the server from the scene of the state message the browser renders (presenter/scene.py), in the
page's visual language (static/css/app.css, static/js/renderer.js and pointers.js): per variant the title,
tag and prominent time (the clock under it), the diagram — the in-flight list (the front slot, ghosts of
removed elements, the entries: walked ones highlighted, ghosts of entries this step removed faint and dashed
with the scene's ``gone`` words, unseen ones shaded and labelled, markers under their items), the walk's hint,
the four lanes side by side with their chips and timers (a ring and its seconds) and one arrow per pointer
from the pod's chip to its list item (a detached one dashed, broken and in the bug colour, ending at the
ghost; one whose curve would run over another entry goes round the entries instead, by the corners the page's
route.js finds: route.py) — then the caption line and the invariants; under the panes, the legend. Every word
comes from the scene; only the layout and the colours (the light theme of app.css) are decided here.

Built with ElementTree, so every text and attribute is escaped; characters XML cannot hold become U+FFFD. No
script, no reference outside the document (shapes, not markers or patterns). The groups carry the page's
data-* hooks: data-variant, data-testid (diagram, pane-time, caption, …), data-entry/data-id/data-key,
data-walked="true", data-ghost="true", data-removed-id, data-unseen-by, data-marker/data-detached,
data-queue with data-pod chips and data-timer, data-pointer/data-pod/data-target/data-key/data-route, data-legend.
"""

from __future__ import annotations

import math
from contextvars import ContextVar
import re
import xml.etree.ElementTree as ET

from ..engine.simulation import Simulation
from ..presenter import state_message
from .cut import Cut, Measured, place_cut
from .route import Budget, detour

MARGIN, GAP, PANE_WIDTH, PAD = 20, 20, 640, 14
CHAR_WIDTH = 7.0  # of the 12 px sans-serif text, for layout
BOLD_WIDTH = 7.6  # of the 12 px bold text
MAX_LABEL = 40  # longer texts are cut with an ellipsis (the hooks and the <title> keep the full name)
ROW_GAP = 14
LANE_SHARES = {"activeQ": 1.0, "backoffQ": 1.0, "unschedulablePods": 1.4, "inFlight": 1.0}  # app.css .lanes
LANE_GAP = 6
CHANNEL = 16  # room on a lane's right, beside its chips, where pointers leave it

# The light theme of static/css/app.css, by variable name (tests/export/test_svg.py compares them).
COLOURS = {
    "bg": "#f6f7f9", "panel": "#ffffff", "fg": "#15191f", "muted": "#5a6472", "border": "#c9d0da",
    "accent": "#1f5fd1", "active": "#1f5fd1", "head-bg": "#c5d9fb", "backoff": "#a35c00", "unsched": "#b3261e", "inflight": "#00796b",
    "event-bg": "#eef2f8", "event-border": "#55657d", "pod-bg": "#e3f4e8", "pod-border": "#1d7a3a",
    "bug": "#b3261e", "bug-bg": "#fdecea", "fix": "#1d7a3a", "fix-bg": "#e6f4ea", "visit": "#ffd54a",
    "ring-track": "#d3d9e1", "marker": "#1f5fd1", "walk": "#d49a00", "walk-bg": "#fff3c4",
    "unseen-a": "#f2dad7", "unseen-b": "#fbf1f0", "warn-bg": "#fff4e5", "ghost": "#677080",
}
# The dark theme of static/css/app.css, by the same names (light-dark()'s second colour).
DARK = {
    "bg": "#0f1318", "panel": "#171c23", "fg": "#e8edf3", "muted": "#a3aebb", "border": "#333d4a",
    "accent": "#6ea8ff", "active": "#7fb0ff", "head-bg": "#24406e", "backoff": "#ffb74d", "unsched": "#ff8a80",
    "inflight": "#4dd0c0", "event-bg": "#1f2833", "event-border": "#8aa0bd", "pod-bg": "#173323",
    "pod-border": "#6fd08f", "bug": "#ff8a80", "bug-bg": "#3a1d1b", "fix": "#7ee29b", "fix-bg": "#16301f",
    "visit": "#b8860b", "ring-track": "#3a4452", "marker": "#7fb0ff", "walk": "#ffcc33", "walk-bg": "#3d3000",
    "unseen-a": "#3b2222", "unseen-b": "#291a1a", "warn-bg": "#3a2a10", "ghost": "#8f99a6",
}
THEMES = {"light": COLOURS, "dark": DARK}
_palette: ContextVar[dict] = ContextVar("palette", default=COLOURS)  # the theme being drawn (a request's own)


def paint(name: str) -> str:
    """The colour ``name`` in the theme being drawn."""
    return _palette.get()[name]


QUEUE_COLOUR = {"activeQ": "active", "backoffQ": "backoff", "unschedulablePods": "unsched", "inFlight": "inflight"}
CHIP_CORNERS = {"activeQ": (11, 11, 11, 11), "backoffQ": (3, 3, 3, 3), "unschedulablePods": (0, 0, 0, 0),
                "inFlight": (11, 0, 11, 0)}  # top-left, top-right, bottom-right, bottom-left (app.css .chip-*)
DECISION_COLOURS = {"QueueSkip": ("bug-bg", "bug"), "QueueAfterBackoff": ("warn-bg", "backoff"),
                    "QueueImmediately": ("fix-bg", "fix"), "Queue": ("fix-bg", "fix")}
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def export_svg(scenario, position: int, max_bytes: int | None = None, versions=None, theme: str = "light") -> str:
    """Raises Invalid for a position outside 0..len(scenario.steps); ``max_bytes`` bounds the simulation's
    memory (as a session's); ``versions``: the panes (default: the ones the scenario opens on); ``theme``: a key
    of THEMES."""
    sim = Simulation(scenario, versions or scenario.versions, max_bytes=max_bytes)
    sim.seek(position)
    return render(scenario.name, state_message(sim.frame())["scene"], theme)


def render(name: str, scene: dict, theme: str = "light") -> str:
    """The SVG of one scene (``state_message(frame)["scene"]``) in ``theme``'s colours."""
    token = _palette.set(THEMES[theme])
    try:
        return _render(name, scene)
    finally:
        _palette.reset(token)


def _render(name: str, scene: dict) -> str:
    count = len(scene["panes"])
    width = 2 * MARGIN + count * PANE_WIDTH + (count - 1) * GAP
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": str(width),
                             "font-family": "system-ui, 'DejaVu Sans', sans-serif", "font-size": "12"})
    background = node(svg, "rect", width="100%", height="100%", fill=paint("bg"))
    node(svg, "title", f"{name}: {step_title(scene)}")
    node(svg, "text", name, x=MARGIN, y=30, font_size=18, font_weight="bold", fill=paint("fg"))
    node(svg, "text", step_title(scene), x=MARGIN, y=52, fill=paint("muted"), data_testid="step")
    top = 68
    panes = [Pane(svg, variant, p, MARGIN + i * (PANE_WIDTH + GAP), top)
             for i, (variant, p) in enumerate(scene["panes"].items())]
    diagram_bottom = max((p.bottom for p in panes), default=top)  # the captions line up under the diagrams
    bottom = max((p.finish(diagram_bottom) for p in panes), default=top)
    for p in panes:
        p.frame.set("height", str(bottom - top))
    bottom = legend(svg, scene.get("legend") or [], MARGIN, bottom + 14, width - 2 * MARGIN)
    height = math.ceil(bottom + MARGIN)
    svg.set("height", str(height))
    svg.set("viewBox", f"0 0 {width} {height}")
    background.set("height", str(height))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(svg, encoding="unicode") + "\n"


def step_title(scene: dict) -> str:
    """The picture's heading: which step it shows (this document's own frame around the scene's label)."""
    where = f"position {scene['position']} of {scene['total']}"
    step = scene["step"]
    return f"Step {step['index'] + 1}: {step['label']} ({where})" if step else f"Initial state ({where})"


class Pane:
    """One variant's pane: the head and the diagram when made, the caption and the invariants at ``finish``."""

    def __init__(self, svg, variant: str, scene_pane: dict, x: int, y: int):
        self.scene, self.x, self.y = scene_pane, x, y
        tone = scene_pane["tone"]
        self.group = group = node(svg, "g", data_variant=variant)
        self.frame = node(group, "rect", x=x, y=y, width=PANE_WIDTH, rx=8, fill=paint("panel"),
                          stroke=paint("border"))
        node(group, "rect", x=x, y=y, width=PANE_WIDTH, height=5, fill=paint(tone))
        left, right = x + PAD, x + PANE_WIDTH - PAD
        title = scene_pane["title"]
        node(group, "text", title, x=left, y=y + 32, font_size=20, font_weight="bold", fill=paint("fg"),
             data_testid="title")
        tag_x, tag_w = left + len(title) * 12.5 + 12, len(scene_pane["tag"]) * 5.8 + 16
        tag = node(group, "g", data_testid="tag-pill")
        node(tag, "rect", x=tag_x, y=y + 18, width=tag_w, height=19, rx=9.5, fill=paint(f"{tone}-bg"))
        node(tag, "text", scene_pane["tag"], x=tag_x + tag_w / 2, y=y + 31.5, font_size=11, text_anchor="middle",
             fill=paint(tone), data_testid="tag")
        node(group, "text", scene_pane.get("time") or scene_pane["clock"].split(" · ")[0], x=right, y=y + 34,
             font_size=24, font_weight="bold", text_anchor="end", fill=paint("fg"), data_testid="pane-time")
        node(group, "text", scene_pane["clock"], x=right, y=y + 52, font_size=11, text_anchor="end",
             fill=paint("muted"), data_testid="clock")
        diagram = node(group, "g", data_testid="diagram")
        self.places: dict[str, tuple] = {}  # list item key -> (box x, y, width, height, stack bottom)
        self.entries: list[tuple] = []  # the list's items and "→"s as the page's <li>s: (rect, item key or None)
        self.list_frame: tuple | None = None  # the rect a pointer's detour stays in (the page's .inflight-list)
        self.chips: list[tuple] = []  # (pod, queue, x, y, width, height)
        self.lane_boxes: dict[str, tuple] = {}  # queue -> (x, top, width) of its lane
        bottom = self.listing(diagram, left, y + 62, right)
        bottom = self.lanes(diagram, left, bottom + 46, right)
        self.pointers(node(diagram, "g", data_layer="pointers"))
        self.bottom = bottom

    def finish(self, top: float) -> float:
        """The caption under the diagram (from ``top``) and the invariants; returns the pane's bottom edge."""
        left, p = self.x + PAD, self.scene
        lines = wrap(p.get("caption") or p["narration"]["title"], (PANE_WIDTH - 2 * PAD) / 8.6)
        caption = node(self.group, "text", None, x=left, y=top + 24, font_size=15, font_weight="bold",
                       fill=paint("fg"), data_testid="caption")
        for i, line in enumerate(lines):
            node(caption, "tspan", line, x=left, dy=0 if i == 0 else 20)
        y = top + 24 + 20 * (len(lines) - 1) + 22
        inv = p["invariants"]
        node(self.group, "text", inv["summary"], x=self.x + PANE_WIDTH - PAD, y=y, font_size=11, text_anchor="end",
             fill=paint("fix" if inv["ok"] else "bug"), data_testid="invariants")
        for broken in inv["broken"]:
            y += 16
            node(self.group, "text", short(f"{broken['title']}: {broken['detail']}", 90), x=left, y=y, font_size=11,
                 fill=paint("bug"))
        return y + PAD

    # --- the in-flight list -----------------------------------------------------------------------------
    def listing(self, diagram, left: float, top: float, right: float) -> float:
        """The list area: its heading, the walk's hint, then its items in a wrapping row."""
        listing, hint = self.scene["list"], self.scene.get("hint")
        area = node(diagram, "g", data_list=listing["name"])
        frame = node(area, "rect", x=left, y=top, width=right - left, rx=8, fill="none", stroke=paint("border"),
                     stroke_dasharray="4 3")
        heading = node(area, "text", listing["name"], x=left + 10, y=top + 18, font_family="monospace",
                       fill=paint("fg"))
        for text in (listing["count"], listing["note"]):
            if text:
                node(heading, "tspan", f" · {text}", font_family="system-ui, 'DejaVu Sans', sans-serif",
                     fill=paint("muted"))
        y = top + 22
        if hint:
            y = self.hint(area, hint, left + 10, right - 10, y + 18)
        items_top = y + 14
        flow = Flow(left + 12, right - 12, items_top)
        if not listing["items"]:
            node(area, "text", listing["empty"], x=left + 12, y=y + 30, font_style="italic", fill=paint("muted"))
            bottom = y + 42
        else:
            reach = reached_by(listing["items"], self.scene.get("pointers", []))
            entries = 0
            for it in listing["items"]:
                follows = it["kind"] in ("event", "pod") and entries > 0  # drawn after a "→" from the previous entry
                entries += it["kind"] in ("event", "pod")
                self.item(area, flow, it, reach.get(it["key"]), follows)
            bottom = flow.bottom() + 8
        frame.set("height", str(bottom - top))
        # the runs round the entries stay in the list, but for a way under its last row (the page's list has room
        # there, this one's frame hugs its entries): in the gap down to the lanes, 12 px under the frame
        self.list_frame = (left, items_top - 8, right, bottom + 32)
        return bottom

    def hint(self, area, hint: dict, left: float, right: float, y: float) -> float:
        """The walk's line, "B: walked … → Decision", wrapped within left..right as the page wraps it (a long walk
        takes several lines; the decision's badge goes to a line of its own when it does not fit after the walk);
        one text element, so it reads as one line. Returns the baseline of its last line."""
        indent = left + (len(hint["pod"]) + 2) * BOLD_WIDTH
        lines = wrap(hint["walked"], (right - indent) / CHAR_WIDTH)
        badge = len(hint["decision"]) * BOLD_WIDTH + 8
        at, last = indent + (len(lines[-1]) + 1) * CHAR_WIDTH, y + 18 * (len(lines) - 1)
        below = at + badge > right
        if below:
            at, last = indent, last + 18
        bg, fg = DECISION_COLOURS.get(hint["decision"], ("panel", "fg"))
        node(area, "rect", x=at - 4, y=last - 13, width=badge, height=18, rx=4, fill=paint(bg))
        line = node(area, "text", None, x=left, y=y, data_hint_pod=hint["pod"], fill=paint("fg"))
        node(line, "tspan", f"{hint['pod']}: ", font_weight="bold")
        for k, words in enumerate(lines):
            space = " " if k < len(lines) - 1 or hint["walked"].endswith(" ") else ""
            node(line, "tspan", words + space, x=indent if k else None, dy=18 if k else None)
        node(line, "tspan", hint["decision"], x=at, dy=18 if below else None, font_weight="bold", fill=paint(fg))
        return last

    def item(self, area, flow, it: dict, reached_by: list | None, follows: bool = False) -> None:
        kind = it["kind"]
        if kind == "front":
            lines = []
            width = 36.0
        else:
            lines = [(short(it["label"]), "bold")]
            sub = " · ".join(t for t in (it.get("sub"), it.get("count")) if t)
            if sub:
                lines.append((short(sub), "normal"))
            width = max([64.0, *(len(t) * (BOLD_WIDTH if w == "bold" else CHAR_WIDTH) + 20 for t, w in lines)])
        tags = [(it["walkHint"], "walk")] if it.get("walkHint") else []
        tags += [(short(it["gone"]), "gone")] if it.get("ghost") and it.get("gone") else []
        tags += [(short(it["unseen"]), "unseen")] if it.get("unseen") else []
        markers = [(m, short(m["text"])) for m in it.get("markers", ())]
        width = max([width, *(len(t) * 6.7 + 12 for t, _ in tags), *(len(t) * BOLD_WIDTH + 12 for _, t in markers)])
        box_h = 36.0 if kind == "front" else 10 + 16 * len(lines)
        stack_h = box_h + 20 * len(tags) + 21 * len(markers)
        lead = 22 if follows else 0
        x, y = flow.place(lead + width, stack_h)
        if follows:  # the arrow from the previous entry stays with this one when the row wraps
            node(area, "text", "→", x=x + 9, y=y + 22, text_anchor="middle", font_size=16, fill=paint("muted"))
            self.entries.append(((x + 2, y + 8, x + 16, y + 26), None))  # the glyph's line box
            x += lead
        g = node(area, "g", **hooks(it))
        if it.get("title") or it.get("gone"):
            node(g, "title", it.get("title") or it["gone"])
        if kind == "front":
            cx = x + width / 2
            node(g, "circle", cx=cx, cy=y + 18, r=17, fill=paint("panel"), stroke=paint("marker"), stroke_width=2,
                 stroke_dasharray="4 3")
            node(g, "text", it["label"], x=cx, y=y + 22, text_anchor="middle", font_size=11, font_weight="bold",
                 fill=paint("marker"))
        else:
            self.box(g, it, x, y, width, box_h, lines, reached_by)
        top = y + box_h + 4
        for text, what in tags:  # (app.css .walk-tag, .gone-tag, .unseen-tag)
            fill, colour = (DECISION_COLOURS.get(text, ("panel", "fg")) if what == "walk"
                            else ("panel", "bug" if what == "unseen" else "ghost"))
            colour = paint(colour)
            node(g, "rect", x=x + 2, y=top, width=width - 4, height=16, rx=3, fill=paint(fill), stroke=colour,
                 stroke_dasharray="3 2" if what == "gone" else None, data_tag=what)
            node(g, "text", text, x=x + width / 2, y=top + 12, text_anchor="middle", font_size=10.5, font_weight="bold",
                 fill=colour)
            top += 20
        for m, text in markers:
            marker = node(g, "g", data_marker=m["pod"], data_detached="true" if m["detached"] else "false")
            colour = paint("bug" if m["detached"] else "marker")
            node(marker, "rect", x=x, y=top, width=width, height=17, rx=4, fill=paint("panel"), stroke=colour,
                 stroke_width=1.5, stroke_dasharray="4 2" if m["detached"] else None)
            node(marker, "text", text, x=x + width / 2, y=top + 12.5, text_anchor="middle", font_size=11,
                 font_weight="bold", fill=colour)
            node(marker, "title", m["title"])
            top += 21
        self.places[it["key"]] = (x, y, width, box_h, y + stack_h)
        self.entries.append(((x, y, x + width, y + stack_h), it["key"]))

    def box(self, g, it: dict, x, y, width, height, lines, reached_by) -> None:
        """An entry's box in its styles (app.css .entry.*): event / pod, walked, unseen, ghost (removed)."""
        kind, ghost, walked, unseen = it["kind"], it.get("ghost"), it.get("walked"), it.get("unseen")
        radius = 16 if kind == "pod" else 4
        fill, stroke, dash, text = {"event": ("event-bg", "event-border", None, "fg"),
                                    "pod": ("pod-bg", "pod-border", None, "fg"),
                                    "ghost": ("panel", "bug", "5 3", "ghost")}[kind]
        if it.get("orphaned"):
            stroke, dash = "bug", "2 2"
        if ghost:
            fill, stroke, dash, text = "panel", "ghost", "5 3", "ghost"
        if unseen:
            fill, stroke, text = "unseen-b", "bug", "fg"
        if walked:
            fill, stroke, text = "walk-bg", "walk", "fg"
            node(g, "rect", x=x - 5, y=y - 5, width=width + 10, height=height + 10, rx=radius + 4, fill=paint("walk"),
                 data_walk="true")
        elif reached_by:
            node(g, "rect", x=x - 4, y=y - 4, width=width + 8, height=height + 8, rx=radius + 3, fill="none",
                 stroke=paint("marker"), stroke_dasharray="2 2", data_reach_by=" ".join(reached_by))
        node(g, "rect", x=x, y=y, width=width, height=height, rx=radius, fill=paint(fill), stroke=paint(stroke),
             stroke_width=2, stroke_dasharray=dash)
        if unseen and not walked:  # the shading, then the border again over its ends
            stripes(g, x + 2, y + 2, width - 4, height - 4)
            node(g, "rect", x=x, y=y, width=width, height=height, rx=radius, fill="none", stroke=paint(stroke),
                 stroke_width=2, stroke_dasharray=dash)
        for i, (line, weight) in enumerate(lines):  # names are never struck through (the page's rule too)
            # a ghost's id in the ghost grey, but muted on gold or hatching (.entry.removed:is(.walked, .unseen) .eid)
            colour = paint(text if i == 0 else "bug" if kind == "ghost" else "ghost" if ghost and not (walked or unseen)
                             else "muted")
            ty = y + 19 + 16 * i
            node(g, "text", line, x=x + width / 2, y=ty, text_anchor="middle", font_weight=weight, fill=colour)

    # --- the lanes ------------------------------------------------------------------------------------
    def lanes(self, diagram, left: float, top: float, right: float) -> float:
        """The four lanes side by side (app.css .lanes), each with its chips stacked."""
        lanes_ = self.scene["lanes"]
        unit = (right - left - LANE_GAP * (len(lanes_) - 1)) / sum(LANE_SHARES.get(l["queue"], 1.0) for l in lanes_)
        x, bottoms, frames = left, [], []
        for lane in lanes_:
            queue = lane["queue"]
            width = unit * LANE_SHARES.get(queue, 1.0)
            colour = paint(QUEUE_COLOUR.get(queue, "muted"))
            g = node(diagram, "g", data_queue=queue)
            node(g, "title", lane["help"])
            frame = node(g, "rect", x=x, y=top, width=width, rx=6, fill=paint("panel"), stroke=paint("border"))
            bar = node(g, "rect", x=x, y=top, width=5, rx=2, fill=colour)
            label = node(g, "text", None, x=x + 11, y=top + 17, font_size=11, font_weight="bold", fill=paint("muted"))
            node(label, "tspan", lane["icon"], fill=colour)
            node(label, "tspan", f" {short(lane['label'], int((width - 30) / 6.8))}")
            y = top + 26
            for c in lane["chips"]:
                y = self.chip(g, c, queue, x + 10, y, width - 16 - CHANNEL) + 6
            self.lane_boxes[queue] = (x, top, width)
            bottoms.append(max(y, top + 56))
            frames.append((frame, bar))
            x += width + LANE_GAP
        bottom = max(bottoms)
        for frame, bar in frames:
            frame.set("height", str(bottom - top))
            bar.set("height", str(bottom - top))
        return bottom

    def chip(self, g, c: dict, queue: str, x: float, y: float, width: float) -> float:
        timer, detail = c.get("timer"), c.get("detail")
        height = 40.0 if timer or detail else 24.0
        colour = paint(QUEUE_COLOUR.get(queue, "muted"))
        chip = node(g, "g", data_pod=c["pod"], data_timer=timer["kind"] if timer else None,
                    data_head="true" if c.get("head") else None)
        node(chip, "title", c["title"])
        node(chip, "path", d=rounded(x, y, width, height, CHIP_CORNERS.get(queue, (11,) * 4)),
             fill=paint("head-bg" if c.get("head") else "panel"), stroke=colour, stroke_width=2)
        if queue == "backoffQ":  # app.css: a double border
            node(chip, "path", d=rounded(x + 3, y + 3, width - 6, height - 6, (1, 1, 1, 1)), fill="none", stroke=colour,
                 stroke_width=1)
        node(chip, "text", short(c["pod"], max(int((width - 16) / BOLD_WIDTH), 4)), x=x + 9, y=y + 17,
             font_size=13, font_weight="bold", fill=paint("fg"))
        if timer:
            fraction = max(0.0, min(1.0, float(timer.get("fraction") or 0.0)))
            cx, cy, r = x + 17, y + 29, 6.0
            around = 2 * math.pi * r
            ring = node(chip, "g", data_fraction=f"{fraction:.3f}")
            node(ring, "circle", cx=cx, cy=cy, r=r, fill="none", stroke=paint("ring-track"), stroke_width=3)
            node(ring, "circle", cx=cx, cy=cy, r=r, fill="none", stroke=colour, stroke_width=3,
                 stroke_dasharray=f"{fraction * around:.2f} {around:.2f}", transform=f"rotate(-90 {cx:g} {cy:g})")
            node(chip, "text", short(timer["text"], max(int((width - 34) / 6.2), 4)), x=x + 28, y=y + 33, font_size=11,
                 font_weight="bold", fill=paint("fg"))
        elif detail:
            node(chip, "text", short(detail, max(int((width - 16) / 6.2), 4)), x=x + 9, y=y + 33, font_size=11,
                 fill=paint("muted"))
        self.chips.append((c["pod"], queue, x, y, width, height))
        return y + height

    # --- the pointers ---------------------------------------------------------------------------------
    def pointers(self, layer) -> None:
        """One arrow per pointer, from its pod's chip (the in-flight one for a live pointer, where the pod went
        for a decided one) to the bottom of its list item's stack, drawn as pointers.js draws it: a curve, or
        where the curve would run over another entry, the way round the entries (route.py)."""
        arriving: dict[str, int] = {}
        arrows: list[dict] = []
        for p in self.scene.get("pointers", []):
            g = node(layer, "g", data_pointer=p["pod"], data_pod=p["pod"], data_target=p["target"], data_key=p["key"],
                     data_detached=str(p["detached"]).lower(), data_decided=str(p["decided"]).lower())
            node(g, "title", p.get("title") or p["text"])
            chip, place = self.chip_of(p["pod"], p["decided"]), self.places.get(p["key"])
            if chip is None or place is None:
                continue
            _, queue, cx, cy, cw, ch = chip
            lane_x, lane_top, lane_w = self.lane_boxes[queue]
            lanes_out = arriving.setdefault(f"lane:{queue}", 0)  # arrows leaving this lane so far
            arriving[f"lane:{queue}"] += 1
            channel = min(cx + cw + 6 + 4 * lanes_out, lane_x + lane_w - 4)
            x, y, width, _, stack_bottom = place
            n = arriving.get(p["key"], 0)
            arriving[p["key"]] = n + 1
            spread = min(14.0, width / 4)
            # 1.5 px under the stack (the page: under the box), so a detour can come up to it out of a row gap
            end = (x + width / 2 + (1 if n % 2 else -1) * math.ceil(n / 2) * spread, stack_bottom + 1.5)
            # out of the chip's right side into the lane's channel, up out of the lane, then on to the item
            s = (channel, lane_top - 6)
            arrows.append({"g": g, "p": p, "tail": (cx + cw + 1, cy + ch / 2), "via": [(channel, cy + ch / 2)], "s": s,
                           "end": end, "path": Curve(s, end).points(64), "corners": None})
        # As pointers.js: an arrow whose curve would run over another entry goes round the entries (and off the
        # other arrows, as drawn so far); if there is no way round, the curve it is.
        spend = Budget()
        for a in arrows:
            if not self.runs_over(a["path"], a["p"]["key"]):
                continue
            others = [q for b in arrows if b is not a for q in b["path"]]
            corners = detour(a["s"], a["end"], [rect for rect, _ in self.entries], self.list_frame, others, spend)
            if corners:
                a["corners"], a["path"] = corners, bends(corners)
        # As pointers.js: a detached arrow's cut (its gap, two bars and cross) goes where it has room, off the entries,
        # the other arrows' lines and the cuts placed before it (cut.py).
        for a in arrows:  # the run out of the lane (its corner rounded), then the approach (pointers.js lineOf)
            a["leg"] = bends([a["tail"], *a["via"], a["s"]])
            a["line"] = [*a["leg"], *a["path"][1:]]
            a["measured"] = Measured(a["line"])
        cuts = []
        for a in arrows:
            if a["p"]["detached"]:
                others = [b["line"] for b in arrows if b is not a]
                a["cut"] = place_cut(a["measured"], Measured(a["leg"]).length, [r for r, _ in self.entries], others,
                                     cuts)
                cuts.append(a["cut"])
        for a in arrows:
            a["g"].set("data-route", "curve" if a["corners"] is None else "detour")
            arrow(a["g"], a["measured"], a["corners"] is not None, a["p"]["detached"], a["p"]["decided"], a.get("cut"))

    def runs_over(self, path: list, key: str) -> bool:
        """Does the path come within 2 px of an entry other than its target (pointers.js runsOver)?"""
        return any(k != key and any(b[0] - 2 < x < b[2] + 2 and b[1] - 2 < y < b[3] + 2 for x, y in path)
                   for b, k in self.entries)

    def chip_of(self, pod: str, decided: bool):
        mine = [c for c in self.chips if c[0] == pod]
        preferred = [c for c in mine if (c[1] != "inFlight") == decided]
        return (preferred or mine or [None])[0]


def hooks(it: dict) -> dict:
    """The page's data-* attributes of a list item (renderer.js)."""
    if it["kind"] == "front":
        return {"data_front": "true", "data_key": "front"}
    if it["kind"] == "ghost":
        return {"data_removed_id": it["id"], "data_key": it["key"]}
    return {"data_entry": it["kind"], "data_id": it["id"], "data_key": it["key"],
            "data_walked": "true" if it.get("walked") else None, "data_ghost": "true" if it.get("ghost") else None,
            "data_removed_id": it["id"] if it.get("ghost") else None,
            "data_unseen_by": " ".join(it["unseenBy"]) if it.get("unseenBy") else None}


def arrow(g, line: Measured, detoured: bool, detached: bool, decided: bool, cut: Cut | None = None) -> None:
    """The arrow along ``line`` (from the chip's side out of the lane, then the curve or the detour up to the item)
    as pointers.js drawArrow draws it: the tail's dot, the line stopping 4 px short of the tip (under the head), a
    detached one dashed and cut where ``cut`` says (cut.py: a gap with two bars across it and a cross), and a head
    aimed from 10 px back along the line (a detour's straight up: its last run may be short)."""
    colour = paint("bug" if detached else "marker")
    style = {"fill": "none", "stroke": colour, "stroke_width": 3.5 if decided else 2.5, "stroke_linecap": "round",
             "stroke_dasharray": "7 5" if detached else None, "data_line": "true"}
    tail, end = line.points[0], line.length - 4
    node(g, "circle", cx=f"{tail[0]:.1f}", cy=f"{tail[1]:.1f}", r=3.5, fill=colour)
    for d0, d1 in ((0, cut.gap[0]), (cut.gap[1], end)) if cut else ((0, end),):
        pts = line.between(d0, d1)
        node(g, "path", d=" ".join(f"{'L' if i else 'M'}{x:.1f} {y:.1f}" for i, (x, y) in enumerate(pts)), **style)
    if cut:
        for (ax, ay), (bx, by) in cut.bars:
            node(g, "path", d=f"M{ax:.1f} {ay:.1f} L{bx:.1f} {by:.1f}", stroke=colour, stroke_width=3,
                 stroke_linecap="round", data_break="true")
        mx, my = cut.cross
        node(g, "text", "✕", x=f"{mx:.1f}", y=f"{my + 5:.1f}", text_anchor="middle", font_size=16, font_weight="bold",
             fill=colour)
    tip = line.point(line.length)
    back = (tip[0], tip[1] + 10) if detoured else line.point(line.length - 10)
    angle = math.atan2(tip[1] - back[1], tip[0] - back[0])
    wing = [(tip[0] - 12 * math.cos(angle + da), tip[1] - 12 * math.sin(angle + da)) for da in (0.42, -0.42)]
    node(g, "path", d=f"M{tip[0]:.1f} {tip[1]:.1f} " + " ".join(f"L{x:.1f} {y:.1f}" for x, y in wing) + " Z",
         fill=colour, data_head="true")


def bezier(p0: tuple, p1: tuple, p2: tuple, p3: tuple, t: float) -> tuple:
    """The point at ``t`` of a cubic Bézier."""
    u = 1 - t
    return (u ** 3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t ** 3 * p3[0],
            u ** 3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t ** 3 * p3[1])


class Curve:
    """An arrow's plain approach: a cubic from the top of its channel (``s``) up to the item (``e``), t in 0..1."""

    def __init__(self, s: tuple, e: tuple):
        dy = max(28.0, abs(s[1] - e[1]) * 0.5)
        self.controls = (s, (s[0], s[1] - dy), (e[0], e[1] + dy), e)

    def at(self, t: float) -> tuple:
        return bezier(*self.controls, t)

    def points(self, n: int) -> list:
        """``n`` + 1 points along it (pointers.js samples its curve at 64 steps to find entries it runs over)."""
        return [self.at(i / n) for i in range(n + 1)]


def bends(corners: list) -> list:
    """Points along a run of straight lines, each corner rounded: a quarter of a circle, radius at most 8 px
    (pointers.js rounded)."""
    out = [corners[0]]
    for a, c, b in zip(corners, corners[1:], corners[2:]):
        la, lb = math.hypot(c[0] - a[0], c[1] - a[1]), math.hypot(b[0] - c[0], b[1] - c[1])
        if not la or not lb:
            out.append(c)
            continue
        r = min(8, la / 2, lb / 2)
        start = (c[0] + (a[0] - c[0]) / la * r, c[1] + (a[1] - c[1]) / la * r)
        stop = (c[0] + (b[0] - c[0]) / lb * r, c[1] + (b[1] - c[1]) / lb * r)
        out += [bezier(start, c, c, stop, i / 6) for i in range(7)]  # near enough a circle's quarter
    out.append(corners[-1])
    return out


def stripes(g, x: float, y: float, width: float, height: float, step: float = 17.0) -> None:
    """The unseen shading (app.css --unseen-bg: 135° stripes, 6 px of each colour) as line segments clipped
    to the box (``step`` apart along an edge: the stripe and its gap are step / 2√2 wide)."""
    c = step / 2
    while c < width + height:
        # the line x' + y' = c in box coordinates, clipped to [0, width] x [0, height]
        x0, y0 = min(c, width), c - min(c, width)
        x1, y1 = c - min(c, height), min(c, height)
        node(g, "line", x1=f"{x + x0:.1f}", y1=f"{y + y0:.1f}", x2=f"{x + x1:.1f}", y2=f"{y + y1:.1f}",
             stroke=paint("unseen-a"), stroke_width=f"{step / (2 * math.sqrt(2)):.1f}")
        c += step


def rounded(x: float, y: float, w: float, h: float, corners: tuple) -> str:
    """A rectangle's path with its own radius per corner (top-left, top-right, bottom-right, bottom-left)."""
    tl, tr, br, bl = (min(r, w / 2, h / 2) for r in corners)
    return (f"M{x + tl:.1f} {y:.1f} H{x + w - tr:.1f} A{tr} {tr} 0 0 1 {x + w:.1f} {y + tr:.1f} "
            f"V{y + h - br:.1f} A{br} {br} 0 0 1 {x + w - br:.1f} {y + h:.1f} H{x + bl:.1f} "
            f"A{bl} {bl} 0 0 1 {x:.1f} {y + h - bl:.1f} V{y + tl:.1f} A{tl} {tl} 0 0 1 {x + tl:.1f} {y:.1f} Z")


# --- the legend ---------------------------------------------------------------------------------------
LEGEND_COLUMNS = 3


def legend(svg, items: list, left: float, top: float, width: float) -> float:
    """The scene's legend: each key drawn in its shape and colour, with its words; returns the bottom edge."""
    if not items:
        return top
    g = node(svg, "g", data_testid="legend")
    column = width / LEGEND_COLUMNS
    y = top
    for row in range(0, len(items), LEGEND_COLUMNS):
        height = 24.0
        for i, it in enumerate(items[row:row + LEGEND_COLUMNS]):
            x = left + i * column
            entry = node(g, "g", data_legend=it["key"])
            swatch(entry, it["key"], it["label"], x, y)
            lines = wrap(it["text"], (column - 130) / 6.0)
            text = node(entry, "text", None, x=x + 122, y=y + 15, font_size=11, fill=paint("fg"))
            for j, line in enumerate(lines):
                node(text, "tspan", line, x=x + 122, dy=0 if j == 0 else 14)
            height = max(height, 14 * len(lines) + 10)
        y += height + 4
    return y


def swatch(g, key: str, label: str, x: float, y: float) -> None:
    label = short(label, 14)
    if key in ("marker", "detached"):
        colour = paint("bug" if key == "detached" else "marker")
        node(g, "circle", cx=x + 3, cy=y + 11, r=3, fill=colour)
        dash = "5 3" if key == "detached" else None
        parts = ("M3 11 L16 11", "M26 11 L38 11") if key == "detached" else ("M3 11 L38 11",)
        for d in parts:
            node(g, "path", d=d, transform=f"translate({x:g} {y:g})", fill="none", stroke=colour, stroke_width=2.5,
                 stroke_dasharray=dash)
        if key == "detached":
            node(g, "path", d="M19 5 L17 17 M25 5 L23 17", transform=f"translate({x:g} {y:g})", stroke=colour,
                 stroke_width=2.5)
        node(g, "path", d="M46 11 L37 6 L37 16 Z", transform=f"translate({x:g} {y:g})", fill=colour)
        node(g, "text", label, x=x + 52, y=y + 15, font_size=11, font_weight="bold", fill=colour)
        return
    if key in ("wait", "backoff"):
        colour = paint("unsched" if key == "wait" else "backoff")
        cx, cy, r = x + 9, y + 11, 6.0
        around = 2 * math.pi * r
        node(g, "circle", cx=cx, cy=cy, r=r, fill="none", stroke=paint("ring-track"), stroke_width=3)
        node(g, "circle", cx=cx, cy=cy, r=r, fill="none", stroke=colour, stroke_width=3,
             stroke_dasharray=f"{(0.35 if key == 'wait' else 0.65) * around:.2f} {around:.2f}",
             transform=f"rotate(-90 {cx:g} {cy:g})")
        node(g, "text", label, x=x + 20, y=y + 15, font_size=11, font_weight="bold", fill=paint("fg"))
        return
    fill, stroke, dash, text, radius = {
        "event": ("event-bg", "event-border", None, "fg", 4), "pod-entry": ("pod-bg", "pod-border", None, "fg", 10),
        "walk": ("walk-bg", "walk", None, "fg", 4), "unseen": ("unseen-b", "bug", None, "bug", 4),
        "ghost": ("panel", "ghost", "4 3", "ghost", 4), "tag": ("panel", "marker", None, "marker", 4),
        "front": ("panel", "marker", "4 3", "marker", 10), "head": ("head-bg", "active", None, "fg", 10),
        "reach": ("event-bg", "event-border", None, "fg", 4)}.get(key, ("panel", "border", None, "fg", 4))
    width = len(label) * BOLD_WIDTH * 0.92 + 14
    if key == "walk":
        node(g, "rect", x=x - 3, y=y - 1, width=width + 6, height=26, rx=6, fill=paint("walk"))
    if key == "reach":  # the dotted outline of an entry a walk would visit (app.css .entry.in-reach)
        node(g, "rect", x=x - 3, y=y - 1, width=width + 6, height=26, rx=6, fill="none", stroke=paint("marker"),
             stroke_dasharray="2 2")
    node(g, "rect", x=x, y=y + 2, width=width, height=20, rx=radius, fill=paint(fill), stroke=paint(stroke),
         stroke_width=2, stroke_dasharray=dash)
    if key == "unseen":
        stripes(g, x + 2, y + 4, width - 4, 16, 11.0)
        node(g, "rect", x=x, y=y + 2, width=width, height=20, rx=radius, fill="none", stroke=paint(stroke),
             stroke_width=2)
    node(g, "text", label, x=x + width / 2, y=y + 16, font_size=11, font_weight="bold", text_anchor="middle",
         fill=paint(text))


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


def wrap(text: str, chars: float) -> list[str]:
    """Words into lines of at most ``chars`` characters (a longer word is cut)."""
    limit = max(int(chars), 8)
    lines: list[str] = []
    for word in text.split():
        word = short(word, limit)
        if lines and len(lines[-1]) + 1 + len(word) <= limit:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def short(text: str, limit: int = MAX_LABEL) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def node(parent, tag: str, text: str | None = None, **attrs) -> ET.Element:
    """A child element; attribute names use '_' for '-'; None attributes are left out; text is XML-safe."""
    element = ET.SubElement(parent, tag, {
        name.replace("_", "-"): xml_safe(str(value)) for name, value in attrs.items() if value is not None})
    if text is not None:
        element.text = xml_safe(text)
    return element


def xml_safe(text: str) -> str:
    return NOT_XML.sub("\ufffd", text)


def reached_by(items: list, pointers: list) -> dict:
    """item key -> the pods whose (undecided) walk would visit it: the event entries of each pointer's
    [first, last] range, in list order."""
    keys = [it["key"] for it in items if it["kind"] == "event" and not it.get("ghost")]
    index = {key: i for i, key in enumerate(keys)}
    out: dict = {}
    for p in pointers:
        if not p["decided"] and p["reach"]:
            first, last = (index.get(k) for k in p["reach"])
            if first is not None and last is not None:
                for key in keys[first:last + 1]:
                    out.setdefault(key, []).append(p["pod"])
    return out
