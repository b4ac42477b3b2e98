"""One variant's pane of the SVG export, in the page's visual language (app.css, renderer.js): the title, tag and
prominent time (the clock under it), the diagram — the in-flight list (the front slot, ghosts of removed elements,
the entries: walked ones highlighted, ghosts of entries this step removed faint and dashed with the scene's
``gone`` words, unseen ones shaded and labelled, markers under their items), the walk's hint, the four lanes side by
side (their shares of the row: the tokens') with their chips and timers (a ring and its seconds) and the pointers'
arrows (arrows.py) — then the caption line and the invariants."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from ..presenter.shapes import Chip, ChipMark, HintLine, Item, Pointer
from ..presenter.shapes import Pane as ScenePane
from .arrows import Marks, draw_pointers
from .draw import BOLD_WIDTH, CHAR_WIDTH, Flow, grown, node, paint, rounded, short, stripes, wrap
from .tokens import CHIP_CORNERS, LANE_SHARES, TYPE

PANE_WIDTH, PAD = 640, 14
LANE_GAP = 6
TAG_PX = TYPE["embed"]  # the tags drawn with an entry: the least diagram text, as an embedded page draws it
CHANNEL = 16  # room on a lane's right, beside its chips, where pointers leave it
QUEUE_COLOUR = {"activeQ": "active", "backoffQ": "backoff", "unschedulablePods": "unsched", "inFlight": "inflight"}
# a chip's marks (scene.py Chip.marks), each kind in its colour: (text and border, fill, dashed), as app.css .mark-*
MARK_COLOURS = {"early": ("backoff", "warn-bg", False), "error": ("bug", "panel", False),
                "gated": ("unsched", "bug-bg", False),
                "group": ("marker", "panel", False), "discarded": ("ghost", "panel", True)}
MARK_H, MARK_GAP = 16, 3
DECISION_COLOURS = {"QueueSkip": ("bug-bg", "bug"), "QueueAfterBackoff": ("warn-bg", "backoff"),
                    "QueueImmediately": ("fix-bg", "fix"), "Queue": ("fix-bg", "fix")}


def chars(room: float, per_char: float) -> int:
    """How many characters of the 11 px text, ``per_char`` wide each, fit in ``room`` as drawn (at least 4)."""
    return max(int(room / (per_char * grown(11))), 4)


class Pane:
    """One variant's pane: the head and the diagram when made, the caption and the invariants at ``finish``."""

    def __init__(self, svg: ET.Element, variant: str, scene_pane: ScenePane, x: float, y: float) -> None:
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
        tag_x, tag_w = left + len(title) * 12.5 + 12, len(scene_pane["tag"]) * 5.8 * grown(11) + 16
        tag = node(group, "g", data_testid="tag-pill")
        node(tag, "rect", x=tag_x, y=y + 18, width=tag_w, height=19, rx=9.5, fill=paint(f"{tone}-bg"))
        node(tag, "text", scene_pane["tag"], x=tag_x + tag_w / 2, y=y + 31.5, font_size=11, text_anchor="middle",
             fill=paint(tone), data_testid="tag")
        node(group, "text", scene_pane.get("time") or scene_pane["clock"].split(" · ")[0], x=right, y=y + 34,
             font_size=24, font_weight="bold", text_anchor="end", fill=paint("fg"), data_testid="pane-time")
        node(group, "text", scene_pane["clock"], x=right, y=y + 52, font_size=11, text_anchor="end",
             fill=paint("muted"), data_testid="clock")
        diagram = node(group, "g", data_testid="diagram")
        self.marks = Marks()  # where the list's items, the lanes and the chips are: what the arrows join
        bottom = self.listing(diagram, left, y + 62, right)
        bottom = self.lanes(diagram, left, bottom + 46, right)
        draw_pointers(node(diagram, "g", data_layer="pointers"), scene_pane["pointers"], self.marks)
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
        for said in p.get("unflushed") or ():
            for line in wrap(said, (PANE_WIDTH - 2 * PAD) / 7.6):
                node(self.group, "text", line, x=left, y=y, font_size=13, fill=paint("bug"),
                     data_testid="no-flush-warning")
                y += 18
        inv = p["invariants"]
        node(self.group, "text", inv["summary"], x=self.x + PANE_WIDTH - PAD, y=y, font_size=11, text_anchor="end",
             fill=paint("fix" if inv["ok"] else "bug"), data_testid="invariants")
        for broken in inv["broken"]:
            y += 16
            said = short(f"{broken['title']}: {broken['detail']}", chars(PANE_WIDTH - 2 * PAD, 6.8))
            node(self.group, "text", said, x=left, y=y, font_size=11, fill=paint("bug"))
        return y + PAD

    # --- the in-flight list -----------------------------------------------------------------------------
    def listing(self, diagram: ET.Element, left: float, top: float, right: float) -> float:
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
        self.marks.list_frame = (left, items_top - 8, right, bottom + 32)
        return bottom

    def hint(self, area: ET.Element, hint: HintLine, left: float, right: float, y: float) -> float:
        """The walk's line, "B: walked … → Decision", wrapped within left..right as the page wraps it (a long walk
        takes several lines; the decision's badge goes to a line of its own when it does not fit after the walk);
        one text element, so it reads as one line. Returns the baseline of its last line."""
        bold, char = BOLD_WIDTH * grown(12), CHAR_WIDTH * grown(12)  # the ordinary text's, as drawn
        indent = left + (len(hint["pod"]) + 2) * bold
        lines = wrap(hint["walked"], (right - indent) / char)
        badge = len(hint["decision"]) * bold + 8
        at, last = indent + (len(lines[-1]) + 1) * char, y + 18 * (len(lines) - 1)
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

    def item(self, area: ET.Element, flow: Flow, it: Item, reached_by: list[str] | None, follows: bool = False
             ) -> None:
        kind = it["kind"]
        if kind == "front":
            lines = []
            width = 36.0
        else:
            lines = [(short(it["label"]), "bold")]
            sub = " · ".join(t for t in (it.get("sub"), it.get("count")) if t)
            if sub:
                lines.append((short(sub), "normal"))
            per = {"bold": BOLD_WIDTH * grown(12), "normal": CHAR_WIDTH * grown(12)}
            width = max([64.0, *(len(t) * per[w] + 20 for t, w in lines)])
        tags = [(it["walkHint"], "walk")] if it.get("walkHint") else []
        tags += [(short(it["gone"]), "gone")] if it.get("ghost") and it.get("gone") else []
        tags += [(short(it["unseen"]), "unseen")] if it.get("unseen") else []
        tags += [(short(it["forText"]), "for")] if it.get("forPod") else []
        markers = [(m, short(m["text"])) for m in it.get("markers", ())]
        width = max([width, *(len(t) * BOLD_WIDTH * grown(TAG_PX) * TAG_PX / 12 + 12 for t, _ in tags),
                     *(len(t) * BOLD_WIDTH * grown(11) + 12 for _, t in markers)])
        box_h = 36.0 if kind == "front" else 10 + 16 * len(lines)
        stack_h = box_h + 20 * len(tags) + 21 * len(markers)
        lead = 22 if follows else 0
        x, y = flow.place(lead + width, stack_h)
        if follows:  # the arrow from the previous entry stays with this one when the row wraps
            node(area, "text", "→", x=x + 9, y=y + 22, text_anchor="middle", font_size=16, fill=paint("muted"))
            self.marks.entries.append(((x + 2, y + 8, x + 16, y + 26), None))  # the glyph's line box
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
            fill, colour = (DECISION_COLOURS.get(text, ("panel", "fg")) if what == "walk" else ("fix-bg", "fix")
                            if what == "for" else ("panel", "bug" if what == "unseen" else "ghost"))
            colour = paint(colour)
            node(g, "rect", x=x + 2, y=top, width=width - 4, height=16, rx=3, fill=paint(fill), stroke=colour,
                 stroke_dasharray="3 2" if what == "gone" else None, data_tag=what)
            node(g, "text", text, x=x + width / 2, y=top + 12, text_anchor="middle", font_size=TAG_PX,
                 font_weight="bold", fill=colour)
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
        self.marks.places[it["key"]] = (x, y, width, box_h, y + stack_h)
        self.marks.entries.append(((x, y, x + width, y + stack_h), it["key"]))

    def box(self, g: ET.Element, it: Item, x: float, y: float, width: float, height: float,
            lines: Sequence[tuple[str, str]], reached_by: list[str] | None) -> None:
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
    def lanes(self, diagram: ET.Element, left: float, top: float, right: float) -> float:
        """The four lanes side by side (app.css .lanes), each with its chips stacked."""
        lanes_ = self.scene["lanes"]
        unit = (right - left - LANE_GAP * (len(lanes_) - 1)) / sum(LANE_SHARES.get(lane["queue"], 1) for lane in lanes_)
        x, bottoms, frames = left, [], []
        for lane in lanes_:
            queue = lane["queue"]
            width = unit * LANE_SHARES.get(queue, 1)
            colour = paint(QUEUE_COLOUR.get(queue, "muted"))
            g = node(diagram, "g", data_queue=queue)
            node(g, "title", lane["help"])
            frame = node(g, "rect", x=x, y=top, width=width, rx=6, fill=paint("panel"), stroke=paint("border"))
            bar = node(g, "rect", x=x, y=top, width=5, rx=2, fill=colour)
            label = node(g, "text", None, x=x + 11, y=top + 17, font_size=11, font_weight="bold", fill=paint("muted"))
            node(label, "tspan", lane["icon"], fill=colour)
            node(label, "tspan", f" {short(lane['label'], chars(width - 30, 6.8))}")
            y = top + 26
            for c in lane["chips"]:
                if c.get("window"):  # 1.33+: a window of backoffQ over its first chip (app.css .window-rule)
                    y = window_rule(g, c["window"], x + 10, y, width - 16 - CHANNEL)
                y = self.chip(g, c, queue, x + 10, y, width - 16 - CHANNEL) + 6
            self.marks.lane_boxes[queue] = (x, top, width)
            bottoms.append(max(y, top + 56))
            frames.append((frame, bar))
            x += width + LANE_GAP
        bottom = max(bottoms)
        for frame, bar in frames:
            frame.set("height", str(bottom - top))
            bar.set("height", str(bottom - top))
        return bottom

    def chip(self, g: ET.Element, c: Chip, queue: str, x: float, y: float, width: float) -> float:
        timer, detail, marks = c.get("timer"), c.get("detail"), c.get("marks") or ()
        body = 40.0 if timer or detail else 24.0
        height = body + (MARK_GAP + len(marks) * (MARK_H + MARK_GAP) if marks else 0)
        colour = paint("ghost" if c.get("ghost") else QUEUE_COLOUR.get(queue, "muted"))
        chip = node(g, "g", data_pod=c["pod"], data_timer=timer["kind"] if timer else None,
                    data_head="true" if c.get("head") else None, data_ghost="true" if c.get("ghost") else None)
        node(chip, "title", c["title"])
        node(chip, "path", d=rounded(x, y, width, height, CHIP_CORNERS.get(queue, CHIP_CORNERS["activeQ"])),
             fill=paint("head-bg" if c.get("head") else "panel"), stroke=colour, stroke_width=2,
             stroke_dasharray="5 3" if c.get("ghost") else None)
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
            node(chip, "text", short(timer["text"], chars(width - 34, 6.2)), x=x + 28, y=y + 33, font_size=11,
                 font_weight="bold", fill=paint("fg"))
        elif detail:
            node(chip, "text", short(detail, chars(width - 16, 6.2)), x=x + 9, y=y + 33, font_size=11,
                 fill=paint("muted"))
        top = y + body
        for m in marks:  # (app.css .chip-mark)
            ink, fill, dashed = MARK_COLOURS.get(m["kind"], ("muted", "panel", False))
            mark = node(chip, "g", data_mark=m["kind"])
            node(mark, "title", m["title"])
            node(mark, "rect", x=x + 6, y=top, width=width - 12, height=MARK_H, rx=3, fill=paint(fill),
                 stroke=paint(ink), stroke_dasharray="3 2" if dashed else None)
            node(mark, "text", short(m["text"], max(int((width - 12) / 6.2), 4)), x=x + width / 2, y=top + 12,
                 text_anchor="middle", font_size=TAG_PX, font_weight="bold", fill=paint(ink))
            top += MARK_H + MARK_GAP
        self.marks.chips.append((c["pod"], queue, x, y, width, height))
        return y + height


