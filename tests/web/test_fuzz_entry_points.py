"""A seeded fuzz of every entry point, field by field: every HTTP route of ``app.url_map`` and every Socket.IO
event the namespace handles (``Viewers.events()``) is sent its valid payloads (from the tests and the README)
with one field at a time replaced by a value of a class of bad input, dropped, or joined by an unknown key, and
the whole payload replaced too.

The classes (``VALUES``, ``raw_bodies``, ``QUERY_VALUES``, ``PATH_VALUES``, ``YAML``, ``log_cases``): types (null,
list, number, string, boolean where another is expected), numbers (integers of thousands of digits, 1e309, NaN,
Infinity, -0, 2**63), numeric strings, encodings (lone surrogates, NUL, invalid UTF-8, overlong and broken
percent-encodings), sizes (long strings, many keys, long lists, bodies at and over MAX_UPLOAD_BYTES), nesting
(thousands deep, at and over MAX_DEPTH), YAML specials (aliases, tags, merge keys, duplicate keys, timestamps,
.nan), query parameters repeated, missing or sent as raw bytes, unknown fields and routes, wrong methods and
content types, event names and packets that are no event, floods (in a row, at once, over the rate limit).

Each answer is checked: no 5xx (but 503 Busy for heavy work over its bound); a 4xx of the API is JSON {message,
kind}, its kind not Internal, its message naming the field when it refuses what was sent (nesting is measured on
the text before it is parsed, so it is refused for the whole document: README, Security and limits); every JSON
answer is strict JSON (no NaN or Infinity: a browser's JSON.parse refuses them) and every SVG is XML; over
Socket.IO a refused message is answered with one ``error`` (not Internal, naming the field), nobody else hears of
it, and the connection's session, the room and its poll are as they were (``sync`` reads them back); a refusal's
message is at most MAX_REPLY characters; nothing in the log at ERROR, and no traceback. Every input comes from
SEED: a failure names its input and reproduces. Not here: Engine.IO's own limits (MAX_MESSAGE_BYTES, frames:
test_limits, test_packets) and the live servers (test_bad_input's TestLive).
"""

from __future__ import annotations

import copy
import io
import json
import logging
import random
import threading
import time
from dataclasses import dataclass
from xml.dom import minidom
from xml.parsers.expat import ExpatError

import pytest
import yaml

from webapp import create_app
from webapp.engine import tracefile, votes
from webapp.errors import MAX_REPLY
from webapp.model.variant import VARIANTS
from webapp.scenario import builtin
from webapp.scenario.document import MAX_DEPTH
from webapp.scenario.load import load_scenario
from webapp.web.sockets import Viewers

SEED = 20240611
V1, V2 = VARIANTS
LOST = builtin.get("lost-marker")
# The animations' scenario: the smallest built-in (2 steps), so a query whose range falls back to the defaults
# (the whole scenario, at the default width) draws seconds of frames, not tens; the query cases are the same.
TINY_ID = "no-rejector-backoff"
TINY = builtin.get(TINY_ID)
# Every field a scenario object may hold, valid: the validator's branches are reached through it.
RICH = {
    "schema": 1, "name": "Rich", "description": "every field", "assumptions": ["Every pod has priority 0."],
    "versions": [V1, V2], "gate": True, "periodic_flushes": True,
    "hints": [{"event": "PvAdd", "plugin": "P", "hint": "QueueAfterBackoff"}],
    "config": {"initial_backoff": 1, "max_backoff": 10, "max_in_unschedulable": 300,
               "pop_clears_unschedulable_plugins": False, "flush_phase": 0},
    "pods": [{"name": "A", "uid": "a-1", "priority": 5}, {"name": "B"}],
    "initial_active": ["A", "B"],
    "steps": [{"op": "pop", "expect": "A"}, {"op": "event", "event": "NodeAdd", "precheck_exclude": ["B"]},
              {"op": "fail", "pod": "A", "unschedulable_plugins": ["P"], "pod_info": "popped",
               "pod_scheduling_cycle": 1},
              {"op": "advance_clock", "seconds": 2.5}, {"op": "update", "pod": "B", "changed": True},
              {"op": "activate", "pods": ["A"]}],
}


# --- values of each class, as JSON text (spliced in raw: numbers no Python float holds stay as written) ----------
def text(value: str) -> str:
    return json.dumps(value)  # ensure_ascii: a lone surrogate is written as its escape


def nested(levels: int, inner: str = "1") -> str:
    return "[" * levels + inner + "]" * levels


VALUES = {
    "types": ["null", "true", "false", "0", "-1", "1.5", '""', '"x"', "[]", "[null]", "{}", '{"x": {}}'],
    "numbers": ["9" * 5000, "-" + "9" * 101, "9" * 100, "1e309", "-1e309", "1E+400", "NaN", "Infinity",
                "-Infinity", "-0", "-0.0", "1e-400", str(2**31), str(2**63), str(2**53 + 1), "0.1"],
    "numeric strings": [text("9" * 5000), text("1"), text("-0"), text("1e309"), text("NaN"), text("\u0663"),
                        text(" 1"), text("0x1F")],
    "encodings": [text("\ud800"), text("a\udfffb"), text("\x00"), text("a\x00b"), text("\ufeff"), text("\u202e"),
                  text("\U0001F600"), '{"\\ud800": 1}', text("</script><b>&amp;"), text("%00%ff%c0%af")],
    "sizes": [text("x" * 300_000), text("\u00e9" * 100_000), "[" + ",".join(["0"] * 100_000) + "]",
              "{" + ",".join(f'"k{i}": 0' for i in range(30_000)) + "}", text("x" * 253), text("x" * 254)],
    "nesting": [nested(100_000), '{"a":' * 5000 + "1" + "}" * 5000, nested(MAX_DEPTH - 8), nested(MAX_DEPTH),
                nested(MAX_DEPTH + 1), "[" * 200_000],
}
CLASSES = list(VALUES)
MARK = "@@fuzz@@"


