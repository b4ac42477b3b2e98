"""The packages depend on each other one way: model <- scenario <- engine <- presenter <- export/web/cli, and
errors (and phrases, words every layer above the model says alike) under all of them. The model imports nothing
outside the standard library; the presenter knows no engine. server/ (settings, codec, the screen, limits,
offloaded work, hosts, headers) stands beside the app and knows nothing of it: it imports only errors and the
parsing boundary (scenario/document.py); web/ (the app's routes and Socket.IO namespace), the package's
create_app and the CLI import it. Only server/ and web/ know Socket.IO. The build tools (tools/: the bundle and
static/js's generated files) import webapp, and no module of webapp imports them. No module is over MOST_LINES
lines."""

import ast
import sys
from pathlib import Path

import pytest

WEBAPP = Path(__file__).resolve().parent.parent / "webapp"
TOOLS = WEBAPP.parent / "tools"
# What each layer may import from webapp (itself included).
MAY_IMPORT = {
    "errors": {"errors"},
    "phrases": {"phrases"},  # counts and lists in words: said one way by every layer above the model
    "model": {"errors", "model"},
    "sources": {"errors", "sources"},  # the upstream source as facts: maps, line hashes, paraphrases (pure data)
    "upstream": {"errors", "sources", "upstream"},  # the upstream text fetched and cached (I/O: cli and web only)
    "scenario": {"errors", "phrases", "model", "scenario"},
    "engine": {"errors", "phrases", "model", "scenario", "engine"},
    # plain data in, plain data out: no engine, no cursor
    "presenter": {"errors", "phrases", "model", "sources", "presenter"},
    "export": {"", "errors", "phrases", "model", "scenario", "engine", "presenter", "sources", "export"},
    # what each channel is sent after a command, without I/O: the presenter's messages, numbered and fanned out
    "delivery": {"errors", "phrases", "model", "presenter", "delivery"},
    "server": {"errors", "scenario", "server"},  # scenario: only document.py, the parsing boundary (below)
    "web": {"", "errors", "phrases", "model", "scenario", "engine", "presenter", "delivery", "export", "server",
            "sources", "upstream", "web"},
    "cli": {"", "errors", "phrases", "model", "scenario", "engine", "presenter", "export", "server", "sources",
            "upstream", "cli"},
    "": {"", "server", "web"},  # webapp/__init__.py: create_app
}
SERVER_FROM_SCENARIO = {"document"}  # the one module of scenario/ that server/ reads documents with


def layer_of(path: Path) -> str:
    first = path.relative_to(WEBAPP).parts[0].removesuffix(".py")
    return "" if first == "__init__" else first


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


SOURCES = sorted(WEBAPP.rglob("*.py"))


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


@pytest.mark.parametrize("path", [p for p in SOURCES if layer_of(p) == "server"], ids=lambda p: p.name)
def test_the_server_reads_only_the_parsing_boundary_of_scenario(path):
    tree = ast.parse(path.read_text())
    modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 2 and n.module}
    assert {m.split(".")[1] for m in modules if m.startswith("scenario.")} <= SERVER_FROM_SCENARIO


def third_party_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    return found | {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and not n.level}


@pytest.mark.parametrize("path", [p for p in SOURCES if layer_of(p) not in ("server", "web")],
                         ids=lambda p: str(p.relative_to(WEBAPP)))
def test_only_the_server_and_web_know_socketio(path):
    assert not third_party_imports(path) & {"socketio", "flask_socketio", "engineio"}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(WEBAPP)))
def test_no_runtime_module_imports_the_build_tools(path):
    assert TOOLS.name not in third_party_imports(path)


def test_the_build_tools_are_where_the_check_looks():
    assert {p.name for p in TOOLS.glob("*.py")} >= {"bundle.py", "clientgen.py", "wiretypes.py"}
    assert not (WEBAPP / "web" / "bundle_build.py").exists()
    assert third_party_imports(TOOLS / "bundle.py") >= {"webapp"}


CURSOR_MOVES = {"seek", "step", "back", "run", "load", "reset", "apply", "apply_next", "clone"}


@pytest.mark.parametrize("path", sorted((WEBAPP / "presenter").glob("*.py")), ids=lambda p: p.name)
def test_the_presenter_moves_no_cursor(path):
    """It reads frames: it calls no command of an engine or a model (it has none to call: nothing is passed
    to it but plain data, and it imports no engine)."""
    calls = {n.func.attr for n in ast.walk(ast.parse(path.read_text()))
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
    assert not calls & CURSOR_MOVES, calls & CURSOR_MOVES


MOST_LINES = 450  # a module is small and single-purpose (README.md's length: tests/test_docs.py)


I_O = {"socketio", "flask_socketio", "engineio", "flask", "eventlet", "socket", "time", "asyncio", "gevent"}


@pytest.mark.parametrize("path", sorted((WEBAPP / "delivery").glob("*.py")), ids=lambda p: p.name)
def test_delivery_does_no_io(path):
    """The delivery protocol sends, waits and schedules nothing: it says what to send (no socket, no Flask, no
    sleep); the transport does the rest."""
    assert not third_party_imports(path) & I_O, third_party_imports(path) & I_O


def test_every_module_is_small():
    lines = {path.relative_to(WEBAPP.parent).as_posix(): len(path.read_text().splitlines())
             for path in [*SOURCES, *sorted(TOOLS.glob("*.py"))]}
    largest = max(lines, key=lines.__getitem__)
    assert len(lines) > 50 and lines[largest] <= MOST_LINES, f"{largest}: {lines[largest]} lines"
