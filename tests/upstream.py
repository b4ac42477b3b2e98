"""The upstream kube-scheduler lines the tests read their references against (a plugin's EventsToRegister line,
the line that logs a queue move), held as facts: tests/data/upstream_lines.json maps "<commit>:<path>:<line>" to
the hash of that line's text with its indentation stripped (webapp/sources/types.py's ``line_hash``), never the text.
A test states the line it expects, written from its own facts, and ``holds()`` compares the hashes: the check runs on
any machine. Where this machine has the mirror of kubernetes/autoscaler, tests/test_upstream_copy.py recomputes
every stored hash from the real files (the development check), as the conformance cases are checked against ../shared.

With ``INFLIGHT_UPSTREAM=refresh`` the hashes of the lines the tests ask for are read from the mirror instead and
written to the file when the run ends, which is how the file is made:

    INFLIGHT_UPSTREAM=refresh .venv/bin/python -m pytest -n 0 tests/model/test_plugins.py \
        tests/scenario/test_logs_evidence.py
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import subprocess
from pathlib import Path

from webapp.sources.types import line_hash

MIRROR = Path("/work/.mirror/kubernetes+autoscaler/repo")
HASHES = Path(__file__).resolve().parent / "data" / "upstream_lines.json"
REFRESH = os.environ.get("INFLIGHT_UPSTREAM") == "refresh"


@functools.cache
def stored() -> dict[str, str]:
    return json.loads(HASHES.read_text()) if HASHES.exists() else {}


@functools.cache
def from_mirror(commit: str, path: str) -> list[str]:
    return subprocess.run(["git", "-C", str(MIRROR), "show", f"{commit}:{path}"], check=True, capture_output=True,
                          text=True).stdout.split("\n")


def mirror_hash(key: str) -> str:
    commit, path, number = key.split(":")
    return line_hash(from_mirror(commit, path)[int(number) - 1].strip())


def holds(commit: str, path: str, number: int, expected: str) -> bool:
    """Line ``number`` of ``path`` at ``commit``, indentation stripped, is ``expected``."""
    key = f"{commit}:{path}:{number}"
    if REFRESH:
        _read[key] = mirror_hash(key)
        return _read[key] == line_hash(expected.strip())
    assert key in stored(), f"tests/data/upstream_lines.json has no {key}: refresh it (tests/upstream.py)"
    return stored()[key] == line_hash(expected.strip())


_read: dict[str, str] = {}


@atexit.register
def _write() -> None:
    if REFRESH and _read:
        HASHES.write_text(json.dumps({**stored(), **_read}, sort_keys=True, indent=0) + "\n")
