"""`inflight-scope serve --host 0.0.0.0` (what `make present` runs), a real server in a subprocess: it prints every
URL a phone in the room can open, keeps its room secret in a file only its owner reads and reuses it, and answers
pages and Socket.IO for this machine's addresses and names. Every request goes to 127.0.0.1; the addresses
and names of the room are only written in the Host and Origin headers."""

import json
import os
import shutil
import socket
import stat
import subprocess

import pytest
import requests

from tests.web.liveserver import ROOT, LiveServer
from webapp.server.addresses import SERVE_FOR_A_ROOM, own_names

LOGS = ROOT / "test-artifacts" / "server-logs"
TIMEOUT = 30.0  # a bound against a hang: every request ends as soon as it is answered
POLLING = "/socket.io/?EIO=4&transport=polling"


def global_ipv4() -> list[str]:
    """This machine's IPv4 addresses of global scope, as iproute2 lists them: the oracle the printed URLs are
    checked against (the server finds them its own way, server/addresses.py)."""
    if shutil.which("ip") is None:
        pytest.skip("iproute2's `ip` is needed to list this machine's addresses independently")
    listed = json.loads(subprocess.run(["ip", "-j", "-4", "addr", "show", "scope", "global"], capture_output=True,
                                       text=True, check=True).stdout or "[]")
    return [info["local"] for link in listed for info in link.get("addr_info", [])
            if not info["local"].startswith("169.254.")]


@pytest.fixture(scope="module")
def state(tmp_path_factory):
    return tmp_path_factory.mktemp("state") / "inflight-scope" / "room-secret"


@pytest.fixture(scope="module")
def room_server(state):
    env = {"INFLIGHT_SCOPE_SECRET_FILE": str(state), "INFLIGHT_SCOPE_SECRET_KEY": ""}
    with LiveServer("eventlet", LOGS, extra_args=("--host", "0.0.0.0"), env=env) as live:
        yield live
    assert "Traceback" not in live.log(), live.log()


def printed_urls(server) -> list[str]:
    lines = server.log().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Phones in the room can open it at"))
    return [line.strip() for line in lines[start + 1:] if line.startswith("  http://")]


def test_it_prints_every_address_of_the_machine(room_server):
    addresses = global_ipv4()
    if not addresses:
        pytest.skip("this machine has no network address but loopback: no URL for a room to print")
    log = room_server.log()
    assert log.startswith(f"Inflight Scope serving http://127.0.0.1:{room_server.port}/"), log[:300]
    urls = printed_urls(room_server)
    for address in addresses:
        assert f"http://{address}:{room_server.port}/" in urls, (address, urls)
    assert all("127." not in url and "[::1]" not in url for url in urls), urls
    names = own_names()
    assert any(url.removeprefix("http://").split(":")[0] in names for url in urls), (urls, names)


def test_on_loopback_it_says_only_this_computer_can_open_it_and_how_to_serve_for_a_room(tmp_path):
    env = {"INFLIGHT_SCOPE_SECRET_FILE": str(tmp_path / "secret")}
    with LiveServer("threading", LOGS, env=env) as live:
        log = live.log()
    assert f"Only this computer can open it (it listens on 127.0.0.1). {SERVE_FOR_A_ROOM}" in log, log[:600]
    assert "Phones in the room" not in log


def test_the_room_secret_is_made_for_its_owner_only_and_reused_at_the_next_start(room_server, state):
    assert stat.S_IMODE(state.stat().st_mode) == 0o600
    assert stat.S_IMODE(state.parent.stat().st_mode) == 0o700
    assert f"Room tokens are signed with the secret kept in {state} (reused at every start)." in room_server.log()
    secret = state.read_text()
    assert len(bytes.fromhex(secret)) == 32
    token = presenter_token(room_server)
    room_server.restart()
    assert state.read_text() == secret
    # the restarted server takes the room's token: the same secret signed it
    assert presenter_token(room_server, claim=token) == token


