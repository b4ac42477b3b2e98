"""A static/js module's pure functions called in node from a Python test (calls.mjs): the client's own code, with
no page and no browser. Node is needed (`make system-deps` installs Debian's nodejs): a missing node fails."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

CALLS = Path(__file__).parent / "calls.mjs"


def in_node(module: str, calls: list[list]) -> list:
    """The results of ``calls`` ([name, *args] each, in order) on static/js/``module``'s exports, JSON round-tripped."""
    node = shutil.which("node")
    assert node, "node is missing: `make system-deps` installs Debian's nodejs"
    done = subprocess.run([node, str(CALLS)], input=json.dumps({"module": module, "calls": calls}),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
