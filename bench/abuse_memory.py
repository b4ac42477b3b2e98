"""bench/abuse.py's phases for abandoned work, big frames and memory bursts (issue 39, items 4-6).

Each phase runs its attackers in processes of their own (niced), on loopback, while abuse.py's honest viewer steps; a
monitor process samples the server's RSS and its worker processes' (/proc) through the phase and AFTER_SECONDS after
it, and says whether the server stayed alive:

  abandoned  --abandon-conns clients post an animated export of a generated 2,000-step scenario (56 frames 640 px
             wide: many seconds of CPU) and close their connection 3 s later, again and again; one honest client
             from another address (127.0.0.2) asks for a small GIF of a built-in again and again
  bigframes  --bigframe-conns clients post a one-frame GIF of a 1,000-pod scenario 1,800 px wide (about 1,800 x
             40,600 px: refused before it is drawn), again and again; one honest client asks for the same frame at
             the widest width the memory bound allows (drawn: a worker's RSS near its ceiling)
  burst      --burst-conns websockets from one address each load a generated 8,000-step scenario (281 kB) until
             refused, hold their sessions through the phase, then close
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import time
from urllib.parse import urlsplit

from abuse_heavy import _connect, _niced

MEMORY_PHASES = ("abandoned", "bigframes", "burst")
AFTER_SECONDS = 30.0  # how long the monitor goes on sampling after the attackers stop (memory given back)
EXPORT = "/export/apng?width=640"
HONEST_GIF = "/export/lost-marker.gif?from=0&to=2&width=320"
HONEST_ADDRESS = "127.0.0.2"


def add_arguments(ap) -> None:
    ap.add_argument("--abandon-conns", type=int, default=4)
    ap.add_argument("--bigframe-conns", type=int, default=2)
    ap.add_argument("--burst-conns", type=int, default=48)


def _generated(steps: int, pods: int = 12) -> dict:
    from webapp.scenario.generate import generate

    return generate(random.Random(2).choice, steps, pods=pods)


def _request(url: str, method: str, path: str, body: bytes | None = None, source: str = "127.0.0.1") -> int:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        answer = connection.getresponse()
        answer.read()
        return answer.status
    except (OSError, http.client.HTTPException):
        return 0
    finally:
        connection.close()


def _count(said: dict, key) -> None:
    said[str(key)] = said.get(str(key), 0) + 1


# --- the attackers ------------------------------------------------------------------------------------------------
def abandon_attack(url: str, seconds: float, out) -> None:
    body = json.dumps(_generated(2_000)).encode()
    parts = urlsplit(url)
    sent = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with socket.create_connection((parts.hostname, parts.port), timeout=30) as raw:
            raw.sendall(f"POST {EXPORT} HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/json\r\n"
                        f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            time.sleep(3.0)
        sent += 1
    out.put({"abandoned exports": sent})


def honest_exports(url: str, seconds: float, out, path: str, method: str = "GET", body: bytes | None = None) -> None:
    said: dict[str, int] = {}
    slowest = 0.0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        _count(said, _request(url, method, path, body, HONEST_ADDRESS))
        slowest = max(slowest, time.monotonic() - started)
    out.put({"honest exports": said, "slowest honest export s": round(slowest, 1)})


def _tall() -> tuple[bytes, int]:
    from webapp.scenario.resolve import resolve

    raw = _generated(40, pods=1000)
    return json.dumps(raw).encode(), len(resolve(raw)[0].steps)


def bigframe_attack(url: str, seconds: float, out) -> None:
    body, end_position = _tall()
    said: dict[str, int] = {}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        query = f"from={end_position}&to={end_position}&width=1800&preset=full"  # the full layout's frame
        _count(said, _request(url, "POST", f"/export/gif?{query}", body))
    out.put({"big frames": said})


def widest_frame(url: str, seconds: float, out) -> None:
    from webapp.errors import TooLarge
    from webapp.export.animation import check_pixels

    body, end_position = _tall()
    try:
        check_pixels(1, 1800, 40_600, "gif")
        width = 1800
    except TooLarge as refusal:
        width = int(str(refusal).split("at most ")[1].split(" pixels")[0])
    # the full layout: the frame check_pixels was asked about (a slide's is four times as tall)
    honest_exports(url, seconds, out, f"/export/gif?from={end_position}&to={end_position}&width={width}&preset=full",
                   "POST", body)


def burst_attack(url: str, seconds: float, out, connections: int) -> None:
    frame = "42" + json.dumps(["load", {"scenario": _generated(8_000)}], separators=(",", ":"))
    said = {"admitted": 0, "refused": 0, "refusal": ""}
    held = []
    end = time.monotonic() + seconds
    for _ in range(connections):
        if time.monotonic() > end:
            break
        try:
            ws = _connect(url)
            held.append(ws)
            ws.send(frame)
            while True:
                message = ws.recv()
                if message == "2":
                    ws.send("3")
                elif message.startswith('42["state"'):
                    said["admitted"] += 1
                    break
                elif message.startswith('42["error"'):
                    said["refused"] += 1
                    said["refusal"] = json.loads(message[2:])[1]["message"][:120]
                    break
        except Exception:  # noqa: BLE001 - counted as refused: the server closed it
            said["refused"] += 1
    time.sleep(max(0.0, end - time.monotonic()))
    for ws in held:
        ws.close()
    out.put({"burst": said})


def monitor(pid: int, seconds: float, out) -> None:
    """The server's RSS (MiB) before, at its peak during the phase and AFTER_SECONDS after; its workers' peak RSS;
    whether it lived."""
    before = _rss(pid)
    peak, workers, alive = before or 0.0, 0.0, before is not None
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        now = _rss(pid)
        alive = alive and now is not None
        peak = max(peak, now or 0.0)
        workers = max([workers, *(_rss(child) or 0.0 for child in _children(pid))])
        time.sleep(0.1)
    time.sleep(AFTER_SECONDS)
    after = _rss(pid)
    out.put({"RSS MiB before/peak/30 s after": [round(before or 0), round(peak), round(after or 0)],
             "worker peak MiB": round(workers), "alive": alive and after is not None})


def _rss(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            line = next(x for x in status if x.startswith("VmRSS:"))
        return int(line.split()[1]) / 1024
    except (OSError, StopIteration):
        return None


def _children(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task") if os.path.isdir(f"/proc/{pid}/task") else []:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as children:
                found += [int(c) for c in children.read().split()]
        except OSError:
            continue
    return found


def memory_phase(name: str, url: str, seconds: float, out, args, ctx) -> list:
    """The processes of phase ``name`` (not started): the monitor, then the attackers and the honest client,
    niced."""
    procs = [ctx.Process(target=monitor, args=(args.server_pid, seconds, out))]
    if name == "abandoned":
        jobs = [(abandon_attack, url, seconds, out) for _ in range(args.abandon_conns)]
        jobs.append((honest_exports, url, seconds, out, HONEST_GIF))
    elif name == "bigframes":
        jobs = [(bigframe_attack, url, seconds, out) for _ in range(args.bigframe_conns)]
        jobs.append((widest_frame, url, seconds, out))
    else:
        jobs = [(burst_attack, url, seconds, out, args.burst_conns)]
    return procs + [ctx.Process(target=_niced, args=job) for job in jobs]