@dataclass(frozen=True)
class Case:
    """One input: its class, what it is, the field it changes (None: the whole document) and its text."""

    cls: str
    what: str
    field: str | None
    body: str | bytes | None

    def __str__(self) -> str:
        return f"[{self.cls}] {self.what}"


def paths(doc, prefix=()) -> list[tuple]:
    """Every path into ``doc`` (keys and indexes), the document itself first."""
    found = [prefix]
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, value in items:
        found.extend(paths(value, (*prefix, key)))
    return found


def shown_path(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") or "(document)"


def named(path: tuple) -> str | None:
    """The field a message about ``path`` must name: its last key (an index names its list)."""
    keys = [p for p in path if isinstance(p, str)]
    return keys[-1] if keys else None


def _at(doc, path):
    for part in path:
        doc = doc[part]
    return doc


def splice(doc, path: tuple, op: str, raw: str = "") -> str:
    """``doc`` as JSON text with the value at ``path`` replaced by the JSON text ``raw`` (op "replace"), dropped
    ("drop"), or the object at ``path`` given the key ``raw`` (a JSON string; op "key")."""
    if not path and op == "replace":
        return raw
    doc = copy.deepcopy(doc)
    parent = _at(doc, path if op == "key" else path[:-1])
    if op == "replace":
        parent[path[-1]] = MARK
    elif op == "drop":
        del parent[path[-1]]
    else:
        parent[MARK] = 1
    return json.dumps(doc).replace(text(MARK), raw, 1)


def mutations(doc, rng: random.Random, deeper: int, per_path: int = 3, values: dict = VALUES) -> list[Case]:
    """Seeded cases for ``doc``: the document and its top fields, and ``deeper`` fields below them, each given a
    value of ``per_path`` classes (taken in turn: every class at every few paths), and dropped; three objects
    given an unknown key, a key with a lone surrogate, with a NUL, or of 10,000 characters."""
    every = paths(doc)
    below = [p for p in every if len(p) > 1]
    chosen = [p for p in every if len(p) <= 1] + rng.sample(below, min(len(below), deeper))
    cases = []
    for i, path in enumerate(chosen):
        field, where = named(path), shown_path(path)
        for cls in (CLASSES[(i * per_path + j) % len(CLASSES)] for j in range(per_path)):
            raw = rng.choice(values[cls])
            cases.append(Case(cls, f"{where} = {raw[:40]}", field, splice(doc, path, "replace", raw)))
        if path:
            cases.append(Case("missing", f"{where} dropped", field, splice(doc, path, "drop")))
    objects = [p for p in chosen if isinstance(_at(doc, p), dict)]
    for path in rng.sample(objects, min(3, len(objects))):
        key = rng.choice([text("unknown"), text("\ud800"), text("a\x00b"), text("k" * 10_000)])
        cases.append(Case("unknown fields", f"{shown_path(path)} + key {key[:20]}", None,
                          splice(doc, path, "key", key)))
    return cases


# --- what every answer must be -------------------------------------------------------------------------------------
class LogTrap(logging.Handler):
    """Records at ERROR and over, and any record with a traceback, from every logger."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        if record.levelno >= logging.ERROR or record.exc_info:
            self.records.append(record)

    def take(self) -> list[str]:
        taken = [f"logged {r.name}: {r.getMessage()[:200]}" + (" (with a traceback)" if r.exc_info else "")
                 for r in self.records]
        self.records.clear()
        return taken


@pytest.fixture
def trap():
    handler = LogTrap()
    root = logging.getLogger()
    root.addHandler(handler)
    yield handler
    root.removeHandler(handler)


def strict_json(data: bytes | str):
    """The JSON in ``data`` as a browser's JSON.parse reads it: NaN and Infinity are not JSON."""
    def refuse(name):
        raise ValueError(f"{name} in the answer")

    return json.loads(data, parse_constant=refuse)


FIELD_KINDS = ("Invalid", "ScenarioError")  # refusals of what was sent (the others: of when or where it was sent)


def names_field(message: str, field: str | None) -> bool:
    """Whether a refusal says where the problem is: the field (a scenario's problems name theirs as ``field
    '...'``; a cross-reference may name the field referring to the changed one), or the whole document."""
    if field is None or "nested deeper than" in message:
        return bool(message.strip())
    return field in message or "field '" in message


@pytest.fixture
def fuzz_app():
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True, "FIND_BUDGET_SECONDS": 0.02,
                      "RATE_LIMIT_PER_SECOND": 0, "MAX_ROOMS_PER_CONNECTION": 10_000, "MAX_ROOMS_PER_ADDRESS": 0})
    yield app
    quiet(app)


def quiet(app) -> None:
    """No autoplay (a connection's or a room's) nor sweeper outlives the test."""
    rooms = app.extensions["inflight_rooms"]
    owned = [rooms.find(code).session for code in rooms.local_codes()]
    for session in [*app.extensions["inflight_sessions"].values(), *owned]:
        session.pause()
    app.extensions["inflight_guard"].sweeper.stop()


# --- HTTP -------------------------------------------------------------------------------------------------------------
BODY_ROUTES = {  # path -> (valid body, fields to take below the top ones)
    "/api/replay": (LOST, 4),
    "/api/validate": ({"text": yaml.safe_dump(LOST, sort_keys=False), "format": "yaml"}, 0),
    "/api/trace": (RICH, 8),
    "/api/trace/check": (tracefile.build(load_scenario(LOST)), 10),
    "/api/find": ({"target": "invariant", "seed": 1, "versions": [V1, V2]}, 2),
    "/api/challenges/lose-marker/check": (RICH, 4),
    "/export/html": (LOST, 0),
    "/export/svg?position=2": (LOST, 3),
    "/export/gif?from=1&to=2&width=320": (TINY, 0),  # an animation: the smallest, so each valid case stays cheap
    "/api/rooms/ABCD/remote": ({"token": "t" * 43}, 0),  # the phone remote's link, made and revoked
    "/api/rooms/ABCD/remote/revoke": ({"token": "t" * 43}, 0),
}
API = ("/api/", "/export/")


