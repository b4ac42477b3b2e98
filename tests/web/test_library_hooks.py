"""The private parts of python-socketio, python-engineio and eventlet that webapp relies on, where no public hook
can do the work, each pinned here by name and signature, so that an upgrade that changes one fails this test
rather than silently turning a screen off; and the one module that touches them, webapp/server/privates.py (its
docstring says why each has no public hook): no other module of webapp names one. pyproject.toml pins the three
libraries to exact versions.

* ``Server._handle_event`` / ``_handle_eio_message`` / ``_binary_packet`` / ``_send_packet``
  (privates.screen_socketio): the one place every event packet passes, screened by the guard before a handler;
* Engine.IO's driver table ``_async["websocket"]`` (privates.screen_engineio, close_websockets_with_connection)
  and ``Socket._websocket_handler`` (bound: its ``__self__.sid`` names the connection) and
  ``Socket.handle_post_request`` (privates.screen_polling);
* eventlet's ``RFC6455WebSocket._apply_mask`` and ``wait`` (privates.install_eventlet_frames): frames unmasked
  without a byte-by-byte loop on the hub.

No eventlet server is started here and nothing is monkey-patched: the eventlet driver table and class are only
read."""

from __future__ import annotations

import inspect
import io
import logging
import tokenize
import warnings
from pathlib import Path
from types import SimpleNamespace

import engineio
import pytest
import socketio
from engineio import socket as engineio_socket
from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI

from webapp.server import frames, privates

WEBAPP = Path(__file__).resolve().parents[2] / "webapp"
PRIVATES = WEBAPP / "server" / "privates.py"
# The library privates, as names a module's code would spell them (docstrings and comments aside);
# Socket._websocket_handler is relied on unnamed (the handler Engine.IO gives its websocket class).
PRIVATE_NAMES = {"_handle_event", "_handle_eio_message", "_binary_packet", "_send_packet", "_async",
                 "handle_post_request", "_websocket_wsgi", "_apply_mask", "RFC6455WebSocket"}


def parameters(fn) -> list[str]:
    return list(inspect.signature(fn).parameters)


def test_python_socketio_server_internals():
    assert parameters(socketio.Server._handle_event) == ["self", "eio_sid", "namespace", "id", "data"]
    assert parameters(socketio.Server._handle_eio_message) == ["self", "eio_sid", "data"]
    assert parameters(socketio.Server._send_packet) == ["self", "eio_sid", "pkt"]
    server = socketio.Server(async_mode="threading")
    assert server._binary_packet == {}
    assert parameters(server.manager.sid_from_eio_sid) == ["eio_sid", "namespace"]


def test_python_engineio_driver_table_and_socket():
    server = engineio.Server(async_mode="threading")
    assert server._async["websocket"] is SimpleWebSocketWSGI  # what close_websockets_with_connection replaces
    assert parameters(engineio_socket.Socket._websocket_handler) == ["self", "ws"]
    assert parameters(engineio_socket.Socket.handle_post_request) == ["self", "environ"]
    assert "connect" in server.handlers or parameters(server.on)[:1] == ["event"]


def test_eventlet_driver_table_and_websocket():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # eventlet's deprecation notice on import
        from engineio.async_drivers import eventlet as eventlet_driver
        from eventlet import websocket
    assert callable(eventlet_driver._async["websocket"])
    cls = websocket.RFC6455WebSocket
    assert cls._apply_mask is not frames.apply_mask, "the test process must not install the eventlet patches"
    assert parameters(cls._apply_mask) == ["data", "mask", "length", "offset"]
    assert privates.unmasks_as_apply_mask(cls._apply_mask), "eventlet's unmasking is no longer what apply_mask does"
    assert parameters(cls.wait) == ["self"]


def test_a_screen_that_cannot_be_installed_says_so(caplog):
    """privates.screen_engineio on an Engine.IO without the driver table it knows leaves it as it is, with a
    warning in the log."""
    server = socketio.Server(async_mode="threading")
    server.eio._async = {}
    with caplog.at_level("WARNING"):
        privates.screen_engineio(server, guard=None)
    assert server.eio._async == {}
    assert "screen_engineio" in caplog.text


def test_an_unknown_threading_websocket_class_is_left_alone_with_a_warning(caplog):
    """The threading server's websocket class is replaced only where it is the one ClosingWebSocket subclasses
    (the behaviour itself: test_live_server's test_a_websocket_ends_its_tcp_connection...)."""
    other = type("OtherWebSocket", (), {})
    server = SimpleNamespace(_async={"websocket": other, "sleep": None})
    with caplog.at_level(logging.WARNING, logger="webapp.server.privates"):
        privates.close_websockets_with_connection(server)
    assert server._async["websocket"] is other
    assert "left as it is" in caplog.text
    known = SimpleNamespace(_async={"websocket": SimpleWebSocketWSGI})
    privates.close_websockets_with_connection(known)
    assert known._async["websocket"] is privates.ClosingWebSocket


def private_names_in(source: str) -> set[str]:
    """The private names a module's code uses: names and attributes, and strings that are exactly one
    (``getattr(x, "_async")``); docstrings and comments may mention them."""
    found = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME and token.string in PRIVATE_NAMES:
            found.add(token.string)
        elif token.type == tokenize.STRING and token.string.strip("\"'") in PRIVATE_NAMES:
            found.add(token.string.strip("\"'"))
    return found


@pytest.mark.parametrize("path", sorted(p for p in WEBAPP.rglob("*.py") if p != PRIVATES),
                         ids=lambda p: str(p.relative_to(WEBAPP)))
def test_no_other_module_touches_a_library_private(path):
    assert not private_names_in(path.read_text()), "only webapp/server/privates.py may touch library privates"


def test_the_scan_sees_what_privates_py_touches():
    assert private_names_in(PRIVATES.read_text()) == PRIVATE_NAMES
    assert private_names_in('x = getattr(eio, "_async")  # _handle_event\n') == {"_async"}
