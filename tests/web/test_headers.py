"""Security headers on every answer of the real server (a subprocess, eventlet and Werkzeug's threading server):
Flask's pages and errors, Engine.IO's polling answers and refusals (which never reach Flask), the Host check's
refusal, and the answers the HTTP server writes by itself before the app is called (request line too long,
header line too long, too many headers, a malformed request line or Content-Length). The oversized and
malformed requests go over a raw socket, each sized so that the server reads all of it (a server that closes
with unread bytes resets the connection and the client might lose the answer)."""

import socket
from pathlib import Path

import pytest
import requests

from tests.web.liveserver import checked_server
from tests.web.test_security import page_policy
from webapp.server import security

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "test-artifacts" / "server-logs"
TIMEOUT = 30.0  # a bound against a hang: every wait ends as soon as what it waits for comes
POLLING = "/socket.io/?EIO=4&transport=polling"
# The longest request line each server reads before answering 414: eventlet.wsgi reads 8,192 bytes
# (url_length_limit), the stdlib's handler under Werkzeug 65,537.
REQUEST_LINE_LIMIT = {"eventlet": 8192, "threading": 65537}


@pytest.fixture(scope="module", params=["eventlet", "threading"])
def server(request):
    with checked_server(request.param, LOGS) as live:
        yield live


def assert_secured(headers, framing=True, policy=security.PAGE_POLICY):
    """The strict policy and the common headers (``headers``: any mapping with case-insensitive get)."""
    assert headers.get("Content-Security-Policy") == policy
    assert headers.get("X-Content-Type-Options") == "nosniff"
    assert headers.get("Referrer-Policy") == "no-referrer"
    assert headers.get("Cross-Origin-Opener-Policy") == "same-origin"
    assert "camera=()" in headers.get("Permissions-Policy", "")
    assert headers.get("X-Frame-Options") == ("SAMEORIGIN" if framing else None)


class RawAnswer:
    def __init__(self, data: bytes):
        head, _, self.body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        self.status_line = lines[0]
        parts = self.status_line.split(" ", 2)
        self.status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
        self.headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            assert name.lower() not in self.headers, f"header {name} twice"
            self.headers[name.lower()] = value.strip()

    def get(self, name, default=None):
        return self.headers.get(name.lower(), default)


