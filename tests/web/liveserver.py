"""Start the real ``inflight-scope serve`` in a subprocess on a free port; used by the live and browser tests.

The pytest process never imports eventlet: the eventlet server monkey-patches only its own process.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0  # against a hang only: at a load average of 20 an eventlet server starts in about 13 s


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_command(port: int, mode: str, extra_args=()) -> list[str]:
    return [sys.executable, "-m", "webapp.cli", "serve", "--port", str(port), "--async-mode", mode, *extra_args]


class LiveServer:
    """``with LiveServer("threading", log_dir) as server: requests.get(server.url + "/healthz")``"""

    def __init__(self, mode: str, log_dir: Path, extra_args=(), env=None, command=None):
        self.mode = mode
        self.command = command or (lambda port: serve_command(port, mode, self.extra_args))  # port -> argv
        self.extra_env = dict(env or {})
        self.log_dir = log_dir
        self.extra_args = tuple(extra_args)
        self.proc: subprocess.Popen | None = None
        self.url = ""
        self.log_path: Path | None = None

    def __enter__(self) -> LiveServer:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        errors = []
        for _attempt in range(3):  # a free port can be taken between probing it and the server binding it
            port = free_port()
            self.log_path = self.log_dir / f"server-{self.mode}-{port}.log"
            try:
                self._start(port)
                return self
            except RuntimeError as err:
                errors.append(str(err))
                self.stop()
        raise RuntimeError("the live server did not start:\n" + "\n---\n".join(errors))

    def _start(self, port: int) -> None:
        env = {k: v for k, v in os.environ.items() if k != "INFLIGHT_SCOPE_ASYNC_MODE"}
        env["PYTHONUNBUFFERED"] = "1"
        env.update(self.extra_env)
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(self.command(port), cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=subprocess.STDOUT)
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if requests.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"no answer from {self.url}/healthz within {START_TIMEOUT} s:\n{self.log()}")

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def restart(self) -> None:
        """Stop the server and start a new one on the same port (clients see a dropped connection)."""
        self.stop()
        self.start_again()

    def start_again(self) -> None:
        """Start a new server on the port of the stopped one."""
        port = self.port
        self.log_path = self.log_dir / f"server-{self.mode}-{port}-restarted.log"
        self._start(port)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def __exit__(self, *exc) -> None:
        self.stop()


@contextmanager
def checked_server(mode: str, logs: Path, extra_args=()):
    """A LiveServer that must still be running when the tests are done with it and must not have logged a
    traceback (a refused request is answered and logged in one line, never a crash)."""
    with LiveServer(mode, logs, extra_args) as live:
        yield live
        assert live.proc.poll() is None, f"the server died during the tests:\n{live.log()}"
    assert "Traceback" not in live.log(), live.log()
