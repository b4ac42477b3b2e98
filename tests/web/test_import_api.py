"""POST /api/import: the log importer over HTTP (the editor's Import log button)."""

import gzip
import logging
from pathlib import Path

import pytest
import yaml

from tests.web.conftest import one_app

LOG = Path(__file__).resolve().parents[1] / "data" / "logs" / "five-minute-incident.json.log"


# One app for the file: each test posts logs of its own and reads back only what it was answered, so they share
# its import worker (tests/web/conftest.py one_app).
app = pytest.fixture(one_app, scope="module", name="app")


def test_a_log_becomes_a_scenario(client):
    response = client.post("/api/import", data=LOG.read_bytes(), content_type="text/plain")
    assert response.status_code == 200
    body = response.get_json()
    assert body["counts"]["used"] == 27 and body["counts"]["unknown"] == 0
    assert body["assumptions"] == body["scenario"]["assumptions"]
    assert yaml.safe_load(body["text"]) == body["scenario"]
    check = client.post("/api/validate", json={"text": body["text"], "format": "yaml"}).get_json()
    assert check["ok"] and check["variants_ok"] == ["v1.28.1", "v1.28.2"]


def test_the_disagreements_with_the_model_are_answered(client):
    """The incident's 30 s flush of b (line 27) is v1.28.1's, not v1.28.2's: the answer lists it, and counts it."""
    body = client.post("/api/import", data=LOG.read_bytes(), content_type="text/plain").get_json()
    [said] = body["disagreements"]
    assert said.startswith("the log:27 (t = 335 s): the log moves b to activeQ by UnschedulableTimeout")
    assert "on v1.28.2 the model: " in said and said in body["text"] and said not in body["assumptions"]
    assert body["counts"]["disagreeing"] == 1


def test_the_counts_and_lists_come_in_the_importers_words(client):
    """The editor shows the importer's words (it had its own copies of them): each count with the words said after
    it, as the scenario's description says them, and each list's title and what it holds, as the YAML's comments."""
    body = client.post("/api/import", data=LOG.read_bytes(), content_type="text/plain").get_json()
    said = body["said"]
    assert [c["key"] for c in said] == ["lines", "used", "ignored", "other", "unknown", "truncated", "disagreeing"]
    assert all(c["count"] == body["counts"][c["key"]] for c in said)
    first, *rest = (f"{c['count']:,} {c['words']}" for c in said)
    assert f"{first}: {', '.join(rest)}" in body["scenario"]["description"]
    for key, shown in body["lists"].items():
        assert f"# {key.upper()} ({shown['what']};" in body["text"] and shown["title"] == key.capitalize()


def test_the_file_name_names_the_scenario_and_the_messages(client):
    """The page sends a file's name (?name=): the scenario was "Imported from the log" and an empty file "the log:
    empty input, not a log", where the CLI says the file."""
    response = client.post("/api/import?name=my2.log", data=LOG.read_bytes(), content_type="text/plain")
    assert response.get_json()["scenario"]["name"] == "Imported from my2.log"
    response = client.post("/api/import?name=my2.log", data=b"", content_type="text/plain")
    assert response.status_code == 400 and response.get_json()["message"] == "my2.log: empty input, not a log"
    response = client.post("/api/import?name=C%3A%2Flogs%2Fmy2.log", data=b"", content_type="text/plain")
    assert response.get_json()["message"].startswith("my2.log: ")  # a file name, not the directories
    unnamed = client.post("/api/import", data=LOG.read_bytes(), content_type="text/plain").get_json()
    assert unnamed["scenario"]["name"] == "Imported from the log"  # a pasted log has no file name
    for bad in ("a%0Ab.log", "x" * 256):
        response = client.post(f"/api/import?name={bad}", data=LOG.read_bytes(), content_type="text/plain")
        assert response.status_code == 400 and "name must be a file name" in response.get_json()["message"]


def test_what_is_not_a_log_is_a_400(client):
    for data in (b"", b"schema: 1\nname: x\n", bytes(range(256))):
        response = client.post("/api/import", data=data, content_type="text/plain")
        assert response.status_code == 400
        body = response.get_json()
        assert body["kind"] == "LogError" and "log" in body["message"]


