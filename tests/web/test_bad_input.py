"""Bad input is answered, never a 500: every entry point that parses JSON or YAML, or turns user text into a
number, answers each class of bad input (nesting past the parser's recursion, integers too long to convert,
lone surrogates, NaN) with a 4xx / an ``error`` naming what was wrong and where, logs no traceback and changes
nothing. Chunked request bodies are read (within MAX_UPLOAD_BYTES) by the real servers."""

from __future__ import annotations

import http.client
import json
import logging
import queue
import socket
from pathlib import Path

import pytest
import socketio as socketio_client

from tests.waiting import logged
from tests.web.liveserver import checked_server
from webapp.errors import MAX_REPLY
from webapp.scenario import builtin
from webapp.scenario.document import MAX_DEPTH, MAX_DIGITS

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "test-artifacts" / "server-logs"
TIMEOUT = 30.0  # a bound against a hang: every wait ends as soon as what it waits for comes
LOST_MARKER = builtin.get("lost-marker")


# --- the classes of bad documents, each with what its answer must name -------------------------------------
def nested(levels: int, inner: str = "1") -> str:
    return "[" * levels + inner + "]" * levels


def with_name(name_json: str) -> str:
    """The lost-marker scenario as JSON text with its name replaced by the given JSON text."""
    return json.dumps({**LOST_MARKER, "name": "@NAME@"}).replace('"@NAME@"', name_json)


def with_priority(digits: int) -> str:
    raw = json.dumps(LOST_MARKER)
    return raw.replace('"pods": [{', '"pods": [{"priority": ' + "9" * digits + ", ", 1)


BAD = {  # class -> (JSON text, words the answer must hold, field)
    # nesting: the field is where the too-deep value starts (its first levels: enough to find it)
    "arrays 100,000 deep": (nested(100_000), f"nested deeper than {MAX_DEPTH} levels", "[0][0][0][0][0][0]..."),
    "objects 1,000 deep": ('{"a":' * 1000 + "1" + "}" * 1000, f"nested deeper than {MAX_DEPTH} levels",
                           "a.a.a.a.a.a..."),
    "unclosed 200,000 deep": ("[" * 200_000, f"nested deeper than {MAX_DEPTH} levels", "[0][0][0][0][0][0]..."),
    "one level too deep": (with_name(nested(MAX_DEPTH)), f"nested deeper than {MAX_DEPTH} levels",
                           "name[0][0][0][0][0]..."),
    "5,000 digits": (with_priority(5000), "an integer of 5000 digits", "pods[0].priority"),
    "101 digits": (with_priority(MAX_DIGITS + 1), f"an integer of {MAX_DIGITS + 1} digits", "pods[0].priority"),
    "lone high surrogate": (with_name('"x\\ud800"'), "lone surrogate (U+D800)", "name"),
    "lone low surrogate in a key": (with_name('{"\\udc00": 1}'), "lone surrogate (U+DC00)", "name"),
    "NaN": (with_name("NaN"), "NaN is not a JSON value", "name"),
    "a float too large": (with_name("-1e309"), "the number -1e309 is too large for a float", "name"),  # was -inf
}
CLASSES = list(BAD)

# Every HTTP entry point that parses a JSON body: (path, how the document is sent).
BODY_ROUTES = ["/api/replay", "/export/html", "/export/svg?position=1", "/api/trace", "/api/trace/check",
               "/api/validate"]


def exported(client, url: str):
    """An export route's answer to ``url``: a built-in's (``/export/lost-marker.svg``: GET), or the lost marker
    posted (``/export/svg``)."""
    return client.get(url) if "." in url.split("?")[0] else client.post(url, json=LOST_MARKER)


def svg_refusal(client, url: str) -> str:
    """The message of the 400 an export answers ``url`` with."""
    response = exported(client, url)
    assert response.status_code == 400
    return response.get_json()["message"]


def assert_named(message: str, words: str, field: str | None):
    assert words in message, message
    if field is not None:
        assert f"'{field}'" in message, message


