"""Memory has a ceiling (issue 39, item 6): the sessions of one address hold at most their share of the process's
session memory (MAX_SESSION_MEMORY_PER_ADDRESS): a burst of uploads past it is refused in words while a viewer from
another address is served, and once the burst has gone the server gives its memory back (it says so in its log, and
its RSS falls back by at least half of what the burst added). The servers run with PYTHONMALLOC=malloc, as
docs/security.md advises: with Python's own allocator the sessions' small objects leave its arenas fragmented and
most of what a burst added stays (docs/benchmarks.md, "Memory bursts"). Real servers, both async modes; every wait is
on the server's own signal, bounded generously."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from tests.waiting import logged, until
from tests.web.liveserver import LiveServer
from tests.web.rawsocket import RawSocket, generated_scenario
from tests.web.test_live_server import LOGS

BOUND = 120.0  # seconds: a bound against a hang on a busy machine, never a measure
MIB = 1024 * 1024
SHARE = 64 * MIB  # two sessions at MAX_SESSION_BYTES' 32 MiB: about nine of the 3.6 MiB each upload holds
MOST_CONNECTIONS = 30  # the burst's bound: refused well before

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")


@functools.cache
def upload() -> dict:
    return generated_scenario(8_000)  # 281 kB of JSON; its session holds 3.6 MiB as MAX_SESSION_BYTES counts


@pytest.fixture(scope="module", params=["eventlet", "threading"])
def mode(request):
    return request.param


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def loaded(client: RawSocket, payload: dict) -> tuple[str, object]:
    """("state", its state) once the load is answered, or ("error", the error)."""
    client.emit("load", payload)
    for name, data in client.events(BOUND):
        if name in ("state", "error"):
            return name, data
    raise AssertionError("closed before the load was answered")


def test_a_burst_past_the_share_is_refused_and_its_memory_given_back(mode):
    env = {"INFLIGHT_SCOPE_MAX_SESSION_MEMORY_PER_ADDRESS": str(SHARE), "PYTHONMALLOC": "malloc"}
    with LiveServer(mode, LOGS, env=env) as server:
        honest = RawSocket(server.url, source="127.0.0.2")
        burst: list[RawSocket] = []
        try:
            assert loaded(honest, {"scenario": "lost-marker"})[0] == "state"
            before = rss(server.proc.pid)
            refusal = None
            while refusal is None and len(burst) < MOST_CONNECTIONS:
                burst.append(RawSocket(server.url))
                name, data = loaded(burst[-1], {"scenario": upload()})
                refusal = data if name == "error" else None
            assert refusal is not None, f"{len(burst)} sessions of one address were all admitted"
            assert refusal["kind"] == "Busy" and "MAX_SESSION_MEMORY_PER_ADDRESS" in refusal["message"]
            assert len(burst) >= 3  # the share holds sessions before it refuses
            name, state = loaded(honest, {"scenario": upload()})  # another address: its own share
            assert name == "state" and state["position"] == 0
            honest.emit("step")
            assert dict(honest.until("delta"))["delta"]["position"] == 1
            peak = rss(server.proc.pid)
            for client in burst:
                client.close()
            burst = []
            logged(server, "memory given back")
            until(lambda: rss(server.proc.pid) <= before + (peak - before) / 2,
                     lambda: f"RSS {rss(server.proc.pid) // MIB} MiB: before the burst {before // MIB}, "
                             f"at its peak {peak // MIB}")
            assert server.proc.poll() is None
        finally:
            for client in [honest, *burst]:
                client.close()