def test_bad_input_is_a_400_naming_its_line(client):
    """A gzip file (never inflated), binary data, a line over 64 KiB: the line is named (``<name>:N``)."""
    from tests.scenario.real_logs import BUG, election, write

    log = write(election(True) + BUG, "1.31")
    lines = log.splitlines(keepends=True)
    for data, where in [(gzip.compress(log), "rotated.log:1: gzip-compressed"),
                        (lines[0] + b"\0\0\n", "rotated.log:2: binary data"),
                        (b"".join(lines[:3]) + b"x" * 70_000 + b"\n", "rotated.log:4: a line over 64 KiB")]:
        response = client.post("/api/import?name=rotated.log", data=data, content_type="text/plain")
        assert response.status_code == 400
        assert response.get_json()["message"].startswith(where)


# --- bad input in a log: a line that cannot be read is not a log line, never a 500 --------------------------------
START = '{"ts": 1701345575000.0, "caller": "app/server.go:154", "msg": "Starting Kubernetes Scheduler", "v": 0}\n'
ADD = '{"ts": %s, "msg": "Add event for unscheduled pod", "v": 3, "pod": {"name": "a", "namespace": "default"}}\n'


def imported(client, log: str):
    return client.post("/api/import", data=log.encode("utf-8", "surrogatepass"), content_type="text/plain")


def test_a_json_line_nested_thousands_deep_is_not_a_log_line(client, caplog):
    """json.loads raised RecursionError on a line 5,000 levels deep (a 500); the boundary refuses it."""
    deep = ADD.replace('"v": 3', '"v": 3, "x": ' + '{"a":' * 5000 + "1" + "}" * 5000)
    response = imported(client, START + deep + ADD % 1701345600000.1)
    assert response.status_code == 200
    assert response.get_json()["counts"]["used"] == 1 and response.get_json()["counts"]["unknown"] == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("ts", ["1e309", "NaN", "1e300", "-1e300", '"0001-01-01T00:00:00+14:00"',
                                '"9999-12-31T23:59:59-14:00"', "9" * 100])
def test_a_time_no_clock_shows_is_not_a_log_line(client, caplog, ts):
    """1e309 and NaN were read as numbers, and a time outside a datetime's years made an OverflowError: 500s."""
    response = imported(client, START + ADD % ts)
    assert response.status_code == 400
    body = response.get_json()
    assert body["kind"] == "LogError" and "its one log line is not a kube-scheduler message" in body["message"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_lone_surrogate_in_a_klog_value_is_kept_as_written(client):
    """A Go-quoted value never holds one; decoded, it made a pod name the editor then refused as not UTF-8."""
    text = LOG.with_name("five-minute-incident.log").read_text()
    body = imported(client, text.replace('node="node-1"', 'node="n\\ud800"')).get_json()
    assert any(s.get("note", "").endswith("bound to n\\ud800") for s in body["scenario"]["steps"])
    assert client.post("/api/validate", json={"text": body["text"], "format": "yaml"}).get_json()["ok"]
    # in a pod's name it is no Kubernetes name: read as written (a backslash and "ud800"), the log called edited
    response = imported(client, text.replace('pod="default/a"', 'pod="default/x\\ud800"'))
    assert response.status_code == 200
    body = response.get_json()
    assert any(a.startswith("The log was edited") and "x\\ud800" in a for a in body["assumptions"])
    assert client.post("/api/validate", json={"text": body["text"], "format": "yaml"}).get_json()["ok"]


def test_lines_centuries_apart_are_refused_naming_the_line(client):
    """Two lines 500 years apart (timestamps in milliseconds, 1e13 ms later): the importer made an advance_clock of
    1.6e10 s, and the answer named the field of a step the user never wrote ('steps[1].seconds'); now the line."""
    log = START + ADD % 1701345600000.1 + ADD.replace('"a"', '"b"') % (1701345600000.1 + 1.6e13)
    response = imported(client, log)
    assert response.status_code == 400
    body = response.get_json()
    assert body["kind"] == "LogError" and "steps[" not in body["message"]
    assert "line 3 is 16,000,000,000 s after the line before it" in body["message"]
