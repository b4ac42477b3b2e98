"""Which URLs the Present dialog offers (``webapp/web/audience.py``), in process: the page's own address unless it
is loopback, then the machine's addresses the server listens on; with none, why not and how to serve for a room.
Nothing here opens a connection."""

import pytest

from webapp.server.addresses import SERVE_FOR_A_ROOM, interface_addresses, literal, split_listen
from webapp.web.audience import audience, is_loopback, qr_svg


@pytest.mark.parametrize("listen, split", [
    ("0.0.0.0:8000", ("0.0.0.0", 8000)), ("[::]:8000", ("::", 8000)), ("[::1]:80", ("::1", 80)),
    ("laptop.local:8001", ("laptop.local", 8001)), ("0.0.0.0", None), ("x:0", None), ("x:70000", None),
    (":8000", ("", 8000)),
])
def test_the_listen_setting_is_read_as_host_and_port(listen, split):
    assert split_listen(listen) == split


@pytest.mark.parametrize("name, loopback", [
    ("localhost", True), ("app.localhost", True), ("127.0.0.1", True), ("127.1.2.3", True), ("[::1]", True),
    ("192.168.1.20", False), ("[fd00::2]", False), ("laptop.local", False), ("scope.example.org", False),
])
def test_loopback_names(name, loopback):
    assert is_loopback(name) is loopback


def test_a_page_behind_a_proxy_offers_its_own_address_though_the_server_listens_on_loopback():
    answer = audience("https", "scope.example.org", "127.0.0.1:8001")
    assert answer == {"urls": ["https://scope.example.org"], "reachable": True, "why": None}


def test_a_page_on_loopback_of_a_server_on_loopback_says_why_no_phone_can_open_it():
    answer = audience("http", "127.0.0.1:8000", "127.0.0.1:8000")
    assert answer["urls"] == ["http://127.0.0.1:8000"] and not answer["reachable"]
    assert answer["why"] == ("The server listens on 127.0.0.1 only, which only this computer can reach: no phone in "
                             f"the room can open it. {SERVE_FOR_A_ROOM}")


def test_without_the_listen_setting_a_loopback_page_says_it_of_its_own_address():
    answer = audience("http", "localhost:8000", None)
    assert not answer["reachable"] and answer["why"].startswith("This page is open at localhost, an address only")


def test_a_page_on_loopback_of_a_server_on_every_address_offers_the_machines_addresses():
    found = interface_addresses()
    if not found:
        pytest.skip("this machine has no network address but loopback")
    answer = audience("http", "127.0.0.1:8000", "0.0.0.0:8000")
    assert answer["reachable"] and answer["urls"][0] == f"http://{literal(found[0])}:8000"
    assert not any("127.0.0.1" in url for url in answer["urls"])


def test_a_page_opened_at_the_machines_address_offers_that_address_first_and_once():
    answer = audience("http", "192.168.1.20:8000", "0.0.0.0:8000")
    assert answer["urls"][0] == "http://192.168.1.20:8000" and answer["urls"].count("http://192.168.1.20:8000") == 1


def test_the_qr_code_is_an_svg_that_scales_to_its_box_black_on_white():
    svg = qr_svg("http://192.168.1.20:8000/r/ABCD")
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ')
    assert "width=" not in svg.split(">")[0] and 'fill="#fff"' in svg and 'stroke="#000"' in svg
