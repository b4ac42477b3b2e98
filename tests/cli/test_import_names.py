"""A pod name no Kubernetes pod has, in a log given to ``inflight-scope import`` and to POST /api/import on the
real server in both async modes: a clear error naming the log line, status 2 and nothing written from the CLI, 400
naming the log line (not a scenario's fields) over HTTP; never a traceback. The CLI runs in this process
(tests/cli/run.py) but for test_a_file_name_that_is_not_utf8_is_imported: a real process, whose argv holds the
name's bytes for the interpreter to decode."""

import os

import pytest
import requests
import yaml

from tests.cli.run import cli
from tests.web.liveserver import LiveServer

# The pod value as kube-scheduler's klog text lines write it (pod="ns/name"), bytes as they are in the file.
ODD = {
    "empty name": b"default/",
    "empty namespace": b"/web-0",
    "no namespace": b"web-0",
    "too long": b"default/" + b"a" * 254,
    "namespace too long": b"n" * 64 + b"/web-0",
    "control character": b"default/web\\u2028-0",
    "invalid UTF-8": b"default/web\xff-0",
}


def log_with(pod: bytes) -> bytes:
    """Two good lines, then a line naming ``pod`` (line 3), as kube-scheduler v1.28 writes them."""
    return (b'I1130 12:00:00.000100       1 eventhandlers.go:126] "Add event for unscheduled pod" pod="default/ok"\n'
            b'I1130 12:00:00.000300       1 schedule_one.go:93] "Attempting to schedule pod" pod="default/ok"\n'
            b'I1130 12:00:00.000400       1 schedule_one.go:93] "Attempting to schedule pod" pod="' + pod + b'"\n')


@pytest.mark.parametrize("pod", ODD.values(), ids=ODD.keys())
def test_the_cli_says_which_line_and_writes_nothing(tmp_path, pod):
    log, out, report = tmp_path / "my.log", tmp_path / "out.yaml", tmp_path / "report.md"
    log.write_bytes(log_with(pod))
    done = cli("import", log, "-o", out, "--report", report)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert "Traceback" not in err and done.stdout == b""
    [line] = err.splitlines()
    assert line.startswith(f"error: {log}:3: pod: ") and "expected a pod's namespace/name" in line
    assert line.isprintable()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my.log"]  # no YAML, no report, no frames


def test_a_file_name_that_is_not_utf8_is_imported(tmp_path):
    log = tmp_path.joinpath("in").with_name(os.fsdecode(b"in\xffcident.log"))
    log.write_bytes(log_with(b"default/web-0"))
    done = cli("import", log, "-o", tmp_path / "out.yaml", process=True, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr.decode()
    assert yaml.safe_load((tmp_path / "out.yaml").read_text())["name"] == "Imported from in\ufffdcident.log"


@pytest.fixture(scope="module", params=["threading", "eventlet"])
def server(request, tmp_path_factory):
    with LiveServer(request.param, tmp_path_factory.mktemp("logs")) as live:
        yield live


@pytest.mark.parametrize("pod", ODD.values(), ids=ODD.keys())
def test_http_answers_400_naming_the_log_line(server, pod):
    response = requests.post(f"{server.url}/api/import?name=my.log", data=log_with(pod),
                             headers={"Content-Type": "text/plain"}, timeout=30)
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["kind"] == "LogError" and body["message"].startswith("my.log:3: pod: ")
    assert "pods[" not in body["message"] and "steps[" not in body["message"] and not body.get("problems")


def test_an_error_about_a_file_whose_name_breaks_lines_is_one_line(tmp_path):
    log = tmp_path / "my\nfake: log\u2028.log"
    log.write_bytes(log_with(b"default/"))
    done = cli("import", log)
    [line] = done.stderr.decode().splitlines()
    assert done.returncode == 2 and line.startswith("error: ") and "my\\nfake: log\\u2028.log:3: pod: " in line
