"""`inflight-scope serve` refuses, with one line and status 2, what it cannot listen on (before starting)."""

import socket
import subprocess
import sys

import pytest

from webapp import ROOT


def serve(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "webapp.cli", "serve", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def test_a_port_another_server_listens_on_is_refused_not_shared():
    """eventlet's listening socket sets SO_REUSEPORT: it would share the port, splitting the connections."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        done = serve("--port", str(port))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (f"inflight-scope serve: cannot listen on 127.0.0.1:{port}: the port is in use "
                                   "(another server there?): choose another --port")


@pytest.mark.parametrize("args, words", [
    (("--port", "99999"), "argument --port: expected an integer from 1 to 65535, got '99999'"),
    (("--port", "-3"), "argument --port: expected an integer from 1 to 65535, got '-3'"),
    (("--port", "9" * 5000), "argument --port: expected an integer from 1 to 65535, got '9999"),
    (("--host", "nosuch.invalid", "--port", "8000"), "cannot listen on nosuch.invalid:8000: "),
])
def test_ports_and_hosts_it_cannot_listen_on_are_refused_in_one_line(args, words):
    done = serve(*args)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr[-500:]
