"""The server's secret for room tokens: a room's presenter token is HMAC(secret, code), so any process that
shares the secret verifies a token without state, and after a restart only the real presenter can re-create
its room (``Rooms.claim``).

Where it comes from: the ``SECRET_KEY`` setting (``INFLIGHT_SCOPE_SECRET_KEY``, server/settings.py), else a random one
generated once and kept in a file (``SECRET_FILE``; by default ``room-secret`` in the app's instance folder), readable
by its owner only (mode 0600, its folder made 0700), so a restart keeps rooms claimable by their presenters and
processes on one host agree; a server serving a room's phones is never without one. Several hosts: set the
variable on each.
"""

from __future__ import annotations

import logging
import os
import secrets
import stat
import time
from pathlib import Path

from flask import Flask

from ..server.settings import settings_of

FILE = "room-secret"
log = logging.getLogger(__name__)


def room_secret(app: Flask) -> bytes:
    settings = settings_of(app)
    if settings.secret_key:
        given = settings.secret_key
        return given.encode() if isinstance(given, str) else given
    path = Path(settings.secret_file).expanduser() if settings.secret_file else Path(app.instance_path) / FILE
    app.extensions["inflight_secret_file"] = path  # serve says where it is
    return kept_secret(path)


def kept_secret(path: Path) -> bytes:
    """The secret stored at ``path``, made there first if there is none (the first of several processes wins)."""
    if not path.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it meanwhile
            pass
        else:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32))
    _owner_only(path)
    text = path.read_text().strip()
    for _ in range(100):  # the process that made it may still be writing it
        if text:
            break
        time.sleep(0.01)
        text = path.read_text().strip()
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise RuntimeError(f"{path} does not hold a hex secret: remove it (a new one is made) or set "
                           "INFLIGHT_SCOPE_SECRET_KEY") from None


def _owner_only(path: Path) -> None:
    """A kept secret others may read is made the owner's alone (mode 0600), with a warning."""
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        os.chmod(path, mode & 0o600)
        log.warning("%s was readable by others (mode %o): made its owner's only (0600)", path, mode)
