"""The client is checked: TypeScript (pinned by package.json / package-lock.json, installed by `make jscheck` or
`make test`) finds no error in static/js against its JSDoc types and jsconfig.json's settings, and the settings do
check: a wrong type in a module is an error. Node and the checker are needed, so a missing one fails the test."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from webapp import ROOT

TSC = ROOT / "node_modules" / "typescript" / "bin" / "tsc"
WRONG = "wrong-type.js"  # a module with a type error, checked beside the client


def tsc(project: Path, *options: str) -> subprocess.CompletedProcess:
    node = shutil.which("node")
    assert node, "node is missing: `make system-deps` installs Debian's nodejs"
    assert TSC.is_file(), "the checker is not installed: `make jscheck` (npm ci) installs it"
    return subprocess.run([node, str(TSC), "-p", str(project), *options], capture_output=True, text=True,
                          timeout=600)


@pytest.fixture(scope="module")
def checked(tmp_path_factory) -> subprocess.CompletedProcess:
    """One run of the checker (it takes seconds of CPU) over the client as jsconfig.json says, and beside it one
    module with a wrong type, under the same settings: its errors are that module's alone (a module's errors do
    not depend on another module that imports nothing from it)."""
    folder = tmp_path_factory.mktemp("jscheck")
    (folder / WRONG).write_text('import { $ } from "%s";\n/** @type {number} */\nconst n = $("x").id;\n'
                                'export const m = n.toUpperCase();\n' % (ROOT / "static" / "js" / "dom.js"))
    config = json.loads((ROOT / "jsconfig.json").read_text())
    include = [str(ROOT / pattern) for pattern in config["include"]] + [str(folder / WRONG)]
    (folder / "jsconfig.json").write_text(json.dumps({"extends": str(ROOT / "jsconfig.json"), "include": include}))
    return tsc(folder / "jsconfig.json", "--listFiles")  # the files it read, after the errors


def errors(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stdout.splitlines() if "error TS" in line]


def test_the_client_type_checks(checked):
    found = [line for line in errors(checked) if f"{WRONG}(" not in line]
    assert found == [], checked.stdout + checked.stderr
    read = {Path(line) for line in checked.stdout.splitlines() if line.startswith("/")}
    client = {path for path in (ROOT / "static" / "js").glob("*.js")}
    assert client and client <= read, sorted(map(str, client - read))  # every module was checked


def test_a_wrong_type_is_an_error(checked):
    assert checked.returncode != 0
    assert any(f"{WRONG}(4," in line and "toUpperCase" in line for line in errors(checked)), checked.stdout


def test_no_module_skips_the_checker():
    skipping = {path.name for path in (ROOT / "static" / "js").glob("*.js")
                if "@ts-nocheck" in path.read_text() or "@ts-ignore" in path.read_text()}
    assert skipping == set()


def test_the_checker_is_strict():
    """strict, with none of its checks turned off again: every parameter of every module is typed."""
    options = json.loads((ROOT / "jsconfig.json").read_text())["compilerOptions"]
    assert options["strict"] is True
    loosened = {name for name in ("strictNullChecks", "strictFunctionTypes", "strictBindCallApply",
                                  "strictPropertyInitialization", "noImplicitThis", "useUnknownInCatchVariables",
                                  "alwaysStrict", "noImplicitAny") if options.get(name) is False}
    assert loosened == set()

