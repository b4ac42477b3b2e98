"""The client is checked: TypeScript (pinned by package.json / package-lock.json, installed by `make jscheck` or
`make test`) finds no error in static/js against its JSDoc types and jsconfig.json's settings, and the settings do
check: a wrong type in a module is an error. Node and the checker are needed, so a missing one fails the test."""

import json
import shutil
import subprocess
from pathlib import Path

from webapp import ROOT

TSC = ROOT / "node_modules" / "typescript" / "bin" / "tsc"
# The modules the checker skips (`// @ts-nocheck`): their arrows are not typed yet.
UNCHECKED = {"pointers.js", "route.js"}


def tsc(project: Path) -> subprocess.CompletedProcess:
    node = shutil.which("node")
    assert node, "node is missing: `make system-deps` installs Debian's nodejs"
    assert TSC.is_file(), "the checker is not installed: `make jscheck` (npm ci) installs it"
    return subprocess.run([node, str(TSC), "-p", str(project)], capture_output=True, text=True, timeout=600)


def test_the_client_type_checks():
    done = tsc(ROOT / "jsconfig.json")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_wrong_type_is_an_error(tmp_path):
    (tmp_path / "wrong.js").write_text('import { $ } from "%s";\n/** @type {number} */\nconst n = $("x").id;\n'
                                       'export const m = n.toUpperCase();\n' % (ROOT / "static" / "js" / "dom.js"))
    (tmp_path / "jsconfig.json").write_text(json.dumps({"extends": str(ROOT / "jsconfig.json"),
                                                        "include": [str(tmp_path / "wrong.js")]}))
    done = tsc(tmp_path / "jsconfig.json")
    assert done.returncode != 0 and "wrong.js(4," in done.stdout and "toUpperCase" in done.stdout, done.stdout


def test_only_the_listed_modules_skip_the_checker():
    skipping = {path.name for path in (ROOT / "static" / "js").glob("*.js") if "@ts-nocheck" in path.read_text()}
    assert skipping == UNCHECKED