def http_problems(response, case: Case, path: str) -> list[str]:
    """What is wrong with the HTTP answer to ``case``."""
    status, data = response.status_code, response.get_data()
    problems = [f"{status}: {data[:200]!r}"] if status >= 500 else []
    api = path.startswith(API)
    body = None
    if response.mimetype == "application/json":
        try:
            body = strict_json(data)
        except ValueError as err:
            return [*problems, f"{status} with an answer that is not strict JSON: {err}"]
    elif response.mimetype == "image/svg+xml":
        try:
            minidom.parseString(data)
        except ExpatError as err:
            problems.append(f"an SVG that is not XML: {err}")
    elif api and status >= 400:
        return [*problems, f"{status} {response.mimetype}, not JSON: {data[:120]!r}"]
    if 400 <= status < 500 and api:
        if not isinstance(body, dict) or not isinstance(body.get("message"), str) or not body.get("kind"):
            problems.append(f"{status} without {{message, kind}}: {data[:200]!r}")
        elif len(body["message"]) > MAX_REPLY + 40:
            problems.append(f"{status} with a message of {len(body['message'])} characters")
        elif body["kind"] == "Internal":
            problems.append(f"{status} Internal: {body['message'][:200]}")
        elif body["kind"] in FIELD_KINDS and not names_field(body["message"], case.field):
            problems.append(f"{status}: the message does not name {case.field!r}: {body['message'][:200]}")
    return problems


def send_http(client, method: str, path: str, case: Case, ctype: str | None = "application/json"):
    body = case.body.encode("utf-8", "surrogatepass") if isinstance(case.body, str) else case.body
    return client.open(path, method=method, data=body, content_type=ctype)


def run_http(client, trap, method: str, path: str, cases) -> list[str]:
    """Each case (or (case, content type)) sent as the body; what was wrong with each answer."""
    failures = []
    for case in cases:
        case, ctype = case if isinstance(case, tuple) else (case, "application/json")
        problems = http_problems(send_http(client, method, path, case, ctype), case, path) + trap.take()
        failures.extend(f"{method} {path[:80]} {case}: {p}" for p in problems)
    return failures


def raw_bodies(limit: int) -> list[tuple[Case, str | None]]:
    """(case, content type) of bodies no field mutation makes: not UTF-8, not one JSON document, other content
    types, sizes at and over MAX_UPLOAD_BYTES."""
    valid = json.dumps(LOST).encode()
    return [(Case(cls, what, None, body), ctype) for cls, what, body, ctype in [
        ("encodings", "invalid UTF-8 byte", b'{"name": "\xff"}', "application/json"),
        ("encodings", "overlong UTF-8 '/'", b'"\xc0\xaf"', "application/json"),
        ("encodings", "truncated UTF-8", b'"\xe2\x82', "application/json"),
        ("encodings", "UTF-8 encoded surrogate", b'"\xed\xa0\x80"', "application/json"),
        ("encodings", "UTF-16", json.dumps(LOST).encode("utf-16"), "application/json"),
        ("encodings", "a BOM and valid JSON", b"\xef\xbb\xbf" + valid, "application/json"),
        ("encodings", "a raw NUL byte", b'{"a": "\x00"}', "application/json"),
        ("types", "an empty body", b"", "application/json"),
        ("types", "whitespace", b" \n\t ", "application/json"),
        ("types", "two documents", b"{}{}", "application/json"),
        ("types", "trailing garbage", valid + b"x", "application/json"),
        ("content types", "text/plain", valid, "text/plain"),
        ("content types", "a form", b"scenario=lost-marker&a=%ff", "application/x-www-form-urlencoded"),
        ("content types", "multipart", b'--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n',
         "multipart/form-data; boundary=b"),
        ("content types", "no content type", valid, None),
        ("content types", "a wrong charset", valid, "application/json; charset=utf-16"),
        ("sizes", "a string filling MAX_UPLOAD_BYTES", b'"' + b"x" * (limit - 2) + b'"', "application/json"),
        ("sizes", "one byte over MAX_UPLOAD_BYTES", b'"' + b"x" * (limit - 1) + b'"', "application/json"),
    ]]


def test_every_route_is_fuzzed(fuzz_app):
    """Each rule of the URL map is reached by a path fuzzed below."""
    adapter = fuzz_app.url_map.bind("localhost")
    posted = [path.split("?")[0] for path in [*BODY_ROUTES, *POST_QUERIES]] + ["/api/import", "/report"]
    posted += [pattern.format(value) for pattern, value in PATH_ROUTES.items() if pattern.endswith("check")]
    gotten = [*GET_ROUTES, *(pattern.format(value) for pattern, value in PATH_ROUTES.items()
                             if not pattern.endswith("check"))]
    reached = {adapter.match(path, method="POST", return_rule=True)[0].rule for path in posted}
    reached |= {adapter.match(path, method="GET", return_rule=True)[0].rule for path in gotten}
    assert reached == {rule.rule for rule in fuzz_app.url_map.iter_rules()}


@pytest.mark.parametrize("path", list(BODY_ROUTES))
def test_every_json_body_route_answers_every_class(fuzz_app, trap, path):
    rng = random.Random(f"{SEED}:{path}")
    doc, deeper = BODY_ROUTES[path]
    cases = mutations(doc, rng, deeper) + raw_bodies(fuzz_app.config["MAX_UPLOAD_BYTES"])
    failures = run_http(fuzz_app.test_client(), trap, "POST", path, cases)
    assert failures == [], f"{len(failures)} failures:\n" + "\n".join(failures[:40])


