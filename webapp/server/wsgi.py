"""The app's WSGI callable replaced by middleware around it (``app.wsgi_app = Middleware(app.wsgi_app)``, Flask's
documented way), in one place."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIApplication
    from flask import Flask


def set_wsgi(app: Flask, wsgi: WSGIApplication) -> None:
    """``wsgi`` (middleware around ``app.wsgi_app``) answers the app's requests from now on."""
    app.wsgi_app = wsgi  # type: ignore[method-assign,assignment]  # Flask: a method, replaced as documented
