"""What a browser page costs Chromium: a new context against a page kept open, and one step.

Starts `inflight-scope serve` (threading, as the browser tests do) and Debian's Chromium through Playwright, then
opens the lost marker --n times each way and steps it through once, reporting per page Chromium's CPU (every
chromium process, its reaped children included: Linux /proc), the server's CPU and the wall time until the page
shows position 0. The browser tests hand out kept pages (tests/e2e/conftest.py) because of the first two lines.
    python bench/browser_pages.py [--n 10]
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from common import median
from playwright.sync_api import expect, sync_playwright
from server import Server, cpu_seconds

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]
PAGE = "/?scenario=lost-marker"


def chromium_cpu() -> float:
    """CPU seconds of every chromium process so far, with the children they reaped (closed renderers)."""
    total = 0.0
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            chromium = comm.read_text().startswith("chrom")
        except OSError:
            continue
        if chromium:
            total += cpu_seconds(int(comm.parent.name), reaped=True)
    return total


def shown(page, position: int) -> None:
    expect(page.get_by_test_id("position")).to_have_text(re.compile(rf"^{position} / "))


def measure(server, n: int, once) -> dict:
    """Per-call medians of ``once()``: Chromium CPU, server CPU, wall (ms)."""
    rows = {"chromium cpu": [], "server cpu": [], "wall": []}
    for _ in range(n):
        c0, s0, w0 = chromium_cpu(), server.cpu(), time.perf_counter()
        once()
        time.sleep(0.3)  # what the page does after it shows (fonts, idle tasks) is counted too
        rows["chromium cpu"].append((chromium_cpu() - c0) * 1000)
        rows["server cpu"].append((server.cpu() - s0) * 1000)
        rows["wall"].append((time.perf_counter() - w0 - 0.3) * 1000)
    return {k: median(v) for k, v in rows.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=10)
    args = ap.parse_args()
    server = Server("threading", {})
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)

            def new_context():
                context = browser.new_context(base_url=server.url, reduced_motion="reduce")
                page = context.new_page()
                page.goto(PAGE)
                shown(page, 0)
                context.close()

            kept = browser.new_context(base_url=server.url, reduced_motion="reduce").new_page()

            def kept_page():
                kept.goto(server.url + "/healthz")
                kept.goto(PAGE)
                shown(kept, 0)

            positions = iter(range(1, 10_000))

            def step():
                kept.keyboard.press("ArrowRight")
                shown(kept, next(positions))

            new_context()  # warm up both
            kept_page()
            figures = {"new context + page": measure(server, args.n, new_context),
                       "kept page, navigated": measure(server, args.n, kept_page),
                       "one step (reduced motion)": measure(server, 6, step)}
            browser.close()
    finally:
        server.stop()
    print(f"{'per page, medians (ms)':28} {'chromium cpu':>13} {'server cpu':>11} {'wall':>8}")
    for name, row in figures.items():
        print(f"{name:28} {row['chromium cpu']:13.0f} {row['server cpu']:11.0f} {row['wall']:8.0f}")


if __name__ == "__main__":
    main()
