"""Where an audience opens a room: the URLs the Present dialog shows (``GET /api/audience``) and the QR code of
the first (``GET /r/CODE/qr.svg``, for a room that exists only; ``QrCodes``), made here by segno, nothing
fetched.

The URLs, best first: the page's own address when it is not loopback (the presenter reached the server there,
through a proxy perhaps, so the room can too), then every address of this machine the server listens on
(``LISTEN``, which ``serve`` sets; ``server/addresses.py``). With none, the page's own loopback address and why
no phone can open it, with how to serve for a room: the dialog says it plainly.
"""

from __future__ import annotations

import io
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TypedDict

from ..errors import Busy
from ..server.addresses import NO_NETWORK, SERVE_FOR_A_ROOM, WILDCARDS, reachable, split_listen
from ..server.hosts import host_name

QR_COLOURS = {"dark": "#000", "light": "#fff"}  # black on white in either theme: what every scanner reads best


def is_loopback(name: str) -> bool:
    """Whether a host name (as ``hosts.host_name`` gives it) reaches this computer only."""
    if name == "localhost" or name.endswith(".localhost"):
        return True
    bare = name.removeprefix("[").removesuffix("]")
    return bare.startswith("127.") or bare in ("::1", "0:0:0:0:0:0:0:1")


class Audience(TypedDict):
    urls: list[str]  # the bases an audience may open, best first
    reachable: bool  # whether any can be opened from another machine
    why: str | None  # if not, why not


def audience(scheme: str, host: str | None, listen: str | None) -> Audience:
    """``{urls, reachable, why}``: the bases (``scheme://host[:port]``) an audience may open, best first, whether
    any can be opened from another machine, and if not why not (with ``SERVE_FOR_A_ROOM``)."""
    name = host_name(host or "") or "localhost"
    own = f"{scheme}://{host or 'localhost'}"
    urls: list[str] = [] if is_loopback(name) else [own]
    served = split_listen(listen) if listen else None
    if served:
        urls += [url for url in reachable(*served).urls if url not in urls]
    if urls:
        return {"urls": urls, "reachable": True, "why": None}
    if served is None:
        why = (f"This page is open at {name}, an address only this computer can reach: no phone in the room can "
               "open it.")
    elif served[0] in WILDCARDS:
        why = NO_NETWORK
    else:
        why = (f"The server listens on {served[0]} only, which only this computer can reach: no phone in the room "
               "can open it.")
    return {"urls": [own], "reachable": False, "why": f"{why} {SERVE_FOR_A_ROOM}"}


QR_KEPT = 256  # QR codes kept made (a talk needs one per room; a process holds at most MAX_ROOMS rooms)
QR_EVERY_SECONDS = 10.0  # a room's QR code is made at most once in this long, whatever address it names


class QrCodes:
    """The QR codes of rooms' audience links, made only for rooms that exist (the caller asks first) and kept: a
    link's code is made once (off the event loop: about 20 ms of CPU) and served as made. A room's link names the
    page's own address, which a client chooses (any IP literal is an allowed Host): a room's code for another
    address is made at most once every ``QR_EVERY_SECONDS``; asked sooner, ``Busy`` (never CPU on demand)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._kept: OrderedDict[str, str] = OrderedDict()  # link -> its SVG
        self._made: dict[str, float] = {}  # room code -> when its code was last made
        self._lock = threading.Lock()

    def svg(self, code: str, link: str, run: Callable[[Callable[[str], str], str], str]) -> str:
        """The QR code of ``link`` (room ``code``'s), made by ``run(qr_svg, link)`` if it is not kept."""
        with self._lock:
            if link in self._kept:
                self._kept.move_to_end(link)
                return self._kept[link]
            now = self.clock()
            wait = self._made.get(code, -QR_EVERY_SECONDS) + QR_EVERY_SECONDS - now
            if wait > 0:
                raise Busy(f"the QR code of room {code} was made moments ago for another address; try again in "
                           f"{math.ceil(wait)} s")
            self._made[code] = now
        svg = run(qr_svg, link)
        with self._lock:
            self._kept[link] = svg
            while len(self._kept) > QR_KEPT:
                self._kept.popitem(last=False)
            if len(self._made) > QR_KEPT:
                self._made = {c: t for c, t in self._made.items() if now - t < QR_EVERY_SECONDS}
        return svg


def qr_svg(text: str) -> str:
    """The QR code of ``text`` as an SVG that scales to its box (a viewBox, no size), with its quiet zone."""
    import segno  # on the first QR code: a handler under eventlet blocks the hub once, for milliseconds

    code = segno.make(text, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", border=4, omitsize=True, xmldecl=False, svgclass=None, lineclass=None,
              title=text, **QR_COLOURS)
    return out.getvalue().decode()
