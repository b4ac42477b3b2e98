"""The client's pure parts (static/js modules with no DOM and no network) tested in node: each *.test.mjs beside this
file is a node:test file; every test in it must pass, and it must have tests. Node is needed (`make system-deps`
installs Debian's nodejs), so a missing node fails these, it does not skip them."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
FILES = sorted(HERE.glob("*.test.mjs"))


def test_there_are_node_tests():
    assert FILES


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_in_node(path: Path):
    node = shutil.which("node")
    assert node, "node is missing: `make system-deps` installs Debian's nodejs"
    done = subprocess.run([node, "--test", str(path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    passed = re.search(r"^# pass (\d+)$", done.stdout, re.MULTILINE)
    assert passed and int(passed.group(1)) > 0, done.stdout
