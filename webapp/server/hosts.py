"""Which ``Host`` a request may name, and which proxies are trusted to say where it really came from.

* ``PROXY_COUNT`` (default 0): how many reverse proxies stand in front of the server, each setting
  X-Forwarded-For, X-Forwarded-Proto and X-Forwarded-Host (``deploy/nginx.conf`` does). With N > 0, Werkzeug's
  ``ProxyFix(x_for=N, x_proto=N, x_host=N)`` takes the client address, scheme and host from the N-th value
  from the right; with 0 nothing a client sends in those headers is believed. Either way, the forwarded
  headers are then removed from the environ, so nothing further in (Engine.IO's Origin check, the app) can read
  a value no trusted proxy vouched for: what was trusted is in ``REMOTE_ADDR``, ``wsgi.url_scheme`` and
  ``HTTP_HOST``.
* ``TRUSTED_PROXIES`` (default ``127.0.0.1,::1``: a proxy on this machine): the addresses (or networks) the
  proxies' connections come from. The forwarded headers are believed only on a connection from one of them; a
  client reaching the app's port directly is known by its own address whatever it sends, and is bounded by it
  (``connections.py``: only a trusted proxy's connections are free of the per-address bound).
* ``ALLOWED_HOSTS``: the names the ``Host`` header (after ProxyFix) may carry, port ignored, case-insensitive:

  - None (the default): local names only, ``localhost``, ``*.localhost``, any IP address literal
    (``127.0.0.1``, ``192.168.1.20``, ``[::1]``) and this machine's own names (its host name, that name's first
    label and the label under .local, ``addresses.own_names``): a phone in the room can open
    ``http://<laptop's address>:8000/r/CODE`` or ``http://<laptop>.local:8000/r/CODE``, while a DNS-rebinding page
    (whose Host is always the attacker's DNS name) is refused. A request without a Host header (not a browser)
    passes.
  - a list (comma-separated in ``INFLIGHT_SCOPE_ALLOWED_HOSTS``): exactly these; ``.example.org`` also allows
    every subdomain of example.org. Nothing else, not even localhost, and a Host is then required.
  - ``"*"``: any Host (no protection against DNS rebinding).

  Any other Host is answered 400 ``{message, kind: "NotAllowed"}`` before the request reaches Flask or
  Engine.IO (pages, API, Socket.IO polling and websocket alike); the outer ``security.SecurityHeaders`` adds the
  security headers to that answer. Each refused name is logged once (up to ``LOGGED_HOSTS`` names).

``init_hosts(app)`` installs both around the app's WSGI callable (``create_app`` calls it after Socket.IO's
middleware is in place and before ``security.init_security``).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment
    from flask import Flask

    from .settings import Settings

from .addresses import own_names
from .wsgi import set_wsgi

log = logging.getLogger(__name__)

FORWARDED_KEYS = ("HTTP_FORWARDED", "HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST",
                  "HTTP_X_FORWARDED_PORT", "HTTP_X_FORWARDED_PREFIX")
LOGGED_HOSTS = 100
Hosts = str | tuple[str, ...] | None  # "*" (any), the names allowed, or None (local names and this machine's only)
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


# --- configuration ----------------------------------------------------------------------------------------
def parse_hosts(value: str | Iterable[str | None] | None) -> Hosts:
    """None (local names only), "*" (any), or a tuple of lower-case names (a comma-separated string is split;
    ports and a trailing dot are dropped; ``.example.org`` stands for example.org and its subdomains)."""
    if value is None or value == "*":
        return None if value is None else "*"
    if isinstance(value, str):
        value = value.split(",")
    names = []
    for item in value:
        item = (item or "").strip().lower()
        if not item:
            continue
        if item == "*":
            return "*"
        names.append(item if item.startswith(".") else (host_name(item) or item))
    return tuple(names) or None


def proxy_count(settings: Settings) -> int:
    count = int(settings.proxy_count or 0)
    if count < 0:
        raise ValueError(f"PROXY_COUNT must be 0 or more, got {count}")
    return count


def trusted_proxies(settings: Settings) -> tuple[Network, ...]:
    """The networks (``ipaddress``) TRUSTED_PROXIES names, comma-separated; ValueError naming a bad one."""
    value = settings.trusted_proxies
    items = value.split(",") if isinstance(value, str) else list(value or ())
    networks: list[Network] = []
    for item in (str(i).strip() for i in items):
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"TRUSTED_PROXIES: {item[:60]!r} is not an address or a network (e.g. 10.0.0.0/8)") \
                from None
    return tuple(networks)


def is_trusted(address: str, networks: Iterable[Network]) -> bool:
    """Whether a connection from ``address`` (an IPv4-mapped IPv6 address as its IPv4) is a trusted proxy's."""
    ip = _ip(address.split("%")[0])
    if ip is None:
        return False
    ip = getattr(ip, "ipv4_mapped", None) or ip
    return any(ip.version == net.version and ip in net for net in networks)


