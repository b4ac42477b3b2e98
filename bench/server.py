"""`python -m webapp.cli serve` in a subprocess on a free loopback port, for the benchmarks that need one."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # loopback only


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int, reaped: bool = False) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc; 0 elsewhere); ``reaped``: with those of
    the children it has waited for."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return sum(int(f) for f in fields[11:15 if reaped else 13]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


class Server:
    """`python -m webapp.cli serve` of the checkout at ``root`` in a subprocess; its output goes to a temporary file
    (shown on failure)."""

    def __init__(self, mode: str, env: dict[str, str], root: Path = ROOT):
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed by stop())
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "webapp.cli", "serve", "--host", HOST, "--port", str(self.port),
             "--async-mode", mode],
            cwd=root, env={**os.environ, **env}, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if json.load(r)["async_mode"] != mode:
                        raise RuntimeError("server answered with another async mode")
                    break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("server did not start:\n" + self.output()) from None
                time.sleep(0.1)

    def cpu(self) -> float:
        """User + system CPU seconds of the server process so far (Linux /proc; 0 elsewhere)."""
        return cpu_seconds(self.proc.pid)

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-3000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()
