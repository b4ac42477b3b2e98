"""Reading a kube-scheduler log, one line at a time: klog text lines and JSON log lines (``ts``, ``caller``,
``msg`` and the keys), with a container runtime's, ``kubectl logs --timestamps``' or ``--prefix``' prefix dropped;
what each line says becomes a ``Line`` (time in microseconds, message, key/values, the file:line that logged it,
whether its time has a year), and which of two calls logged a "Pod moved" line that two make (MOVE_CALLERS). The
builder (builder.py) turns lines into steps."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from ...errors import Invalid
from ..document import DocumentError, parse_json


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
    values: dict[str, Any]
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
    if "\\" not in quoted:  # no escape: the text as it is (what JSON, and the fallback below, make of it)
        return quoted[1:-1], j + 1
    try:  # the boundary: Go never writes a lone surrogate (\\ud800), kept as written like its other escapes
        value = parse_json(quoted, "a log value")
    except DocumentError:
        value = None
    if isinstance(value, str):
        return value, j + 1
    return quoted[1:-1].replace('\\"', '"').replace("\\\\", "\\"), j + 1


def _key_values(text: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
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


Fields = tuple[int, int, int, int, int, int]  # month, day, hour, minute, second, µs


def _klog_micros(fields: Fields, near: int | None) -> int | None:
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
    best: int | None = None
    month, day, hour, minute, second, micro = fields
    for year in years:
        try:
            micros = (datetime(year, month, day, hour, minute, second, micro, tzinfo=UTC) - _EPOCH) // _MICRO
        except ValueError:  # no such day that year (Feb 29), or past datetime's years
            continue
        if near is None:
            return micros
        if best is None or abs(micros - near) < abs(best - near):
            best = micros
        if abs(best - near) < _HALF_YEAR:  # no other year is nearer
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


def _json_micros(ts: object) -> int | None:
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


def object_ref(v: object) -> str | None:
    """klog.KObj as the text format writes it ("ns/name") or the JSON one ({"name", "namespace"})."""
    if isinstance(v, dict):
        name, ns = v.get("name"), v.get("namespace")
        if isinstance(name, str) and name:
            return f"{ns}/{name}" if isinstance(ns, str) and ns else name
        return None
    return v if isinstance(v, str) and v else None


# A pod's name as kube-scheduler logs it (klog.KObj): "namespace/name". Any is read but one that is unsafe or
# unbounded (empty, over-long, not UTF-8, with a control character or a line break): people share logs they
# anonymised by hand ("quota/pod-A"), and every name is escaped wherever it goes (YAML, Markdown, HTML). One that
# is no Kubernetes name (the namespace a DNS label, the name a DNS subdomain: k8s.io/apimachinery/pkg/util/
# validation IsDNS1123Label, IsDNS1123Subdomain) says the log was edited (kubernetes_name).
MAX_NAMESPACE, MAX_POD_NAME = 63, 253
_LABEL = r"[a-z0-9](?:[-a-z0-9]*[a-z0-9])?"
_DNS_LABEL = re.compile(_LABEL)
_DNS_SUBDOMAIN = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
POD_NAME_RULE = (f"a pod's namespace/name: the namespace at most {MAX_NAMESPACE} characters, the name at most "
                 f"{MAX_POD_NAME}, neither empty, in UTF-8, with no control character or line break")
KUBERNETES_NAMES = (f"a namespace is a DNS label (at most {MAX_NAMESPACE} characters of a-z, 0-9 and '-'), a name a "
                    f"DNS subdomain (at most {MAX_POD_NAME} of a-z, 0-9, '-' and '.'), each starting and ending with "
                    "a letter or digit")


def printable(text: str) -> str:
    """``text`` with each character that is not printable (each line break among them) as its escape
    (``\\u2028``), so that a message, a YAML comment or a Markdown line shows it on one line, as text."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def shown_name(text: str, most: int = 24) -> str:
    """A name from the log, quoted, escaped and cut to ``most`` characters, for a message (short: it is a word the
    page cannot break, and must fit a phone's width)."""
    return '"' + printable(text[:most]) + ('..." (' + f"{len(text):,} characters)" if len(text) > most else '"')