# YAML specials for the editor's text: the only YAML a client sends.
BASE_YAML = BODY_ROUTES["/api/validate"][0]["text"]
YAML = {
    "billion laughs": "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
    "python object": "!!python/object/apply:os.system ['echo fuzz']\n",
    "python name": "schema: 1\nname: !!python/name:os.system\n",
    "merge key": "base: &b {name: A}\npods: [{<<: *b}]\n",
    "merge key, no anchor": "schema: 1\nname: x\npods: [{<<: {name: A}}]\nsteps: []\n",
    "duplicate keys": BASE_YAML + "name: again\nname: and again\n",
    "timestamp name": BASE_YAML.replace("name: The lost marker", "name: 2001-12-14t21:59:43.10-05:00"),
    "date as a key": BASE_YAML + "2001-12-14: x\n",
    "binary": BASE_YAML.replace("name: The lost marker", "name: !!binary aGVsbG8="),
    "set": BASE_YAML + "initial_active: !!set {A, B}\n",
    "omap": "!!omap [schema: 1, name: x, pods: [], steps: []]\n",
    "nan": "schema: 1\nname: x\npods: []\nsteps: [{op: advance_clock, seconds: .nan}]\n",
    "inf": "schema: 1\nname: x\npods: []\nsteps: [{op: advance_clock, seconds: .inf}]\n",
    "float overflow": "schema: 1\nname: x\npods: []\nsteps: [{op: advance_clock, seconds: 1.0e+999}]\n",
    "nan as a key": BASE_YAML + ".nan: 1\n",
    "complex key": "? [a, b]\n: 1\n",
    "a list as a mapping key": "{[1]: 2}\n",
    "explicit tags": "schema: !!str 1\nname: !custom x\n",
    "sexagesimal": "schema: 1:00\nname: x\npods: []\nsteps: []\n",
    "a huge sexagesimal": "schema: " + ":".join(["59"] * 3000) + "\nname: x\n",
    "two documents": "schema: 1\n---\nschema: 2\n",
    "a directive": "%YAML 1.1\n---\n" + BASE_YAML,
    "deep flow": "a: " + "[" * 10_000 + "\n",
    "deep block": "".join(" " * i + "a:\n" for i in range(500)),
    "a NUL escape": 'schema: 1\nname: "a\\0b"\npods: []\nsteps: []\n',
    "a lone surrogate escape": 'schema: 1\nname: "\\ud800"\n',
    "an invalid escape": 'schema: 1\nname: "\\x"\n',
    "a tab indent": "schema: 1\n\tname: x\n",
    "null document": "~\n",
    "a scalar document": "42\n",
    "empty": "",
}


def validate_problems(response) -> list[str]:
    """/api/validate answers 200 for any text: each problem with its field, message and place."""
    if response.status_code != 200:
        return []
    answer = strict_json(response.get_data())
    bad = [p for p in answer.get("problems", []) if not p["field"] or not p["message"] or p["line"] < 1]
    return [f"problems without their field, message or line: {bad[:2]}"] if bad else []


def test_the_editor_answers_every_yaml_special(fuzz_app, trap):
    client = fuzz_app.test_client()
    failures = []
    for name, source in YAML.items():
        for fmt in ("yaml", None):
            case = Case("YAML specials", f"{name} (format {fmt})", "text", json.dumps({"text": source, "format": fmt}))
            response = send_http(client, "POST", "/api/validate", case)
            problems = http_problems(response, case, "/api/validate") + validate_problems(response) + trap.take()
            failures.extend(f"{case}: {p}" for p in problems)
    assert failures == [], "\n".join(failures)


def test_the_editor_answers_every_text_class(fuzz_app, trap):
    """The scenario's own text mutated field by field (as JSON text) is a located problem, never a 500: 200, or
    400 for a body the route cannot read (a lone surrogate in the text). Values under 100 kB: locating a problem
    in a text of 100,000 list items takes a second (the body routes send those)."""
    rng = random.Random(f"{SEED}:validate-text")
    client = fuzz_app.test_client()
    small = {cls: [v for v in values if len(v) < 100_000] for cls, values in VALUES.items()}
    failures = []
    for case in mutations(RICH, rng, deeper=6, per_path=2, values=small):
        body = Case(case.cls, case.what, "text", json.dumps({"text": case.body, "format": None}))
        response = send_http(client, "POST", "/api/validate", body)
        problems = http_problems(response, body, "/api/validate") + validate_problems(response) + trap.take()
        failures.extend(f"text {case}: {p}" for p in problems)
    assert failures == [], f"{len(failures)} failures:\n" + "\n".join(failures[:40])


def log_cases(rng: random.Random) -> list[Case]:
    """A JSON-lines log with a line's fields mutated, and lines and bytes of each class (JSON lines and klog)."""
    lines = [{"ts": 1701345575000.0, "caller": "app/server.go:154", "msg": "Starting Kubernetes Scheduler", "v": 0},
             {"ts": 1701345600000.1, "caller": "scheduler/eventhandlers.go:126", "msg": "Add event for unscheduled pod",
              "v": 3, "pod": {"name": "c", "namespace": "default"}}]  # tests/data/logs/five-minute-incident.json.log
    good = json.dumps(lines[0]) + "\n"
    cases = [Case(c.cls, "a log line's " + c.what, None, good + c.body + "\n") for c in mutations(lines[1], rng, 4)]
    klog = 'I1130 12:00:00.100000       1 eventhandlers.go:126] "Add event for unscheduled pod" pod="default/c"\n'
    for cls, what, body in [
        ("nesting", "a JSON line 5,000 deep", good + '{"ts": 1, "msg": ' + nested(5000) + "}\n"),
        ("nesting", "a JSON line 20,000 unclosed", good + '{"ts": 1, "msg": ' + "[" * 20_000 + "\n"),
        ("numbers", "a ts of 5000 digits", good + '{"ts": ' + "9" * 5000 + ', "msg": "x"}\n'),
        ("numbers", "a ts of 1e309", good + '{"ts": 1e309, "msg": "Add event for unscheduled pod", "pod": "a"}\n'),
        ("numbers", "a ts of NaN", good + '{"ts": NaN, "msg": "Add event for unscheduled pod", "pod": "a"}\n'),
        ("numbers", "a ts in year 1", good + '{"ts": "0001-01-01T00:00:00+14:00", "msg": "Add event for '
                                             'unscheduled pod", "pod": "a"}\n'),
        ("numbers", "a klog date out of range", klog.replace("I1130", "I9999")),
        ("numbers", "a klog time of 99:99", klog.replace("12:00:00", "99:99:99")),
        ("encodings", "a lone surrogate in a klog value", klog.replace("default/c", "default/\\ud800")),
        ("encodings", "invalid UTF-8", good.encode() + b"\xff\xfe\n" + klog.encode()),
        ("encodings", "a NUL byte first", b"\x00" + good.encode()),
        ("encodings", "a NUL byte later", good.encode() + b"a\x00b\n"),
        ("sizes", "a 3 MB line", good + "x" * 3_000_000 + "\n"),
        ("sizes", "100,000 empty lines", "\n" * 100_000),
        ("types", "an empty log", ""),
        ("types", "JSON that is a list", "[1, 2]\n"),
    ]:
        cases.append(Case(cls, what, None, body))
    return cases


