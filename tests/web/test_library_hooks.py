"""The private parts of python-socketio, python-engineio and eventlet that webapp/web relies on, where no public
hook can do the work, each pinned here by name and signature, so that an upgrade that changes one fails this
test rather than silently turning a screen off. pyproject.toml pins the three libraries to exact versions.

* ``Server._handle_event`` / ``_handle_eio_message`` / ``_binary_packet`` (limits.screen_packets): the one place
  every event packet passes, screened and rate-limited before a handler runs;
* Engine.IO's driver table ``_async["websocket"]`` (packets.screen_engineio, wsclose.install) and
  ``Socket._websocket_handler`` (bound: its ``__self__.sid`` names the connection) and
  ``Socket.handle_post_request`` (packets.screen_polling);
* eventlet's ``RFC6455WebSocket._apply_mask`` and ``wait`` (wsframes.install): frames unmasked without a
  byte-by-byte loop on the hub.

No eventlet server is started here and nothing is monkey-patched: the eventlet driver table and class are only
read."""

from __future__ import annotations

import inspect
import warnings

import engineio
import socketio
from engineio import socket as engineio_socket
from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI

from webapp.web import packets, wsframes


def parameters(fn) -> list[str]:
    return list(inspect.signature(fn).parameters)


def test_python_socketio_server_internals():
    assert parameters(socketio.Server._handle_event) == ["self", "eio_sid", "namespace", "id", "data"]
    assert parameters(socketio.Server._handle_eio_message) == ["self", "eio_sid", "data"]
    server = socketio.Server(async_mode="threading")
    assert server._binary_packet == {}
    assert parameters(server.manager.sid_from_eio_sid) == ["eio_sid", "namespace"]


def test_python_engineio_driver_table_and_socket():
    server = engineio.Server(async_mode="threading")
    assert server._async["websocket"] is SimpleWebSocketWSGI  # what wsclose.install replaces
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
    assert cls._apply_mask is not wsframes.apply_mask, "the test process must not install wsframes' patches"
    assert parameters(cls._apply_mask) == ["data", "mask", "length", "offset"]
    assert wsframes._agrees(cls._apply_mask), "eventlet's unmasking is no longer the one wsframes.apply_mask replaces"
    assert parameters(cls.wait) == ["self"]


def test_a_screen_that_cannot_be_installed_says_so(caplog):
    """packets.screen_engineio on an Engine.IO without the driver table it knows leaves it as it is, with a
    warning in the log (it used to return without a word)."""
    server = socketio.Server(async_mode="threading")
    server.eio._async = {}
    with caplog.at_level("WARNING"):
        packets.screen_engineio(server, malformed=None)
    assert server.eio._async == {}
    assert "screen_engineio" in caplog.text
