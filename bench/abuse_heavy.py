"""bench/abuse.py's phases for slow readers, repeated heavy work, imports, polls and rooms (issue 33, points 2-6).

Each phase runs its attackers in processes of their own, on loopback, within the limits a client can reach, while
abuse.py's honest viewer steps; a monitor process samples the server's RSS (/proc) through the phase and for
AFTER_SECONDS after it, and says whether the process stayed alive:

  unread   a room holds a generated 8,000-step scenario (its presenter loads it before the phase); --unread-conns
           raw websockets (4 kB receive buffers) join it, then ask for its scenario message again (sync {room,
           scenario: true}, ~650 kB) 25 times a second and never read; dropped past MAX_OUTGOING_BYTES, they
           connect again
  rejoin   --rejoin-conns connections join that room, read what they are sent, leave and join again as fast as the
           rate limit lets them (a connection joining again is sent the state only: it holds the scenario)
  imports  --import-conns clients post a crafted 820 kB log (seconds of CPU: tests/web/heavy_logs.py) to /api/import
           again and again; every other one closes its connection right after sending it
  polls    one address opens a connection, joins a room's open poll as a fresh voter, answers and leaves, again and
           again (MAX_ANSWERS_PER_ADDRESS)
  rooms    --room-conns connections create rooms until refused and keep them; one follower joins each
"""

from __future__ import annotations

import json
import os
import random
import socket
import threading
import time
from urllib.parse import urlsplit

HEAVY_PHASES = ("unread", "rejoin", "imports", "polls", "rooms")
AFTER_SECONDS = 4.0  # how long the monitor goes on sampling after the attackers stop (memory given back)
NICENESS = 19  # the attackers' CPU priority (the lowest)
SYNC_RATE = 25  # syncs a second an unread connection asks for (under the rate limit of 30)


def add_arguments(ap) -> None:
    ap.add_argument("--unread-conns", type=int, default=4)
    ap.add_argument("--rejoin-conns", type=int, default=4)
    ap.add_argument("--import-conns", type=int, default=4)
    ap.add_argument("--room-conns", type=int, default=4)


def _scenario() -> dict:
    from webapp.scenario.generate import generate

    return generate(random.Random(2).choice, 8_000, pods=12)


# --- a raw websocket that reads only when told ---------------------------------------------------------------------
def _connect(url: str, receive_buffer: int | None = None):
    import websocket

    options = ((socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer),) if receive_buffer else ()
    ws = websocket.create_connection(f"ws://{urlsplit(url).netloc}/socket.io/?EIO=4&transport=websocket",
                                     timeout=30, sockopt=options, skip_utf8_validation=True)
    if not ws.recv().startswith("0"):
        raise RuntimeError("no Engine.IO open packet")
    ws.send("40")
    while not ws.recv().startswith("40"):
        pass
    return ws


def _emit(ws, event: str, payload=None) -> None:
    ws.send("42" + json.dumps([event, payload if payload is not None else {}], separators=(",", ":")))


def _until(ws, prefix: str) -> str:
    while True:
        message = ws.recv()
        if message == "2":
            ws.send("3")
        elif message.startswith(prefix):
            return message


# --- the attackers ------------------------------------------------------------------------------------------------
def unread_attack(url: str, seconds: float, out, code: str) -> None:
    said = {"syncs asked": 0, "connections": 0, "shut": 0, "told dropped": 0, "told unread": 0}
    end = time.monotonic() + seconds
    ws = None
    while time.monotonic() < end:
        try:
            ws = _connect(url, receive_buffer=4096)
            said["connections"] += 1
            _emit(ws, "join_room", {"room": code})
            while time.monotonic() < end:
                _emit(ws, "sync", {"room": code, "scenario": True})
                said["syncs asked"] += 1
                time.sleep(1 / SYNC_RATE)
        except Exception:  # noqa: BLE001 - dropped by the server: connect again
            said["shut"] += 1
            time.sleep(0.05)
    try:  # it reads at last: was it told why it was refused, or dropped?
        ws.settimeout(3)
        while True:
            message = ws.recv()
            if '"kind":"TooLarge"' in message and "MAX_OUTGOING_BYTES" in message:
                said["told dropped"] += 1
            elif "have not been read yet" in message:
                said["told unread"] += 1
    except Exception:  # noqa: BLE001 - closed, or nothing more to read
        pass
    out.put({"unread": said})


def rejoin_attack(url: str, seconds: float, out, code: str) -> None:
    joins = refused = 0
    end = time.monotonic() + seconds
    ws = _connect(url)
    try:
        while time.monotonic() < end:
            _emit(ws, "join_room", {"room": code})
            answer = _until(ws, '42["')
            while not answer.startswith(('42["state"', '42["error"')):
                answer = _until(ws, '42["')
            if answer.startswith('42["error"'):
                refused += 1
            else:
                joins += 1
            _emit(ws, "leave_room", {"room": code})
            time.sleep(1 / SYNC_RATE)
    finally:
        ws.close()
    out.put({"rejoin": {"joins answered": joins, "refused": refused}})