def raw_exchange(server, data: bytes) -> RawAnswer:
    """Send ``data`` as it is and read one answer: until the server closes the connection, or its headers and
    Content-Length bytes of body are in."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as sock:
        sock.sendall(data)
        received = b""
        try:
            while not complete(received) and (chunk := sock.recv(65536)):
                received += chunk
        except ConnectionResetError:
            pass
    assert received.startswith(b"HTTP/"), f"not an HTTP answer: {received[:300]!r}"
    return RawAnswer(received)


def complete(received: bytes) -> bool:
    head, found, body = received.partition(b"\r\n\r\n")
    if not found:
        return False
    lengths = [line.split(b":", 1)[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
    return bool(lengths) and len(body) >= int(lengths[0])


def request_head(*headers: bytes) -> bytes:
    return b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(h + b"\r\n" for h in headers)


# --- answers the server writes itself, before the app ------------------------------------------------------
def test_a_request_line_too_long_is_answered_414_with_the_headers(server):
    line = b"GET /" + b"a" * (REQUEST_LINE_LIMIT[server.mode] - 5)  # no end of line: the server reads all of it
    answer = raw_exchange(server, line)
    assert answer.status == 414
    assert_secured(answer)


def test_a_header_line_too_long_is_refused_with_the_headers(server):
    big = b"X-Big: " + b"b" * (65537 - 7)  # both servers read a header line of 65,537 bytes whole, then refuse
    answer = raw_exchange(server, request_head(big))
    # eventlet.wsgi answers its own "400 Header Line Too Long" (over 8,191 bytes); the stdlib 431
    assert (answer.status, answer.status_line.split(" ", 2)[2]) in {(400, "Header Line Too Long"),
                                                                     (431, "Line too long")}
    assert_secured(answer)


def test_too_many_headers_are_answered_431_with_the_headers(server):
    many = [b"X-H%d: v" % i for i in range(100)]  # with Host: 101, one over the stdlib's limit; read to the last
    answer = raw_exchange(server, request_head(*many))
    assert answer.status == 431
    assert_secured(answer)


@pytest.mark.parametrize("line", [b"HELLO\r\n", b"GET / HTTP/9\r\n", b"GET / HTTP/1.1 x\r\n"])
def test_a_malformed_request_line_is_answered_400_with_status_and_headers(server, line):
    # the stdlib would answer these as HTTP/0.9: a bare body without any header
    answer = raw_exchange(server, line)
    assert answer.status == 400
    assert_secured(answer)


def test_a_negative_content_length_is_answered_400_with_the_headers(server):
    answer = raw_exchange(server, b"POST /api/replay HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n"
                                  b"Connection: close\r\n\r\n")
    assert answer.status == 400
    assert_secured(answer)


# eventlet.wsgi's own refusal: only that server has one (Werkzeug hands such a request to the app).
@pytest.mark.parametrize("server", ["eventlet"], indirect=True)
def test_eventlet_refuses_content_length_with_transfer_encoding_with_the_headers(server):
    answer = raw_exchange(server, b"POST /api/replay HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n"
                                  b"Transfer-Encoding: chunked\r\n\r\n")
    assert answer.status == 400 and b"not allowed together" in answer.body
    assert_secured(answer)


# --- answers of the app that Flask does not make ----------------------------------------------------------
def test_socketio_polling_answers_carry_the_headers(server):
    http = requests.Session()
    opened = http.get(server.url + POLLING, timeout=TIMEOUT)
    assert opened.status_code == 200 and opened.text.startswith("0{")
    assert_secured(opened.headers)
    sid = opened.text.split('"sid":"', 1)[1].split('"', 1)[0]
    connect = http.post(f"{server.url}{POLLING}&sid={sid}", data="40", timeout=TIMEOUT)
    assert connect.status_code == 200 and connect.text.lower() == "ok"
    assert_secured(connect.headers)
    connected = http.get(f"{server.url}{POLLING}&sid={sid}", timeout=TIMEOUT)
    assert connected.status_code == 200 and connected.text.startswith("40")
    assert_secured(connected.headers)


@pytest.mark.parametrize("length", [b"9" * 5000, b"abc", b"-5", b"\xd9\xa3"])
def test_a_polling_post_whose_content_length_is_not_a_count_is_400(server, length):
    """Werkzeug hands such a header on, and Engine.IO's int() raised on it (past int's digit limit, or not
    digits): two tracebacks logged and a 200; a negative one reached read(-5). eventlet.wsgi refuses them
    itself."""
    opened = requests.get(server.url + POLLING, timeout=TIMEOUT)
    sid = opened.text.split('"sid":"', 1)[1].split('"', 1)[0]
    answer = raw_exchange(server, f"POST {POLLING}&sid={sid} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode()
                          + b"Content-Length: " + length + b"\r\nConnection: close\r\n\r\n40")
    assert answer.status == 400
    assert_secured(answer)
    assert "Traceback" not in server.log()
    assert requests.get(server.url + POLLING, timeout=TIMEOUT).status_code == 200  # and it serves on


@pytest.mark.parametrize("query,headers", [
    ("/socket.io/?EIO=4&transport=polling", {"Origin": "https://evil.example"}),  # a foreign Origin
    ("/socket.io/?EIO=4&transport=carrier-pigeon", {}),
    ("/socket.io/?EIO=4&transport=polling&sid=no-such-session", {}),
])
def test_engineio_refusals_carry_the_headers(server, query, headers):
    response = requests.get(server.url + query, headers=headers, timeout=TIMEOUT)
    assert response.status_code == 400
    assert_secured(response.headers)


def test_a_refused_websocket_upgrade_carries_the_headers(server):
    answer = raw_exchange(server, b"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                  b"Origin: https://evil.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                  b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    assert answer.status == 400
    assert_secured(answer)


def test_a_disallowed_host_is_refused_with_the_headers(server):
    response = requests.get(server.url + "/", headers={"Host": "rebound.example"}, timeout=TIMEOUT)
    assert response.status_code == 400 and response.json()["kind"] == "NotAllowed"
    assert_secured(response.headers)


# --- Flask's own errors, end to end ---------------------------------------------------------------------------
@pytest.mark.parametrize("method,path,status", [("get", "/no-such-page", 404), ("post", "/healthz", 405),
                                                ("delete", "/api/replay", 405)])
def test_flask_errors_carry_the_headers(server, method, path, status):
    response = requests.request(method, server.url + path, timeout=TIMEOUT)
    assert response.status_code == status
    assert_secured(response.headers)


def test_a_body_over_the_upload_limit_is_answered_413_with_the_headers(server):
    response = requests.post(server.url + "/api/replay", data=b"x" * (2 * 1024 * 1024 + 1),
                             headers={"Content-Type": "application/json"}, timeout=TIMEOUT)
    assert response.status_code == 413
    assert_secured(response.headers)


def test_the_embed_stays_framable_and_the_page_is_not(server):
    embed = requests.get(server.url + "/embed?scenario=lost-marker&from=1&to=4", timeout=TIMEOUT)
    assert embed.status_code == 200
    assert "X-Frame-Options" not in embed.headers  # the outer middleware respects the embed's exception
    assert "frame-ancestors" not in embed.headers["Content-Security-Policy"]
    page = requests.get(server.url + "/", timeout=TIMEOUT)
    assert_secured(page.headers, policy=page_policy(page.text, security.PAGE_POLICY))  # its stylesheet inline


# --- the middleware's own 500 ---------------------------------------------------------------------------------
def test_a_middleware_that_raises_is_answered_500_with_the_headers():
    from werkzeug.test import Client

    def broken(environ, start_response):
        raise RuntimeError("a bug below Flask")

    response = Client(security.SecurityHeaders(broken)).get("/")
    assert response.status_code == 500 and response.json["kind"] == "Internal"
    assert_secured(response.headers)


def test_a_websocket_or_connection_error_is_left_to_the_server():
    """The threading websocket driver ends a connection by raising ConnectionError for Werkzeug to drop it."""
    from werkzeug.test import Client

    def dropped(environ, start_response):
        raise ConnectionError()

    with pytest.raises(ConnectionError):
        Client(security.SecurityHeaders(dropped)).get("/")
