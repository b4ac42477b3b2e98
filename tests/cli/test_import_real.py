"""``inflight-scope import LOG -o FILE --report FILE.md`` run in this process (tests/cli/run.py) on real logs' bad
input: binary data, a huge line, a gzip bomb, UTF-32, a name in another encoding each give one
``error: FILE:LINE: ...`` line, status 2 and change nothing (the output files that were there stay as they were,
none is made); what real logs hold that is no error (UTF-16 from PowerShell, a crash's run of NUL bytes, a standby
replica's lines) imports."""

from __future__ import annotations

import gzip

import pytest

from tests.cli.run import cli
from tests.scenario.real_logs import BUG, STANDBY, election, write

LEADER = write(election(True) + BUG, "1.30", timestamps=True)
LINES = LEADER.splitlines(keepends=True)


def at(line: int, data: bytes) -> bytes:
    """The leader's log with ``data`` as its line ``line``."""
    return b"".join([*LINES[:line - 1], data, *LINES[line - 1:]])


FILLER = b"I1130 11:59:00.000000       1 reflector.go:351] Caches populated for *v1.Pod\n" * 60  # 4.5 KiB
BAD = {
    # a PNG's first bytes as lines 3 to 5: "\x89PNG\r", "\x1a", then its NUL bytes
    "binary data": (at(3, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\n"), 5, "binary data, not a log (a NUL byte in its first "
                                                                 "4,096 bytes)"),
    "a huge line": (at(5, b"I1130 12:00:00.000300       1 schedule_one.go:84] " + b"x" * 100_000 + b"\n"), 5,
                    "a line over 64 KiB, longer than any kube-scheduler log line"),
    "a gzip bomb": (gzip.compress(b"\0" * 64 * 1024 * 1024, compresslevel=9), 1,
                    "gzip-compressed (a rotated log?), not read: decompress it first"),
    "UTF-32": (LEADER.decode().encode("utf-32"), 1, "UTF-32 text, not read: convert it to UTF-8 first"),
    "Latin-1 name": (at(6, 'I1130 12:00:00.000300       1 schedule_one.go:84] "About to try and schedule pod" '
                           'pod="default/caf\u00e9-0"\n'.encode("latin-1")), 6, "its name is not valid UTF-8"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_input_is_one_error_naming_its_line_and_changes_nothing(tmp_path, case):
    data, line, says = BAD[case]
    (tmp_path / "in.log").write_bytes(data)
    (tmp_path / "out.yaml").write_text("kept\n")
    done = cli("import", "in.log", "-o", "out.yaml", "--report", "pm.md", cwd=tmp_path)
    err = done.stderr.decode()
    assert done.returncode == 2 and done.stdout == b""
    assert err.startswith(f"error: in.log:{line}: ") and says in err and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert (tmp_path / "out.yaml").read_text() == "kept\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.log", "out.yaml"]


@pytest.mark.parametrize("case, data", [
    ("UTF-16 with its byte order mark", LEADER.decode().encode("utf-16")),
    ("a crash's NUL bytes after the first 4 KiB", FILLER + at(8, b"\0" * 200_000 + b"\n")),
    ("a standby's log first", write(election(False) + STANDBY, "1.30", timestamps=True) + LEADER),
])
def test_what_real_logs_hold_imports(tmp_path, case, data):
    (tmp_path / "in.log").write_bytes(data)
    done = cli("import", "in.log", "-o", "out.yaml", "--report", "pm.md", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    err = done.stderr.decode()
    assert "v1.28.1 behaves as the cluster did" in err
    assert "**Verdict:** v1.28.1 behaves as the cluster did" in (tmp_path / "pm.md").read_text()
