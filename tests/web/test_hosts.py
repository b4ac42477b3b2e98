"""Which Host a request may name (DNS rebinding) and which proxies are believed about where it came from:
``webapp/server/hosts.py``. The rules, in process; then the real server (eventlet, a subprocess) with the defaults
and one configured from the environment as behind nginx (``PROXY_COUNT=1``, ``ALLOWED_HOSTS``)."""

import re
from pathlib import Path

import pytest
import requests
from flask import request

import webapp
from tests.web.liveserver import LiveServer
from webapp import create_app
from webapp.server import hosts, security
from webapp.server.settings import read_settings

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "test-artifacts" / "server-logs"
TIMEOUT = 30.0  # a bound against a hang: every wait ends as soon as what it waits for comes
POLLING = "/socket.io/?EIO=4&transport=polling"


# --- the rules -------------------------------------------------------------------------------------------
def test_the_documented_defaults():
    assert webapp.DEFAULTS["ALLOWED_HOSTS"] is None and webapp.DEFAULTS["PROXY_COUNT"] == 0


@pytest.mark.parametrize("host,name", [
    ("127.0.0.1:8000", "127.0.0.1"), ("LocalHost", "localhost"), ("[::1]:8000", "[::1]"), ("[::1]", "[::1]"),
    ("scope.example.org.", "scope.example.org"), ("scope.example.org:443", "scope.example.org"),
    ("evil.example@127.0.0.1", None), ("a b", None), ("host:port", None), ("[::1", None), ("[nope]:80", None),
    ("::1", None), ("", None), ("ex\u00e4mple.org", None), ("x:123456789", None),
])
def test_host_name(host, name):
    assert hosts.host_name(host) == name


@pytest.mark.parametrize("host,allowed", [
    ("localhost:8000", True), ("app.localhost", True), ("127.0.0.1:8000", True), ("192.168.1.20:8000", True),
    ("[::1]:8000", True), ("[fe80::1]", True), (None, True),
    ("rebound.example:8000", False), ("127.0.0.1.nip.io", False), ("localhost.evil.example", False),
    ("127.1", False), ("", False),
])
def test_by_default_only_local_names_and_address_literals_are_answered(host, allowed):
    assert hosts.host_allowed(host, None) is allowed


def test_a_configured_list_allows_exactly_its_names_and_dot_domains():
    allowed = hosts.parse_hosts(" Scope.Example.org:443 , .example.net ")
    assert allowed == ("scope.example.org", ".example.net")
    for host in ("scope.example.org", "SCOPE.example.org:8443", "example.net", "a.b.example.net"):
        assert hosts.host_allowed(host, allowed), host
    for host in ("other.example.org", "badexample.net", "localhost", "127.0.0.1", None):
        assert not hosts.host_allowed(host, allowed), host


def test_a_star_allows_any_host():
    assert hosts.parse_hosts("a.example, *") == "*"
    assert all(hosts.host_allowed(h, "*") for h in ("rebound.example", "a b", None))


def test_the_environment_sets_hosts_and_proxies():
    config = read_settings(None, {"INFLIGHT_SCOPE_ALLOWED_HOSTS": "scope.example.org,.example.net",
                                  "INFLIGHT_SCOPE_PROXY_COUNT": "2"})
    assert config.allowed_hosts == ("scope.example.org", ".example.net") and config.proxy_count == 2
    unset = read_settings(None, {})
    assert unset.allowed_hosts is None and unset.proxy_count == 0


def test_a_negative_proxy_count_is_a_configuration_error():
    with pytest.raises(ValueError, match="PROXY_COUNT"):
        create_app({"ASYNC_MODE": "threading", "TESTING": True, "PROXY_COUNT": -1})


# --- what the app sees of a request, in process ------------------------------------------------------------
def app_with_probe(**config):
    """The real app with one more route that reports what Flask sees of the request."""
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True, **config})
    app.add_url_rule("/_probe", "probe", lambda: {
        "remote": request.remote_addr, "scheme": request.scheme, "host": request.host,
        "forwarded": sorted(k for k in request.environ if k.startswith(("HTTP_X_FORWARDED", "HTTP_FORWARDED")))})
    return app


FORGED = {"X-Forwarded-For": "6.6.6.6", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example",
          "Forwarded": "for=6.6.6.6"}


def probe(app, headers, host="localhost"):
    try:
        response = app.test_client().get("/_probe", headers=headers, base_url=f"http://{host}",
                                         environ_base={"REMOTE_ADDR": "127.0.0.1"})
    finally:
        app.extensions["inflight_guard"].sweeper.stop()
    return response


def test_without_a_trusted_proxy_forwarded_headers_are_ignored_and_dropped():
    response = probe(app_with_probe(), FORGED)
    assert response.status_code == 200
    assert response.json == {"remote": "127.0.0.1", "scheme": "http", "host": "localhost", "forwarded": []}


def test_behind_one_trusted_proxy_its_values_are_used_and_a_clients_own_are_not():
    app = app_with_probe(PROXY_COUNT=1, ALLOWED_HOSTS="scope.example.org")
    # nginx appends the client's address to what the client sent; only the last value is the proxy's word
    response = probe(app, {"X-Forwarded-For": "6.6.6.6, 203.0.113.7", "X-Forwarded-Proto": "https",
                           "X-Forwarded-Host": "scope.example.org"}, host="127.0.0.1:8001")
    assert response.status_code == 200
    assert response.json == {"remote": "203.0.113.7", "scheme": "https", "host": "scope.example.org",
                             "forwarded": []}


