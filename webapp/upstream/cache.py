"""`inflight-scope sources fetch`: a release's queue file fetched from upstream at its tag (raw.githubusercontent
by default; the transport passes the sources_url setting as ``base`` for a mirror), verified line by line against
the map's hashes (webapp/sources/), and kept in ``store``, the sources_cache setting (the user's cache directory:
webapp/server/settings.py reads it). The licence header is kept with the text and shown with it. The page never
fetches: the server offers what is cached (``cached()``)."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

from ..errors import Unavailable, UserError
from ..sources.maps import MAPS, source_map, tags
from ..sources.types import SourceMap, line_hash

RAW_BASE = "https://raw.githubusercontent.com"
MOST_BYTES = 2_000_000  # a queue file is ~70 kB; a longer answer is not it
TIMEOUT = 20.0  # seconds


class Mismatch(UserError):
    """The text fetched is not the release's: a line the map names hashes otherwise."""


def cache_path(m: SourceMap, store: Path) -> Path:
    return store / m.repository.replace("/", "+") / m.ref / Path(m.path).name


def mismatches(m: SourceMap, lines: list[str]) -> list[int]:
    """The lines the map names that ``lines`` does not hold as hashed."""
    return [n for n, h in sorted(m.hashes.items()) if n > len(lines) or line_hash(lines[n - 1]) != h]


def source_url(m: SourceMap, base: str | None) -> str:
    """Where the release's file is read: under ``base`` ({repository}/{tag}/{path}) if given, else upstream's."""
    return f"{base.rstrip('/')}/{m.repository}/{m.ref}/{m.path}" if base else m.url()


def download(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:  # noqa: S310 (https, or the override)
            body: bytes = answer.read(MOST_BYTES + 1)
    except urllib.error.HTTPError as e:
        raise Unavailable(f"{url} answered {e.code} {e.reason}") from None
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise Unavailable(f"cannot reach {url}: {reason} (no network? the pane shows the paraphrase)") from None
    if len(body) > MOST_BYTES:
        raise Mismatch(f"{url} answered more than {MOST_BYTES:,} bytes: not the queue file")
    return body.decode("utf-8", errors="replace")


def fetch(version_or_tag: str, store: Path, base: str | None = None) -> Path:
    """Fetch one release's file (named by a version or by its tag), verify it and cache it; its path."""
    m = MAPS.get(version_or_tag) or tags().get(version_or_tag) or source_map(version_or_tag)  # else NotFound
    url = source_url(m, base)
    text = download(url)
    wrong = mismatches(m, text.split("\n"))
    if wrong:
        shown = ", ".join(map(str, wrong[:5])) + (f" and {len(wrong) - 5} more" if len(wrong) > 5 else "")
        raise Mismatch(f"{url} is not {m.repository} {m.ref}'s {m.path}: line {shown} differ from the map's hashes")
    path = cache_path(m, store)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_text(text)
    partial.replace(path)
    return path


def cached(version: str, store: Path) -> list[str] | None:
    """The cached text of ``version``'s release, line by line, when every line the map names matches; else None."""
    m = MAPS.get(version)
    if m is None:
        return None
    try:
        lines = cache_path(m, store).read_text().split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    return None if mismatches(m, lines) else lines


def offered(version: str, store: Path) -> dict[str, object] | None:
    """What the page is given of the cached text: the licence header and each mapped function's lines."""
    lines = cached(version, store)
    if lines is None:
        return None
    m = MAPS[version]
    first, last = m.licence
    return {"licence": lines[first - 1:last],
            "functions": {f.name: lines[f.first - 1:f.last] for f in m.functions.values()}}
