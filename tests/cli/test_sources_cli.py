"""``inflight-scope sources map|fetch`` run as a subprocess: the map as JSON, an unknown version refused with
status 2; fetch with no network fails clearly with status 2, a text that is not the release's is refused and
nothing is cached; where the mirror of kubernetes/autoscaler is, its (byte-identical) file served over loopback is
verified and cached with its licence header shown. Every server is a loopback one of the test's own."""

import http.server
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.sources import build
from webapp.sources.maps import MAPS

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = "\n".join(f"// a line of the project's own fixture, number {n}" for n in range(1, 2001))


def run(*args, cache: Path, base: str | None = None):
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    if base:
        env["INFLIGHT_SCOPE_SOURCES_URL"] = base
    return subprocess.run([sys.executable, "-m", "webapp.cli", "sources", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


class Serving:
    """A loopback HTTP server answering every path with ``body``; ``paths`` are the paths asked."""

    def __init__(self, body: str) -> None:
        paths = self.paths = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                paths.append(self.path)
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_map_prints_the_json_interface(tmp_path):
    done = run("map", "v1.28.1", cache=tmp_path)
    assert done.returncode == 0, done.stderr
    j = json.loads(done.stdout)
    assert (j["version"], j["ref"], j["repository"]) == ("v1.28.1", "v1.28.0", "kubernetes/kubernetes")
    assert j["reconstructed"] and j["files"]["pkg/scheduler/internal/queue/scheduling_queue.go"]["functions"]["Pop"]


@pytest.mark.parametrize("args", [("map", "v9.9.9"), ("fetch", "v1.28.1", "nope"), ("map",)])
def test_a_wrong_version_is_refused_with_status_2(tmp_path, args):
    done = run(*args, cache=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("error: ") and "v1.28.1, v1.28.2" in done.stderr
    assert not list(tmp_path.iterdir())


def test_no_network_is_a_clear_error_and_status_2(tmp_path):
    closed = Serving("")
    base = closed.base
    closed.close()  # nothing listens there now
    done = run("fetch", "v1.28.2", cache=tmp_path, base=base)
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: v1.28.2: cannot reach {base}/kubernetes/kubernetes/v1.28.4/")
    assert "no network?" in done.stderr and "Traceback" not in done.stderr
    assert not list(tmp_path.iterdir())


def test_a_text_that_is_not_the_releases_is_refused_and_not_cached(tmp_path):
    server = Serving(FIXTURE)
    try:
        done = run("fetch", "v1.28.1", cache=tmp_path, base=server.base)
    finally:
        server.close()
    assert server.paths == ["/kubernetes/kubernetes/v1.28.0/pkg/scheduler/internal/queue/scheduling_queue.go"]
    assert done.returncode == 2 and "differ from the map's hashes" in done.stderr
    assert not list(tmp_path.rglob("*.go"))


@pytest.mark.skipif(not (build.MIRROR / "HEAD").exists(), reason="no mirror of kubernetes/autoscaler here")
def test_the_releases_text_is_verified_cached_and_its_licence_shown(tmp_path):
    server = Serving(build.text_at(build.VENDORED["v1.28.4"]))
    try:
        done = run("fetch", "v1.28.2", "v1.28.4", cache=tmp_path, base=server.base)
    finally:
        server.close()
    assert done.returncode == 0, done.stderr
    cached = tmp_path / "inflight-scope/sources/kubernetes+kubernetes/v1.28.4/scheduling_queue.go"
    assert cached.exists() and len(server.paths) == 1  # v1.28.2 and v1.28.4 share v1.28.4's text
    assert "Licensed under the Apache License, Version 2.0" in done.stdout and "verified" in done.stdout
    assert "already fetched" in done.stdout
    assert MAPS["v1.28.2"].ref == "v1.28.4"
