"""The HTTP rate limit per client address on real servers (``inflight-scope serve`` subprocesses), both async
modes (webapp/server/httplimit.py): a flood from one address is answered 429 with Retry-After and logged once,
other addresses are served, and Socket.IO requests of an open session are not counted."""

from __future__ import annotations

import json
import threading

import pytest
import requests

from tests.web.liveserver import LiveServer
from tests.web.test_connections import HANG, LAST_BODY, LOGS, MODES, ask, connect

TIGHT = {"INFLIGHT_SCOPE_HTTP_RATE_LIMIT_PER_SECOND": "1", "INFLIGHT_SCOPE_HTTP_RATE_LIMIT_BURST": "5"}


def asked_at_once(server, source: str, count: int, path: str = "/healthz") -> list[tuple[int, bytes]]:
    """``count`` GETs from ``source``, each on a connection of its own, all at once: (status, body) each."""
    answers: list[tuple[int, bytes]] = []
    lock = threading.Lock()

    def one():
        conn = connect(server, source)
        try:
            status = ask(conn, path)
            with lock:
                answers.append((status, LAST_BODY.get(conn.fileno(), b"")))
        finally:
            conn.close()

    threads = [threading.Thread(target=one) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(HANG)
    return answers


@pytest.mark.parametrize("mode", MODES)
def test_a_flood_from_one_address_is_refused_429_and_logged_once(mode):
    with LiveServer(mode, LOGS, env=TIGHT) as server:
        answers = asked_at_once(server, "127.0.0.2", 24)
        statuses = sorted(status for status, _ in answers)
        assert len(answers) == 24 and set(statuses) <= {200, 429}, statuses
        assert statuses.count(429) >= 24 - 5 - 4, statuses  # the burst, and a token a second while they waited
        refusal = json.loads(next(body for status, body in answers if status == 429))
        assert refusal["kind"] == "Busy" and "too many requests" in refusal["message"]
        conn = connect(server, "127.0.0.2")
        try:
            assert ask(conn) in (200, 429)
        finally:
            conn.close()
        other = connect(server, "127.0.0.3")  # another address is served as before
        try:
            assert ask(other) == 200
        finally:
            other.close()
        log = server.log()
        assert log.count("HTTP rate limit: 127.0.0.2") == 1, log  # once per address per minute
        assert " 429 " not in log  # no access-log line per refused request
        assert server.proc.poll() is None
    assert "Traceback" not in server.log(), server.log()


@pytest.mark.parametrize("mode", MODES)
def test_retry_after_is_given_and_socketio_requests_of_an_open_session_are_not_counted(mode):
    with LiveServer(mode, LOGS, env=TIGHT) as server:
        url = server.url + "/socket.io/?EIO=4&transport=polling"
        with requests.Session() as http:
            sid = json.loads(http.get(url, timeout=HANG).text[1:])["sid"]  # the handshake counts
            assert http.post(f"{url}&sid={sid}", data="40", timeout=HANG).status_code == 200
            polls = [http.get(f"{url}&sid={sid}", timeout=HANG).status_code]
            for _ in range(20):  # spends this address's burst
                refused = http.get(server.url + "/healthz", timeout=HANG)
                if refused.status_code == 429:
                    break
            assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
            for i in range(12):  # the session's requests, well past the burst: each answered
                polls.append(http.post(f"{url}&sid={sid}", data=f'42["seek",{{"position":{i}}}]',
                                       timeout=HANG).status_code)
            polls.append(http.get(f"{url}&sid={sid}", timeout=HANG).status_code)
            assert polls == [200] * len(polls), polls
            made_up = [http.get(f"{url}&sid=not-open", timeout=HANG).status_code for _ in range(8)]
            assert 429 in made_up and set(made_up) <= {400, 429}, made_up  # a session not open counts
    assert "Traceback" not in server.log(), server.log()