def test_the_host_is_checked_after_the_proxy_has_named_it():
    app = app_with_probe(PROXY_COUNT=1, ALLOWED_HOSTS="scope.example.org")
    refused = probe(app, {"X-Forwarded-Host": "evil.example"}, host="scope.example.org")
    assert refused.status_code == 400 and refused.json["kind"] == "NotAllowed"
    assert "'evil.example'" in refused.json["message"]
    assert refused.headers["Content-Security-Policy"] == security.PAGE_POLICY


# --- the real server: defaults ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server():
    with LiveServer("eventlet", LOGS) as live:
        yield live
    assert "Traceback" not in live.log(), live.log()


@pytest.fixture(scope="module")
def proxied():
    """As behind nginx (deploy/nginx.conf): one proxy trusted, its public name and the address health checks
    use (127.0.0.1, as LiveServer's), from the environment."""
    env = {"INFLIGHT_SCOPE_PROXY_COUNT": "1", "INFLIGHT_SCOPE_ALLOWED_HOSTS": "scope.example.org,127.0.0.1"}
    with LiveServer("eventlet", LOGS, env=env) as live:
        yield live


def get(server, path, headers=None):
    return requests.get(server.url + path, headers=headers or {}, timeout=TIMEOUT)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::1]"])
def test_local_names_are_answered(server, host):
    assert get(server, "/", {"Host": f"{host}:{server.port}"}).status_code == 200


@pytest.mark.parametrize("path", ["/", "/api/scenarios", POLLING])
def test_a_rebound_dns_name_is_refused_for_pages_api_and_socketio(server, path):
    # DNS rebinding: the attacker's name now points at 127.0.0.1, so the browser sends Host and Origin alike
    name = f"rebound.example:{server.port}"
    response = get(server, path, {"Host": name, "Origin": f"http://{name}"})
    assert response.status_code == 400
    assert response.json() == {"kind": "NotAllowed", "message": "this server does not answer for the host "
                               f"'{name}': it is not in its allowed hosts (ALLOWED_HOSTS)"}
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Content-Security-Policy"] == security.PAGE_POLICY


def test_a_rebound_websocket_is_refused(server):
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT)
    name = f"rebound.example:{server.port}"
    conn.putrequest("GET", "/socket.io/?EIO=4&transport=websocket", skip_host=True)
    for header, value in {"Host": name, "Origin": f"http://{name}", "Upgrade": "websocket",
                          "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                          "Sec-WebSocket-Version": "13"}.items():
        conn.putheader(header, value)
    conn.endheaders()
    response = conn.getresponse()
    assert response.status == 400 and b"NotAllowed" in response.read()
    conn.close()


def test_a_forged_forwarded_host_does_not_make_an_origin_the_pages_own(server):
    forged = {"Origin": "https://evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"}
    assert get(server, POLLING, forged).status_code == 400
    own = get(server, POLLING, {"Origin": server.url})
    assert own.status_code == 200 and own.text.startswith("0{")


# --- the real server behind a proxy ----------------------------------------------------------------------
def as_nginx(origin_scheme="https", host="scope.example.org", **extra):
    """The headers deploy/nginx.conf sets, for a browser on ``origin_scheme://host``."""
    return {"Host": host, "X-Forwarded-Host": host, "X-Forwarded-Proto": origin_scheme,
            "X-Forwarded-For": "203.0.113.7", "Origin": f"{origin_scheme}://{host}", **extra}


def test_behind_the_proxy_the_public_name_is_answered_and_its_origin_is_the_pages_own(proxied):
    assert get(proxied, "/", as_nginx()).status_code == 200
    opened = get(proxied, POLLING, as_nginx())
    assert opened.status_code == 200 and opened.text.startswith("0{")
    # the scheme the proxy vouches for counts: an http:// page is another origin than https://
    assert get(proxied, POLLING, {**as_nginx(), "Origin": "http://scope.example.org"}).status_code == 400


def test_behind_the_proxy_other_names_are_refused(proxied):
    assert get(proxied, "/", as_nginx(host="rebound.example")).status_code == 400
    assert get(proxied, "/", {"Host": f"localhost:{proxied.port}"}).status_code == 400  # not in the list
    # a client that reaches the app around the proxy cannot name the host either: the proxy's value is the last
    assert get(proxied, "/", {"X-Forwarded-Host": "scope.example.org, rebound.example"}).status_code == 400


def test_nginx_sets_every_forwarded_header_the_app_relies_on():
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    locations = re.findall(r"location [^{]+\{(.*?)\n    \}", conf, flags=re.S)
    assert len(locations) == 2
    for block in locations:
        set_headers = dict(re.findall(r"proxy_set_header\s+(\S+)\s+(\S+);", block))
        assert set_headers["Host"] == set_headers["X-Forwarded-Host"] == "$http_host"
        assert set_headers["X-Forwarded-Proto"] == "$scheme"
        assert set_headers["X-Forwarded-For"] == "$proxy_add_x_forwarded_for"
