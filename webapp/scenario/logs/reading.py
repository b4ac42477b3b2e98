"""Reading a log's bytes into lines of text, one at a time (``read_lines``): UTF-8 or UTF-16, what is no log text
refused naming its line; and the counts an import reports (``Counts``, in COUNT_WORDS' words)."""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, BinaryIO, Protocol

from ...phrases import agreeing, counted, joined
from .lines import GATE_OFF_VERSION, LogError

MAX_LINE = 64 * 1024  # bytes: no kube-scheduler line is longer; a longer one is refused (read_lines)


@dataclass
class Counts:
    lines: int = 0
    used: int = 0  # scheduler messages that became (part of) a step or evidence
    other: int = 0  # log lines with a message the importer does not use
    unknown: int = 0  # not a log line
    truncated: int = 0  # cut short
    interleaved: int = 0  # two lines in one (two writes merged)
    standby: int = 0  # scheduler lines of a standby replica (in leader election, never leading): left out
    ignored: int = 0  # scheduler messages that could not be placed (e.g. about a pod never seen)
    files: int = 0
    bytes: int = 0
    disagreeing: int = 0  # lines stating a queue move that the model's replay does not make (compare.py)
    gate_off: int = 0  # lines showing SchedulerQueueingHints off (MOVE_CALLERS)
    agreeing: list[str] = field(default_factory=list)  # versions making every queue move the log states, when some
    # other does not: they behave as the cluster did (compare.py)

    def said(self) -> list[dict[str, Any]]:
        """Each count with the words said after it ({key, count, words}), in COUNT_WORDS' order: the editor lists
        them, the summary joins them."""
        return [{"key": key, "count": getattr(self, key), "words": words(getattr(self, key))}
                for key, words in COUNT_WORDS if key not in WHEN_SOME or getattr(self, key)]

    def summary(self) -> str:
        first, *rest = (f"{c['count']:,} {c['words']}" for c in self.said())
        return (f"{first}: {', '.join(rest)}" + (f" ({self.verdict()})" if self.agreeing else "")
                + (f"; {counted(self.gate_off, 'line')} showing the SchedulerQueueingHints gate off (the default "
                   f"from {GATE_OFF_VERSION}): `gate: false`, replay on {GATE_OFF_VERSION}" if self.gate_off else ""))

    def verdict(self) -> str:
        """Which versions behave as the cluster did, when the log's queue moves tell (``agreeing``)."""
        one = len(self.agreeing) == 1
        return (f"{joined(self.agreeing)} {'behaves' if one else 'behave'} as the cluster did: "
                f"{'its replay makes' if one else 'their replays make'} every queue move the log states")


# The counts an import reports, each with the words said after its number ("12 lines read", "3 used").
COUNT_WORDS: tuple[tuple[str, Callable[[int], str]], ...] = (
    ("lines", lambda n: f"{agreeing(n, 'line')} read"),
    ("used", lambda n: "used"),
    ("ignored", lambda n: f"{agreeing(n, 'scheduler line')} ignored"),
    ("other", lambda n: agreeing(n, "other log line")),
    ("unknown", lambda n: "unknown"),
    ("truncated", lambda n: "truncated"),
    ("interleaved", lambda n: "interleaved (two lines in one)"),
    ("standby", lambda n: f"{agreeing(n, 'scheduler line')} of a standby replica (not the leader) left out"),
    ("disagreeing", lambda n: "disagreeing with the model's replay"),
)

WHEN_SOME = ("interleaved", "standby")  # counts said only when some lines are


def _utf32(first: bytes) -> bool:
    """Whether a text whose first line is ``first`` is UTF-32: its byte order mark, or three NUL bytes of four."""
    sample = first[:4096]
    return first.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)) or (
        len(sample) >= 8 and sample.count(0) * 4 >= 3 * len(sample) - 4)


def _utf16(first: bytes) -> str | None:
    """The UTF-16 codec a text whose first line is ``first`` is written in (PowerShell's ``>`` writes UTF-16LE with
    a byte order mark), or None: by its byte order mark, else by every other byte of its ASCII being NUL."""
    if first.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    sample = first[:4096]
    if len(sample) >= 4 and sample.count(0) * 2 >= len(sample) - 1:
        return "utf-16-le" if sample[1::2].count(0) > sample[0::2].count(0) else "utf-16-be"
    return None