def window_rule(g: ET.Element, window: ChipMark, x: float, y: float, width: float) -> float:
    """One of backoffQ's one-second windows: a dashed rule with its seconds, over the first chip in it; returns
    where that chip starts."""
    rule = node(g, "g", data_window=window["text"])
    node(rule, "title", window["title"])
    node(rule, "line", x1=x, y1=y, x2=x + width, y2=y, stroke=paint("backoff"), stroke_dasharray="3 2")
    node(rule, "text", short(window["text"], max(int(width / 6.4), 4)), x=x, y=y + 13, font_size=TAG_PX,
         font_weight="bold", fill=paint("backoff"))
    return y + MARK_H + MARK_GAP


def hooks(it: Item) -> dict[str, str | None]:
    """The page's data-* attributes of a list item (renderer.js)."""
    if it["kind"] == "front":
        return {"data_front": "true", "data_key": "front"}
    if it["kind"] == "ghost":
        return {"data_removed_id": it["id"], "data_key": it["key"]}
    return {"data_entry": it["kind"], "data_id": it["id"], "data_key": it["key"],
            "data_walked": "true" if it.get("walked") else None, "data_ghost": "true" if it.get("ghost") else None,
            "data_removed_id": it["id"] if it.get("ghost") else None,
            "data_unseen_by": " ".join(it["unseenBy"]) if it.get("unseenBy") else None}


def reached_by(items: Sequence[Item], pointers: Sequence[Pointer]) -> dict[str, list[str]]:
    """item key -> the pods whose (undecided) walk would visit it: the event entries of each pointer's
    [first, last] range, in list order."""
    keys = [it["key"] for it in items if it["kind"] == "event" and not it.get("ghost")]
    index = {key: i for i, key in enumerate(keys)}
    out: dict[str, list[str]] = {}
    for p in pointers:
        if not p["decided"] and p["reach"]:
            first, last = (index.get(k) for k in p["reach"])
            if first is not None and last is not None:
                for key in keys[first:last + 1]:
                    out.setdefault(key, []).append(p["pod"])
    return out
