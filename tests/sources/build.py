"""webapp/sources/releases/ made from the real files: each release's function ranges and anchor lines found in the
mirror of kubernetes/autoscaler (its vendored kube-scheduler, byte for byte the release's file), and the hash of
every line named. Run where the mirror is, after a change to tests/sources/anchors.py:

    .venv/bin/python -m tests.sources.build

tests/sources/test_maps_mirror.py recomputes everything here and compares it with the committed module.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.sources.anchors import ANCHORS, FUNCTIONS
from webapp.sources.types import QUEUE_FILE, line_hash

MIRROR = Path("/work/.mirror/kubernetes+autoscaler/repo")
VENDOR = "cluster-autoscaler/vendor/k8s.io/kubernetes/"
OUT = Path(__file__).resolve().parents[2] / "webapp" / "sources" / "releases"
# The release tags the mirror vendors: tag -> the kubernetes/autoscaler revision that vendors it.
VENDORED = {
    "v1.28.0": "cb95d464a5e35ed3edeb71982cf567809a64c150",
    "v1.28.4": "a91025aa1f408b57f14e8352b7089fd5987ad424",
    "v1.29.9": "cluster-autoscaler-release-1.29",
    "v1.30.14": "cluster-autoscaler-release-1.30",
    "v1.31.13": "cluster-autoscaler-release-1.31",
}
LICENCE_END = "*/"


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(MIRROR), *args], check=True, capture_output=True, text=True).stdout


def text_at(revision: str) -> str:
    return git("show", f"{revision}:{VENDOR}{QUEUE_FILE}")


def vendored_tag(revision: str) -> str:
    modules = git("show", f"{revision}:cluster-autoscaler/vendor/modules.txt")
    return re.search(r"^# k8s\.io/kubernetes (v\S+)$", modules, re.M).group(1)  # type: ignore[union-attr]


def functions(lines: list[str]) -> dict[str, tuple[int, int]]:
    found = {}
    for name in FUNCTIONS:
        decl = re.compile(rf"^func (\(\w+ \*?\w+\) )?{name}\(")
        first = next((i for i, line in enumerate(lines) if decl.match(line)), None)
        if first is not None:
            last = next(i for i in range(first, len(lines)) if lines[i] == "}")
            found[name] = (first + 1, last + 1)
    return found


def anchors(lines: list[str], ranges: dict[str, tuple[int, int]]) -> dict[str, tuple[str, tuple[int, ...]]]:
    found = {}
    for key, (function, fragments, *after) in ANCHORS.items():
        if function not in ranges or (after and after[0] not in found):
            continue
        first, last = ranges[function]
        if after:
            first = found[after[0]][1][0] + 1
        hit = next((n for n in range(first, last + 1) if any(f in lines[n - 1] for f in fragments)), None)
        if hit is not None:
            found[key] = (function, (hit,))  # one line each
    return found


def release(revision: str) -> dict[str, object]:
    lines = text_at(revision).split("\n")
    ranges = functions(lines)
    marks = anchors(lines, ranges)
    licence = (1, lines.index(LICENCE_END) + 1)
    named = {n for f in ranges.values() for n in f} | {n for _, ls in marks.values() for n in ls}
    named |= set(range(licence[0], licence[1] + 1))
    return {"vendored": git("rev-parse", revision).strip(), "licence": licence, "functions": ranges,
            "anchors": marks, "hashes": {n: line_hash(lines[n - 1]) for n in sorted(named)}}


def releases() -> dict[str, dict[str, object]]:
    found = {}
    for tag, revision in VENDORED.items():
        assert vendored_tag(revision) == tag, (revision, vendored_tag(revision), tag)
        found[tag] = release(revision)
    return found


def packed(items: list[str], per_line: int) -> list[str]:
    return ["    " + " ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]


def module_name(tag: str) -> str:
    return "v" + tag[1:].replace(".", "_")


def module_text(tag: str, r: dict[str, object]) -> str:
    """One release's facts as a module of webapp/sources/releases/."""
    out = [f'"""{tag}: made by tests/sources/build.py from the real file (do not edit): the kubernetes/autoscaler',
           "commit that vendors it, the licence header's lines, each function's first and last line, each anchor's",
           "line by function, and the hash of every line named (webapp/sources/types.py's line_hash).\"\"\"", "",
           f"VENDORED = {r['vendored']!r}", f"LICENCE = {r['licence']!r}", "FUNCTIONS = {"]
    out += packed([f"{k!r}: {v!r}," for k, v in r["functions"].items()], 2)  # type: ignore[attr-defined]
    out.append("}")
    out.append("ANCHORS = {  # function -> {anchor: line}")
    by_function: dict[str, list[str]] = {}
    for k, (function, (line,)) in r["anchors"].items():  # type: ignore[attr-defined]
        by_function.setdefault(function, []).append(f"{k!r}: {line},")
    for function, pairs in by_function.items():
        out.append(f"    {function!r}: {{")
        out += packed(pairs, 4)
        out.append("    },")
    out.append("}")
    out.append("HASHES = {")
    out += packed([f"{n}: {h!r}," for n, h in r["hashes"].items()], 5)  # type: ignore[attr-defined]
    out.append("}")
    return "\n".join(out) + "\n"


def modules() -> dict[Path, str]:
    """Each release's module, by its path."""
    return {OUT / f"{module_name(tag)}.py": module_text(tag, r) for tag, r in releases().items()}


if __name__ == "__main__":
    for path, text in modules().items():
        path.write_text(text)
        sys.stdout.write(f"wrote {path}\n")
