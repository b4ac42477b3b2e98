"""The source map's types: a version's files, their functions and the anchors (the lines one branch runs)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

REPOSITORY = "kubernetes/kubernetes"
# The queue's files: one up to 1.31; from 1.32 (pkg/scheduler/backend/queue) PriorityQueue's file first, then the
# queues it holds (backoff_queue.go from 1.33 on).
INTERNAL_FILES = ("pkg/scheduler/internal/queue/scheduling_queue.go",)
BACKEND_FILES = tuple(f"pkg/scheduler/backend/queue/{name}.go"
                      for name in ("scheduling_queue", "active_queue", "backoff_queue"))
HASH_HEX = 12  # a line's hash: the first 12 hex digits of sha256 of its text (no line ending)


def line_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:HASH_HEX]


def file_digest(data: bytes) -> str:
    """A whole file's digest: sha256 of its bytes, in hex."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Function:
    name: str  # a PriorityQueue method by its name; another queue's as Receiver.name (activeQueue.pop)
    path: str  # its file, in the repository
    first: int  # the line of its `func` declaration
    last: int  # the line of its closing brace


@dataclass(frozen=True)
class Anchor:
    """The lines one step of a function runs (``key``: what the presenter names, e.g. ``dh.marker_next``)."""

    key: str
    function: str
    lines: tuple[int, ...]


@dataclass(frozen=True)
class SourceFile:
    path: str  # in the repository
    licence: tuple[int, int]  # the licence header's first and last line
    digest: str  # file_digest of the whole file at the tag
    hashes: dict[int, str] = field(repr=False)  # every line named in this file -> line_hash(text)


@dataclass(frozen=True)
class SourceMap:
    version: str  # the model's version name
    repository: str
    ref: str  # the release tag whose text the lines are of
    vendored: str  # where the lines were read and hashed: kubernetes/autoscaler commit (cluster-autoscaler/vendor/)
    reconstructed: str | None  # how the version differs from the text at ``ref``; None: it is that text
    omitted: tuple[int, ...]  # lines of the first file the version does not have (a reconstructed version)
    files: dict[str, SourceFile]  # the first holds PriorityQueue
    functions: dict[str, Function]
    anchors: dict[str, Anchor]

    @property
    def path(self) -> str:
        """The file PriorityQueue is in (scheduling_queue.go)."""
        return next(iter(self.files))

    @property
    def licence(self) -> tuple[int, int]:
        return self.files[self.path].licence

    def url(self, path: str | None = None) -> str:
        """Where the user's machine fetches a file (the first, unless named)."""
        return f"https://raw.githubusercontent.com/{self.repository}/{self.ref}/{path or self.path}"

    def permalink(self, first: int, last: int | None = None, path: str | None = None) -> str:
        tail = f"#L{first}" + (f"-L{last}" if last and last != first else "")
        return f"https://github.com/{self.repository}/blob/{self.ref}/{path or self.path}{tail}"

    def line_of(self, anchor: Anchor) -> tuple[str, int]:
        """The file and line an anchor names."""
        return self.functions[anchor.function].path, anchor.lines[0]

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
            "files": {path: {
                "url": self.url(path),
                "sha256": f.digest,
                "licence": list(f.licence),
                "functions": {fn.name: [fn.first, fn.last] for fn in self.functions.values() if fn.path == path},
                "anchors": {a.key: {"function": a.function, "lines": list(a.lines)} for a in self.anchors.values()
                            if self.functions[a.function].path == path},
                "hashes": {str(n): h for n, h in sorted(f.hashes.items())},
            } for path, f in self.files.items()},
        }
