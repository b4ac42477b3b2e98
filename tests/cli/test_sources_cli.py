"""``inflight-scope sources map|fetch``: the map as JSON, an unknown version refused with
status 2; fetch with no network fails clearly with status 2, a text that is not the release's is refused and
nothing is cached; where the mirror of kubernetes/autoscaler is, its (byte-identical) files served over loopback are
verified whole and cached with the licence header shown, and a file changed only in lines the map names no hash for
is refused by its digest. A server that drips its answer is cut at the sources_timeout setting. Every server is a
loopback one of the test's own, bounded in what it sends. The command runs in this process (tests/cli/run.py), its
environment set for the run, but for test_a_text_that_is_not_the_releases_is_refused_and_not_cached: a real
``python -m webapp.cli sources fetch`` reading the cache and the server's address from its own environment, the
entry point end to end."""

import http.server
import json
import threading
import time
from pathlib import Path

import pytest

from tests.cli.run import cli
from tests.sources import build
from webapp.sources.maps import MAPS

FIXTURE = "\n".join(f"// a line of the project's own fixture, number {n}" for n in range(1, 2001))
HAS_MIRROR = (build.MIRROR / "HEAD").exists()
BOUND = 60  # seconds: a bound against a hang, far above what any of these runs takes


def run(*args, cache: Path, base: str | None = None, timeout: float | None = None, process: bool = False):
    env = {"XDG_CACHE_HOME": str(cache)}
    if base:
        env["INFLIGHT_SCOPE_SOURCES_URL"] = base
    if timeout is not None:
        env["INFLIGHT_SCOPE_SOURCES_TIMEOUT"] = str(timeout)
    return cli("sources", *args, env=env, text=True, process=process, timeout=BOUND)


class Serving:
    """A loopback HTTP server answering each path with ``bodies[path]`` (or ``body`` for any path); ``paths`` are
    the paths asked. ``drip``: "headers" or "body" sent one byte a second (at most BOUND bytes, until the client
    goes)."""

    def __init__(self, body: str | None = None, bodies: dict[str, bytes] | None = None, drip: str | None = None):
        paths = self.paths = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                paths.append(self.path)
                data = body.encode() if body is not None else (bodies or {}).get(self.path, b"")
                head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(data)}\r\n\r\n".encode()
                if drip is None:
                    self.wfile.write(head + data)
                    return
                slow = head if drip == "headers" else data
                self.wfile.write(b"" if drip == "headers" else head)
                try:
                    for byte in slow[:BOUND]:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(1)
                except OSError:  # the client hung up: what the test waits for
                    pass

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def served(version: str, change=None) -> dict[str, bytes]:
    """The release's files of ``version`` from the mirror, by the path a fetch asks, each passed through
    ``change`` (path, bytes) -> bytes if given."""
    m = MAPS[version]
    revision = build.VENDORED[m.ref][0]
    return {f"/{m.repository}/{m.ref}/{path}": (change or (lambda _, b: b))(path, build.blob_at(revision, path))
            for path in m.files}


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
        done = run("fetch", "v1.28.1", cache=tmp_path, base=server.base, process=True)
    finally:
        server.close()
    assert server.paths == ["/kubernetes/kubernetes/v1.28.0/pkg/scheduler/internal/queue/scheduling_queue.go"]
    assert done.returncode == 2 and "differ from the map's hashes" in done.stderr
    assert not list(tmp_path.rglob("*.go"))


@pytest.mark.skipif(not HAS_MIRROR, reason="no mirror of kubernetes/autoscaler here")
def test_the_releases_text_is_verified_cached_and_its_licence_shown(tmp_path):
    server = Serving(bodies=served("v1.28.4"))
    try:
        done = run("fetch", "v1.28.2", "v1.28.4", cache=tmp_path, base=server.base)
    finally:
        server.close()
    assert done.returncode == 0, done.stderr
    cached = tmp_path / "inflight-scope/sources/kubernetes+kubernetes/v1.28.4/scheduling_queue.go"
    assert cached.exists() and len(server.paths) == 1  # v1.28.2 and v1.28.4 share v1.28.4's text
    assert "Licensed under the Apache License, Version 2.0" in done.stdout and "verified whole" in done.stdout
    assert "already fetched" in done.stdout
    assert MAPS["v1.28.2"].ref == "v1.28.4"


@pytest.mark.skipif(not HAS_MIRROR, reason="no mirror of kubernetes/autoscaler here")
def test_every_file_of_a_backend_release_is_fetched_verified_and_cached(tmp_path):
    server = Serving(bodies=served("v1.36.2"))
    try:
        done = run("fetch", "v1.36.2", cache=tmp_path, base=server.base)
    finally:
        server.close()
    assert done.returncode == 0, done.stderr
    where = tmp_path / "inflight-scope/sources/kubernetes+kubernetes/v1.36.2"
    assert sorted(p.name for p in where.iterdir()) == ["active_queue.go", "backoff_queue.go", "scheduling_queue.go"]
    assert sorted(server.paths) == sorted(served("v1.36.2"))


def unhashed_line(version: str, path: str, lines: list[bytes]) -> int:
    """A line inside a mapped function of ``path`` that the map holds no hash for (0-based)."""
    m = MAPS[version]
    hashed = m.files[path].hashes
    f = next(f for f in m.functions.values() if f.path == path and f.last - f.first > 10)
    return next(n - 1 for n in range(f.first + 1, f.last) if n not in hashed and lines[n - 1].strip())


@pytest.mark.skipif(not HAS_MIRROR, reason="no mirror of kubernetes/autoscaler here")
@pytest.mark.parametrize("version", ["v1.31.13", "v1.36.2"])
def test_a_file_changed_only_where_no_line_is_hashed_is_refused_and_nothing_cached(tmp_path, version):
    tampered = list(MAPS[version].files)[-1]  # v1.36.2: backoff_queue.go

    def change(path, data):
        if path != tampered:
            return data
        lines = data.split(b"\n")
        n = unhashed_line(version, path, lines)
        lines[n] = lines[n] + b" // changed by a mirror"
        return b"\n".join(lines)

    server = Serving(bodies=served(version, change))
    try:
        done = run("fetch", version, cache=tmp_path, base=server.base)
    finally:
        server.close()
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{tampered}: its sha256 is not the release's" in done.stderr
    assert "every line the map names matches, others differ" in done.stderr
    assert not list(tmp_path.rglob("*.go")) and "verified" not in done.stdout


@pytest.mark.parametrize("drip", ["headers", "body"])
def test_a_dripping_server_is_cut_at_the_timeout_and_nothing_cached(tmp_path, drip):
    server = Serving(FIXTURE, drip=drip)
    try:
        done = run("fetch", "v1.28.1", cache=tmp_path, base=server.base, timeout=2)  # ends, or BOUND raises
    finally:
        server.close()
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "was not answered in full within 2 s: cut at the deadline" in done.stderr, done.stderr
    assert not list(tmp_path.rglob("*.go"))
