"""story(): a scenario as an article's paragraphs, for the story mode (the embed's ``story=1``, the offline file's).

The first paragraph is the scenario at the start of the range (its name and description); then one paragraph per
position after it, holding the step that led there (its label and note). Each paragraph names its ``position``:
the page shows that position while the paragraph is the one being read (``static/js/scrolly.js``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from .words import step_label


class Paragraph(TypedDict):
    position: int
    label: str
    note: str


class Story(TypedDict):
    name: str
    description: str
    start: int
    paragraphs: list[Paragraph]


def story(name: str, description: str, steps: Sequence[Mapping[str, Any]],
          range_: tuple[int, int] | None = None) -> Story:
    """``steps`` as the scenario declares them; ``range_`` [from, to] (default: all of them)."""
    lo, hi = range_ or (0, len(steps))
    return {
        "name": name,
        "description": description,
        "start": lo,
        "paragraphs": [{"position": p, "label": step_label(steps[p - 1]), "note": steps[p - 1].get("note") or ""}
                       for p in range(lo + 1, hi + 1)],
    }
