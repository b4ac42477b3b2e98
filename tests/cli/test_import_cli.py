"""``inflight-scope import``: the scenario on stdout or -o, the counts on stderr, status 2 without a traceback for
what is not a scheduler log, and `replay` runs what it wrote. Run in this process (tests/cli/run.py) but for two
real ``python -m webapp.cli import`` processes: test_stdin_to_stdout_as_json (a log read from a pipe, the scenario
written to one: the entry point end to end) and test_a_progress_bar_on_a_terminal (stderr a real pty)."""

import gzip
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.cli.run import cli
from webapp.cli import main

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "data" / "logs"


@pytest.mark.parametrize("name", ["five-minute-incident.log", "five-minute-incident.json.log"])
def test_import_then_replay(tmp_path, name):
    out = tmp_path / "incident.yaml"
    done = cli("import", LOGS / name, "-o", out)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b""
    err = done.stderr.decode()
    assert err.startswith(f"import: {LOGS / name}: 32 lines read: 27 used")
    assert "3 pods, 35 steps" in err and "\r" not in err  # no progress bar when stderr is not a terminal
    # b's 30 s flush, v1.28.1's only: the finding, said as one (it read like an error)
    assert ("0 truncated, 1 disagreeing with the model's replay (v1.28.1 behaves as the cluster did: its replay "
            "makes every queue move the log states);") in err
    assert "# DISAGREEMENTS" in out.read_text().split("\nschema: 1")[0]
    scenario = yaml.safe_load(out.read_text())
    assert scenario["assumptions"] and scenario["periodic_flushes"] is True
    assert scenario["name"] == f"Imported from {name}"  # the file's name, as the editor's import says it
    replayed = cli("replay", out)
    assert replayed.returncode == 0, replayed.stderr
    traces = [json.loads(line) for line in replayed.stdout.splitlines()]
    b_fails = [[s["result"]["queue"] for s in t["steps"] if s["op"] == "fail"][1] for t in traces]
    assert [t["variant"] for t in traces] == ["v1.28.1", "v1.28.2"]
    assert b_fails == ["unschedulablePods", "backoffQ"]
    # docs/import.md's walk-through names the step as the page and the text table number it (it said 20)
    numbers = [i + 1 for i, s in enumerate(traces[0]["steps"]) if s["op"] == "fail"]
    told = " ".join((ROOT / "docs" / "import.md").read_text().split())
    assert f"shows at step {numbers[1]} `QueueSkip -> unschedulablePods`" in told


def test_a_pod_attempted_ahead_of_one_added_before_it(tmp_path):
    """It said "error: my.log: the log cannot be replayed as written: step 4 (pop): expected 'web-7f9c' at the head
    of activeQ, but the head is 'db-0' (on v1.28.1)" and status 2; now web-7f9c has a higher priority, said."""
    out = tmp_path / "out.yaml"
    done = cli("import", LOGS / "attempted-out-of-order.log", "-o", out)
    assert done.returncode == 0, done.stderr
    scenario = yaml.safe_load(out.read_text())
    assert {"name": "web-7f9c", "priority": 1} in scenario["pods"]
    assert any(a.startswith("Priorities: ") for a in scenario["assumptions"])
    replayed = cli("replay", out)
    assert replayed.returncode == 0, replayed.stderr


def test_the_summary_counts_agree_with_their_nouns(tmp_path):
    done = cli("import", LOGS / "unschedulable-timeout.log", "-o", tmp_path / "out.yaml")
    assert done.returncode == 0, done.stderr
    assert "; 1 pod, " in done.stderr.decode()  # it said "1 pods"


def test_stdin_to_stdout_as_json():
    done = cli("import", "-", "--format", "json", "--name", "My incident",
               stdin=(LOGS / "five-minute-incident.log").read_bytes(), process=True, timeout=60)
    assert done.returncode == 0, done.stderr
    scenario = json.loads(done.stdout)
    assert scenario["name"] == "My incident"
    assert done.stderr.decode().startswith("import: <stdin>: 32 lines read")


