"""Running one of the page's modules under node against the same inputs as its Python twin (route.py, cut.py,
geometry.py), and comparing their answers."""

from __future__ import annotations

import json
import shutil
import subprocess

NODE = shutil.which("node")


def run_module(harness: str, cases: list, module: str) -> list:
    """What ``harness`` (an ES module reading the JSON ``cases`` on stdin) prints, as JSON. Node is needed (`make
    system-deps` installs Debian's nodejs), so a missing node fails the test, it does not skip it."""
    assert NODE, f"node is missing: this test runs {module} (`make system-deps` installs Debian's nodejs)"
    done = subprocess.run([NODE, "--input-type=module", "-e", harness], input=json.dumps(cases), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def same(a, b) -> bool:
    """Equal, floats to 1e-9 px (V8's and libm's atan2, sin and cos may differ in the last bit)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) < 1e-9
    return a == b
