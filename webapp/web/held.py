"""What an app holds for its HTTP routes once its sockets are attached (sockets.py ``attach`` puts them there):
typed readers of ``app.extensions``."""

from __future__ import annotations

from typing import cast

from flask import Flask

from ..engine.rooms import Rooms
from .hub import Hub

ROOMS, HUB = "inflight_rooms", "inflight_hub"


def rooms_of(app: Flask) -> Rooms:
    return cast(Rooms, app.extensions[ROOMS])


def hub_of(app: Flask) -> Hub:
    return cast(Hub, app.extensions[HUB])
