"""The server's settings: one frozen ``Settings``, built once when the app is made (``read_settings``) from the
defaults below, every ``INFLIGHT_SCOPE_<NAME>`` variable of the environment, then the ``create_app(config)``
keys (``<NAME>``, upper case), in that order of precedence. Every other module takes its values from it
(``settings_of(app)``); nothing else reads the environment. docs/server.md lists each variable, its default
and what it means (``table``; tests/web/test_settings.py checks the document against this class).

Standard library only: ``serve`` reads the async mode here before eventlet patches the standard library.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from flask import Flask

from .hosts import parse_hosts
from .origins import parse_origins

ENV_PREFIX = "INFLIGHT_SCOPE_"
SOURCES_UNDER_CACHE = Path("inflight-scope", "sources")  # under the user's cache directory (XDG_CACHE_HOME, ~/.cache)
T = TypeVar("T")
Parse = Callable[[Any], object]  # a setting's value as given (text from the environment, any value from a config)


def setting(default: T, meaning: str, parse: Parse | None = None) -> T:
    """A field of Settings: its default, what it means (docs/server.md), and how a value given as text or in the
    config is read (``parse``; numbers: an integer, or a float when written with a dot)."""
    return field(default=default, metadata={"meaning": meaning, "parse": parse})


def number(value: object) -> int | float:
    if isinstance(value, str):
        return float(value) if "." in value else int(value)
    if isinstance(value, int | float):
        return value
    raise ValueError(f"a number was expected, not {value!r}")


def text(value: object) -> str | None:
    return value if value is None else str(value)


@dataclass(frozen=True)
class Settings:
    async_mode: str = setting("eventlet", "Socket.IO's async mode: eventlet, or threading (eventlet is in "
                                          "maintenance mode)", text)
    default_scenario: str = setting("lost-marker", "the built-in scenario the viewer opens on", text)
    message_queue: str | None = setting(None, "e.g. redis://127.0.0.1:6379/0: rooms shared by several processes",
                                        text)
    secret_key: str | None = setting(None, "the secret of rooms' presenter tokens; unset: one made once and kept "
                                           "in SECRET_FILE (web/secret.py)", text)
    secret_file: str | None = setting(None, "where the secret made when SECRET_KEY is unset is kept (mode 0600, "
                                            "reused at the next start); unset: room-secret in the instance folder",
                                      text)
    listen: str | None = setting(None, "host:port the server listens on (serve sets it): the Present dialog shows "
                                       "the addresses of this machine it can be opened at; unset: the page's own",
                                 text)
    allowed_hosts: tuple[str, ...] | str | None = setting(
        None, "Host names answered, comma-separated (.x.org: its subdomains too), or *; unset: localhost and IP "
              "literals only", parse_hosts)
    proxy_count: int = setting(0, "reverse proxies in front whose X-Forwarded-For/Proto/Host are believed "
                                  "(ProxyFix); 0: none")
    allowed_origins: list[str] | str | None = setting(
        None, "browser Origins allowed to open Socket.IO besides the page's own, comma-separated, or *",
        parse_origins)
    max_upload_bytes: int = setting(2 * 1024 * 1024, "the largest HTTP request body (413 beyond)")
    max_message_bytes: int = setting(1024 * 1024, "the largest Socket.IO message: a larger one closes the "
                                                  "connection; also the bytes a connection is read per second")
    max_session_bytes: int = setting(32 * 1024 * 1024, "memory one simulation may hold (source, checkpoints, "
                                                       "live state); 0: no bound")
    max_session_memory: int = setting(512 * 1024 * 1024, "memory all the sessions of a process may hold (each "
                                                        "counted as MAX_SESSION_BYTES counts it); beyond, a load of an "
                                                        "upload is refused; 0: no bound")
    max_session_memory_per_address: int = setting(128 * 1024 * 1024, "of MAX_SESSION_MEMORY, what the sessions of "
                                                                    "one client address may hold; 0: no bound")
    max_trace_entries: int = setting(250_000, "list entries a whole trace (/api/replay, /api/trace) may hold, "
                                              "per variant")
    # Heavy work (loads, dry runs, exports) runs off the event loop one at a time: it is CPU-bound and shares the
    # GIL with the hub, so a second one at once starves the other viewers (bench/abuse.py measures an honest
    # viewer's step while heavy work piles up; docs/benchmarks.md has the figures).
    max_loads_at_once: int = setting(1, "heavy work (a load, a dry run, an export) run at the same time")
    max_loads_waiting: int = setting(16, "heavy work that may wait; beyond, a request is refused Busy at once")
    max_loads_per_address: int = setting(4, "heavy work (and searches, imports) one client address may have running "
                                            "or waiting; beyond, refused Busy (at most all of a lane's places but one)")
    max_searches_at_once: int = setting(1, "searches (POST /api/find) run at the same time, in a lane of their own")
    max_searches_waiting: int = setting(2, "searches that may wait; beyond, one is refused Busy at once")
    find_budget_seconds: float = setting(2.0, "the seconds one search may run (within find.py's bound)")
    rate_limit_per_second: float = setting(30, "Socket.IO messages per second per connection (a token bucket); "
                                               "0: no limit")
    rate_limit_burst: float = setting(60, "messages a connection may send at once before the rate applies")
    max_connections: int = setting(10_000, "open TCP connections one process keeps (each is a file: at most 3/4 "
                                           "of the open-files limit left at start); beyond, 503 and closed")
    max_connections_per_address: int = setting(64, "open TCP connections from one client address (not applied to "
                                                   "a trusted proxy's, PROXY_COUNT > 0); 0: no bound")
    idle_connection_seconds: float = setting(15, "a connection that sends no whole request head for this long "
                                                 "(idle keep-alive, slow headers) is closed; 0: never")
    request_body_seconds: float = setting(30, "a request's body must arrive whole within this many seconds of its "
                                              "head, however it trickles in; beyond, 408 and the connection closed "
                                              "(the slowest are cut first when connections run out); 0: never")
    http_rate_limit_per_second: float = setting(20, "HTTP requests per second per client address (a token bucket; "
                                                    "429 beyond); Socket.IO requests of an open session are not "
                                                    "counted; 0: no limit")
    http_rate_limit_burst: float = setting(100, "HTTP requests one address may send at once before the rate "
                                                "applies")
    max_rooms_per_connection: int = setting(10, "rooms one connection may create (each can hold a simulation)")
    max_rooms_per_address: int = setting(20, "rooms one client address may have open in a process; 0: no bound")
    max_rooms: int = setting(200, "rooms one process may hold at once (made or followed here); 0: no bound")
    room_idle_seconds: float = setting(4 * 3600, "a room nobody drives or joins for this long is forgotten")
    room_empty_grace_seconds: float = setting(60, "a room with nobody in it (paused at once) is forgotten after "
                                                  "this long")
    session_idle_seconds: float = setting(1800, "a connection nobody drives for this long loses its simulation")
    sweep_seconds: float = setting(60, "how often idle sessions and rooms are looked for")
    max_outgoing_bytes: int = setting(8 * 1024 * 1024, "bytes sent to one connection that it may leave unread; "
                                                       "beyond, it is dropped (told why if it reads again)")
    import_cpu_seconds: int = setting(10, "CPU seconds one log import (POST /api/import) may use; beyond, it is "
                                          "refused naming this budget")
    import_cpu_seconds_per_minute: int = setting(30, "CPU seconds the log imports of one process may use in a "
                                                     "minute; beyond, an import is refused Busy")
    max_answers_per_address: int = setting(50, "answers one poll counts from one client address; 0: no bound")
    room_unattended_seconds: float = setting(1800, "a room whose presenter has left and that nobody has driven for "
                                                   "this long is forgotten, followers or not")
    max_followers_per_address: int = setting(1000, "a room's followers (signed by the room page, joined over a "
                                                   "websocket) one client address may hold connected besides "
                                                   "MAX_CONNECTIONS_PER_ADDRESS (at most 3/4 of the process's), and "
                                                   "answers one poll counts from them: a hall behind one address; "
                                                   "0: followers count as any client does")
    hall_requests_per_second: float = setting(100, "per client address: room pages of open rooms, static files and "
                                                   "new Socket.IO sessions, in a bucket of their own (a hall's phones "
                                                   "share one address); 0: in the address's own")
    hall_requests_burst: float = setting(1000, "such requests one address may send at once before that rate applies")
    trusted_proxies: str = setting("127.0.0.1,::1", "with PROXY_COUNT set: the addresses (or networks) of the "
                                                    "proxies, comma-separated; X-Forwarded-For is believed only on "
                                                    "their connections", text)
    sources_cache: str | None = setting(None, "where `inflight-scope sources fetch` keeps the upstream text and the "
                                              "server offers it from; unset: $XDG_CACHE_HOME/inflight-scope/sources "
                                              "(else ~/.cache/inflight-scope/sources)", text)
    sources_url: str | None = setting(None, "a base URL serving {repository}/{tag}/{path} that `sources fetch` reads "
                                            "instead of https://raw.githubusercontent.com (a mirror)", text)
    sources_timeout: float = setting(20, "seconds `sources fetch` gives each file, from connecting to its last byte; "
                                         "a slower answer is cut and nothing is cached")

    @property
    def sources_store(self) -> Path:
        """The directory of the upstream text fetched (read_settings fills sources_cache from XDG_CACHE_HOME)."""
        return Path(self.sources_cache or Path.home() / ".cache" / SOURCES_UNDER_CACHE)

    @property
    def session_bytes(self) -> int | None:
        """The checkpoint bytes one simulation may hold (None: no bound): a connection's, a room's, or the one an
        export builds."""
        return int(self.max_session_bytes) or None

    def as_config(self) -> dict[str, object]:
        """The settings as Flask config keys (upper case)."""
        return {name.upper(): getattr(self, name) for name in names()}


def names() -> list[str]:
    return [f.name for f in fields(Settings)]


def variables() -> list[tuple[str, Any, str]]:
    """(environment variable, default, meaning) of every setting, in order."""
    return [(ENV_PREFIX + f.name.upper(), f.default, f.metadata["meaning"]) for f in fields(Settings)]


def table() -> str:
    """The settings as the Markdown table docs/server.md holds."""
    rows = ["| Variable | Default | Meaning |", "| --- | --- | --- |"]
    for variable, default, meaning in variables():
        shown = "unset" if default is None else f"{default:,}" if isinstance(default, int) else str(default)
        rows.append(f"| `{variable}` | {shown} | {meaning} |")
    return "\n".join(rows)


def read_settings(config: Mapping[str, object] | None = None, environ: Mapping[str, str] = os.environ) -> Settings:
    """The defaults, then ``INFLIGHT_SCOPE_<NAME>`` variables that are set (not empty), then ``config``'s upper-case
    keys that name a setting; every value read by its field's parse."""
    given: dict[str, Any] = {}
    for f in fields(Settings):
        key = f.name.upper()
        if environ.get(ENV_PREFIX + key):
            given[f.name] = environ[ENV_PREFIX + key]
        if config is not None and key in config:
            given[f.name] = config[key]
    if not given.get("sources_cache") and environ.get("XDG_CACHE_HOME"):  # the user's cache, by the XDG standard
        given["sources_cache"] = str(Path(environ["XDG_CACHE_HOME"]) / SOURCES_UNDER_CACHE)
    parsed: dict[str, Any] = {name: _parser(name)(value) for name, value in given.items()}  # by name: each its field's
    return replace(Settings(), **parsed)


def _parser(name: str) -> Parse:
    f = next(f for f in fields(Settings) if f.name == name)
    parse: Parse | None = f.metadata["parse"]
    return parse or number


def settings_of(app: Flask) -> Settings:
    """The app's settings (``create_app`` reads them once)."""
    settings: Settings = app.extensions["inflight_settings"]
    return settings
