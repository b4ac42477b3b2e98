"""A phone's first load over a slow network: time to the first drawn pod, requests and bytes.

Starts `inflight-scope serve` (eventlet, as `make run` does) and Debian's Chromium through Playwright; a presenter
(python-socketio) opens a room and loads the lost marker. Each run is a new browser context (an empty cache: an
audience phone's first visit) at 390x844, mobile, touch, with Chromium's network emulation set through a CDP
session (``Network.emulateNetworkConditions``) before it navigates to the audience link ``/r/CODE`` or the viewer
``/`` or the embed ``/embed``. Reported per page and network, medians of --runs:

* **first pod**: milliseconds from the navigation's start (the page's ``performance`` time origin, which a
  same-origin redirect's start is part of) to the first animation frame in which a pod of a queue
  (``[data-queue] [data-pod]``, what the browser tests look for) has a box on the page;
* **requests**: every request the page made (the redirect and the page itself, files, Socket.IO's websocket and
  any polling request), counted until 1.5 s pass without a new one;
* **bytes**: what went over the wire for them (encoded, headers included; websocket frames not counted);
* **layout shift**: the cumulative layout shift over the whole load (every ``layout-shift`` entry of a
  ``PerformanceObserver`` registered before the page's first byte, summed until the network is quiet): what moved
  on screen while the page went from its HTML to the live view (page.js's first drawing puts the live panes in
  the place of the first frame drawn on the server and marks ``#panes`` with ``data-count``; the sum is read once
  that has happened and the network is quiet).

Networks, as the goal names them: Slow 3G 400 ms latency, 400 kb/s down and up; Fast 3G 150 ms, 1.6 Mb/s down,
750 kb/s up (DevTools' upload); loopback is no emulation.
    python bench/phone_load.py [--runs 5] [--networks slow3g,fast3g,none] [--pages room,viewer,embed]
"""

from __future__ import annotations

import argparse
import time

import socketio
from common import median
from playwright.sync_api import sync_playwright
from server import Server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]
SCENARIO = "lost-marker"
NETWORKS = {  # latency ms, down and up in bytes per second
    "slow3g": (400, 400_000 / 8, 400_000 / 8),
    "fast3g": (150, 1_600_000 / 8, 750_000 / 8),
    "none": None,
}
LIVE = "#panes[data-count]"  # page.js has drawn the live view
QUIET_S = 1.5  # no new request for this long: the load is over
DRAWN_JS = """(() => {
  window.__shift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shift += entry.value;
  }).observe({ type: "layout-shift", buffered: true });
  const frame = () => {
    const pod = document.querySelector('[data-queue] [data-pod]');
    const box = pod && pod.getBoundingClientRect();
    if (box && box.width > 0 && box.height > 0) window.__firstPod = performance.now();
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();"""


def open_room(url: str) -> tuple[socketio.Client, str]:
    """A presenter's connection with a room that shows the lost marker; kept open while the bench runs."""
    presenter = socketio.Client()
    loaded = []
    presenter.on("state", lambda data: loaded.append(data))
    presenter.connect(url, transports=["websocket"])
    room = presenter.call("create_room", {})
    presenter.emit("load", {"scenario": SCENARIO, "room": room["room"], "token": room["token"]})
    deadline = time.monotonic() + 10
    while not loaded:
        if time.monotonic() > deadline:
            raise RuntimeError("the room's scenario did not load")
        time.sleep(0.05)
    return presenter, room["room"]


def load_once(browser, base: str, path: str, network) -> dict:
    context = browser.new_context(base_url=base, viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=3, reduced_motion="reduce")
    page = context.new_page()
    requests: list[str] = []
    sizes: dict[str, float] = {}
    last = [time.monotonic()]

    def seen(url: str) -> None:
        if url.startswith(("http", "ws")):
            requests.append(url)
            last[0] = time.monotonic()

    page.on("request", lambda request: seen(request.url))
    page.on("websocket", lambda ws: seen(ws.url))
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
    if network:
        latency, down, up = network
        cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency,
                                                      "downloadThroughput": down, "uploadThroughput": up})
    page.add_init_script(DRAWN_JS)
    page.goto(path, wait_until="commit", timeout=60_000)
    page.wait_for_function("() => window.__firstPod !== undefined", timeout=60_000, polling=50)
    first_pod = page.evaluate("window.__firstPod")
    page.wait_for_selector(LIVE, state="attached", timeout=60_000)
    while time.monotonic() - last[0] < QUIET_S:
        page.wait_for_timeout(100)
    shift = page.evaluate("window.__shift")
    context.close()
    return {"first pod": first_pod, "requests": len(requests), "bytes": sum(sizes.values()), "shift": shift,
            "urls": requests}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--networks", default="slow3g,fast3g,none")
    ap.add_argument("--pages", default="room,viewer,embed")
    ap.add_argument("--show-urls", action="store_true", help="list the requests of each page's last run")
    args = ap.parse_args()
    server = Server("eventlet", {})
    presenter = None
    rows = []
    try:
        presenter, code = open_room(server.url)
        paths = {"room": f"/r/{code}", "viewer": "/", "embed": "/embed"}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            load_once(browser, server.url, paths["viewer"], None)  # warm up: the server's gzips, Chromium
            for network in args.networks.split(","):
                for name in args.pages.split(","):
                    runs = [load_once(browser, server.url, paths[name], NETWORKS[network]) for _ in range(args.runs)]
                    rows.append((network, name, paths[name], runs))
                    if args.show_urls:
                        print(f"{network} {paths[name]}:", *runs[-1]["urls"], sep="\n  ")
            browser.close()
    finally:
        if presenter:
            presenter.disconnect()
        server.stop()
    print(f"{'network':8} {'page':16} {'first pod ms (median; min-max)':>32} {'requests':>9} {'bytes':>8}"
          f" {'layout shift (median; max)':>27}")
    for network, _, path, runs in rows:
        pods = [r["first pod"] for r in runs]
        shifts = [r["shift"] for r in runs]
        label = path if not path.startswith("/r/") else "/r/CODE"
        print(f"{network:8} {label:16} {median(pods):13.0f} ({min(pods):5.0f}-{max(pods):5.0f}){'':6}"
              f" {median([r['requests'] for r in runs]):9.0f} {median([r['bytes'] for r in runs]):8.0f}"
              f" {median(shifts):17.4f} ({max(shifts):.4f})")


if __name__ == "__main__":
    main()
