"""The climax's two beats as pictures: the twin of ``playClimax`` (static/js/animate.js) for the animated exports.

A step forward plays on its new picture. Beat (a): the hint walk sweeps the entries it visited, one ``per`` each
(a ring in the ``visit`` colour round the entry, lifted), or flashes the removed element a detached marker names
(its box on ``bug-bg`` in a ``bug`` ring, two ``per``), while what the step's Done removed is still drawn solid (its
border unbroken, its "gone" tag not shown yet); ``hold`` later, beat (b): the ghosts take their ghost style, which
is the settled picture, the SVG export's. The times are the tokens' (``BEATS``), the page's at a step by hand.

A beat is plain data (``beats``); ``drawn`` changes the SVG export's drawing of the step through its data-* hooks,
as the page's animation finds its elements, in the theme's colours. Nothing else of the picture moves."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from ..presenter.shapes import Scene
from .tokens import BEATS, THEMES

SVG = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG)  # the drawing written back as it was read: SVG the default namespace
RING, LIFT = 6, 4  # px round a visited entry's box, and how far it rises (animate.js's keyframe at 40 %)
GHOST_DASH = "5 3"  # a ghost's box border (pane.py box)


@dataclass(frozen=True)
class Beat:
    ms: int
    rings: tuple[tuple[str, str], ...] = ()  # (variant, entry id): the entries the walk visits now
    flashes: tuple[tuple[str, str], ...] = ()  # (variant, removed id): the removed element a detached marker names
    solid: bool = True  # the ghosts still drawn solid


def beats(scene: Scene) -> list[Beat]:
    """The pictures of a step forward into ``scene`` before its settled one, each with its time: the walk's ticks
    (the panes' walks side by side, tick by tick, as playHintWalk and playClimax pace them), then the hold before
    the deferred Done. None for a scene that removed nothing and walked nothing."""
    per, hold = BEATS["per"], BEATS["hold"]
    walks = [(variant, walk) for variant, pane in scene["panes"].items() if (walk := pane["walk"])]
    ghosts = any(item.get("ghost") or item["kind"] == "ghost"
                 for pane in scene["panes"].values() for item in pane["list"]["items"])
    if not walks and not ghosts:
        return []
    ticks = max([len(w["ids"]) + 1 for _, w in walks if w["ids"]] + [2 for _, w in walks if w["nil"]] + [0])
    out = [Beat(per,
                tuple((variant, w["ids"][t]) for variant, w in walks if t < len(w["ids"])),
                tuple((variant, nil) for variant, w in walks if (nil := w["nil"]) and t < 2))
           for t in range(ticks)]
    return _merged([*out, Beat(hold)])


def _merged(sequence: list[Beat]) -> list[Beat]:
    """Consecutive beats that draw the same picture as one, their times added."""
    out: list[Beat] = []
    for beat in sequence:
        if out and (out[-1].rings, out[-1].flashes, out[-1].solid) == (beat.rings, beat.flashes, beat.solid):
            out[-1] = Beat(out[-1].ms + beat.ms, beat.rings, beat.flashes, beat.solid)
        else:
            out.append(beat)
    return out


def drawn(settled: ET.Element, beat: Beat, theme: str) -> ET.Element:
    """A copy of the step's settled drawing (the SVG export's, parsed) as ``beat`` shows it."""
    palette = THEMES[theme]
    root = copy.deepcopy(settled)
    panes = {g.get("data-variant"): g for g in root.iter(f"{{{SVG}}}g") if g.get("data-variant")}
    if beat.solid:
        for pane in panes.values():
            for entry in _groups(pane, "data-ghost", "true"):
                _solid(entry)
    for variant, entry_id in beat.rings:
        ringed = [g for g in _groups(panes.get(variant), "data-id", entry_id) if g.get("data-walked") == "true"]
        if ringed:
            _ringed(ringed[0], palette["visit"])
            ringed[0].set("transform", f"translate(0 {-LIFT})")
    for variant, removed_id in beat.flashes:
        removed = _groups(panes.get(variant), "data-removed-id", removed_id)
        box = _box(removed[0]) if removed else None
        if box is not None:
            box.set("fill", palette["bug-bg"])
            _ringed(removed[0], palette["bug"])
    return root


def _groups(pane: ET.Element | None, name: str, value: str) -> list[ET.Element]:
    return [] if pane is None else [g for g in pane.iter(f"{{{SVG}}}g") if g.get(name) == value]


def _box(entry: ET.Element | None) -> ET.Element | None:
    """An entry's box: its first rect with the box's border (pane.py box: a walk's halo and tags come without)."""
    if entry is None:
        return None
    return next((r for r in entry.findall(f"{{{SVG}}}rect") if r.get("stroke-width") == "2"), None)


def _solid(entry: ET.Element) -> None:
    """A ghost as it was before Done removed it: its border unbroken, its "gone" tag not shown."""
    box = _box(entry)
    if box is not None and box.get("stroke-dasharray") == GHOST_DASH:
        del box.attrib["stroke-dasharray"]
    children = list(entry)
    for i, child in enumerate(children):
        if child.get("data-tag") == "gone":
            for hidden in children[i:i + 2]:  # the tag's frame and its words
                hidden.set("opacity", "0")


def _ringed(entry: ET.Element, colour: str) -> None:
    box = _box(entry)
    if box is None:
        return
    x, y, w, h = (float(box.get(k, "0")) for k in ("x", "y", "width", "height"))
    radius = float(box.get("rx", "0")) + RING
    ring = ET.Element(f"{{{SVG}}}rect", {"x": f"{x - RING:g}", "y": f"{y - RING:g}", "width": f"{w + 2 * RING:g}",
                                          "height": f"{h + 2 * RING:g}", "rx": f"{radius:g}", "fill": colour,
                                          "data-beat": "ring"})
    entry.insert(list(entry).index(box), ring)  # under the box, over a walk's halo
