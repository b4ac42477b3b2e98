"""How the client's modules are written: one DOM helper module (dom.js) that every module takes `$` from, and no
line over 120 characters (but in the modules listed, which their owner rewrites)."""

import re

from webapp import ROOT

JS = ROOT / "static" / "js"
# Long lines still allowed here, and only here.
LONG_LINES_LEFT = {"pointers.js", "route.js", "fit.js", "renderer.js"}


def modules():
    return sorted(JS.glob("*.js"))


def test_only_dom_js_finds_elements_by_id_or_defines_a_dollar():
    defines = re.compile(r"\b(?:const|let|var|function)\s+\$\s*[=(]")
    for path in modules():
        if path.name == "dom.js":
            continue
        text = path.read_text(encoding="utf-8")
        assert not defines.search(text), f"{path.name} defines its own $: import it from dom.js"
        assert "getElementById" not in text, f"{path.name} calls getElementById: use dom.js's $"


def test_modules_that_use_a_dollar_import_it_from_dom_js():
    for path in modules():
        text = path.read_text(encoding="utf-8")
        if path.name != "dom.js" and re.search(r"(?<![\w.$])\$\(", text):
            assert re.search(r'^import \{[^}]*(?<![\w$])\$(?![\w$])[^}]*\} from "\./dom\.js";', text, re.MULTILINE), \
                path.name


def test_no_line_is_over_120_characters():
    long = {path.name for path in modules() for line in path.read_text(encoding="utf-8").splitlines()
            if len(line) > 120}
    assert long <= LONG_LINES_LEFT, sorted(long - LONG_LINES_LEFT)
    tests = ROOT / "tests" / "client"
    assert not [p.name for p in tests.glob("*.mjs") if any(len(line) > 120 for line in p.read_text().splitlines())]