@pytest.fixture
def errors_logged(caplog):
    caplog.set_level(logging.WARNING)
    yield lambda: [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


class TestHttp:
    @pytest.mark.parametrize("kind", CLASSES)
    @pytest.mark.parametrize("path", BODY_ROUTES)
    def test_a_bad_body_is_400_naming_what_and_where(self, client, errors_logged, path, kind):
        text, words, field = BAD[kind]
        response = client.post(path, data=text.encode("utf-8"), content_type="application/json")
        assert response.status_code == 400, response.get_data(as_text=True)[:300]
        body = response.get_json()
        assert body["kind"] == "Invalid"
        assert_named(body["message"], words, field)
        assert errors_logged() == []

    @pytest.mark.parametrize("kind", CLASSES)
    @pytest.mark.parametrize("fmt", ["json", None])
    def test_a_bad_scenario_text_in_the_editor_is_a_located_problem(self, client, errors_logged, kind, fmt):
        """The editor validates text: a bad document is one problem with its field (or the document) and a
        position, answered 200 like any other invalid scenario."""
        text, words, field = BAD[kind]
        response = client.post("/api/validate", json={"text": text, "format": fmt})
        assert response.status_code == 200
        body = response.get_json()
        assert body["ok"] is False and len(body["problems"]) == 1
        [problem] = body["problems"]
        if kind == "a float too large":  # read as infinity in a scenario's text: its field's own check refuses it
            words = ""
        assert words in problem["message"]
        assert problem["field"] == (field or "document")
        assert problem["line"] >= 1 and problem["column"] >= 1
        assert errors_logged() == []

    @pytest.mark.parametrize("text, words, line", [
        ("schema: 1\nname: x\npods:\n  - {name: A, priority: " + "9" * 5000 + "}\n", "an integer of 5000 digits", 4),
        ("schema: 1\nname: x\npods: [{name: A, priority: -" + "1" * 101 + "}]\n", "an integer of 101 digits", 3),
        ("schema: 1\nname: x\npods: [{name: A, priority: " + "1_000" * 30 + "}]\n", "an integer of 120 digits", 3),
        ("schema: 1\nname: x\n" + "a:\n" + "".join(" " * i + "b:\n" for i in range(1, 400)),
         f"nested deeper than {MAX_DEPTH} levels", None),
        ("schema: 1\nname: " + "[" * 100_000 + "\n", "nest", 2),  # libyaml's own limit may come first
        ('schema: 1\nname: "x\\ud800"\n', "", 2),  # libyaml refuses the escape; the pure loader names the field
    ])
    def test_a_bad_yaml_text_is_a_located_problem(self, client, errors_logged, text, words, line):
        response = client.post("/api/validate", json={"text": text, "format": "yaml"})
        assert response.status_code == 200
        [problem] = response.get_json()["problems"]
        assert words in problem["message"]
        if line is not None:
            assert problem["line"] == line
        assert errors_logged() == []

    @pytest.mark.parametrize("ensure_ascii", [True, False])
    def test_a_lone_surrogate_in_the_editor_text_refuses_the_body(self, client, ensure_ascii):
        """As an escape it is a lone surrogate in field 'text'; raw (encoded anyway) it is not UTF-8."""
        body = json.dumps({"text": "schema: 1\nname: x\ud800\n"}, ensure_ascii=ensure_ascii)
        response = client.post("/api/validate", data=body.encode("utf-8", "surrogatepass"),
                               content_type="application/json")
        assert response.status_code == 400
        message = response.get_json()["message"]
        assert ("field 'text'" in message and "lone surrogate (U+D800)" in message) if ensure_ascii \
            else "not UTF-8" in message

    @pytest.mark.parametrize("value", ["9" * 5000, "9" * 10, "1e3", "-1", "٣", "", "0x1", "7"])
    @pytest.mark.parametrize("path", ["/export/lost-marker.svg", "/export/svg"])
    def test_svg_position_is_checked_before_it_is_converted(self, client, errors_logged, path, value):
        message = svg_refusal(client, f"{path}?position={value}")
        assert message.startswith("position must be an integer in 0..6, got ")
        assert len(message) < 120  # the value is shown cut, with its length
        assert errors_logged() == []

    @pytest.mark.parametrize("value", ["", "Dark", "blue", "x" * 5000, "%00", "%ed%a0%80"])
    @pytest.mark.parametrize("path", ["/export/lost-marker.svg", "/export/svg"])
    def test_svg_theme_is_light_or_dark(self, client, errors_logged, path, value):
        message = svg_refusal(client, f"{path}?position=6&theme={value}")
        assert message.startswith("theme must be one of light, dark, not ") and len(message) < 120
        for theme in ("light", "dark"):
            url = f"{path}?position=6&theme={theme}"
            drawn = exported(client, url)
            assert drawn.status_code == 200 and drawn.mimetype == "image/svg+xml"
        assert errors_logged() == []

    @pytest.mark.parametrize("value", ["", "null", "%00", "v1.28.1,v9", "%ed%a0%80"])
    @pytest.mark.parametrize("path", ["/export/lost-marker.svg", "/export/lost-marker.html", "/export/svg"])
    def test_export_versions_are_named_as_the_query_parameter(self, client, errors_logged, path, value):
        """The message said 'variants must be ...' for the query parameter 'versions'."""
        url = f"{path}?versions={value}"
        response = exported(client, url)
        assert response.status_code == 400
        assert response.get_json()["message"].startswith("versions: variants must be ")
        assert errors_logged() == []

    @pytest.mark.parametrize("path", ["/", "/embed", "/present", "/editor", "/export/lost-marker.svg"])
    def test_raw_bytes_in_a_query_are_read_as_if_percent_encoded(self, client, errors_logged, path):
        """Bytes over 0x7F sent as they are (not UTF-8): Werkzeug's request.args raised UnicodeDecodeError, a 500 on
        every page and export. Now they are read as their %XX: a page falls back, a number is refused naming it."""
        query = b"scenario=lost-marker&theme=\xff&versions=v1.28.1\xed\xa0\x80&position=\xff&from=\xc0\xaf&x=\xc3\xa9"
        response = client.get(path, environ_overrides={"QUERY_STRING": query.decode("latin-1")})
        if path.startswith("/export/"):
            assert response.status_code == 400
            assert response.get_json()["message"].startswith("versions: variants must be ")
        else:
            assert response.status_code == 200
        assert errors_logged() == []

    @pytest.mark.parametrize("version", ["v" * 5000, "v1.28.1" + "x" * 100, "v0.0.1"])
    def test_an_unknown_source_version_is_not_answered_back_whole(self, client, errors_logged, version):
        """/api/sources/<5,000 characters> echoed them all in its 404: a short name is quoted, a long one counted."""
        response = client.get(f"/api/sources/{version}")
        assert response.status_code == 404
        message = response.get_json()["message"]
        assert message.startswith("no source map for version ") and "v1.28.1" in message and len(message) < 200
        assert (repr(version) in message) == (len(version) <= 24)
        assert errors_logged() == []

    @pytest.mark.parametrize("query", ["position", "from", "to"])
    @pytest.mark.parametrize("page", ["/", "/embed", "/present"])
    def test_page_numbers_too_long_fall_back(self, client, page, query):
        response = client.get(f"{page}?scenario=lost-marker&{query}={'9' * 5000}")
        assert response.status_code == 200

    def test_a_body_just_within_the_depth_is_read(self, client):
        """MAX_DEPTH levels pass the boundary, and so every later check of nesting (one limit): the scenario's
        own checks refuse what the value is, not how deep it is."""
        response = client.post("/api/replay", data=with_name(nested(MAX_DEPTH - 2)), content_type="application/json")
        assert response.status_code == 400
        message = response.get_json()["message"]
        assert "expected" in message and "nested deeper" not in message

    def test_a_float_too_large_in_a_trace_file_is_refused_not_answered_as_infinity(self, client, errors_logged):
        """1e309 was read as infinity and came back in the mismatch as ``Infinity``: no JSON parser reads that."""
        doc = client.post("/api/trace", json=LOST_MARKER).get_json()
        body = json.dumps(doc).replace('"schedulingCycle": 1', '"schedulingCycle": 1e309', 1)
        response = client.post("/api/trace/check", data=body, content_type="application/json")
        assert response.status_code == 400
        assert "the number 1e309 is too large for a float" in response.get_json()["message"]
        assert "field 'traces['v1.28.1'].steps[0].state.schedulingCycle'" in response.get_json()["message"]
        assert errors_logged() == []

    def test_a_surrogate_pair_is_one_character_and_exports(self, client):
        response = client.post("/export/html", data=with_name('"pair \\ud83d\\ude00"'),
                               content_type="application/json")
        assert response.status_code == 200
        assert "pair \U0001F600" in response.get_data(as_text=True)


class TestSocketIO:
    """Packets are decoded by python-socketio with the server's JSON (codec.BoundaryJson); each raw packet
    here is what a client could put on the wire."""

    @pytest.fixture
    def loaded(self, sio):
        sio.emit("load", {"scenario": "lost-marker"})
        sio.emit("seek", {"position": 2})
        sio.get_received()
        return sio

    @staticmethod
    def raw(app, client, packet: str):
        app.extensions["socketio"].server._handle_eio_message(client.eio_sid, packet)
        return [(m["name"], m["args"][0] if m["args"] else None) for m in client.get_received()]

    @staticmethod
    def position(client) -> int:
        client.emit("pause")
        states = [m["args"][0] for m in client.get_received() if m["name"] == "state"]
        return states[-1]["position"]

    @pytest.mark.parametrize("kind", CLASSES)
    @pytest.mark.parametrize("event", ["load", "seek", "echo", "nonsense"])
    def test_a_bad_packet_is_one_error_and_changes_nothing(self, app, loaded, make_sio, errors_logged, event, kind):
        text, words, field = BAD[kind]
        other = make_sio()
        received = self.raw(app, loaded, f'2["{event}",{{"scenario":{text},"position":0}}]')
        assert [name for name, _ in received] == ["error"], received
        error = received[0][1]
        assert error["kind"] == "Invalid" and error["event"] == event
        if "deeper" in words:  # the path's first levels are shown, counted from the packet: fewer of the field's
            assert words in error["message"] and "field 'scenario" in error["message"], error["message"]
            assert "...': " in error["message"] and "(line 1, column " in error["message"], error["message"]
        else:
            assert_named(error["message"], words, f"scenario.{field}")
        assert loaded.is_connected() and self.position(loaded) == 2
        assert other.get_received() == []  # nobody else heard of it
        assert errors_logged() == []

    @pytest.mark.parametrize("event, payload", [
        ("play", {"speed": "x" * 300_000}), ("seek", {"position": [0] * 100_000}),
        ("load", {"scenario": "lost-marker", "range": ["x" * 300_000, 1]}), ("join_room", {"room": "x" * 300_000}),
        ("step", {"room": "x" * 300_000, "token": "t"}),
    ])
    def test_a_huge_value_is_not_answered_back_whole(self, app, loaded, errors_logged, event, payload):
        """The refusal quoted the value whole: a speed of 300,000 characters came back as a 300 kB message."""
        loaded.emit(event, payload)
        [error] = [m["args"][0] for m in loaded.get_received() if m["name"] == "error"]
        assert error["event"] == event and len(error["message"]) <= MAX_REPLY + 40
        # said short where it is named ("'xxx...'", "a list of 100,000 items"), or cut with its length
        assert "x" * 50 not in error["message"] and "0, 0, 0" not in error["message"], error
        assert self.position(loaded) == 2
        assert errors_logged() == []

    def test_a_float_too_large_is_not_echoed_as_infinity(self, app, loaded, errors_logged):
        received = self.raw(app, loaded, '2["echo",{"x":[1e309]}]')
        message = "the 'echo' message, field 'x[0]': the number 1e309 is too large for a float (at most about 1.8e308)"
        assert received == [("error", {"message": message, "event": "echo", "kind": "Invalid"})]
        assert errors_logged() == []

    def test_a_packet_100000_deep_without_an_event_name(self, app, loaded, errors_logged):
        received = self.raw(app, loaded, "2" + nested(100_000))
        message = (f"the message, field '[0][0][0][0][0][0]...': nested deeper than {MAX_DEPTH} levels"
                   " (line 1, column 65)")
        assert received == [("error", {"message": message, "event": "", "kind": "Invalid"})]
        assert self.position(loaded) == 2
        assert errors_logged() == []

    def test_a_room_is_unchanged_by_a_bad_packet(self, app, make_sio, errors_logged):
        presenter, follower = make_sio(), make_sio()
        room = presenter.emit("create_room", callback=True)
        presenter.emit("load", {"scenario": "lost-marker", "room": room["room"], "token": room["token"]})
        follower.emit("join_room", {"room": room["room"]})
        presenter.get_received(), follower.get_received()
        bad = f'2["step",{{"room":"{room["room"]}","token":"{room["token"]}","x":{BAD["arrays 100,000 deep"][0]}}}]'
        assert [name for name, _ in self.raw(app, presenter, bad)] == ["error"]
        assert follower.get_received() == []
        presenter.emit("step", {"room": room["room"], "token": room["token"]})
        states = [m["args"][0] for m in follower.get_received() if m["name"] == "state"]
        assert states and states[-1]["position"] == 1
        assert errors_logged() == []


# --- the real servers -------------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=["eventlet", "threading"])
def server(request):
    with checked_server(request.param, LOGS) as live:
        yield live


def post_chunked(server, path: str, chunks, content_type="application/json"):
    """POST with ``Transfer-Encoding: chunked`` and no Content-Length (http.client chunks an iterable)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request("POST", path, body=iter(chunks), headers={"Content-Type": content_type},
                           encode_chunked=True)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def in_chunks(data: bytes, size: int):
    return [data[i:i + size] for i in range(0, len(data), size)]


class TestLive:
    @pytest.mark.parametrize("path, body, expect", [
        ("/api/replay", json.dumps("lost-marker").encode(), "v1.28.1"),
        ("/api/replay", json.dumps(LOST_MARKER).encode(), "v1.28.2"),
        ("/api/validate", json.dumps({"text": json.dumps(LOST_MARKER)}).encode(), '"ok": true'),
        ("/export/svg?position=2", json.dumps(LOST_MARKER).encode(), "<svg"),
    ])
    def test_a_chunked_body_is_read(self, server, path, body, expect):
        status, answer = post_chunked(server, path, in_chunks(body, 7))
        assert status == 200, answer[:300]
        assert expect.encode() in answer

    @pytest.mark.parametrize("extra", [0, 1, 100_000])
    def test_a_chunked_body_is_read_up_to_the_upload_limit(self, server, extra):
        limit = 2 * 1024 * 1024  # MAX_UPLOAD_BYTES' default
        body = b'"' + b"x" * (limit - 2 + extra) + b'"'  # a JSON string, too long to be a built-in id
        status, answer = post_chunked(server, "/api/replay", in_chunks(body, 64 * 1024))
        if not extra:  # read whole: answered about its content
            assert (status, json.loads(answer)["kind"]) == (400, "ScenarioError"), answer[:300]
            return
        assert status == 413
        assert json.loads(answer)["kind"] == "TooLarge"
        assert "refused POST /api/replay: TooLarge" in logged(server, "refused POST /api/replay")

    def test_a_chunked_bad_body_is_400(self, server):
        status, answer = post_chunked(server, "/api/replay", in_chunks(BAD["arrays 100,000 deep"][0].encode(), 4096))
        assert status == 400
        assert f"nested deeper than {MAX_DEPTH} levels" in json.loads(answer)["message"]

    def test_raw_bytes_in_a_query_are_answered_not_a_500(self, server):
        with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as connection:
            connection.sendall(b"GET /export/lost-marker.svg?position=\xff\xfe HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                               b"Connection: close\r\n\r\n")
            answer = b"".join(iter(lambda: connection.recv(65536), b""))
        assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]  # eventlet's server: a 500 before
        assert b"position must be an integer in 0..6, got " in answer  # '%FF%FE' (eventlet), Werkzeug's: as latin-1

    def test_a_packet_100000_deep_gets_an_error_and_the_connection_lives(self, server):
        inbox: queue.Queue = queue.Queue()
        client = socketio_client.Client(reconnection=False)
        for name in ("scenario", "state", "delta", "error"):
            client.on(name, lambda data=None, name=name: inbox.put((name, data)))
        client.connect(server.url, transports=["websocket"], wait_timeout=TIMEOUT)
        try:
            client.eio.send('2["load",' + nested(100_000) + "]")  # an Engine.IO message: a Socket.IO event
            name, error = inbox.get(timeout=TIMEOUT)
            assert name == "error" and error["kind"] == "Invalid" and error["event"] == "load"
            assert f"nested deeper than {MAX_DEPTH} levels" in error["message"]
            client.emit("load", {"scenario": "lost-marker"})
            assert [inbox.get(timeout=TIMEOUT)[0] for _ in range(2)] == ["scenario", "state"]
        finally:
            client.disconnect()
