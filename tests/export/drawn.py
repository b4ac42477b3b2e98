"""Reading back what an exported SVG draws."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from webapp.export.preset import WIDTH

SVG = "{http://www.w3.org/2000/svg}"


def path_pieces(d: str) -> list[list[tuple]]:
    """The pieces (M x y L x y …) of a path's d as lists of points (a closing Z left out)."""
    words = d.replace("M", " M ").replace("L", " L ").replace("Z", " ").split()
    pieces: list[list[tuple]] = []
    for i in range(0, len(words), 3):
        command, x, y = words[i:i + 3]
        if command == "M":
            pieces.append([])
        pieces[-1].append((float(x), float(y)))
    return pieces


def font_sizes(svg: str, width: int = WIDTH) -> list[tuple[float, str]]:
    """Each text's drawn font size in pixels with the picture ``width`` px wide (its own or inherited font-size,
    times the picture's scale), with its words."""
    root = ET.fromstring(svg)
    scale = width / float(root.get("viewBox").split()[2])
    out = []

    def walk(element, inherited):
        size = float(element.get("font-size", inherited))
        words = "".join(element.itertext()).strip()
        if element.tag == f"{SVG}text" and words:
            out.append((size * scale, words))
        for child in element:
            walk(child, size)

    walk(root, 16.0)  # an SVG's default, never reached: the root names its size
    return out


def legend_share(svg: str) -> float:
    """The share of the picture's height from the legend's top down (0 without a legend)."""
    root = ET.fromstring(svg)
    legend = [g for g in root.iter(f"{SVG}g") if g.get("data-testid") == "legend"]
    if not legend:
        return 0.0
    top = min(float(t.get("y")) for t in legend[0].iter(f"{SVG}text"))
    height = float(root.get("viewBox").split()[3])
    return (height - top) / height