def test_the_log_import_answers_every_class(fuzz_app, trap):
    cases = [(case, "text/plain") for case in log_cases(random.Random(f"{SEED}:import"))]
    failures = run_http(fuzz_app.test_client(), trap, "POST", "/api/import", cases)
    assert failures == [], f"{len(failures)} failures:\n" + "\n".join(failures[:40])


def test_the_report_page_answers_every_class(fuzz_app, trap):
    """POST /report: each log case as the multipart field ``log``, and bodies that are no such form."""
    client = fuzz_app.test_client()
    failures = []
    for case in log_cases(random.Random(f"{SEED}:report")):
        body = case.body.encode("utf-8", "surrogatepass") if isinstance(case.body, str) else case.body
        response = client.post("/report?name=x.log", data={"log": (io.BytesIO(body), "x.log")},
                               content_type="multipart/form-data")
        failures.extend(f"POST /report {case}: {p}" for p in http_problems(response, case, "/report") + trap.take())
    for case, ctype in raw_bodies(fuzz_app.config["MAX_UPLOAD_BYTES"]):
        response = send_http(client, "POST", "/report", case, ctype)
        failures.extend(f"POST /report {case}: {p}" for p in http_problems(response, case, "/report") + trap.take())
    assert failures == [], f"{len(failures)} failures:\n" + "\n".join(failures[:40])


# --- query strings, path parameters and methods ------------------------------------------------------------------
QUERY_VALUES = {  # as sent: percent-encoded
    "types": ["", "true", "null", "[]", "{}", "-1", "1.5"],
    "numbers": ["9" * 5000, "9" * 10, "1e309", "NaN", "-0", "+1", "%EF%BC%93", "%D9%A3"],  # fullwidth, Arabic 3
    "encodings": ["%00", "%ff", "%c0%ae", "%ed%a0%80", "%F0%9F%98%80", "%", "%zz", "%u0041", "a%0d%0ab"],
    "sizes": ["x" * 100_000, "v1.28.1," * 2000],
}
GET_ROUTES = {  # path -> the query parameters it reads, valid
    "/": "scenario=lost-marker&position=2&versions=v1.28.1,v1.28.2&layout=both&theme=dark&room=ABCD&inline=x",
    "/present": "scenario=lost-marker&position=2&versions=v1.28.1&theme=light",
    "/speaker": "room=ABCD&theme=dark",
    "/embed": "scenario=lost-marker&from=1&to=3&position=2&inline=abc&story=1",
    "/editor": "scenario=lost-marker&theme=dark",
    "/export/lost-marker.svg": "position=2&versions=v1.28.1,v1.28.2",
    "/export/lost-marker.html": "versions=v1.28.2&position=2&from=1&to=3&story=1",
    "/scrollytelling": "",
    f"/export/{TINY_ID}.apng": "from=1&to=2&width=320&theme=dark&versions=v1.28.1",
    f"/export/{TINY_ID}.mp4": "from=1&to=2&width=320&theme=dark&versions=v1.28.1&preset=full",
    "/versions": "", "/api/versions": "", "/api/scenarios": "", "/api/plugins": "", "/api/operations": "",
    "/api/challenges": "", "/healthz": "", "/favicon.ico": "", "/api/scenarios/lost-marker": "", "/api/audience": "",
}
POST_QUERIES = {"/export/svg": "position=2&versions=v1.28.1", "/export/html": "versions=v1.28.2",
                "/export/apng": "from=1&to=2&width=320&theme=dark",
                "/export/mp4": "from=1&to=2&width=320&theme=dark&preset=slide"}
ANIMATED = ("/export/apng", "/export/mp4")


def query_cases(query: str, rng: random.Random) -> list[Case]:
    """Each parameter missing, repeated, and given values of each class; an unknown one; a broken query."""
    pairs = [pair.split("=", 1) for pair in query.split("&") if pair]
    cases = [Case("unknown fields", "an unknown parameter", None, f"?{query}&zz=%ff&zz=1"),
             Case("encodings", "a broken query", None, "?=&&=%&a==b&%ff=%ff&%00=%ed%a0%80")]
    for i, (name, _) in enumerate(pairs):
        others = "&".join(f"{n}={v}" for j, (n, v) in enumerate(pairs) if j != i)
        cases.append(Case("missing", f"{name} missing", name, f"?{others}"))
        cases.append(Case("repeated", f"{name} repeated", name, f"?{query}&{name}=%ff&{name}=9"))
        raw = f"{others}&{name}=".encode() + rng.choice([b"\xff\xfe", b"\xc0\xaf", b"\xed\xa0\x80", b"\xc3\xa9"])
        cases.append(Case("encodings", f"{name}=raw bytes {raw[-3:]!r}", name, raw))  # sent as they are
        for cls, values in QUERY_VALUES.items():
            bad = rng.choice(values)
            cases.append(Case(cls, f"{name}={bad[:30]}", name, f"?{others}&{name}={bad}"))
    return cases


