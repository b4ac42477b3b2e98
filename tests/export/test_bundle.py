"""The bundler: our own ES modules -> one classic script; anything it does not understand is refused."""

import json
import re
import shutil
import subprocess

import pytest

from webapp.export.bundle import BundleError, bundle
from webapp.export.offline import ENTRY

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")


def write(root, files: dict):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def run(script: str) -> str:
    # On stdin, not as an argument: the real bundle is longer than one argument may be (E2BIG).
    done = subprocess.run([NODE, "-"], input=script, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout


MODULES = {
    "main.js": 'import { twice, Box as Crate } from "./lib/math.js";\n'
               'import { label } from "./label.js";\n'
               'console.log(JSON.stringify([twice(21), new Crate(2).size, label(), typeof helper]));\n',
    "lib/math.js": 'import { log } from "../log.js";\n'
                   'const helper = 1;\n'
                   'export function twice(n) { log("twice"); return n * 2 * helper; }\n'
                   'export class Box { constructor(size) { this.size = size; } }\n',
    "label.js": 'import { log } from "./log.js";\n'
                'export const label = () => `label after ${log("label")}`;\n',
    "log.js": 'let calls = 0;\n'
              'export function log(what) { calls += 1; return calls; }\n',
}


def test_relative_imports_become_lookups_and_exports_become_returned_locals(tmp_path):
    script = bundle(write(tmp_path, MODULES) / "main.js")
    assert 'const { twice, Box: Crate } = __mod("lib/math.js");' in script
    assert 'const { log } = __mod("log.js");' in script  # "../log.js" from lib/ and "./log.js" are one module
    assert script.count('"log.js": function') == 1
    assert "return { twice, Box };" in script
    assert not re.search(r"^\s*(import|export)\b", script, re.MULTILINE)


@needs_node
def test_the_bundle_runs_each_module_once_in_its_own_scope(tmp_path):
    script = bundle(write(tmp_path, MODULES) / "main.js")
    # label() logs after twice() did: both modules share the one instance of log.js; helper stays private
    assert json.loads(run(script)) == [42, 2, "label after 2", "undefined"]


def test_a_type_import_tag_is_for_the_checker_alone(tmp_path):
    write(tmp_path, {"main.js": '/** @import { Thing } from "./a.js" */\nimport { a } from "./a.js";\n'
                                "/** @type {Thing} */\nconst thing = { n: 7 };\nconsole.log(a(thing));\n",
                     "a.js": "/** @typedef {{n: number}} Thing */\nexport const a = (t) => t.n;\n"})
    script = bundle(tmp_path / "main.js")
    assert "@import" not in script and "@type {Thing}" in script
    assert run(script) == "7\n"


def test_export_async_function(tmp_path):
    write(tmp_path, {"main.js": 'import { later } from "./a.js";\nlater();\n',
                     "a.js": "export async function later() { return 1; }\n"})
    assert "return { later };" in bundle(tmp_path / "main.js")


@pytest.mark.parametrize("source", [
    "export default function main() {}\n",
    "const a = 1;\nexport { a };\n",
    'export * from "./other.js";\n',
    'export { b } from "./other.js";\n',
    "export let counter = 0;\n",
    "export const { a, b } = { a: 1, b: 2 };\n",
    'import other from "./other.js";\n',
    'import * as other from "./other.js";\n',
    'import "./other.js";\n',
    'import { io } from "socket.io-client";\n',
    'const lazy = () => import("./other.js");\n',
    "console.log(import.meta.url);\n",
    '  import { b } from "./other.js";\n',
    'import { b } from "./other.js"; b();\n',
    'import { b as } from "./other.js";\n',
])
def test_unsupported_syntax_is_refused(tmp_path, source):
    write(tmp_path, {"main.js": source, "other.js": "export const b = 1;\n"})
    with pytest.raises(BundleError, match="main.js"):
        bundle(tmp_path / "main.js")


def test_import_cycles_are_refused(tmp_path):
    write(tmp_path, {"main.js": 'import { a } from "./a.js";\n',
                     "a.js": 'import { b } from "./b.js";\nexport const a = 1;\n',
                     "b.js": 'import { a } from "./a.js";\nexport const b = 2;\n'})
    with pytest.raises(BundleError, match=r"import cycle: main.js -> a.js -> b.js -> a.js"):
        bundle(tmp_path / "main.js")


def test_imports_outside_the_root_and_missing_files_are_refused(tmp_path):
    write(tmp_path, {"js/main.js": 'import { io } from "../vendor/io.js";\n', "vendor/io.js": "export const io = 1;\n",
                     "js/gap.js": 'import { x } from "./missing.js";\n'})
    with pytest.raises(BundleError, match="outside"):
        bundle(tmp_path / "js" / "main.js")
    with pytest.raises(BundleError, match="no module file"):
        bundle(tmp_path / "js" / "gap.js")


def test_the_real_offline_entry_bundles_without_modules_or_socket_io():
    script = bundle(ENTRY)
    assert '"viewer.js": function' in script and '"local.js": function' in script
    assert '"connection.js"' not in script
    assert "socket.io" not in script and "engine.io" not in script.lower()  # comments may name "Socket.IO"
    assert not re.search(r"^\s*(import|export)\b", script, re.MULTILINE)
    assert not re.search(r"\bimport\s*\(|\bimport\.meta\b", script)


@needs_node
def test_the_real_offline_bundle_is_a_valid_classic_script():
    run(f"new Function({json.dumps(bundle(ENTRY))});")