@pytest.mark.parametrize("content, where, says", [
    (b"", "", "empty input"),
    (bytes(range(256)) * 4, ":1", "binary data"),
    (b"schema: 1\nname: x\npods: []\nsteps: []\n", "", "not a kube-scheduler log"),
    (gzip.compress((LOGS / "five-minute-incident.log").read_bytes()), ":1",
     "gzip-compressed (a rotated log?), not read: decompress it first (zcat "),
    (b"I1130 12:00:00.000100 1 a.go:1] ok\n" + b"x" * (70 * 1024) + b"\n", ":2", "a line over 64 KiB"),
])
def test_not_a_log_is_status_2_without_a_traceback(tmp_path, content, where, says):
    path = tmp_path / "input.log"
    path.write_bytes(content)
    done = cli("import", path)
    assert done.returncode == 2
    assert done.stdout == b""
    err = done.stderr.decode()
    assert err.startswith(f"error: {path}{where}: ") and says in err
    assert "Traceback" not in err


def test_a_missing_file(tmp_path):
    done = cli("import", tmp_path / "nope.log")
    assert done.returncode == 2
    assert b"No such file" in done.stderr and b"Traceback" not in done.stderr


def test_a_builtin_scenario_file_is_not_a_log():
    done = cli("import", ROOT / "webapp" / "scenario" / "library" / "lost-marker.yaml")
    assert done.returncode == 2
    assert b"not a kube-scheduler log" in done.stderr


def test_a_progress_bar_on_a_terminal(tmp_path):
    import os
    import pty

    master, slave = pty.openpty()
    done = subprocess.run([sys.executable, "-m", "webapp.cli", "import", LOGS / "five-minute-incident.log",
                           "-o", tmp_path / "out.yaml"], cwd=ROOT, stderr=slave, stdout=subprocess.DEVNULL,
                          timeout=60)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the other end is closed: everything was read
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert done.returncode == 0
    text = seen.decode()
    assert "importing" in text and "100%" in text and "#" * 30 in text
    assert text.rstrip().splitlines()[-1].split("\x1b[K")[-1].startswith("import: ")  # the bar is cleared first


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_each_files_progress_bar_ends_at_100_percent(tmp_path, monkeypatch):
    """The second file's bar said 118%...178%: the bytes read of both files over the second's size."""
    lines = (LOGS / "five-minute-incident.log").read_bytes().splitlines(keepends=True)
    long = tmp_path / ("d" * 80)  # a long path: its start is cut, the bar and its share stay (the line was cut at 120)
    long.mkdir()
    first, second = long / "a.log", long / "b.log"
    first.write_bytes(b"".join(lines[:16]))
    second.write_bytes(b"".join(lines[16:]))
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert main(["import", str(first), str(second), "-o", str(tmp_path / "out.yaml")]) == 0
    shown = re.findall(r"importing (\S+) \[[# ]{30}\] +(\d+)%", sys.stderr.getvalue())
    assert {name for name, _ in shown} == {"…" + str(name)[-59:] for name in (first, second)}
    for name in (first, second):
        percents = [int(p) for n, p in shown if n == "…" + str(name)[-59:]]
        assert percents == sorted(percents) and percents[-1] == 100


def test_a_gap_of_days_is_a_warning(tmp_path):
    day = 86_400_000
    log = tmp_path / "gap.log"
    log.write_text("".join(json.dumps({"ts": 1701345600000 + i * 3 * day, "msg": "Add event for unscheduled pod",
                                       "pod": {"name": f"p{i}", "namespace": "default"}}) + "\n" for i in range(2)))
    done = cli("import", log, "-o", tmp_path / "out.yaml")
    assert done.returncode == 0
    warning, count = done.stderr.decode().splitlines()
    assert warning.startswith(f"warning: {log}:2 is 3.0 days after {log}:1: the clock advances across the gap")
    assert count.startswith(f"import: {log}: 2 lines read")