@pytest.mark.parametrize("path", [*GET_ROUTES, *POST_QUERIES])
def test_every_query_parameter_answers_every_class(fuzz_app, trap, path):
    rng = random.Random(f"{SEED}:{path}")
    query = GET_ROUTES.get(path, POST_QUERIES.get(path))
    cases = query_cases(query, rng) if query else query_cases("x=1", rng)[:2]
    client = fuzz_app.test_client()
    failures = []
    for case in cases:
        url, raw = (path, case.body.decode("latin-1")) if isinstance(case.body, bytes) else (path + case.body, None)
        environ = {} if raw is None else {"QUERY_STRING": raw}  # as a WSGI server passes the bytes
        body = (TINY if path in ANIMATED else LOST) if path in POST_QUERIES else None
        response = client.open(url, method="POST" if path in POST_QUERIES else "GET", json=body,
                               environ_overrides=environ)
        failures.extend(f"{url[:100]} {case}: {p}" for p in http_problems(response, case, path) + trap.take())
    assert failures == [], f"{len(failures)} failures:\n" + "\n".join(failures[:40])


PATH_VALUES = ["%00", "%ff", "%c0%ae%c0%ae", "%ed%a0%80", "..%2f..%2fetc%2fpasswd", "x" * 5000, "%F0%9F%98%80",
               "9" * 5000, "a%0d%0ab", "%25"]
PATH_ROUTES = {"/api/scenarios/{}": "lost-marker", "/export/{}.html": "lost-marker", "/export/{}.svg": "lost-marker",
               "/r/{}": "ABCD", "/r/{}/qr.svg": "ABCD",
               "/api/challenges/{}/check": "lose-marker", "/static/{}": "js/app.js",
               "/static/v/{}/js/app.js": "1", "/static/v/1/{}": "js/app.js",
               "/static/v/{}/css/tokens.css": "1", "/report/{}": "lost-marker",
               "/report/{}.md": "lost-marker", "/report/kept/{}": "none", "/report/kept/{}.md": "none",
               "/api/sources/{}": "v1.28.1", "/export/{}.gif": TINY_ID, "/remote/{}": "ABCD",
               "/room/summary/{}": "none"}  # pattern -> a valid value


@pytest.mark.parametrize("pattern", list(PATH_ROUTES))
def test_every_path_parameter_answers_every_class(fuzz_app, trap, pattern):
    client = fuzz_app.test_client()
    failures = []
    for value in PATH_VALUES:
        path = pattern.format(value)
        case = Case("encodings" if "%" in value else "sizes", f"path {path[:60]}", None, "")
        response = client.post(path, json=LOST) if pattern.endswith("check") else client.get(path)
        failures.extend(f"{path[:80]}: {p}" for p in http_problems(response, case, path) + trap.take())
    assert failures == [], "\n".join(failures)


def test_every_route_answers_a_wrong_method_and_unknown_routes(fuzz_app, trap):
    client = fuzz_app.test_client()
    failures = []
    for rule in fuzz_app.url_map.iter_rules():
        path = rule.rule.replace("<path:filename>", "js/app.js").replace("<", "").replace(">", "")
        for method in ("GET", "POST", "PUT", "DELETE", "PATCH"):
            if method in rule.methods:
                continue
            case = Case("methods", f"{method} {path}", None, b"{}")
            response = send_http(client, method, path, case)
            if response.status_code != 405:
                failures.append(f"{case}: {response.status_code}, not 405")
            failures.extend(f"{case}: {p}" for p in http_problems(response, case, path) + trap.take())
    for path in ["/api/nothing", "/export/", "/export/a/b.svg", "/api/scenarios/", "/api"]:
        case = Case("unknown routes", path, None, b"")
        failures.extend(f"{case}: {p}" for p in http_problems(client.get(path), case, path) + trap.take())
    assert failures == [], "\n".join(failures)


def test_a_flood_of_bad_requests_is_answered_each_time(fuzz_app, trap):
    """150 bad bodies in a row over the body routes, each answered as alone (no 5xx); the app answers after."""
    client = fuzz_app.test_client()
    rng = random.Random(f"{SEED}:flood")
    failures = []
    for i in range(150):
        path, cls = rng.choice(list(BODY_ROUTES)), rng.choice(CLASSES)
        case = Case(cls, f"flood #{i}", None, rng.choice(VALUES[cls]))
        failures.extend(f"{path} {case}: {p}" for p in
                        http_problems(send_http(client, "POST", path, case), case, path) + trap.take())
    assert client.post("/api/replay", json="lost-marker").status_code == 200
    assert failures == [], "\n".join(failures[:40])


