"""Reading a kube-scheduler log, one line at a time: klog text lines and JSON log lines (``ts``, ``caller``,
``msg`` and the keys), with a container runtime's, ``kubectl logs --timestamps``' or ``--prefix``' prefix dropped;
what each line says becomes a ``Line`` (time in microseconds, message, key/values, the file:line that logged it,
whether its time has a year), and which of two calls logged a "Pod moved" line that two make (MOVE_CALLERS). The
builder (builder.py) turns lines into steps."""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import chain
from typing import BinaryIO

from ...errors import Invalid
from ...phrases import agreeing, counted, joined
from ..document import DocumentError, parse_json

MAX_LINE = 64 * 1024  # bytes: no kube-scheduler line is longer; a longer one is refused (read_lines)


class LogError(Invalid):
    """The input is not a kube-scheduler log the importer can use (empty, binary, no scheduler message)."""


_KLOG = re.compile(r"([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6})\s+\d+\s+([^\s:\]]+):(\d+)\] ?(.*)")
# What may come before the log line: kubectl logs --prefix' "[pod/NAME/CONTAINER] ", then a container runtime's
# (CRI) time and stream or kubectl logs --timestamps' time (group 1: a time with a year).
_PREFIX = re.compile(r"(?:\[pod/(?P<pod>[^\s/\]]+)/[^\s\]]+\] )?"
                     r"(?:(\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:?\d\d)?) (?:(?:stdout|stderr) [FP] )?)?")
# A second log line's start inside a line: two writes merged (or a line cut short and the next run on), a klog
# header or a JSON line's first key.
_ANOTHER = re.compile(r"[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+\s+[^\s:\]]+:\d+\]|\{\"ts\":")
_KEY = re.compile(r"\s*([A-Za-z_][\w.-]*)=")


@dataclass
class Line:
    number: int
    micros: int  # microseconds since the epoch (klog text has no year: see _klog_micros)
    msg: str
    values: dict
    verbosity: int | None = None  # JSON's "v"
    caller: str | None = None  # the file:line that logged it (klog's header, JSON's "caller"): "schedule_one.go:80"
    dated: bool = True  # its time has a year (JSON's, a runtime prefix's); False: a klog header's, its year inferred
    replica: str | None = None  # the pod ``kubectl logs --prefix`` names ("[pod/NAME/CONTAINER] ")


class Truncated(Exception):
    """A log line cut short (an unterminated quoted string or JSON object)."""


class Interleaved(Exception):
    """Two log lines in one: a second line's start (a klog header, a JSON line) inside it, as when two writes are
    merged."""


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


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICRO = timedelta(microseconds=1)
_HALF_YEAR = 182 * 86_400_000_000  # µs


def _klog_micros(fields: tuple, near: int | None) -> int | None:
    """A klog text header's time (month, day, hour, minute, second, µs) in µs since the epoch; None for a date no
    calendar has. The header has no year: it is the year that puts the line nearest ``near``, the time of the line
    before it (or of this line's runtime prefix, which has a year). So a log that crosses New Year (12-31, then
    01-01) runs on into the next year, and a line slightly out of order (01-01 00:00:00.1, then 12-31 23:59:59.9)
    stays slightly out of order. The first line, with nothing before it, gets a year whose next Feb 29 exists
    (2000 up to Feb 29, else 1999), so that a Feb 29 in the log is a day like any other, until a line with a year
    follows: the lines before it are then re-dated (``redated``; importer.py)."""
    month, day = fields[:2]
    if near is None:
        years = [2000 if (month, day) <= (2, 29) else 1999]
    else:
        year = (_EPOCH + near * _MICRO).year
        years = [year, year + 1, year - 1]
    best = None
    for year in years:
        try:
            micros = (datetime(year, *fields, tzinfo=UTC) - _EPOCH) // _MICRO
        except ValueError:  # no such day that year (Feb 29), or past datetime's years
            continue
        if best is None or abs(micros - near) < abs(best - near):
            best = micros
        if near is None or abs(best - near) < _HALF_YEAR:  # no other year is nearer
            break
    return best


def redated(micros: int, near: int) -> int:
    """``micros``, a klog line's time whose year was guessed (no line before it had a year), in the year that puts
    it nearest ``near``: the time of the first line that has a year, after it. Its month, day and time of day stay;
    ``micros`` as it is when that day is in no year near (a Feb 29)."""
    moment = _EPOCH + micros * _MICRO
    fields = (moment.month, moment.day, moment.hour, moment.minute, moment.second, moment.microsecond)
    again = _klog_micros(fields, near)
    return micros if again is None else again


