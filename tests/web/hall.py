"""A hall's phones, lean: each opens a room's page (its follower identity comes with it as a cookie) and the page's
files over one HTTP connection, then a raw websocket that joins the room and answers its open poll. Shared by
tests/web/test_hall.py and bench/abuse_conns.py (the hall phase)."""

from __future__ import annotations

import http.client
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from tests.web.rawsocket import TIMEOUT, RawSocket

FILES = re.compile(r'(?:href|src)="(/static/[^"]+)"')
AT_ONCE = 16  # phones opening at the same moment (a hall's arrive over seconds, a few at a time)


@dataclass
class Phone:
    """What one phone saw: the statuses of its page and files, and whether it joined (its websocket, kept open)."""

    statuses: list[int] = field(default_factory=list)
    cookie: str = ""
    socket: RawSocket | None = None
    joined: bool = False
    problem: str = ""


def open_page(port: int, code: str, source: str, forwarded: str | None) -> Phone:
    """The room's page and its files on one connection from ``source`` (naming ``forwarded`` as a proxy would)."""
    phone = Phone()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT, source_address=(source, 0))
    extra = {"X-Forwarded-For": forwarded} if forwarded else {}
    try:
        conn.request("GET", f"/r/{code}", headers=extra)
        page = conn.getresponse()
        text = page.read().decode(errors="replace")
        phone.statuses.append(page.status)
        phone.cookie = (page.getheader("Set-Cookie") or "").split(";")[0]
        for path in FILES.findall(text):
            conn.request("GET", path, headers={**extra, "Cookie": phone.cookie})
            answer = conn.getresponse()
            answer.read()
            phone.statuses.append(answer.status)
    finally:
        conn.close()
    return phone


def phone_in_hall(url: str, port: int, code: str, index: int, source: str, forwarded: str | None = None,
                  answers: dict | None = None) -> Phone:
    """One phone: the page, then its websocket joins the room (answering ``answers`` to the poll it is sent)."""
    try:
        phone = open_page(port, code, source, forwarded)
        if any(status != 200 for status in phone.statuses):
            phone.problem = f"page and files answered {phone.statuses}"
            return phone
        header = [f"Cookie: {phone.cookie}"] + ([f"X-Forwarded-For: {forwarded}"] if forwarded else [])
        phone.socket = RawSocket(url, header=header, source=source)
        phone.socket.emit("join_room", {"room": code, "voter": f"tab-{index:08d}"})
        wanted = "poll" if answers else "state"
        seen = phone.socket.until(wanted)
        errors = [data for name, data in seen if name == "error"]
        phone.joined = not errors
        phone.problem = str(errors[:1])[:300] if errors else ""
        if answers and phone.joined:
            phone.socket.emit("poll_answer", {"room": code, "voter": f"tab-{index:08d}", "answers": answers})
    except Exception as err:  # noqa: BLE001 - a phone refused or cut off: said, never a hang
        phone.problem = f"{type(err).__name__}: {err}"[:300]
    return phone


def hall(url: str, port: int, code: str, phones: int, source: str, forwarded: str | None = None,
         answers: dict | None = None) -> tuple[list[Phone], float]:
    """``phones`` phones, AT_ONCE at a time: each as ``phone_in_hall``; and the seconds they took, all of them."""
    started = time.monotonic()
    with ThreadPoolExecutor(AT_ONCE) as pool:
        done = list(pool.map(lambda i: phone_in_hall(url, port, code, i, source, forwarded, answers), range(phones)))
    return done, time.monotonic() - started


def hang_up(phones: list[Phone]) -> None:
    for phone in phones:
        if phone.socket is not None:
            phone.socket.close()
