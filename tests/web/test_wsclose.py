"""webapp/web/wsclose.py's install: the threading server's websocket class is replaced only where it is the one
the patch was written for (the behaviour itself: test_live_server's test_a_websocket_ends_its_tcp_connection...)."""

import logging
from types import SimpleNamespace

from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI

from webapp.web import wsclose


def test_an_unknown_websocket_class_is_left_alone_with_a_warning(caplog):
    other = type("OtherWebSocket", (), {})
    server = SimpleNamespace(_async={"websocket": other, "sleep": None})
    with caplog.at_level(logging.WARNING, logger="webapp.web.wsclose"):
        wsclose.install(server)
    assert server._async["websocket"] is other
    assert "left as it is" in caplog.text
    known = SimpleNamespace(_async={"websocket": SimpleWebSocketWSGI})
    wsclose.install(known)
    assert known._async["websocket"] is wsclose.ClosingWebSocket
