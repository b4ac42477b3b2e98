"""What abuse within the limits costs an honest viewer on the same server process.

Starts `inflight-scope serve` (eventlet, the default limits). One honest viewer (python-socketio's client)
steps a built-in at a steady pace (--pace steps per second, under the rate limit) for the whole run; its step
round trips are the figures. In turn, each for --seconds, from separate processes:

  quiet       nothing else (the baseline, same server, same run)
  (a) frames  --frame-conns raw websockets sending ~0.9 MiB Socket.IO frames back to back (under
              MAX_MESSAGE_BYTES; an unknown event, answered with a small error)
  (b) flood   --flood-conns raw websockets sending undecodable Engine.IO / Socket.IO frames back to back,
              reconnecting whenever the server closes them
  (c) loads   --load-conns connections each loading a generated --load-steps scenario (~0.3 MB) again and
              again as soon as the last one is answered (scenario or Busy)
  (d) checks  --check-conns HTTP clients posting the costly validation of bench/validation_cost.py (1,000
              similar 253-character pod names, 60 misspelled references; 284 kB) to /api/validate, again and
              again
  (e) small   --check-conns HTTP clients posting a small validation (a built-in, ~3 kB: at most SMALL_BODY_BYTES,
              so in the small lane, never behind heavy work; Busy past that lane's own bound) again and again
  (f) deepbody --body-conns HTTP clients posting b"["*1_000_000 + b"]"*1_000_000 (2 MB, nested a million levels)
              to /api/replay again and again (a 400 each)
  (g) listbody --body-conns HTTP clients posting b"[" + b"1,"*1_000_000 + b"1]" (a list of a million items) to
              /api/replay again and again
  (h) deepframe --deep-conns raw websockets sending '42["echo",' + "["*32000 + "]"*32000 + "]" (64 kB, nested too
              deep: answered with an error) back to back, reconnecting whenever the server closes them
  (i) listframe --deep-conns raw websockets sending a ~1 MB echo of a list of 500,000 items back to back
  (j) reports --report-conns HTTP clients posting a crafted 1.6 MB form to POST /report (many parts of many header
              lines: a good part of a second of Werkzeug's parser; tests/web/heavy_logs.py) again and again
  idleconns, slowheaders, getflood, bigpolls, hall, slowbodies: connections, HTTP and a hall of phones on one address
              (bench/abuse_conns.py, which also runs them on their own: a server under a file limit, either async
              mode, its RSS sampled)
  unread, rejoin, imports, polls, rooms: slow readers and heavy work (bench/abuse_heavy.py)
  abandoned, bigframes, burst: abandoned exports, big frames, a memory burst (bench/abuse_memory.py; its RSS
              sampled until 30 s after the phase)

Reported per phase: the honest viewer's step p50 / p99 / max (ms), what the attackers got done, and the CPU
seconds of the server's event-loop thread (the hub: what every viewer waits for; its tpool threads and worker
processes not counted), a figure the other work on a shared machine hardly moves. The first --settle seconds
of each phase are not counted (the attackers connect). Goal: p99 <= 100 ms, max <= 250 ms.
    python bench/abuse.py [--seconds 8] [--pace 20] [--phases quiet,frames,flood,loads,checks,small,deepbody,listbody,
                            deepframe,listframe] [--url URL]
(--url measures a server already running, e.g. an older commit served from a worktree, --server-pid its
process for the hub's CPU; --verbose lists stalls)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import threading
import time
from urllib.parse import urlsplit

import abuse_conns
import abuse_memory
from abuse_heavy import HEAVY_PHASES, add_arguments, heavy_phase
from abuse_memory import MEMORY_PHASES, memory_phase
from abuse_viewer import Viewer, summed
from common import gathered, median, percentile
from server import Server, cpu_seconds

PHASES = ("quiet", "frames", "flood", "loads", "checks", "small", "deepbody", "listbody", "deepframe", "listframe",
          "reports", *abuse_conns.PHASES, *HEAVY_PHASES, *MEMORY_PHASES)  # abuse_conns.py: connections;
# abuse_heavy.py: unread ... rooms; abuse_memory.py: abandoned work, big frames, a memory burst
BODIES = {"deepbody": b"[" * 1_000_000 + b"]" * 1_000_000, "listbody": b"[" + b"1," * 1_000_000 + b"1]"}
FRAMES = {"deepframe": '42["echo",' + "[" * 32000 + "]" * 32000 + "]",
          "listframe": '42["echo",[' + "1," * 499_999 + "1]]"}
FRAME_BYTES = 900_000  # under the 1 MiB MAX_MESSAGE_BYTES


# --- a raw Engine.IO / Socket.IO connection (websocket-client; masks with int.from_bytes) ----------------------
def ws_connect(url: str):
    import websocket

    parts = urlsplit(url)
    ws = websocket.create_connection(f"ws://{parts.netloc}/socket.io/?EIO=4&transport=websocket", timeout=10,
                                     skip_utf8_validation=True)
    opened = ws.recv()
    if not opened.startswith("0"):
        raise RuntimeError(f"no Engine.IO open packet: {opened[:80]!r}")
    ws.send("40")
    while not ws.recv().startswith("40"):
        pass
    return ws


def frames_attack(url: str, seconds: float, out) -> None:
    """Back-to-back ~0.9 MiB event frames; replies (small errors, pings) are read on the side."""
    frame = '42["nope",' + json.dumps("x" * FRAME_BYTES) + "]"
    sent, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            ws = ws_connect(url)
            reader = threading.Thread(target=_drain, args=(ws,), daemon=True)
            reader.start()
            while time.monotonic() < end:
                ws.send(frame)
                sent += 1
            ws.close()
        except Exception:  # noqa: BLE001 - closed by the server: connect again
            time.sleep(0.05)
    out.put({"frames sent": sent})


def _drain(ws) -> None:
    try:
        while True:
            message = ws.recv()
            if message == "2":
                ws.send("3")
    except Exception:  # noqa: BLE001 - the connection is gone
        return


MALFORMED = ("", "x", "9", "4", "49", "4{", "4[" * 2000, "42[", "42{\"a\":1}", "43", "44", "45-", "46",
             "47", "48", '42["a"' + "," * 50, "4" + "[" * 3000 + "]" * 3000, "41/nope,", "42" + "9" * 200,
             "451-[\"a\",{\"_placeholder\":true,\"num\":0}]")


def flood_attack(url: str, seconds: float, out) -> None:
    """Undecodable frames back to back; reconnects whenever the server closes the connection."""
    sent, connections = frames_again_and_again(url, MALFORMED, seconds)
    out.put({"malformed frames sent": sent, "connections": connections})


def frames_again_and_again(url: str, frames, seconds: float) -> tuple[int, int]:
    """``frames``, in turn, back to back on raw websockets for ``seconds``, connecting again whenever the server
    closes one: (frames sent, connections made)."""
    sent = connections = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            ws = ws_connect(url)
            connections += 1
            threading.Thread(target=_drain, args=(ws,), daemon=True).start()
            while time.monotonic() < end:
                for frame in frames:
                    ws.send(frame)
                    sent += 1
            ws.close()
        except Exception:  # noqa: BLE001 - closed by the server: connect again
            time.sleep(0.01)
    return sent, connections


def loads_attack(url: str, seconds: float, out, steps: int) -> None:
    """Load a generated scenario again and again (as soon as the last load is answered)."""
    from webapp.scenario.generate import generate

    raw = generate(random.Random(2).choice, steps, pods=12)
    frame = "42" + json.dumps(["load", {"scenario": raw}], separators=(",", ":"))
    answers = {"scenario": 0, "error": 0}
    end = time.monotonic() + seconds
    try:
        ws = ws_connect(url)
        while time.monotonic() < end:
            ws.send(frame)
            while True:
                message = ws.recv()
                if message == "2":
                    ws.send("3")
                elif message.startswith('42["scenario"'):
                    answers["scenario"] += 1
                    break
                elif message.startswith('42["error"'):
                    answers["error"] += 1
                    break
        ws.close()
    except Exception as err:  # noqa: BLE001
        answers["failed"] = repr(err)[:80]
    out.put({"loads answered": answers, "message bytes": len(frame)})


def checks_attack(url: str, seconds: float, out, small: bool = False) -> None:
    """POST the costly validation (``small``: a built-in's) again and again."""
    from validation_cost import long_names_expect

    from webapp.scenario import builtin

    body = json.dumps({"text": json.dumps(builtin.get("three-pod-cascade") if small else long_names_expect()),
                       "format": "json"})
    post_again_and_again(url + "/api/validate", body, seconds, out)


def bodies_attack(url: str, seconds: float, out, kind: str) -> None:
    """POST one of BODIES to /api/replay again and again."""
    post_again_and_again(url + "/api/replay", BODIES[kind], seconds, out)


def reports_attack(url: str, seconds: float, out) -> None:
    """POST the crafted form to /report again and again."""
    from tests.web.heavy_logs import heavy_form

    post_again_and_again(url + "/report?name=a.log", heavy_form(), seconds, out, "multipart/form-data; boundary=b")


def post_again_and_again(url: str, body: str | bytes, seconds: float, out,
                         content_type: str = "application/json") -> None:
    """POST ``body`` (JSON, unless ``content_type``) to ``url`` for ``seconds``, one request after another; each
    status counted."""
    import requests

    statuses: dict[int, int] = {}
    end = time.monotonic() + seconds
    with requests.Session() as http:
        while time.monotonic() < end:
            try:
                status = http.post(url, data=body, timeout=30, headers={"Content-Type": content_type}).status_code
            except requests.RequestException:
                status = 0
            statuses[status] = statuses.get(status, 0) + 1
    out.put({"statuses": statuses, "body bytes": len(body)})


def deep_frames_attack(url: str, seconds: float, out, kind: str) -> None:
    """One of FRAMES back to back on a raw websocket; reconnects whenever the server closes the connection."""
    sent, connections = frames_again_and_again(url, (FRAMES[kind],), seconds)
    out.put({"frames sent": sent, "connections": connections})


# --- a phase ----------------------------------------------------------------------------------------------------
def run_phase(name: str, url: str, args, ctx) -> tuple[float, float, list]:
    """Start the phase's attackers; returns (counted from, to, what each attacker reported)."""
    seconds = args.seconds + args.settle
    out = ctx.Queue()
    if name == "quiet":
        procs = []
    elif name in abuse_conns.PHASES:
        procs, _ = abuse_conns.attackers(name, url, seconds, out, ctx, args)
    elif name == "frames":
        procs = [ctx.Process(target=frames_attack, args=(url, seconds, out)) for _ in range(args.frame_conns)]
    elif name == "flood":
        procs = [ctx.Process(target=flood_attack, args=(url, seconds, out)) for _ in range(args.flood_conns)]
    elif name == "loads":  # one process, many connections (threads): 20 processes would measure the machine
        procs = [ctx.Process(target=_many, args=(loads_attack, args.load_conns, url, seconds, out, args.load_steps))]
    elif name in BODIES:
        procs = [ctx.Process(target=bodies_attack, args=(url, seconds, out, name)) for _ in range(args.body_conns)]
    elif name == "reports":
        procs = [ctx.Process(target=reports_attack, args=(url, seconds, out)) for _ in range(args.report_conns)]
    elif name in HEAVY_PHASES:
        procs = heavy_phase(name, url, seconds, out, args, ctx)
    elif name in MEMORY_PHASES:
        procs = memory_phase(name, url, seconds, out, args, ctx)
    elif name in FRAMES:
        procs = [ctx.Process(target=deep_frames_attack, args=(url, seconds, out, name))
                 for _ in range(args.deep_conns)]
    else:
        procs = [ctx.Process(target=_many, args=(checks_attack, args.check_conns, url, seconds, out, name == "small"))]
    for p in procs:
        p.start()
    start = time.perf_counter() + args.settle
    time.sleep(seconds)
    end = time.perf_counter()
    expected = {"quiet": 0, "frames": args.frame_conns, "flood": args.flood_conns, "loads": args.load_conns,
                "checks": args.check_conns, "small": args.check_conns, "deepbody": args.body_conns,
                "listbody": args.body_conns, "deepframe": args.deep_conns, "listframe": args.deep_conns,
                **{phase: 1 for phase in abuse_conns.PHASES}}.get(name, len(procs))
    return start, end, gathered(out, expected, procs, 30 + abuse_memory.AFTER_SECONDS * (name in MEMORY_PHASES))


def _many(fn, count: int, url: str, seconds: float, out, *extra) -> None:
    threads = [threading.Thread(target=fn, args=(url, seconds, out, *extra)) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def hub_cpu(pid: int | None) -> float:
    """CPU seconds so far of the process's main thread, the one the event loop runs on (0 without a pid)."""
    return cpu_seconds(f"{pid}/task/{pid}") if pid else 0.0


class External:
    def __init__(self, url: str, pid: int | None):
        self.url = url.rstrip("/")
        self.pid = pid

    def cpu(self) -> float:
        return cpu_seconds(self.pid) if self.pid else 0.0

    def stop(self) -> None:
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=8.0, help="measured seconds per phase")
    ap.add_argument("--settle", type=float, default=1.0, help="seconds at the start of a phase not counted")
    ap.add_argument("--pace", type=float, default=20.0, help="the honest viewer's steps per second")
    ap.add_argument("--phases", default=",".join(PHASES))
    ap.add_argument("--frame-conns", type=int, default=2)
    ap.add_argument("--flood-conns", type=int, default=2)
    ap.add_argument("--load-conns", type=int, default=20)
    ap.add_argument("--load-steps", type=int, default=8_000)
    ap.add_argument("--check-conns", type=int, default=20)
    ap.add_argument("--body-conns", type=int, default=4, help="clients posting BODIES (deepbody, listbody)")
    ap.add_argument("--deep-conns", type=int, default=4, help="websockets sending FRAMES (deepframe, listframe)")
    ap.add_argument("--report-conns", type=int, default=1, help="clients posting the crafted form (reports)")
    ap.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE")
    abuse_conns.add_arguments(ap)
    ap.add_argument("--verbose", action="store_true", help="list each step over 100 ms")
    ap.add_argument("--url", help="measure a server that is already running instead of starting one")
    ap.add_argument("--server-pid", type=int, help="with --url: the server's process id (for its CPU figures)")
    ap.add_argument("--mode", default="eventlet", help="the server's async mode: eventlet or threading")
    add_arguments(ap)
    abuse_memory.add_arguments(ap)
    args = ap.parse_args()
    phases = [p for p in args.phases.split(",") if p]
    load_before = f"{os.getloadavg()[0]:.1f}"
    ctx = multiprocessing.get_context("spawn")
    if args.url:
        server = External(args.url, args.server_pid)
    else:
        server = Server(args.mode, dict(i.split("=", 1) for i in args.server_env))
        server.pid = args.server_pid = server.proc.pid
    rows = []
    try:
        viewer = Viewer(server.url, args.pace)
        viewer.start()
        for name in phases:
            hub_before = hub_cpu(server.pid)
            start, end, reports = run_phase(name, server.url, args, ctx)
            rows.append((name, viewer.between(start, end), summed(reports), hub_cpu(server.pid) - hub_before))
            if args.verbose:
                stalls = [(round(sent - start, 2), round(ms)) for sent, ms in viewer.samples
                          if start <= sent < end and ms > 100]
                print(f"{name}: steps over 100 ms (s into the phase, ms): {stalls}", flush=True)
        viewer.stopped.set()
        viewer.join(15)
        server_cpu = server.cpu()
    finally:
        server.stop()
    print(f"{args.mode}, one server process, default limits; honest viewer steps {args.pace:g}/s; "
          f"{args.seconds:g} s counted per phase; server CPU {server_cpu:.1f} s; viewer timeouts {viewer.failures}; "
          f"load average {load_before} before, {os.getloadavg()[0]:.1f} after ({os.cpu_count()} CPUs)")
    print("| phase | steps | p50 ms | p99 ms | max ms | hub CPU s | attackers got |")
    print("|---|---|---|---|---|---|---|")
    for name, xs, report, hub in rows:
        figures = f"{median(xs):.1f} | {percentile(xs, 0.99):.1f} | {max(xs):.0f}" if xs else "- | - | -"
        print(f"| {name} | {len(xs)} | {figures} | {hub:.2f} | {json.dumps(report)} |")


if __name__ == "__main__":
    main()
