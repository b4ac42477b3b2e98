"""A server's start loads what serving needs and no more: what only some routes need (the offline file, the log
importer, the incident report, the QR codes, the animations' Pillow and encoders) loads on their first use
(docs/architecture.md), and an eventlet server that resolves no name starts without eventlet's green DNS
(webapp/server/green.py). Each start runs as ``serve`` prepares one, in a fresh interpreter (never monkey-patched
inside pytest), which prints the modules it holds."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from webapp.server.green import resolves_nothing

ROOT = Path(__file__).resolve().parents[2]
START = """
import json, sys
from webapp.server import green
if sys.argv[1] == "eventlet":
    green.patch(sys.argv[2], sys.argv[3] or None)
import webapp.cli
from webapp import create_app
create_app({"ASYNC_MODE": sys.argv[1], "LISTEN": sys.argv[2] + ":8000"})
print(json.dumps(sorted(sys.modules)))
"""
ON_FIRST_USE = ("webapp.export.offline", "webapp.export.incident", "webapp.export.report_md", "webapp.scenario.logs",
                "webapp.web.offline", "webapp.web.incidents", "webapp.web.animated", "segno",
                "webapp.export.animation", "webapp.export.raster", "webapp.export.video", "PIL", "resvg_py")


def started(mode: str, host: str = "127.0.0.1", message_queue: str = "") -> set[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("INFLIGHT_SCOPE_", "EVENTLET_"))}
    done = subprocess.run([sys.executable, "-c", START, mode, host, message_queue], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


@pytest.mark.parametrize("mode", ["eventlet", "threading"])
def test_a_start_loads_no_module_only_some_routes_need(mode):
    modules = started(mode)
    assert {"webapp.web.export", "webapp.web.report", "webapp.web.editor", "webapp.export.svg"} <= modules
    assert not {m for m in modules if m.startswith(ON_FIRST_USE)}


def test_an_eventlet_server_that_resolves_no_name_starts_without_green_dns():
    assert "dns" not in started("eventlet")


@pytest.mark.parametrize(("host", "message_queue"), [("localhost", ""), ("127.0.0.1", "redis://127.0.0.1:6379/0")])
def test_an_eventlet_server_that_resolves_names_keeps_green_dns(host, message_queue):
    """A name to listen on, or a Redis to reach: the hub must not wait for a lookup."""
    assert "dns" in started("eventlet", host, message_queue)


@pytest.mark.parametrize(("host", "expected"), [
    ("127.0.0.1", True), ("::1", True), ("[::1]", True), ("0.0.0.0", True), ("::", True), ("", True),
    ("localhost", False), ("my-laptop.local", False), ("example.org", False),
])
def test_an_address_or_a_wildcard_resolves_nothing(host, expected):
    assert resolves_nothing(host) is expected