def _part_problem(part: str, what: str, most: int) -> str | None:
    """What makes ``part`` of a pod's name unsafe or unbounded, or None."""
    if not part:
        return f"its {what} is empty"
    if len(part) > most:
        return f"its {what} is {len(part):,} characters long, over {most}"
    if "\ufffd" in part:
        return f"its {what} is not valid UTF-8"
    odd = next((c for c in part if not c.isprintable()), None)
    if odd is not None:
        return f"its {what} has a character that is not printable ({printable(odd)})"
    return None


def kubernetes_name(name: str) -> bool:
    """Whether ``name`` (a pod_name) is one Kubernetes gives (KUBERNETES_NAMES)."""
    ns, _, pod = name.partition("/")
    return bool(_DNS_LABEL.fullmatch(ns) and _DNS_SUBDOMAIN.fullmatch(pod))


def pod_name(v: object) -> tuple[str | None, str | None]:
    """(the pod's namespace/name, None), or (None, what is wrong with it) for a ``pod`` value that cannot be read
    as a pod's name (POD_NAME_RULE): the text format's "ns/name" or the JSON one's {"name", "namespace"}."""
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
    problem = _part_problem(ns, "namespace", MAX_NAMESPACE) or _part_problem(name, "name", MAX_POD_NAME)
    return (None, f"{shown_name(text)}: {problem}") if problem else (text, None)


def parse_line(text: str, number: int = 0, near: int | None = None) -> Line | None:
    """A log line as a Line, or None when it is no klog or JSON log line; Truncated when it was cut short.
    ``near`` is the time (µs since the epoch) of the log line before it, which gives a klog header its year."""
    text = text.strip()
    m = _PREFIX.match(text)
    assert m is not None  # every part of it is optional
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
    micros = _klog_micros((int(m[2]), int(m[3]), int(m[4]), int(m[5]), int(m[6]), int(m[7])), near)
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
#   -v=5: pod, event, queue), and AddUnschedulableIfNotPresent with it on (l. 734, -v=6, with GATE_ON_KEY; 1.29+ at
#   -v=3). Their lines in scheduling_queue.go by release: v1.28.0 (cb95d464), v1.28.4 (a91025aa) and the heads of the
#   cluster-autoscaler-release-1.29, -1.30 and -1.31 branches (1.31 logs both BackoffCompletes from moveToActiveQ,
#   l. 635, which tells nothing), and backend/queue/scheduling_queue.go at ee4fafa6 (1.32) and 74a7d3b1 (1.36), whose
#   BackoffCompletes are logged by moveToActiveQ (1.32) and active_queue.go (1.36). No line is two calls' in any. Other
#   releases' lines are not known: then the key tells the gate (on every release), and the log's queue for the pod and
#   its time tell BackoffComplete's caller (builder.py Builder.by_update).
FLUSH, UPDATE, GATE_OFF, GATE_ON = "the 1 s flush", "Update", "gate off", "gate on"
MOVE_CALLERS = {
    "v1.28.0": {765: FLUSH, 948: UPDATE, 680: GATE_OFF, 684: GATE_OFF, 734: GATE_ON},
    "v1.28.4": {784: FLUSH, 957: UPDATE, 699: GATE_OFF, 703: GATE_OFF, 753: GATE_ON},
    "1.29": {829: FLUSH, 1003: UPDATE, 743: GATE_OFF, 747: GATE_OFF, 798: GATE_ON},
    "1.30": {850: FLUSH, 1024: UPDATE, 764: GATE_OFF, 768: GATE_OFF, 819: GATE_ON},
    "1.31": {826: GATE_OFF, 830: GATE_OFF, 880: GATE_ON},
    "1.32": {740: GATE_OFF, 744: GATE_OFF, 794: GATE_ON},  # backend/queue from here on (release.py)
    "1.36": {895: GATE_OFF, 958: GATE_ON},
}
GATE_ON_KEY = "schedulingCycle"


def move_caller(line: Line, calls: tuple[str, ...]) -> tuple[str, str] | None:
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


# --- building the scenario ------------------------------------------------------------------------------------
