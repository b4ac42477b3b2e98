"""A source map per version the model reproduces (webapp/model/versions.py): the release tag whose text it is,
and, where the version is reconstructed rather than a tag's text, how it differs. The line facts come from
releases/ (made from the real files by tests/sources/build.py)."""

from __future__ import annotations

from ..errors import NotFound
from .releases import RELEASES
from .types import REPOSITORY, Anchor, Function, SourceFile, SourceMap

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
    "v1.32.0": ("v1.33.0-alpha.0", "The text is v1.33.0-alpha.0's, the tag put on master when release-1.32 was "
                "branched (kubernetes/autoscaler ee4fafa6 vendors it): the 1.32 queue, verified on that tree; "
                "v1.32.0's own files are not checked here.", ()),
    "v1.36.2": ("v1.36.2", None, ()),
}


def _build(version: str) -> SourceMap:
    tag, how, omitted = SOURCES[version]
    r = RELEASES[tag]
    files = {path: SourceFile(path, f["licence"], f["digest"], dict(f["hashes"])) for path, f in r["files"].items()}
    functions = {name: Function(name, path, first, last) for path, f in r["files"].items()
                 for name, (first, last) in f["functions"].items()}
    first = next(iter(files))  # the file ``omitted`` names lines of
    anchors = {key: Anchor(key, function, (line,)) for function, keys in r["anchors"].items()
               for key, line in keys.items() if not (line in omitted and functions[function].path == first)}
    return SourceMap(version=version, repository=REPOSITORY, ref=tag, vendored=r["vendored"], reconstructed=how,
                     omitted=omitted, files=files, functions=functions, anchors=anchors)


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
