"""The server's secret for room tokens: a room's presenter token is HMAC(secret, code), so any process that
shares the secret verifies a token without state, and after a restart only the real presenter can re-create
its room (``Rooms.claim``).

Where it comes from: the ``SECRET_KEY`` setting (``INFLIGHT_SCOPE_SECRET_KEY``, server/settings.py), else a random one
generated once and kept in the app's instance folder (``room-secret``, mode 0600), so a restart keeps rooms
claimable by their presenters and processes on one host agree. Several hosts: set the variable on each.
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from ..server.settings import settings_of

FILE = "room-secret"


def room_secret(app) -> bytes:
    given = settings_of(app).secret_key
    if given:
        return given.encode() if isinstance(given, str) else given
    return kept_secret(Path(app.instance_path) / FILE)


def kept_secret(path: Path) -> bytes:
    """The secret stored at ``path``, made there first if there is none (the first of several processes wins)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it meanwhile
            pass
        else:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32))
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
