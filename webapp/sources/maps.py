"""A source map per version the model reproduces (webapp/model/versions.py): the release tag whose text it is,
and, where the version is reconstructed rather than a tag's text, how it differs. The line facts come from
releases/ (made from the real files by tests/sources/build.py)."""

from __future__ import annotations

from ..errors import NotFound
from .releases import RELEASES
from .types import QUEUE_FILE, REPOSITORY, Anchor, Function, SourceMap

# #120334's lines in v1.28.4's Pop: the comment above the metrics loop and the line that clears the record's
# UnschedulablePlugins. v1.28.2 has neither.
_V1_28_4 = RELEASES["v1.28.4"]["anchors"]
V1_28_2_OMITTED = (_V1_28_4["Pop"]["pop.reset_comment"], _V1_28_4["Pop"]["pop.clear"])

# version -> (the tag whose text it is, how it is reconstructed or None, lines of that text it does not have)
SOURCES: dict[str, tuple[str, str | None, tuple[int, ...]]] = {
    "v1.28.1": ("v1.28.0", "The text is v1.28.0's (the release kubernetes/autoscaler vendors); the model "
                "reproduces v1.28.0 and v1.28.1 alike, both with receivedEvents and previousEvent markers.", ()),
    "v1.28.2": ("v1.28.4", f"v1.28.4's text without #120334's lines in Pop ({V1_28_2_OMITTED[0]}, its comment, "
                f"and {V1_28_2_OMITTED[1]}, which clears the record's UnschedulablePlugins): v1.28.2 has #120445's "
                "inFlightEvents list but not #120334.", V1_28_2_OMITTED),
    "v1.28.4": ("v1.28.4", None, ()),
    "v1.28.5": ("v1.28.4", "v1.28.4's text: #122291 turns SchedulerQueueingHints off by default in the feature "
                "gates, outside this file, so every step takes the gate-off branches.", ()),
    "v1.29.9": ("v1.29.9", None, ()),
    "v1.30.14": ("v1.30.14", None, ()),
    "v1.31.13": ("v1.31.13", None, ()),
}


def _build(version: str) -> SourceMap:
    tag, how, omitted = SOURCES[version]
    r = RELEASES[tag]
    functions = {name: Function(name, first, last) for name, (first, last) in r["functions"].items()}
    anchors = {key: Anchor(key, function, (line,)) for function, keys in r["anchors"].items()
               for key, line in keys.items() if line not in omitted}
    return SourceMap(version=version, repository=REPOSITORY, ref=tag, path=QUEUE_FILE, vendored=r["vendored"],
                     reconstructed=how, omitted=omitted, licence=r["licence"], functions=functions,
                     anchors=anchors, hashes=dict(r["hashes"]))


MAPS: dict[str, SourceMap] = {version: _build(version) for version in SOURCES}


MAX_NAMED = 24  # the longest unknown version an answer names (a URL's path can be thousands of characters)


def source_map(version: str) -> SourceMap:
    """The map of ``version``; an unknown version is NotFound."""
    if version not in MAPS:
        named = repr(version) if len(version) <= MAX_NAMED else f"of {len(version):,} characters"
        raise NotFound(f"no source map for version {named}: the versions are {', '.join(MAPS)}")
    return MAPS[version]


def tags() -> dict[str, SourceMap]:
    """One map per release tag (the text a fetch downloads), the first version that reads it."""
    found: dict[str, SourceMap] = {}
    for m in MAPS.values():
        found.setdefault(m.ref, m)
    return found
