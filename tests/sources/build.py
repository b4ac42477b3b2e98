"""webapp/sources/releases/ made from the real files: each release's function ranges and anchor lines found in the
mirror of kubernetes/autoscaler (its vendored kube-scheduler, byte for byte the release's files), the hash of
every line named and the digest of each whole file. Run where the mirror is, after a change to tests/sources/anchors.py:

    .venv/bin/python -m tests.sources.build

tests/sources/test_maps_mirror.py recomputes everything here and compares it with the committed module.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.sources.anchors import ANCHORS, FUNCTIONS
from webapp.sources.types import BACKEND_FILES, INTERNAL_FILES, file_digest, line_hash

MIRROR = Path("/work/.mirror/kubernetes+autoscaler/repo")
VENDOR = "cluster-autoscaler/vendor/k8s.io/kubernetes/"
OUT = Path(__file__).resolve().parents[2] / "webapp" / "sources" / "releases"
# The release tags the mirror vendors: tag -> (the kubernetes/autoscaler revision that vendors it, the queue's files;
# the first holds PriorityQueue).
VENDORED = {
    "v1.28.0": ("cb95d464a5e35ed3edeb71982cf567809a64c150", INTERNAL_FILES),
    "v1.28.4": ("a91025aa1f408b57f14e8352b7089fd5987ad424", INTERNAL_FILES),
    "v1.29.9": ("cluster-autoscaler-release-1.29", INTERNAL_FILES),
    "v1.30.14": ("cluster-autoscaler-release-1.30", INTERNAL_FILES),
    "v1.31.13": ("cluster-autoscaler-release-1.31", INTERNAL_FILES),
    "v1.33.0-alpha.0": ("ee4fafa60fb043ae031b39a12ef3b9309299e5ca", BACKEND_FILES[:2]),  # no backoff_queue.go yet
    "v1.36.2": ("74a7d3b15e2f5c9e42901dd59e0b52abe6f8f40e", BACKEND_FILES),
}
LICENCE_END = "*/"


def git(*args: str) -> bytes:
    return subprocess.run(["git", "-C", str(MIRROR), *args], check=True, capture_output=True).stdout


def blob_at(revision: str, path: str) -> bytes:
    """The file's bytes as vendored (byte for byte the tag's file)."""
    return git("show", f"{revision}:{VENDOR}{path}")


def text_at(revision: str, path: str) -> str:
    return blob_at(revision, path).decode()


def vendored_tag(revision: str) -> str:
    modules = git("show", f"{revision}:cluster-autoscaler/vendor/modules.txt").decode()
    return re.search(r"^# k8s\.io/kubernetes (v\S+)$", modules, re.M).group(1)  # type: ignore[union-attr]


def declaration(name: str) -> re.Pattern[str]:
    """A function's `func` line: ``Receiver.name`` a method of that receiver, a bare name PriorityQueue's (or a
    plain function)."""
    receiver, _, bare = name.rpartition(".")
    return re.compile(rf"^func (\(\w+ \*?{receiver or 'PriorityQueue'}\) ){'' if receiver else '?'}{bare}\(")


def functions(lines: list[str]) -> dict[str, tuple[int, int]]:
    found = {}
    for name in FUNCTIONS:
        decl = declaration(name)
        first = next((i for i, line in enumerate(lines) if decl.match(line)), None)
        if first is not None:
            last = next(i for i in range(first, len(lines)) if lines[i] == "}")
            found[name] = (first + 1, last + 1)
    return found


def anchors(files: dict[str, list[str]], ranges: dict[str, tuple[str, int, int]]) -> dict[str, tuple[str, int]]:
    """Each anchor's function and line: the first of its functions whose lines (after its ``after`` anchor's, if
    named) hold one of its fragments."""
    found: dict[str, tuple[str, int]] = {}
    for key, (where, fragments, *after) in ANCHORS.items():
        if after and after[0] not in found:
            continue
        for function in (where,) if isinstance(where, str) else where:
            if function not in ranges or (after and found[after[0]][0] != function):
                continue
            path, first, last = ranges[function]
            if after:
                first = found[after[0]][1] + 1
            lines = files[path]
            hit = next((n for n in range(first, last + 1) if any(f in lines[n - 1] for f in fragments)), None)
            if hit is not None:
                found[key] = (function, hit)  # one line each
                break
    return found


def release(revision: str, paths: tuple[str, ...]) -> dict[str, object]:
    blobs = {path: blob_at(revision, path) for path in paths}
    files = {path: blob.decode().split("\n") for path, blob in blobs.items()}
    ranges: dict[str, tuple[str, int, int]] = {}
    for path, lines in files.items():
        ranges.update({name: (path, *span) for name, span in functions(lines).items() if name not in ranges})
    marks = anchors(files, ranges)
    facts = {}
    for path, lines in files.items():
        licence = (1, lines.index(LICENCE_END) + 1)
        own = {name: (first, last) for name, (p, first, last) in ranges.items() if p == path}
        named = {n for f in own.values() for n in f} | {n for f, n in marks.values() if ranges[f][0] == path}
        named |= set(range(licence[0], licence[1] + 1))
        facts[path] = {"licence": licence, "digest": file_digest(blobs[path]), "functions": own,
                       "hashes": {n: line_hash(lines[n - 1]) for n in sorted(named)}}
    return {"vendored": git("rev-parse", revision).decode().strip(), "files": facts, "anchors": marks}


def releases() -> dict[str, dict[str, object]]:
    found = {}
    for tag, (revision, paths) in VENDORED.items():
        assert vendored_tag(revision) == tag, (revision, vendored_tag(revision), tag)
        found[tag] = release(revision, paths)
    return found


def packed(items: list[str], per_line: int) -> list[str]:
    return ["    " + " ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]


def module_name(tag: str) -> str:
    return "v" + tag[1:].replace(".", "_").replace("-", "_")


def module_text(tag: str, r: dict[str, Any]) -> str:
    """One release's facts as a module of webapp/sources/releases/."""
    out = [f'"""{tag}: made by tests/sources/build.py from the real files (do not edit): the kubernetes/autoscaler',
           "commit that vendors it; per file the licence header's lines, the sha256 of the whole file, each function's",
           "first and last line and the hash of every line named (webapp/sources/types.py's line_hash); each anchor's",
           'line by function."""', "", f"VENDORED = {r['vendored']!r}",
           "FILES = {  # path -> (licence header's first and last line, sha256 of the file)"]
    out += [f"    {path!r}:\n        ({f['licence']!r}, {f['digest']!r})," for path, f in r["files"].items()]
    out.append("}")
    out.append("FUNCTIONS = {  # path -> {function: (first, last)}")
    for path, f in r["files"].items():
        out.append(f"    {path!r}: {{")
        out += packed([f"{k!r}: {v!r}," for k, v in f["functions"].items()], 2)
        out.append("    },")
    out.append("}")
    out.append("ANCHORS = {  # function -> {anchor: line}")
    by_function: dict[str, list[str]] = {}
    for k, (function, line) in r["anchors"].items():
        by_function.setdefault(function, []).append(f"{k!r}: {line},")
    for function, pairs in by_function.items():
        out.append(f"    {function!r}: {{")
        out += packed(pairs, 4)
        out.append("    },")
    out.append("}")
    out.append("HASHES = {  # path -> {line: hash}")
    for path, f in r["files"].items():
        out.append(f"    {path!r}: {{")
        out += packed([f"{n}: {h!r}," for n, h in f["hashes"].items()], 5)
        out.append("    },")
    out.append("}")
    return "\n".join(out) + "\n"


def modules() -> dict[Path, str]:
    """Each release's module, by its path."""
    return {OUT / f"{module_name(tag)}.py": module_text(tag, r) for tag, r in releases().items()}


if __name__ == "__main__":
    for path, text in modules().items():
        path.write_text(text)
        sys.stdout.write(f"wrote {path}\n")
