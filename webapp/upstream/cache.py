"""`inflight-scope sources fetch`: a release's queue files fetched from upstream at its tag (raw.githubusercontent
by default; the transport passes the sources_url setting as ``base`` for a mirror), each verified whole against the
map's digest of the file (webapp/sources/), and kept in ``store``, the sources_cache setting (the user's cache
directory: webapp/server/settings.py reads it). The licence header is kept with the text and shown with it. The
page never fetches: the server offers what is cached (``cached()``), verified again."""

from __future__ import annotations

from pathlib import Path

from ..errors import UserError
from ..sources.maps import MAPS, source_map, tags
from ..sources.types import SourceMap, file_digest, line_hash
from .download import download


class Mismatch(UserError):
    """The text fetched is not the release's: its digest, or a line the map names, differs."""


def cache_path(m: SourceMap, store: Path, path: str) -> Path:
    return store / m.repository.replace("/", "+") / m.ref / Path(path).name


def mismatches(m: SourceMap, path: str, lines: list[str]) -> list[int]:
    """The lines the map names in ``path`` that ``lines`` does not hold as hashed."""
    hashes = m.files[path].hashes
    return [n for n, h in sorted(hashes.items()) if n > len(lines) or line_hash(lines[n - 1]) != h]


def source_url(m: SourceMap, path: str, base: str | None) -> str:
    """Where one of the release's files is read: under ``base`` ({repository}/{tag}/{path}) if given, else
    upstream's."""
    return f"{base.rstrip('/')}/{m.repository}/{m.ref}/{path}" if base else m.url(path)


def verify(m: SourceMap, path: str, body: bytes, url: str) -> str:
    """``body`` as text when it is the release's file byte for byte; else Mismatch naming how it differs."""
    expected = m.files[path].digest
    if file_digest(body) == expected:
        return body.decode()
    wrong = mismatches(m, path, body.decode("utf-8", errors="replace").split("\n"))
    shown = ", ".join(map(str, wrong[:5])) + (f" and {len(wrong) - 5} more" if len(wrong) > 5 else "")
    lines = f"line {shown} differ from the map's hashes" if wrong else "every line the map names matches, others differ"
    raise Mismatch(f"{url} is not {m.repository} {m.ref}'s {path}: its sha256 is not the release's ({expected[:12]}…); "
                   f"{lines}")


def fetch(version_or_tag: str, store: Path, base: str | None, limit: float) -> list[Path]:
    """Fetch one release's files (named by a version or by its tag), verify each whole and cache them; their
    paths. Nothing is cached unless every file is the release's. ``limit``: seconds each file may take, from
    connecting to its last byte."""
    m = MAPS.get(version_or_tag) or tags().get(version_or_tag) or source_map(version_or_tag)  # else NotFound
    texts = {}
    for path in m.files:
        url = source_url(m, path, base)
        texts[path] = verify(m, path, download(url, limit), url)
    kept = []
    for path, text in texts.items():
        target = cache_path(m, store, path)
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".part")
        partial.write_bytes(text.encode())
        partial.replace(target)
        kept.append(target)
    return kept


def cached(version: str, store: Path) -> dict[str, list[str]] | None:
    """The cached text of ``version``'s release, line by line per file, when every file is there and is the
    release's (its digest); else None."""
    m = MAPS.get(version)
    if m is None:
        return None
    found = {}
    for path, f in m.files.items():
        try:
            data = cache_path(m, store, path).read_bytes()
        except OSError:
            return None
        if file_digest(data) != f.digest:
            return None
        found[path] = data.decode().split("\n")
    return found


def offered(version: str, store: Path) -> dict[str, object] | None:
    """What the page is given of the cached text: the licence header and each mapped function's lines."""
    files = cached(version, store)
    if files is None:
        return None
    m = MAPS[version]
    first, last = m.licence
    return {"licence": files[m.path][first - 1:last],
            "functions": {f.name: files[f.path][f.first - 1:f.last] for f in m.functions.values()}}
