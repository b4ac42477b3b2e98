"""X-Forwarded-For is believed only from the proxy's own address (``TRUSTED_PROXIES``, default loopback 127.0.0.1
and ::1): with ``PROXY_COUNT=1`` and the app's port also reachable directly, a client sending a new
X-Forwarded-For with every request is bounded by its own address, in connections and in HTTP requests, while the
proxy's clients are each known by the address it forwards. Real servers, both async modes; 127.0.0.2 is a client
reaching the port directly, 127.0.0.1 the proxy."""

from __future__ import annotations

import json

import pytest

from tests.web.liveserver import LiveServer
from tests.web.test_connections import LAST_BODY, LOGS, MODES, NO_HTTP_LIMIT, ask, connect
from tests.web.test_http_limit import TIGHT

PROXIED = {"INFLIGHT_SCOPE_PROXY_COUNT": "1"}


def ask_as(conn, forwarded: str) -> int:
    """One GET on ``conn`` naming ``forwarded`` in X-Forwarded-For (as a proxy would): its status (0: closed)."""
    return ask(conn, headers=f"X-Forwarded-For: {forwarded}\r\n")


def rotating(server, source: str, count: int) -> list[int]:
    """``count`` GETs from ``source``, one after another on a connection each, each naming a new forwarded address."""
    statuses = []
    for i in range(count):
        conn = connect(server, source)
        try:
            statuses.append(ask_as(conn, f"198.51.100.{i % 250 + 1}"))
        finally:
            conn.close()
    return statuses


@pytest.mark.parametrize("mode", MODES)
def test_a_direct_client_rotating_x_forwarded_for_is_bounded_by_its_own_address(mode):
    with LiveServer(mode, LOGS, env={**PROXIED, **TIGHT}) as server:
        statuses = rotating(server, "127.0.0.2", 12)
        # the burst, then one a second: each refusal is held a second, which earns the next request its token
        assert statuses[:6] == [200] * 5 + [429] and statuses.count(200) <= 5 + statuses.count(429) + 1, statuses
        refusal = json.loads(LAST_BODY[max(LAST_BODY)])
        assert refusal["kind"] == "Busy"
        log = server.log()
        assert "HTTP rate limit: 127.0.0.2 sent more than" in log and "198.51.100" not in log
        # the proxy's clients are each their own address: a new one each time is never refused
        assert rotating(server, "127.0.0.1", 12) == [200] * 12
        said = next(line for line in log.splitlines() if line.startswith("open files limit"))
        assert ("X-Forwarded-For believed (1 proxy) only from 127.0.0.1/32, ::1/128 (TRUSTED_PROXIES); "
                "any other client is known by its own address;") in said, said


@pytest.mark.parametrize("mode", MODES)
def test_a_direct_client_holds_at_most_its_connections_and_the_proxy_more(mode):
    env = {**PROXIED, **NO_HTTP_LIMIT, "INFLIGHT_SCOPE_MAX_CONNECTIONS_PER_ADDRESS": "4"}
    with LiveServer(mode, LOGS, env=env) as server:
        direct = [connect(server, "127.0.0.2") for _ in range(5)]
        proxy = [connect(server, "127.0.0.1") for _ in range(8)]
        try:
            assert [ask_as(conn, "198.51.100.9") for conn in proxy] == [200] * 8  # the proxy is not bounded
            assert ask_as(direct[4], "198.51.100.10") in (503, 0)  # the fifth from one address, whatever it says
            assert [ask_as(conn, "198.51.100.11") for conn in direct[:4]] == [200] * 4
        finally:
            for conn in direct + proxy:
                conn.close()
        assert server.proc.poll() is None
