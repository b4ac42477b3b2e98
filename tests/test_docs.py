"""The documentation points at what exists: every file and function docs/architecture.md names is in the tree,
every module of webapp/ and static/js/ has its line there, every relative link of README.md and docs/*.md
reaches a file, and the README stays short enough to be read."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"
README_MOST_LINES = 150

CODE = re.compile(r"`([^`\n]+)`")
# A file or folder of the tree: relative, with at least one "/" (a route such as `/api/find` starts with one).
PATH = re.compile(r"^[\w.-]+(?:/[\w.*-]+)*/[\w.*-]*$")
# A function or attribute: `name()`, `Class.method`, `Class.method()`, `module.function` (arguments allowed).
NAME = re.compile(r"^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(\(.*\))?$")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
ITEM = re.compile(r"^\s*(?:[-*]|\d+\.)\s")


def blocks(text: str) -> list[str]:
    """Paragraphs and list items: the text a name is read in, with the files that text names. Fenced code is
    skipped."""
    found, current, fenced = [], [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        if not line.strip() or ITEM.match(line) or line.startswith("#"):
            if current:
                found.append("\n".join(current))
            current = []
        if line.strip():
            current.append(line)
    if current:
        found.append("\n".join(current))
    return found


def named(block: str) -> tuple[list[str], list[str]]:
    """The paths and the function names a block writes in backticks."""
    paths, names = [], []
    for token in CODE.findall(block):
        token = token.strip()
        if PATH.match(token):
            paths.append(token)
        elif (m := NAME.match(token)) and ("." in m[1] or m[2] is not None):
            names.append(m[1])
    return paths, names


def exists(path: str) -> bool:
    return any(ROOT.glob(path.rstrip("/"))) if "*" in path else (ROOT / path).exists()


@cache
def python_tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


DEFINED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def member(body: list[ast.stmt], name: str) -> ast.AST | None:
    """The definition of ``name`` among ``body``'s statements: a def, a class, or an assigned name."""
    for node in body:
        if isinstance(node, DEFINED) and node.name == name:
            return node
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and any(
                isinstance(t, ast.Name) and t.id == name for t in assigned(node)):
            return node
    return None


def assigned(node: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def in_python(path: Path, dotted: str) -> bool:
    """``name``: a def anywhere in the file; ``Class.method`` (or ``module.function``, the module being this file):
    each part inside the one before, from the top level."""
    parts = dotted.split(".")
    if len(parts) > 1 and parts[0] == (path.parent.name if path.stem == "__init__" else path.stem):
        parts = parts[1:]
    tree = python_tree(path)
    if len(parts) == 1:
        return any(isinstance(n, DEFINED) and n.name == parts[0] for n in ast.walk(tree)) or \
            member(tree.body, parts[0]) is not None
    node: ast.AST | None = tree
    for part in parts:
        node = member(getattr(node, "body", []), part)
        if node is None:
            return False
    return True


def in_javascript(path: Path, dotted: str) -> bool:
    """The last part of ``dotted`` is defined in the file: a function, a method, or a property holding one."""
    name = re.escape(dotted.split(".")[-1])
    text = path.read_text(encoding="utf-8")
    return re.search(rf"\bfunction\s+{name}\b|\b{name}\s*[:=]\s*(?:async\s+)?(?:function\b|\(|\w+\s*=>)"
                     rf"|^\s*(?:async\s+)?{name}\s*\([^)]*\)\s*\{{|^\s*{name},$", text, re.M) is not None


def defined_in(files: list[str], dotted: str) -> bool:
    for file in files:
        path = ROOT / file
        if path.suffix == ".py" and in_python(path, dotted):
            return True
        if path.suffix == ".js" and in_javascript(path, dotted):
            return True
    return False


ARCHITECTURE_BLOCKS = blocks(ARCHITECTURE.read_text(encoding="utf-8"))


def test_every_path_the_architecture_names_exists():
    missing = sorted({p for block in ARCHITECTURE_BLOCKS for p in named(block)[0] if not exists(p)})
    assert not missing, f"docs/architecture.md names paths the tree does not have: {missing}"


def test_every_function_the_architecture_names_is_defined_in_a_file_it_names_beside_it():
    """A name is looked up in the source files its paragraph or list item names (Python with ast, JavaScript by
    its definition): a renamed or moved function fails here until its sentence follows."""
    wrong = []
    for block in ARCHITECTURE_BLOCKS:
        paths, names = named(block)
        sources = [p for p in paths if p.endswith((".py", ".js")) and (ROOT / p).is_file()]
        wrong += [(n, sources) for n in names if not defined_in(sources, n)]
    assert not wrong, "docs/architecture.md names functions not defined in the files beside them:\n" + \
        "\n".join(f"  {n} (looked in {', '.join(s) or 'no file: name one in the same sentence'})" for n, s in wrong)


def test_the_checker_finds_what_is_there_and_only_that():
    sim, driver = ["webapp/engine/simulation.py"], ["static/js/driver.js"]
    assert defined_in(sim, "Simulation.frame") and defined_in(sim, "step")
    assert defined_in(sim, "simulation.check_variants")
    assert defined_in(["webapp/delivery/protocol.py"], "Channel.message")
    assert not defined_in(sim, "Simulation.nothing") and not defined_in(sim, "Timeline.seek")
    assert defined_in(driver, "createDriver") and defined_in(driver, "drive") and not defined_in(driver, "nothing")
    assert named("`webapp/model/queue.py` `Model.apply()`, `/api/find`, `present()`, `v1.28.1`, `pod`") == (
        ["webapp/model/queue.py"], ["Model.apply", "present"])


@pytest.mark.parametrize("folder, pattern", [("webapp", "*.py"), ("static/js", "*.js")])
def test_every_module_has_its_line_in_the_architecture(folder, pattern):
    listed = {p for block in ARCHITECTURE_BLOCKS for p in named(block)[0]}
    modules = sorted(str(p.relative_to(ROOT)) for p in (ROOT / folder).rglob(pattern)
                     if p.name != "__init__.py" or p.parent.name == "webapp")
    assert [m for m in modules if m not in listed] == [], "give each module its line in docs/architecture.md"


def test_the_readme_is_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MOST_LINES, f"README.md has {lines} lines: the manual belongs in docs/"


DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file(document):
    targets = [t.split("#", 1)[0] for t in LINK.findall(document.read_text(encoding="utf-8"))]
    relative = [t for t in targets if t and not re.match(r"^[a-z][a-z0-9+.-]*:", t)]
    broken = [t for t in relative if not (document.parent / t).exists()]
    assert not broken, f"{document.name} links to what is not there: {broken}"


def test_the_readme_names_the_command_ci_runs():
    """The README says `.ci/run` calls exactly `make test`: so it does, and the README still says so."""
    commands = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
    assert commands[-1] == "make test"
    assert "`.ci/run` calls exactly `make test`" in (ROOT / "README.md").read_text(encoding="utf-8")