# The seconds since the epoch a log's time may be: a datetime holds years 1 to 9999 (a day's margin each way).
_EARLIEST = datetime(1, 1, 2, tzinfo=UTC).timestamp()
_LATEST = datetime(9999, 12, 30, tzinfo=UTC).timestamp()


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
            moment = moment.replace(tzinfo=UTC)
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


# A pod's name as kube-scheduler logs it (klog.KObj): its namespace, a DNS label, "/", its name, a DNS subdomain
# (k8s.io/apimachinery/pkg/util/validation: IsDNS1123Label, IsDNS1123Subdomain).
MAX_NAMESPACE, MAX_POD_NAME = 63, 253
_LABEL = r"[a-z0-9](?:[-a-z0-9]*[a-z0-9])?"
_DNS_LABEL = re.compile(_LABEL)
_DNS_SUBDOMAIN = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
POD_NAME_RULE = (f"a pod's namespace/name: the namespace a DNS label (at most {MAX_NAMESPACE} characters of a-z, 0-9 "
                 f"and '-'), the name a DNS subdomain (at most {MAX_POD_NAME} characters of a-z, 0-9, '-' and '.'), "
                 "each starting and ending with a letter or digit")


def printable(text: str) -> str:
    """``text`` with each character that is not printable (each line break among them) as its escape
    (``\\u2028``), so that a message, a YAML comment or a Markdown line shows it on one line, as text."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def shown_name(text: str, most: int = 24) -> str:
    """A name from the log, quoted, escaped and cut to ``most`` characters, for a message (short: it is a word the
    page cannot break, and must fit a phone's width)."""
    return '"' + printable(text[:most]) + ('..." (' + f"{len(text):,} characters)" if len(text) > most else '"')


def _part_problem(part: str, what: str, pattern: re.Pattern, most: int) -> str | None:
    if not part:
        return f"its {what} is empty"
    if len(part) > most:
        return f"its {what} is {len(part):,} characters long, over {most}"
    if "\ufffd" in part:
        return f"its {what} is not valid UTF-8"
    odd = next((c for c in part if not c.isprintable()), None)
    if odd is not None:
        return f"its {what} has a character that is not printable ({printable(odd)})"
    marks = "-" if what == "namespace" else "-."
    odd = next((c for c in part if not (c.isascii() and (c.isalnum() or c in marks)) or c.isupper()), None)
    if odd is not None:
        return f"its {what} has the character {printable(odd)!r}, outside a-z, 0-9, " + \
            " and ".join(f"'{m}'" for m in marks)
    if not pattern.fullmatch(part):
        return f"its {what} does not start and end with a letter or digit" + \
            ("" if what == "namespace" else ", or has an empty part between dots")
    return None


def pod_name(v) -> tuple[str | None, str | None]:
    """(the pod's namespace/name, None), or (None, what is wrong with it) for a ``pod`` value that is no pod's
    name as kube-scheduler logs it (POD_NAME_RULE): the text format's "ns/name" or the JSON one's {"name",
    "namespace"}."""
    if isinstance(v, dict):
        ns, name = v.get("namespace"), v.get("name")
        if not isinstance(ns, str) or not isinstance(name, str):
            return None, "expected an object with the strings \"namespace\" and \"name\""
        text = f"{ns}/{name}"
    elif isinstance(v, str):
        text = v
        ns, slash, name = v.partition("/")
        if not slash:
            return None, f"{shown_name(text)} has no namespace"
    else:
        return None, "expected a string"
    problem = _part_problem(ns, "namespace", _DNS_LABEL, MAX_NAMESPACE) or \
        _part_problem(name, "name", _DNS_SUBDOMAIN, MAX_POD_NAME)
    return (None, f"{shown_name(text)}: {problem}") if problem else (text, None)


def parse_line(text: str, number: int = 0, near: int | None = None) -> Line | None:
    """A log line as a Line, or None when it is no klog or JSON log line; Truncated when it was cut short.
    ``near`` is the time (µs since the epoch) of the log line before it, which gives a klog header its year."""
    text = text.strip()
    m = _PREFIX.match(text)
    text, replica = text[m.end():], m["pod"]
    stamped = _json_micros(m[2]) if m[2] else None  # the runtime's time has a year
    near = near if stamped is None else stamped
    if text[:1] in ("{", "I", "W", "E", "F") and _ANOTHER.search(text, 1):
        raise Interleaved()
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
        v, caller = obj.get("v"), obj.get("caller")
        return Line(number, micros, obj["msg"], obj, v if isinstance(v, int) and not isinstance(v, bool) else None,
                    caller.rsplit("/", 1)[-1] if isinstance(caller, str) else None, replica=replica)
    m = _KLOG.fullmatch(text)
    if not m:
        return None
    micros = _klog_micros(tuple(int(m[i]) for i in range(2, 8)), near)
    if micros is None:
        return None
    rest = m[10]
    if rest.startswith('"'):
        msg, end = _go_string(rest, 0)
        values = _key_values(rest[end:])
    else:
        msg, values = rest, {}
    return Line(number, micros, msg, values, caller=f"{m[8].rsplit('/', 1)[-1]}:{m[9]}", dated=stamped is not None,
                replica=replica)


# Two "Pod moved ..." events have two callers each, which the klog header (JSON: "caller") tells apart:
# * BackoffComplete: flushBackoffQCompleted, the 1 s flush of backoffQ (v1.28.0 l. 765), and Update of a pod in
#   unschedulablePods that is not backing off (l. 948; l. 931-950);
# * ScheduleAttemptFailure: addUnschedulableWithoutQueueingHint, only with SchedulerQueueingHints off (l. 680, 684,
#   -v=5: pod, event, queue), and AddUnschedulableIfNotPresent with it on (l. 734, -v=6, with GATE_ON_KEY; 1.29+
#   at -v=3).
# Their lines in scheduling_queue.go by release: v1.28.0 (cb95d464), v1.28.4 (a91025aa) and the heads of the
# cluster-autoscaler-release-1.29, -1.30 and -1.31 branches (1.31 logs both BackoffCompletes from moveToActiveQ,
# l. 635, which tells nothing). No line is two calls' in any of them. Other releases' lines are not known: then
# the key tells the gate (on every release), and the log's queue for the pod and its time tell BackoffComplete's
# caller (builder.py Builder.by_update).
FLUSH, UPDATE, GATE_OFF, GATE_ON = "the 1 s flush", "Update", "gate off", "gate on"
MOVE_CALLERS = {
    "v1.28.0": {765: FLUSH, 948: UPDATE, 680: GATE_OFF, 684: GATE_OFF, 734: GATE_ON},
    "v1.28.4": {784: FLUSH, 957: UPDATE, 699: GATE_OFF, 703: GATE_OFF, 753: GATE_ON},
    "1.29": {829: FLUSH, 1003: UPDATE, 743: GATE_OFF, 747: GATE_OFF, 798: GATE_ON},
    "1.30": {850: FLUSH, 1024: UPDATE, 764: GATE_OFF, 768: GATE_OFF, 819: GATE_ON},
    "1.31": {826: GATE_OFF, 830: GATE_OFF, 880: GATE_ON},
}
GATE_ON_KEY = "schedulingCycle"


def move_caller(line: Line, calls: tuple) -> tuple[str, str] | None:
    """(which of ``calls`` logged a "Pod moved ..." line, the release) when its header names one of MOVE_CALLERS'
    lines of those calls."""
    file, _, number = (line.caller or "").rpartition(":")
    if file == "scheduling_queue.go" and number.isdigit():
        for release, lines in MOVE_CALLERS.items():
            if lines.get(int(number)) in calls:
                return lines[int(number)], release
    return None


# SchedulerQueueingHints is off by default from 1.28.5 (#122291); the model's v1.28.5 runs with it off. A log that
# shows it off (a failure's queue logged by the gate-off path) is also replayed there (importer.py _gate).
GATE_OFF_VERSION = "v1.28.5"


# --- reading -------------------------------------------------------------------------------------------------
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
    agreeing: list = field(default_factory=list)  # versions making every queue move the log states, when some
    # other does not: they behave as the cluster did (compare.py)

    def said(self) -> list[dict]:
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
COUNT_WORDS = (
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
    number = head = 0
    while True:
        raw = stream.readline(MAX_LINE)
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
                stream = Recoded(raw, stream, codec)
                raw = stream.readline(MAX_LINE)
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
                more = stream.readline(MAX_LINE)
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


# --- building the scenario ------------------------------------------------------------------------------------