def proxies_said(settings: Settings) -> str:
    """What ``serve`` says at start of the forwarded headers it believes."""
    count = proxy_count(settings)
    if not count:
        return "X-Forwarded-For not believed (PROXY_COUNT 0)"
    shown = ", ".join(str(net) for net in trusted_proxies(settings)) or "nowhere"
    return (f"X-Forwarded-For believed ({count} prox{'y' if count == 1 else 'ies'}) only from {shown} "
            "(TRUSTED_PROXIES); any other client is known by its own address")


# --- the Host header --------------------------------------------------------------------------------------
def host_name(host: str) -> str | None:
    """The name in a Host header value, lower-case, without port or trailing dot (an IPv6 literal keeps its
    brackets); None if it is not a host at all."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        if end < 0 or (host[end + 1:] and not _is_port(host[end + 1:])):
            return None
        name = host[:end + 1]
        return name if _ip(name[1:-1]) is not None else None
    name, colon, port = host.rpartition(":")
    if not colon:
        name = port
    elif not _is_port(":" + port):
        return None
    name = name.rstrip(".")
    if not name or not all(c.isalnum() or c in "-._" for c in name) or not name.isascii():
        return None
    return name


def _is_port(text: str) -> bool:
    return text.startswith(":") and 0 < len(text) <= 6 and text[1:].isdigit()


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def is_local(name: str) -> bool:
    """localhost, a subdomain of it, or an IP address literal: names no DNS answer of an attacker can be behind."""
    if name == "localhost" or name.endswith(".localhost"):
        return True
    return _ip(name[1:-1] if name.startswith("[") else name) is not None


def host_allowed(host: str | None, allowed: Hosts, own: frozenset[str] = frozenset()) -> bool:
    """Whether a request with this Host header value (None: no header) may be answered under ``allowed``
    (as ``parse_hosts`` returns it); ``own``: this machine's names, which the default allows too."""
    if allowed == "*":
        return True
    if host is None:
        return allowed is None
    name = host_name(host)
    if name is None:
        return False
    if allowed is None:
        return is_local(name) or name in own
    return any(name == pattern or (pattern.startswith(".") and (name == pattern[1:] or name.endswith(pattern)))
               for pattern in allowed)


# --- the middleware ---------------------------------------------------------------------------------------
class HostGuard:
    """WSGI middleware: drops the forwarded headers (ProxyFix, outside it, has used those it trusts), then
    answers a request whose Host is not allowed with 400 before the wrapped app sees it."""

    def __init__(self, app: WSGIApplication, allowed: Hosts, own: Iterable[str] = frozenset()) -> None:
        self.app = app
        self.allowed = allowed
        self.own = frozenset(own)
        self._logged: set[str | None] = set()
        self._lock = threading.Lock()

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        for key in FORWARDED_KEYS:
            environ.pop(key, None)
        host = environ.get("HTTP_HOST")
        if host_allowed(host, self.allowed, self.own):
            return self.app(environ, start_response)
        self._log_once(host)
        shown = "(none)" if host is None else repr(host[:100])
        body = json.dumps({"message": f"this server does not answer for the host {shown}: it is not in its "
                                      "allowed hosts (ALLOWED_HOSTS)", "kind": "NotAllowed"}).encode()
        start_response("400 Bad Request", [("Content-Type", "application/json"),
                                           ("Content-Length", str(len(body)))])
        return [body]

    def _log_once(self, host: str | None) -> None:
        with self._lock:
            if len(self._logged) >= LOGGED_HOSTS or host in self._logged:
                return
            self._logged.add(host)
        log.warning("refused a request for host %r: not in ALLOWED_HOSTS (logged once per host)",
                    None if host is None else host[:100])


def init_hosts(app: Flask, settings: Settings) -> None:
    from werkzeug.middleware.proxy_fix import ProxyFix  # not at import: settings.py is read before eventlet patches

    set_wsgi(app, HostGuard(app.wsgi_app, settings.allowed_hosts, own_names()))
    count = proxy_count(settings)
    if count:
        set_wsgi(app, FromProxies(app.wsgi_app, ProxyFix(app.wsgi_app, x_for=count, x_proto=count, x_host=count),
                                  trusted_proxies(settings)))


class FromProxies:
    """WSGI middleware: a request on a connection from a trusted proxy goes through ``fixed`` (ProxyFix), any
    other straight to ``app`` (whose HostGuard drops what it forwarded)."""

    def __init__(self, app: WSGIApplication, fixed: WSGIApplication, networks: Iterable[Network]) -> None:
        self.app, self.fixed, self.networks = app, fixed, networks

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if is_trusted(str(environ.get("REMOTE_ADDR") or ""), self.networks):
            return self.fixed(environ, start_response)
        return self.app(environ, start_response)