class Readable(Protocol):
    def readline(self, limit: int, /) -> bytes: ...


class Recoded:
    """A UTF-16 stream, from its ``first`` bytes on, read back as UTF-8 lines (``readline(limit)`` as a binary
    stream's): one chunk at a time, whatever its size."""

    CHUNK = 64 * 1024

    def __init__(self, first: bytes, stream: BinaryIO, codec: str):
        self._chunks = chain([first], iter(lambda: stream.read(self.CHUNK), b""))
        self._decoder = codecs.getincrementaldecoder(codec)("replace")
        self._buffer, self._done = b"", False

    def readline(self, limit: int) -> bytes:
        while b"\n" not in self._buffer and len(self._buffer) < limit and not self._done:
            chunk = next(self._chunks, None)
            self._done = chunk is None
            self._buffer += self._decoder.decode(chunk or b"", final=self._done).encode("utf-8")
        end = self._buffer.find(b"\n", 0, limit)
        cut = limit if end < 0 else end + 1
        line, self._buffer = self._buffer[:cut], self._buffer[cut:]
        return line


BINARY_HEAD = 4096  # bytes: a NUL byte among the input's first is binary data, no log
GZIP_MAGIC = b"\x1f\x8b"  # the first bytes of a gzip file (RFC 1952): a rotated log, compressed


def read_lines(stream: BinaryIO, counts: Counts, progress: Callable[[int], None] | None = None,
               label: str = "<input>") -> Iterable[tuple[str, bool]]:
    """(text, ends with a newline) of each line of ``stream``, one at a time, in UTF-8 or UTF-16 (then read back as
    UTF-8; the bytes counted are those); a byte order mark dropped. LogError, naming the line, for what is no log
    text: gzip-compressed (never inflated, so no size of it is read), UTF-32, a NUL byte in the first BINARY_HEAD
    bytes, a line over MAX_LINE bytes. Later NUL bytes (a run of them is what a crash leaves in a log file) make
    their line unknown, skipped."""
    source: Readable = stream
    number = head = 0
    while True:
        raw = source.readline(MAX_LINE)
        if not raw:
            return
        number += 1
        where = f"{label}:{number}"
        if number == 1:
            if raw.startswith(GZIP_MAGIC):
                raise LogError(f"{where}: gzip-compressed (a rotated log?), not read: decompress it first (zcat "
                               f"{label} | inflight-scope import -)")
            if _utf32(raw):
                raise LogError(f"{where}: UTF-32 text, not read: convert it to UTF-8 first (iconv -f UTF-32 -t "
                               f"UTF-8 {label} | inflight-scope import -)")
            if codec := _utf16(raw):
                source = Recoded(raw, stream, codec)
                raw = source.readline(MAX_LINE)
            raw = raw.removeprefix(codecs.BOM_UTF8)
        counts.bytes += len(raw)
        if head < BINARY_HEAD and b"\0" in raw[:BINARY_HEAD - head]:
            raise LogError(f"{where}: binary data, not a log (a NUL byte in its first {BINARY_HEAD:,} bytes)")
        head += len(raw)
        counts.lines += 1
        if not raw.endswith(b"\n") and len(raw) >= MAX_LINE:
            if raw.strip(b"\0"):
                raise LogError(f"{where}: a line over {MAX_LINE // 1024} KiB, longer than any kube-scheduler log "
                               "line: is it a log? Import a stretch without that line")
            while True:  # skip the rest of the run of NUL bytes
                more = source.readline(MAX_LINE)
                counts.bytes += len(more)
                if not more or more.endswith(b"\n"):
                    break
                if more.strip(b"\0"):
                    raise LogError(f"{where}: a line over {MAX_LINE // 1024} KiB, longer than any kube-scheduler "
                                   "log line: is it a log? Import a stretch without that line")
            counts.unknown += 1
            continue
        if progress:
            progress(counts.bytes)
        if b"\0" in raw:
            counts.unknown += 1
            continue
        yield raw.decode("utf-8", "replace"), raw.endswith(b"\n")
