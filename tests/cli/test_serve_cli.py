"""`inflight-scope serve` refuses, with one line and status 2, what it cannot listen on (before starting). A port
out of range is argparse's refusal, run in this process (tests/cli/run.py); a port in use and a host that does not
resolve run as real ``python -m webapp.cli serve`` processes: were either taken, a server would start (eventlet
monkey-patching the process it runs in), and they run the entry point end to end. tests/cli/test_serve_room.py runs
real servers."""

import socket
import subprocess

import pytest

from tests.cli.run import cli


def serve(*args: str, process: bool = False) -> subprocess.CompletedProcess:
    return cli("serve", *args, text=True, process=process, timeout=60)


def test_a_port_another_server_listens_on_is_refused_not_shared():
    """eventlet's listening socket sets SO_REUSEPORT: it would share the port, splitting the connections."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        done = serve("--port", str(port), process=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (f"inflight-scope serve: cannot listen on 127.0.0.1:{port}: the port is in use "
                                   "(another server there?): choose another --port")


@pytest.mark.parametrize("args, words, process", [
    (("--port", "99999"), "argument --port: expected an integer from 1 to 65535, got '99999'", False),
    (("--port", "-3"), "argument --port: expected an integer from 1 to 65535, got '-3'", False),
    (("--port", "9" * 5000), "argument --port: expected an integer from 1 to 65535, got '9999", False),
    (("--host", "nosuch.invalid", "--port", "8000"), "cannot listen on nosuch.invalid:8000: ", True),
])
def test_ports_and_hosts_it_cannot_listen_on_are_refused_in_one_line(args, words, process):
    done = serve(*args, process=process)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr[-500:]
