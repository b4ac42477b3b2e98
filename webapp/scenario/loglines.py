"""Reading a kube-scheduler log, one line at a time: klog text lines and JSON log lines (``ts``, ``caller``,
``msg`` and the keys), with a container runtime's or ``kubectl logs --timestamps`` prefix dropped; what each
line says becomes a ``Line`` (time in microseconds, message, key/values). The importer (logs.py) turns lines
into a scenario."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import BinaryIO, Callable, Iterable

from ..errors import Invalid
from .document import DocumentError, parse_json

MAX_LINE = 64 * 1024  # bytes: a longer line is counted as unknown and skipped


class LogError(Invalid):
    """The input is not a kube-scheduler log the importer can use (empty, binary, no scheduler message)."""


def counted(n: int, noun: str) -> str:
    """``n`` with the noun that agrees with it: "1 line", "2 lines"."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


_KLOG = re.compile(r"([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6})\s+\d+\s+([^\s:\]]+):(\d+)\] ?(.*)")
# A container runtime's (CRI) prefix, or kubectl logs --timestamps'.
_PREFIX = re.compile(r"\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:?\d\d)? (?:(?:stdout|stderr) [FP] )?")
_KEY = re.compile(r"\s*([A-Za-z_][\w.-]*)=")


@dataclass
class Line:
    number: int
    micros: int  # microseconds since the epoch (klog text: of a year 2000, as it has none)
    msg: str
    values: dict
    verbosity: int | None = None  # JSON's "v"


class Truncated(Exception):
    """A log line cut short (an unterminated quoted string or JSON object)."""


def _go_string(text: str, start: int) -> tuple[str, int]:
    """The Go-quoted string at text[start] == '"' and the index after it; Truncated if it never ends."""
    i = start + 1
    while True:
        j = text.find('"', i)
        if j < 0:
            raise Truncated()
        backslashes = 0
        k = j - 1
        while k > start and text[k] == "\\":
            backslashes += 1
            k -= 1
        if backslashes % 2 == 0:
            break
        i = j + 1
    quoted = text[start:j + 1]
    try:  # the boundary: Go never writes a lone surrogate (\\ud800), kept as written like its other escapes
        return parse_json(quoted, "a log value"), j + 1
    except DocumentError:
        return quoted[1:-1].replace('\\"', '"').replace("\\\\", "\\"), j + 1


def _key_values(text: str) -> dict:
    values = {}
    i = 0
    while i < len(text):
        m = _KEY.match(text, i)
        if not m:
            break
        i = m.end()
        if text[i:i + 1] == '"':
            values[m[1]], i = _go_string(text, i)
        elif text[i:i + 1] == "<":  # klog's multi-line value: its lines follow; what follows here is unknown
            break
        else:
            j = text.find(" ", i)
            j = len(text) if j < 0 else j
            values[m[1]] = text[i:j]
            i = j
    return values


def _klog_micros(month: int, day: int, h: int, mi: int, s: int, us: int) -> int | None:
    try:
        moment = datetime(2000, month, day, h, mi, s, us, tzinfo=timezone.utc)
    except ValueError:
        return None
    return int(moment.timestamp()) * 1_000_000 + us


# The seconds since the epoch a log's time may be: a datetime holds years 1 to 9999 (a day's margin each way).
_EARLIEST = datetime(1, 1, 2, tzinfo=timezone.utc).timestamp()
_LATEST = datetime(9999, 12, 30, tzinfo=timezone.utc).timestamp()


def _json_micros(ts) -> int | None:
    """A JSON line's time in microseconds since the epoch; None for a time no clock shows (so no log line)."""
    if isinstance(ts, bool):
        return None
    if isinstance(ts, (int, float)):
        # component-base's JSON format writes milliseconds since the epoch; seconds are accepted too.
        if not _EARLIEST <= (ts / 1000 if ts > 1e11 else ts) <= _LATEST:
            return None
        return round(ts * 1000) if ts > 1e11 else round(ts * 1_000_000)
    if isinstance(ts, str):
        try:
            moment = datetime.fromisoformat(ts.replace("Z", "+00:00"))
        except ValueError:
            return None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        if not _EARLIEST <= moment.timestamp() <= _LATEST:
            return None
        return int(moment.timestamp()) * 1_000_000 + moment.microsecond
    return None


