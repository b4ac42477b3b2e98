"""Reading back what an exported SVG draws."""

from __future__ import annotations


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
