"""Under the threading server (Werkzeug), a websocket's TCP connection ends when the websocket does.

simple-websocket closes its socket object once the closing handshake is done, but Werkzeug's request handler
still holds the connection (its reader and writer) and, the request over, waits on it for a next request that
never comes: the connection stays open until the client gives up. RFC 6455 (7.1.1) has the server close the TCP
connection first; a client that waits for that, as python-socketio's does (websocket-client), waited 3 s on
every disconnect, about one in two. ``ClosingWebSocket`` shuts the connection down (both directions) once the
websocket has ended, so the client sees the end at once and the handler's thread is freed.

Only the threading mode uses it (``install``): eventlet's own websocket server closes its connections itself.
python-engineio offers no public hook for its websocket class, so ``install`` replaces it in the one server's
driver table, and only where that table holds the class this subclasses (else it warns and changes nothing);
tests/web/test_live_server.py's ``test_a_websocket_ends_its_tcp_connection_when_it_closes`` fails if a new
release stops it working.
"""

from __future__ import annotations

import logging
import socket
import threading

from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI

log = logging.getLogger(__name__)


# How long the end waits for simple-websocket's reader thread: when the client begins the closing handshake, that
# thread wakes the websocket's reader (the handler returns) before it sends the server's close frame back, and a
# shutdown in between cut the reply off (the client saw the connection lost, not closed: once in CI).
REPLY_SECONDS = 1.0


class ClosingWebSocket(SimpleWebSocketWSGI):
    def __call__(self, environ, start_response):
        try:
            return super().__call__(environ, start_response)
        finally:
            reader = getattr(getattr(self, "ws", None), "thread", None)
            if reader is not None and reader is not threading.current_thread():
                reader.join(REPLY_SECONDS)  # its close frame is sent (or the client never answered ours)
            connection = environ.get("werkzeug.socket")
            if connection is not None:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:  # already gone
                    pass


def install(eio_server) -> None:
    """This Engine.IO server (threading mode) serves its websockets through ``ClosingWebSocket``."""
    drivers = getattr(eio_server, "_async", None)
    if not isinstance(drivers, dict) or drivers.get("websocket") is not SimpleWebSocketWSGI:
        log.warning("python-engineio's threading websocket is not the one wsclose.py knows: left as it is")
        return
    eio_server._async = {**drivers, "websocket": ClosingWebSocket}
