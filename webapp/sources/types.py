"""The source map's types: a version's file, its functions and the anchors (the lines one branch runs)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

REPOSITORY = "kubernetes/kubernetes"
QUEUE_FILE = "pkg/scheduler/internal/queue/scheduling_queue.go"
HASH_HEX = 12  # a line's hash: the first 12 hex digits of sha256 of its text (no line ending)


def line_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:HASH_HEX]


@dataclass(frozen=True)
class Function:
    name: str
    first: int  # the line of its `func` declaration
    last: int  # the line of its closing brace


@dataclass(frozen=True)
class Anchor:
    """The lines one step of a function runs (``key``: what the presenter names, e.g. ``dh.marker_next``)."""

    key: str
    function: str
    lines: tuple[int, ...]


@dataclass(frozen=True)
class SourceMap:
    version: str  # the model's version name
    repository: str
    ref: str  # the release tag whose text the lines are of
    path: str  # the file, in the repository
    vendored: str  # where the lines were read and hashed: kubernetes/autoscaler commit (cluster-autoscaler/vendor/)
    reconstructed: str | None  # how the version differs from the text at ``ref``; None: it is that text
    omitted: tuple[int, ...]  # lines of ``ref`` the version does not have (a reconstructed version)
    licence: tuple[int, int]  # the licence header's first and last line
    functions: dict[str, Function]
    anchors: dict[str, Anchor]
    hashes: dict[int, str] = field(repr=False)  # every line named above -> line_hash(text)

    def url(self) -> str:
        """Where the user's machine fetches the text."""
        return f"https://raw.githubusercontent.com/{self.repository}/{self.ref}/{self.path}"

    def permalink(self, first: int, last: int | None = None) -> str:
        tail = f"#L{first}" + (f"-L{last}" if last and last != first else "")
        return f"https://github.com/{self.repository}/blob/{self.ref}/{self.path}{tail}"

    def as_json(self) -> dict[str, object]:
        """The interface of GET /api/sources/VERSION and `inflight-scope sources map VERSION`."""
        return {
            "version": self.version,
            "repository": self.repository,
            "ref": self.ref,
            "reconstructed": self.reconstructed,
            "omitted": list(self.omitted),
            "vendored": self.vendored,
            "url": self.url(),
            "licence": list(self.licence),
            "files": {self.path: {
                "functions": {f.name: [f.first, f.last] for f in self.functions.values()},
                "anchors": {a.key: {"function": a.function, "lines": list(a.lines)} for a in self.anchors.values()},
                "hashes": {str(n): h for n, h in sorted(self.hashes.items())},
            }},
        }