def test_a_concurrent_flood_is_answered_busy_when_full(trap):
    """Heavy requests at once beyond MAX_LOADS_AT_ONCE + MAX_LOADS_WAITING: each is answered, the ones over the
    bound 503 with kind Busy (README, Security and limits), the others as alone; nothing Internal."""
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True, "MAX_LOADS_AT_ONCE": 1, "MAX_LOADS_WAITING": 1})
    steps = [{"op": "event", "event": "NodeAdd"} for _ in range(3000)]
    body = json.dumps({"text": json.dumps({**LOST, "steps": [*LOST["steps"], *steps]}), "format": "json"})
    answers = []

    def post():
        answers.append(app.test_client().post("/api/validate", data=body, content_type="application/json"))

    try:
        threads = [threading.Thread(target=post) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        statuses = sorted(answer.status_code for answer in answers)
        assert len(statuses) == 8 and set(statuses) <= {200, 503} and 200 in statuses, statuses
        assert all(answer.get_json()["kind"] == "Busy" for answer in answers if answer.status_code == 503)
        assert trap.take() == []
    finally:
        quiet(app)


# --- Socket.IO --------------------------------------------------------------------------------------------------------
ROOM, TOKEN = "@room@", "@token@"  # the stage's room and its presenter token
OWN_POSITION, ROOM_POSITION = 2, 5  # the room stands just before B's failure: a poll can open there
AS_PRESENTER = {"room": ROOM, "token": TOKEN}
SOCKET_CASES = {  # name -> (event, who sends it, a valid payload)
    "load": ("load", "presenter", {"scenario": "lost-marker", "variants": [V1, V2], "position": 1, "range": [0, 6]}),
    "load a scenario object": ("load", "presenter", {"scenario": RICH, "variants": [V1], "position": 0}),
    "load a room": ("load", "presenter", {"scenario": "lost-marker", "position": 3, **AS_PRESENTER}),
    **{f"{event}{suffix}": (event, "presenter", {**extra, **room})
       for event, extra in [("step", {}), ("back", {}), ("seek", {"position": 3}), ("play", {"speed": 0.25}),
                            ("pause", {}), ("reset", {})]
       for suffix, room in [("", {}), (" a room", AS_PRESENTER)]},
    "sync": ("sync", "presenter", {"scenario": True}),
    "sync a room": ("sync", "follower", {"room": ROOM, "scenario": True}),
    "echo": ("echo", "presenter", {"any": [1, "x", None]}),
    "create_room": ("create_room", "presenter", {}),
    "claim_room": ("claim_room", "presenter", AS_PRESENTER),
    "join_room": ("join_room", "follower", {"room": ROOM}),
    "leave_room": ("leave_room", "follower", {"room": ROOM}),
    "poll_open": ("poll_open", "presenter", AS_PRESENTER),
    "poll_answer": ("poll_answer", "follower", {"room": ROOM, "answers": {V1: "backoffQ", V2: "unschedulablePods"}}),
    "poll_reveal": ("poll_reveal", "presenter", AS_PRESENTER),
    "poll_cancel": ("poll_cancel", "presenter", AS_PRESENTER),
    "blank": ("blank", "presenter", {**AS_PRESENTER, "on": True}),
    "vote_offer": ("vote_offer", "presenter", AS_PRESENTER),
    "vote_open": ("vote_open", "presenter", {**AS_PRESENTER, "actions": [{"op": "event", "event": "NodeAdd"},
                                                                         {"op": "activate", "pods": ["B"]}]}),
    "vote_answer": ("vote_answer", "follower", {"room": ROOM, "voter": "phone-0001", "action": 1}),
    "vote_close": ("vote_close", "presenter", AS_PRESENTER),
    "vote_cancel": ("vote_cancel", "presenter", AS_PRESENTER),
    "vote_undo": ("vote_undo", "presenter", AS_PRESENTER),
    "summary_post": ("summary_post", "presenter", AS_PRESENTER),
}
NEEDS = {"poll_answer": "poll", "poll_reveal": "poll", "poll_cancel": "poll",
         "vote_answer": "vote", "vote_close": "vote", "vote_cancel": "vote"}  # what must be open for the event


def test_every_event_is_fuzzed():
    assert {event for event, _, _ in SOCKET_CASES.values()} == set(Viewers.events())


class Stage:
    """A presenter with its own session (lost-marker at OWN_POSITION) and a room (at ROOM_POSITION) that a
    follower and a watcher follow. ``send`` hands the server a raw packet as Engine.IO does; ``snapshot`` reads
    back everything a refused message must leave as it was."""

    def __init__(self, app):
        self.server = app.extensions["socketio"].server
        self.rooms = app.extensions["inflight_rooms"]
        socketio = app.extensions["socketio"]
        self.clients = {name: socketio.test_client(app) for name in ("presenter", "follower", "watcher")}
        self.presenter, self.watcher = self.clients["presenter"], self.clients["watcher"]
        self.ack = self.presenter.emit("create_room", {}, callback=True)
        self.code = self.ack["room"]
        self.restore()

    def restore(self, needs: str | None = None) -> None:
        """Back to the stage's positions (after an accepted message moved something), with a poll or a vote open
        when ``needs`` says so and neither otherwise."""
        self.presenter.emit("load", {"scenario": "lost-marker", "position": OWN_POSITION})
        self.presenter.emit("load", {"scenario": "lost-marker", "position": ROOM_POSITION, **self.ack})
        for name in ("follower", "watcher"):
            self.clients[name].emit("join_room", {"room": self.code})
        for box, kind in ((self.code, "poll"), (votes.box(self.code), "vote")):
            if (self.rooms._store.poll(box) or {}).get("open"):
                self.presenter.emit(f"{kind}_cancel", self.ack)
        if needs:
            self.presenter.emit(f"{needs}_open", self.ack)
        for client in self.clients.values():
            client.get_received()

    def snapshot(self) -> dict:
        self.presenter.emit("sync", {})
        self.watcher.emit("sync", {"room": self.code})
        store = self.rooms._store
        return {"own": [m["args"] for m in self.presenter.get_received()],
                "room": [m["args"] for m in self.watcher.get_received()],
                "poll": store.poll(self.code), "answers": store.answers(self.code),
                "vote": store.poll(votes.box(self.code)), "ballots": store.answers(votes.box(self.code)),
                "turns": store.turns(self.code),
                "rooms": sorted(self.rooms.local_codes())}

    def fill(self, payload):
        return json.loads(json.dumps(payload).replace(ROOM, self.code).replace(TOKEN, self.ack["token"]))

    def send(self, who: str, packet: str) -> dict[str, list]:
        """What each client received after ``packet`` from ``who``."""
        self.server.eio._trigger_event("message", self.clients[who].eio_sid, packet, run_async=False)
        return {name: [(m["name"], m["args"][0] if m["args"] else None) for m in client.get_received()]
                for name, client in self.clients.items()}


def event_packet(event: str, payload: str | None) -> str:
    return "2[" + text(event) + ("" if payload is None else "," + payload) + "]"


def socket_problems(stage: Stage, event: str | None, who: str, case: Case, before: dict, heard: dict):
    """(what is wrong with the answers to ``case``, whether it was refused)."""
    problems = []
    for name, messages in heard.items():
        for message in messages:
            try:
                json.dumps(message, allow_nan=False)
            except ValueError:
                problems.append(f"{name} was sent {message[0]!r} holding NaN or Infinity (not JSON)")
    mine = heard[who]
    errors = [data for name, data in mine if name == "error"]
    if not errors:
        return problems, False
    if [name for name, _ in mine] != ["error"]:
        problems.append(f"refused, yet more was sent: {[name for name, _ in mine]}")
    error = errors[0]
    if not isinstance(error, dict) or not isinstance(error.get("message"), str) or not error.get("kind"):
        return [*problems, f"an error without message and kind: {error!r:.200}"], True
    if len(error["message"]) > MAX_REPLY + 40:
        problems.append(f"an error message of {len(error['message'])} characters")
    if error["kind"] == "Internal":
        problems.append(f"Internal: {error['message'][:200]}")
    elif event is not None and error["event"] != event[:60]:
        problems.append(f"the error names event {error['event']!r}")
    elif error["kind"] in FIELD_KINDS and not names_field(error["message"], case.field):
        problems.append(f"the message does not name {case.field!r}: {error['message'][:200]}")
    others = {name: messages for name, messages in heard.items() if name != who and messages}
    if others:
        problems.append(f"refused, yet others heard of it: {others!r:.300}")
    after = stage.snapshot()
    problems += [f"refused, yet {part} changed: {before[part]!r:.200} -> {after[part]!r:.200}"
                 for part in before if after[part] != before[part]]
    return problems, True


@pytest.mark.parametrize("name", list(SOCKET_CASES))
def test_every_socket_event_answers_every_class(fuzz_app, trap, name):
    event, who, template = SOCKET_CASES[name]
    stage = Stage(fuzz_app)
    rng = random.Random(f"{SEED}:{name}")
    payload = stage.fill(template)
    cases = mutations(payload, rng, deeper=6 if name == "load a scenario object" else 2)
    cases += [Case("missing", "no payload", None, None),
              Case("types", "two payloads", None, json.dumps(payload) + ",2")]
    needs = NEEDS.get(name)
    stage.restore(needs)
    before = stage.snapshot()
    failures = []
    for case in cases:
        heard = stage.send(who, event_packet(event, case.body))
        problems, refused = socket_problems(stage, event, who, case, before, heard)
        failures.extend(f"{event} from the {who} {case}: {p}" for p in problems + trap.take())
        if not refused or problems:  # something moved: back to the stage, and read it again
            stage.restore(needs)
            before = stage.snapshot()
    assert failures == [], f"{len(failures)} failures:\n" + "\n".join(failures[:40])


EVENT_NAMES = ["", "\ud800", "a\x00b", "x" * 10_000, "connect", "disconnect", "*", "message", "Load", "load ",
               "on_load", "__init__", "trigger_event", "\U0001F600"]
RAW_PACKETS = ["2", "2[", "2{}", '2"load"', "2[1]", "2[null,{}]", '2[["load"],{}]', '2["echo"', "2[]", "9", "7",
               '2/other,["load",{}]', "3", '4["x"]', '51-["echo",{"_placeholder":true,"num":0}]', "2" + "[" * 200_000,
               '2["seek",{"position":1},{"position":2}]', '2["seek",{"position":' + "9" * 5000 + "}]", '3["late ack"]']
# A CONNECT on a connected namespace is refused by python-socketio with CONNECT_ERROR (a browser's client then
# closes): sent from a connection of its own, which is then left as it was on the server.
CONNECT_PACKETS = ["0", "0" + nested(100_000, "{}"), '0{"token":1e309}', "0/other,", '0{"\\ud800":1}',
                   "0/," + "x" * 5000]


def test_every_event_name_and_raw_packet_is_answered(fuzz_app, trap):
    """Event names of each class, and packets that are no event: an ``error`` (never Internal) or nothing, and
    the stage as it was."""
    stage = Stage(fuzz_app)
    cases = [Case("event names", f"event {name[:20]!r}", None, event_packet(name, "{}")) for name in EVENT_NAMES]
    cases += [Case("raw packets", f"packet {packet[:30]!r}", None, packet) for packet in RAW_PACKETS]
    before = stage.snapshot()
    failures = []
    for case in cases:
        heard = stage.send("presenter", case.body)
        problems, refused = socket_problems(stage, None, "presenter", case, before, heard)
        if not refused and any(heard.values()):
            problems.append(f"answered as if valid: {heard!r:.200}")
        failures.extend(f"{case}: {p}" for p in problems + trap.take())
    sessions = fuzz_app.extensions["inflight_sessions"]
    for packet in CONNECT_PACKETS:
        stranger = fuzz_app.extensions["socketio"].test_client(fuzz_app)
        connections = dict(sessions)
        stage.server.eio._trigger_event("message", stranger.eio_sid, packet, run_async=False)
        if sessions != connections or stage.snapshot() != before:
            failures.append(f"a CONNECT packet {packet[:30]!r} changed the sessions or the stage")
        failures.extend(f"a CONNECT packet {packet[:30]!r}: {p}" for p in trap.take())
    assert stage.presenter.is_connected()
    assert failures == [], "\n".join(failures)


class Pace:
    """A clock for the rate limiter that goes on from time.monotonic() by ``step`` seconds each time it is read
    (once a message): 300 messages are 3 s of it, 100 a second, on a machine however busy."""

    def __init__(self, step: float = 0.01):
        self.now, self.step = time.monotonic(), step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_flood_is_refused_and_changes_nothing(trap):
    """300 bad messages under the default rate limit: bad ones are Invalid until the burst is spent, then dropped
    with one Refusal a second; nothing is Internal, nobody else hears of it, and nothing moved."""
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True})
    try:
        stage = Stage(app)
        before = stage.snapshot()
        clock = app.extensions["inflight_guard"].limiter.clock = Pace()  # the flood's pace, however busy the machine
        rng = random.Random(f"{SEED}:socket-flood")
        small = [v for values in VALUES.values() for v in values if len(v) < 1000]
        kinds, start = [], clock.now
        for _ in range(300):
            bad = rng.choice(small)
            payload = f'{{"position": {bad}, "speed": {bad}, "scenario": {bad}, "room": {bad}}}'
            heard = stage.send("presenter", event_packet(rng.choice(["seek", "play", "load", "nonsense"]), payload))
            kinds += [data["kind"] for name, data in heard["presenter"] if name == "error"]
            assert not heard["follower"] and not heard["watcher"]
        told_at_most = 1 + int(clock.now - start)  # once a second
        assert "Internal" not in kinds and "Invalid" in kinds and 1 <= kinds.count("Refusal") <= told_at_most, kinds
        app.extensions["inflight_guard"].limiter = None  # the probe's own messages
        assert stage.snapshot() == before
        assert trap.take() == []
    finally:
        quiet(app)