def presenter_token(server, claim=None) -> dict:
    """A room's {room, token}, created (or claimed back) over Socket.IO."""
    import socketio

    client = socketio.Client(reconnection=False)
    client.connect(server.url, transports=["websocket"], wait_timeout=TIMEOUT)
    try:
        ack = client.call("claim_room" if claim else "create_room", claim or {}, timeout=TIMEOUT)
    finally:
        client.disconnect()
    assert "error" not in ack, ack
    return {"room": ack["room"], "token": claim["token"] if claim else ack["token"]}


def test_a_secret_file_others_could_read_is_made_its_owners_only(tmp_path):
    secret = tmp_path / "room-secret"
    secret.write_text("ab" * 32)
    os.chmod(secret, 0o644)
    with LiveServer("threading", LOGS, env={"INFLIGHT_SCOPE_SECRET_FILE": str(secret)}) as live:
        assert stat.S_IMODE(secret.stat().st_mode) == 0o600
        assert "was readable by others (mode 644): made its owner's only (0600)" in live.log()
    assert secret.read_text() == "ab" * 32


def hosts_of_the_room() -> list[str]:
    """Names a phone in the room may write in Host: this machine's addresses (or one like them) and names."""
    return ["192.168.1.20", *global_ipv4(), *sorted(own_names())]


def get(server, path, headers):
    """A GET to the server on 127.0.0.1; never a redirect followed (it would name the Host sent)."""
    return requests.get(server.url + path, headers=headers, timeout=TIMEOUT, allow_redirects=False)


def test_pages_and_socketio_answer_for_the_machines_addresses_and_names(room_server):
    for name in hosts_of_the_room():
        host = f"{name}:{room_server.port}"
        page = get(room_server, "/r/ABCD", {"Host": host})  # the audience's page itself
        assert page.status_code == 200 and 'data-room="ABCD"' in page.text, (host, page.status_code)
        opened = get(room_server, POLLING, {"Host": host, "Origin": f"http://{host}"})
        assert opened.status_code == 200 and opened.text.startswith("0{"), (host, opened.text[:200])
        # another page's origin is still refused, whatever the Host
        assert get(room_server, POLLING, {"Host": host, "Origin": "http://rebound.example"}).status_code == 400
    refused = get(room_server, "/", {"Host": f"rebound.example:{room_server.port}"})
    assert refused.status_code == 400 and refused.json()["kind"] == "NotAllowed"


def test_the_audience_api_names_the_page_address_first_and_the_machines_after(room_server):
    port = room_server.port
    here = get(room_server, "/api/audience", {})
    assert here.headers["Cache-Control"] == "no-store"
    answer = here.json()
    if global_ipv4():
        assert answer["reachable"] and answer["why"] is None
        assert [u for u in answer["urls"] if "127.0.0.1" in u] == []
        assert f"http://{global_ipv4()[0]}:{port}" in answer["urls"]
    name = sorted(own_names())[0]
    by_name = get(room_server, "/api/audience", {"Host": f"{name}:{port}"}).json()
    assert by_name["urls"][0] == f"http://{name}:{port}" and by_name["reachable"]


def test_the_qr_route_refuses_what_is_no_room_code(room_server):
    """A code of no open room, well formed or not, is refused before any work (an open room's code:
    tests/web/test_qr_codes.py)."""
    for code in ("abc", "x" * 13, "AB-CD", "ABCD"):
        answer = get(room_server, f"/r/{code}/qr.svg", {})
        assert answer.status_code == 404 and answer.json()["kind"] == "NotFound", code


def test_a_host_that_resolves_to_this_machine_only_is_loopback():
    from webapp.server.addresses import reachable

    assert reachable("127.0.0.1", 8000).loopback_only and reachable("localhost", 8000).loopback_only
    assert reachable("::1", 8000).loopback_only
    assert reachable("192.168.1.20", 8000).urls == ("http://192.168.1.20:8000",)
    assert reachable("0.0.0.0", 8000).urls == tuple(f"http://{a}:8000" for a in global_ipv4()) + (
        (f"http://{socket.gethostname().lower()}.local:8000",) if global_ipv4() else ())
