"""The server's settings (webapp/server/settings.py): one frozen object read once when the app is made, from the
defaults, the environment and the config, in that order; docs/server.md lists exactly its variables; no other
module reads the environment."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from webapp import DEFAULTS, create_app
from webapp.server.settings import Settings, read_settings, settings_of, table, variables

ROOT = Path(__file__).resolve().parents[2]


def test_the_document_lists_exactly_the_settings():
    doc = (ROOT / "docs" / "server.md").read_text()
    assert table() in doc, f"docs/server.md's settings table is not settings.table():\n{table()}"
    listed = {line.split("`")[1] for line in doc.splitlines() if line.startswith("| `INFLIGHT_SCOPE_")}
    assert listed == {variable for variable, _, _ in variables()}


def test_the_environment_then_the_config():
    environ = {"INFLIGHT_SCOPE_RATE_LIMIT_BURST": "7", "INFLIGHT_SCOPE_RATE_LIMIT_PER_SECOND": "0.5",
               "INFLIGHT_SCOPE_ALLOWED_ORIGINS": "https://a.example/, https://b.example",
               "INFLIGHT_SCOPE_ALLOWED_HOSTS": "Scope.Example.org:443", "INFLIGHT_SCOPE_MESSAGE_QUEUE": "",
               "INFLIGHT_SCOPE_SECRET_KEY": "s"}
    settings = read_settings({"RATE_LIMIT_BURST": 9, "TESTING": True}, environ)
    assert settings.rate_limit_burst == 9 and settings.rate_limit_per_second == 0.5  # the config wins
    assert settings.allowed_origins == ["https://a.example", "https://b.example"]
    assert settings.allowed_hosts == ("scope.example.org",)
    assert settings.message_queue is None and settings.secret_key == "s"  # an empty variable is unset
    assert read_settings(None, {}) == Settings()


def test_the_settings_are_read_once_and_frozen(monkeypatch):
    monkeypatch.setenv("INFLIGHT_SCOPE_MAX_ROOMS", "3")
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True})
    try:
        monkeypatch.setenv("INFLIGHT_SCOPE_MAX_ROOMS", "4")  # too late: the app has read its settings
        settings = settings_of(app)
        assert settings.max_rooms == 3 and app.config["MAX_ROOMS"] == 3 and app.config["TESTING"] is True
        with pytest.raises(dataclasses.FrozenInstanceError):
            settings.max_rooms = 5
    finally:
        app.extensions["inflight_guard"].sweeper.stop()


def test_the_defaults_by_config_key():
    assert Settings().as_config() == DEFAULTS
    assert DEFAULTS["RATE_LIMIT_PER_SECOND"] == 30 and DEFAULTS["ALLOWED_HOSTS"] is None


def environment_readers(path: Path) -> set[str]:
    """What a module reads of ``os.environ`` or ``os.getenv``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os" \
                and node.attr in ("environ", "getenv", "environb"):
            found.add(node.attr)
    return found


# workers.py hands the environment on to its child processes whole; green.py sets eventlet's own variable
# (EVENTLET_NO_GREENDNS) before eventlet reads it, unless it is set already. Neither reads a setting of ours.
READERS = {ROOT / "webapp" / "server" / "settings.py", ROOT / "webapp" / "server" / "workers.py",
           ROOT / "webapp" / "server" / "green.py"}


@pytest.mark.parametrize("path", sorted(set((ROOT / "webapp").rglob("*.py")) - READERS),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_only_the_settings_read_the_environment(path):
    assert not environment_readers(path)


def test_the_scan_sees_an_environment_reader():
    assert environment_readers(ROOT / "webapp" / "server" / "settings.py") == {"environ"}
