"""The packages depend on each other one way: model <- scenario <- engine <- presenter/export <- web/cli.
The model imports nothing outside the standard library."""

import ast
import sys
from pathlib import Path

import pytest

WEBAPP = Path(__file__).resolve().parent.parent / "webapp"
# What each layer may import from webapp (itself included).
MAY_IMPORT = {
    "model": {"model"},
    "scenario": {"model", "scenario"},
    "engine": {"model", "scenario", "engine"},
    "narration": {"model", "narration"},
    "presenter": {"model", "scenario", "engine", "narration", "presenter"},
    "export": {"", "model", "scenario", "engine", "narration", "presenter", "export"},
    "web": {"", "model", "scenario", "engine", "narration", "presenter", "export", "web"},
    "cli": {"", "model", "scenario", "engine", "cli"},
}


def layer_of(path: Path) -> str:
    return path.relative_to(WEBAPP).parts[0].removesuffix(".py")


def webapp_imports(source: str, relative: str) -> set[str]:
    """The top-level webapp modules that ``source`` (webapp/``relative``) imports ("" for the package itself)."""
    package = Path(relative).parent.parts
    found = set()
    for node in ast.walk(ast.parse(source, relative)):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - node.level + 1]
            target = [*base, *(node.module.split(".") if node.module else [])]
            if target:
                found.add(target[0])
            else:  # from .. import name
                found.update(a.name if (WEBAPP / a.name).exists() or (WEBAPP / f"{a.name}.py").exists() else ""
                             for a in node.names)
        elif isinstance(node, (ast.Import, ast.ImportFrom)) and not getattr(node, "level", 0):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            found.update(n.split(".")[1] if n.count(".") else "" for n in names if n.split(".")[0] == "webapp")
    return found


SOURCES = sorted(p for p in WEBAPP.rglob("*.py") if p.parent != WEBAPP or p.name != "__init__.py")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(WEBAPP)))
def test_imports_follow_the_layers(path):
    layer = layer_of(path)
    assert layer in MAY_IMPORT, f"{layer} is not a known layer"
    assert webapp_imports(path.read_text(), str(path.relative_to(WEBAPP))) <= MAY_IMPORT[layer]


@pytest.mark.parametrize("path", sorted((WEBAPP / "model").glob("*.py")), ids=lambda p: p.name)
def test_the_model_imports_only_the_standard_library(path):
    tree = ast.parse(path.read_text())
    outside = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    outside |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and not n.level}
    assert outside <= set(sys.stdlib_module_names), outside - set(sys.stdlib_module_names)


@pytest.mark.parametrize(("source", "where", "expected"), [
    ("from ..engine.trace import replay\n", "scenario/load.py", {"engine"}),
    ("from . import create_app\n", "cli.py", {""}),
    ("from .. import ROOT\n", "export/offline.py", {""}),
    ("import webapp.web.routes\n", "model/queue.py", {"web"}),
    ("from .golist import GoList\n", "model/queue.py", {"model"}),
])
def test_the_checker_sees_each_kind_of_import(source, where, expected):
    assert webapp_imports(source, where) == expected
