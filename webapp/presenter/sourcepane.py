"""What the page's source pane is given for one version: the map (webapp/sources/), the project's paraphrase of
each function with its anchors, each anchor's permalink, and the real text when the server has it cached."""

from __future__ import annotations

from typing import Any

from ..sources.maps import source_map
from ..sources.paraphrase import paraphrase
from .sourcelines import RECEIVED_EVENTS


def pane_payload(version: str, text: dict[str, Any] | None, links: bool = True) -> dict[str, Any]:
    """GET /api/sources/VERSION: ``text`` is the cache's offer (licence, functions' lines) or None. Without
    ``links`` (the offline file, which names no address) no URL is given: line numbers only."""
    m = source_map(version)
    functions = {f.name: {"first": f.first, "last": f.last, "file": f.path.rsplit("/", 1)[-1],
                          **({"permalink": m.permalink(f.first, f.last, f.path)} if links else {})}
                 for f in m.functions.values()}
    facts = m.as_json()
    if not links:
        facts["url"] = None
        for file in facts["files"].values():  # type: ignore[attr-defined]
            file["url"] = None
    family = paraphrase(version == RECEIVED_EVENTS, tuple(m.files))
    return {
        **facts,
        # a line whose anchor this version's text does not have, or has in another function, is left out
        "paraphrase": {name: [[anchor, line] for anchor, line in lines
                              if anchor is None or (anchor in m.anchors and m.anchors[anchor].function == name)]
                       for name, lines in family.items() if name in functions},
        "anchorLines": {a.key: a.lines[0] for a in m.anchors.values()},
        "anchorFunctions": {a.key: a.function for a in m.anchors.values()},
        "permalinks": functions,
        "text": text,
    }