def object_ref(v) -> str | None:
    """klog.KObj as the text format writes it ("ns/name") or the JSON one ({"name", "namespace"})."""
    if isinstance(v, dict):
        name, ns = v.get("name"), v.get("namespace")
        if isinstance(name, str) and name:
            return f"{ns}/{name}" if isinstance(ns, str) and ns else name
        return None
    return v if isinstance(v, str) and v else None


def parse_line(text: str, number: int = 0) -> Line | None:
    """A log line as a Line, or None when it is no klog or JSON log line; Truncated when it was cut short."""
    text = text.strip()
    if m := _PREFIX.match(text):
        text = text[m.end():]
    if text.startswith("{"):
        try:  # the boundary: nesting, long numbers, NaN and lone surrogates are no log line's
            obj = parse_json(text, "a log line")
        except DocumentError:
            if text.startswith('{"') and not text.endswith("}"):
                raise Truncated() from None
            return None
        if not isinstance(obj, dict) or not isinstance(obj.get("msg"), str) or "ts" not in obj:
            return None
        micros = _json_micros(obj["ts"])
        if micros is None:
            return None
        v = obj.get("v")
        return Line(number, micros, obj["msg"], obj, v if isinstance(v, int) and not isinstance(v, bool) else None)
    m = _KLOG.fullmatch(text)
    if not m:
        return None
    micros = _klog_micros(*(int(m[i]) for i in range(2, 8)))
    if micros is None:
        return None
    rest = m[10]
    if rest.startswith('"'):
        msg, end = _go_string(rest, 0)
        values = _key_values(rest[end:])
    else:
        msg, values = rest, {}
    return Line(number, micros, msg, values)


# --- reading -------------------------------------------------------------------------------------------------
@dataclass
class Counts:
    lines: int = 0
    used: int = 0  # scheduler messages that became (part of) a step or evidence
    other: int = 0  # log lines with a message the importer does not use
    unknown: int = 0  # not a log line
    truncated: int = 0  # cut short
    ignored: int = 0  # scheduler messages that could not be placed (e.g. about a pod never seen)
    files: int = 0
    bytes: int = 0
    disagreeing: int = 0  # lines stating a queue move that the model's replay does not make (logs.py)

    def summary(self) -> str:
        return (f"{counted(self.lines, 'line')} read: {self.used:,} used, {counted(self.ignored, 'scheduler line')} "
                f"ignored, {counted(self.other, 'other log line')}, {self.unknown:,} unknown, "
                f"{self.truncated:,} truncated, {self.disagreeing:,} disagreeing with the model's replay")


def read_lines(stream: BinaryIO, counts: Counts, progress: Callable[[int], None] | None = None,
               label: str = "<input>") -> Iterable[tuple[str, bool]]:
    """(text, ends with a newline) of each line of ``stream``, one at a time (a line over MAX_LINE bytes is counted
    as unknown and skipped); LogError for binary input."""
    first = True
    while True:
        raw = stream.readline(MAX_LINE)
        if not raw:
            return
        counts.bytes += len(raw)
        if first and b"\0" in raw[:4096]:
            raise LogError(f"{label}: binary data, not a log (a NUL byte in its first line)")
        first = False
        if not raw.endswith(b"\n") and len(raw) >= MAX_LINE:
            while True:  # skip the rest of the overlong line
                more = stream.readline(MAX_LINE)
                counts.bytes += len(more)
                if not more or more.endswith(b"\n"):
                    break
            counts.lines += 1
            counts.unknown += 1
            continue
        counts.lines += 1
        if progress:
            progress(counts.bytes)
        if b"\0" in raw:
            counts.unknown += 1
            continue
        yield raw.decode("utf-8", "replace"), raw.endswith(b"\n")


# --- building the scenario ------------------------------------------------------------------------------------
