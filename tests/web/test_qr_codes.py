"""A room's QR code (``GET /r/CODE/qr.svg``) is made only for a room that exists, once, and kept; a flood of QR
requests naming other addresses (any IP literal is an allowed Host) makes no more of them, so an honest SVG export
beside it is served. Real servers, both async modes: one per mode for the module (each test opens a room of its
own; neither asks for another test's room, so what one leaves, a room and its kept code, changes no other answer)."""

from __future__ import annotations

import threading

import pytest
import requests

from tests.web.liveserver import LiveServer
from tests.web.sockclient import TIMEOUT, Client
from tests.web.test_connections import HANG, LOGS, MODES, NO_HTTP_LIMIT


@pytest.fixture(scope="module", params=MODES)
def server(request):
    with LiveServer(request.param, LOGS, env=NO_HTTP_LIMIT) as live:
        yield live


def qr(server, code: str, host: str = "127.0.0.1") -> requests.Response:
    return requests.get(f"{server.url}/r/{code}/qr.svg", headers={"Host": host}, timeout=TIMEOUT)


def test_a_qr_code_is_made_for_a_room_that_exists_only_and_kept(server):
    presenter = Client(server.url)
    room = presenter.call("create_room")["room"]
    missing = qr(server, "ZZZZZZ")
    assert missing.status_code == 404 and missing.json()["message"] == "no room ZZZZZZ is open here"
    first, again = qr(server, room), qr(server, room)
    assert first.status_code == again.status_code == 200 and first.text == again.text
    assert first.headers["Content-Type"].startswith("image/svg+xml") and f"/r/{room}" in first.text
    other = qr(server, room, "10.9.8.7")  # the same room's code for another address, made moments later
    assert other.status_code == 503 and other.json()["kind"] == "Busy"
    assert "try again in" in other.json()["message"]
    assert qr(server, room).text == first.text  # the one made is still served
    presenter.close()
    assert server.proc.poll() is None


def test_an_svg_export_is_served_while_qr_codes_are_asked_for_in_a_loop(server):
    presenter = Client(server.url)
    room = presenter.call("create_room")["room"]
    done = threading.Event()
    asked: list[int] = []

    def flood(index: int) -> None:
        n = 0
        while not done.is_set():
            n += 1
            code = room if n % 2 else f"QQ{index}{n % 9999:04d}"[:6]
            asked.append(qr(server, code, f"10.{index}.{n // 250 % 250}.{n % 250 + 1}").status_code)

    floods = [threading.Thread(target=flood, args=(i,)) for i in range(3)]
    for t in floods:
        t.start()
    try:
        # a bound against a hang (the export runs in a niced worker process: slow on a busy machine)
        exports = [requests.get(f"{server.url}/export/lost-marker.svg?position={p}", timeout=HANG).status_code
                   for p in range(1, 5)]
    finally:
        done.set()
        for t in floods:
            t.join(TIMEOUT)
    assert exports == [200] * 4
    assert set(asked) <= {200, 404, 503} and asked.count(200) <= 1 + len(exports), asked.count(200)
    presenter.close()
    assert server.proc.poll() is None