def imports_attack(url: str, seconds: float, out, abandon: bool) -> None:
    import requests

    from tests.web.heavy_logs import costly_log

    body = costly_log()
    statuses: dict[str, int] = {}
    end = time.monotonic() + seconds
    parts = urlsplit(url)
    while time.monotonic() < end:
        if abandon:
            with socket.create_connection((parts.hostname, parts.port), timeout=30) as raw:
                raw.sendall(f"POST /api/import?name=x.log HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Length: "
                            f"{len(body)}\r\n\r\n".encode() + body)
            statuses["abandoned"] = statuses.get("abandoned", 0) + 1
            time.sleep(0.2)
            continue
        try:
            status = str(requests.post(url + "/api/import?name=x.log", data=body, timeout=60).status_code)
        except requests.RequestException:
            status = "failed"
        statuses[status] = statuses.get(status, 0) + 1
    out.put({"imports": statuses})  # merged by status


def polls_attack(url: str, seconds: float, out) -> None:
    import socketio

    presenter = socketio.Client()
    presenter.connect(url, transports=["websocket"])
    ack = presenter.call("create_room", {})
    drive = {"room": ack["room"], "token": ack["token"]}
    presenter.call("load", {"scenario": "lost-marker", **drive})
    presenter.call("seek", {"position": 5, **drive})
    presenter.call("poll_open", drive)
    said = {"counted": 0, "refused": 0}
    end, i = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        voter = socketio.Client()
        refusals = []
        voter.on("error", refusals.append)
        voter.connect(url, transports=["websocket"])
        voter.call("join_room", {"room": drive["room"], "voter": f"voter-{i:06}"})
        voter.call("poll_answer", {"room": drive["room"], "voter": f"voter-{i:06}",
                                   "answers": {"v1.28.1": "backoffQ"}})
        said["refused" if refusals else "counted"] += 1
        voter.disconnect()
        i += 1
    presenter.disconnect()
    out.put({"answers from one address": said})


def rooms_attack(url: str, seconds: float, out) -> None:
    import socketio

    maker, follower = socketio.Client(), socketio.Client()
    maker.connect(url, transports=["websocket"])
    follower.connect(url, transports=["websocket"])
    made = refused = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ack = maker.call("create_room", {})
        if "room" in ack:
            made += 1
            follower.call("join_room", {"room": ack["room"]})
        else:
            refused += 1
            time.sleep(0.1)
    maker.disconnect()
    follower.disconnect()
    out.put({"rooms": {"made": made, "refused": refused}})


def monitor(pid: int, seconds: float, out) -> None:
    """The server's RSS (MiB) before, at its peak during the phase and AFTER_SECONDS after; whether it lived."""
    def rss() -> float | None:
        try:
            with open(f"/proc/{pid}/status") as status:
                line = next(x for x in status if x.startswith("VmRSS:"))
            return int(line.split()[1]) / 1024
        except (OSError, StopIteration):
            return None

    before = rss()
    peak, alive = before or 0.0, before is not None
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        now = rss()
        alive = alive and now is not None
        peak = max(peak, now or 0.0)
        time.sleep(0.1)
    time.sleep(AFTER_SECONDS)
    after = rss()
    out.put({"RSS MiB before/peak/after": [round(before or 0), round(peak), round(after or 0)],
             "alive": alive and after is not None})


def _niced(fn, *args) -> None:
    """``fn(*args)`` at the lowest CPU priority: on a shared 2-core machine the attackers, which would be other
    machines in a hall, must not take the CPU from the server and the honest viewer being measured."""
    os.nice(NICENESS)
    fn(*args)


def heavy_phase(name: str, url: str, seconds: float, out, args, ctx) -> list:
    """The processes of phase ``name`` (not started), the RSS monitor among them; the attackers niced."""
    procs = [ctx.Process(target=monitor, args=(args.server_pid, seconds, out))]
    attackers = _attackers(name, url, seconds, out, args)
    return procs + [ctx.Process(target=_niced, args=(fn, *fn_args)) for fn, *fn_args in attackers]


def _attackers(name: str, url: str, seconds: float, out, args) -> list[tuple]:
    """(function, its arguments) of each attacker process of phase ``name``."""
    procs: list[tuple] = []
    if name == "unread":
        code = _room_with_scenario(url)
        procs += [(unread_attack, url, seconds, out, code) for _ in range(args.unread_conns)]
    elif name == "rejoin":
        code = _room_with_scenario(url)
        procs += [(rejoin_attack, url, seconds, out, code) for _ in range(args.rejoin_conns)]
    elif name == "imports":
        procs += [(imports_attack, url, seconds, out, i % 2 == 1)
                  for i in range(args.import_conns)]
    elif name == "polls":
        procs.append((polls_attack, url, seconds, out))
    else:
        procs += [(rooms_attack, url, seconds, out) for _ in range(args.room_conns)]
    return procs


_ROOMS: dict[str, tuple] = {}  # url -> (its presenter, kept connected for the run: the room stays; the code)


def _room_with_scenario(url: str) -> str:
    """A room of its own presenter holding the generated scenario (made once per server, before the phase)."""
    import socketio

    if url in _ROOMS:
        return _ROOMS[url][1]
    presenter = socketio.Client()
    presenter.connect(url, transports=["websocket"])
    ack = presenter.call("create_room", {})
    loaded = threading.Event()
    presenter.on("state", lambda data=None: loaded.set())
    presenter.emit("load", {"scenario": _scenario(), "room": ack["room"], "token": ack["token"]})
    loaded.wait(60)
    _ROOMS[url] = (presenter, ack["room"])
    return ack["room"]

