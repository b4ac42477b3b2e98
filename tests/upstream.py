"""The upstream kube-scheduler source that tests read their references against (a plugin's EventsToRegister line,
the line that logs a queue move), kept under tests/data/upstream.json.gz as {"<commit>:<path>": text}: the suite
checks every reference on any machine, and checks the copy against the mirror of kubernetes/autoscaler where this
machine has one (tests/test_upstream_copy.py), as the conformance cases are checked against ../shared. The files
are Kubernetes source (Copyright The Kubernetes Authors, Apache License 2.0), kept unchanged.

A test asks ``lines(commit, path)``. With ``INFLIGHT_UPSTREAM=refresh`` it reads the mirror instead and the files
read are written to the copy when the run ends, which is how the copy is made:

    INFLIGHT_UPSTREAM=refresh .venv/bin/python -m pytest -n 0 tests/model/test_plugins.py \
        tests/scenario/test_logs_evidence.py
"""

from __future__ import annotations

import atexit
import functools
import gzip
import json
import os
import subprocess
from pathlib import Path

MIRROR = Path("/work/.mirror/kubernetes+autoscaler/repo")
COPY = Path(__file__).resolve().parent / "data" / "upstream.json.gz"
REFRESH = os.environ.get("INFLIGHT_UPSTREAM") == "refresh"


@functools.cache
def copy() -> dict[str, str]:
    return json.loads(gzip.decompress(COPY.read_bytes())) if COPY.exists() else {}


def from_mirror(commit: str, path: str) -> str:
    return subprocess.run(["git", "-C", str(MIRROR), "show", f"{commit}:{path}"], check=True, capture_output=True,
                          text=True).stdout


def lines(commit: str, path: str) -> list[str]:
    """The file ``path`` at ``commit`` (a full commit id), line by line."""
    key = f"{commit}:{path}"
    if REFRESH:
        _read[key] = from_mirror(commit, path)
        return _read[key].splitlines()
    assert key in copy(), f"tests/data/upstream.json.gz has no {key}: refresh it (tests/upstream.py)"
    return copy()[key].splitlines()


_read: dict[str, str] = {}


@atexit.register
def _write() -> None:
    if REFRESH and _read:
        COPY.write_bytes(gzip.compress(json.dumps({**copy(), **_read}, sort_keys=True).encode(), mtime=0))
