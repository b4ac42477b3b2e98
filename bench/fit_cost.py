"""What fitting the lists costs the page at each step, and that a change to fit.js draws the same lists.

Starts `inflight-scope serve` from this tree and, with --baseline DIR, from another checkout too (the code
before a change), and walks every built-in step by step (the right arrow key, reduced motion) in Debian's
Chromium at a laptop's, a projector's (presentation mode) and a phone's size. Per step it reads Chromium's own
counters (CDP Performance.getMetrics: forced and scheduled layouts, style recalculations, main-thread task time)
and what fit.js decided for each list (its font size, inline padding, narrower labels, the area's grown height,
the stage's .tight). It prints the medians per step for each tree, their ratio, and every step where the two
trees' lists differ.
    python bench/fit_cost.py [--baseline DIR] [--scenarios a,b]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from common import median
from playwright.sync_api import expect, sync_playwright
from server import ROOT, Server

sys.path.insert(0, str(ROOT))
from webapp.scenario import builtin  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]
VIEWS = [("laptop", "/", 1280, 720), ("projector", "/present", 1920, 1080), ("phone", "/", 390, 844)]
COUNTERS = ("LayoutCount", "RecalcStyleCount", "TaskDuration")
FITTED_JS = """() => [...document.querySelectorAll('[data-testid=diagram] .inflight-list')].map((l) =>
  [l.style.fontSize, l.style.paddingInline, l.classList.contains('narrow-labels'),
   l.closest('.list-area').style.minHeight, document.querySelector('#app')?.classList.contains('tight')].join(' '))"""


def counters(cdp) -> dict[str, float]:
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {name: metrics[name] for name in COUNTERS}


def walk(browser, url: str, path: str, width: int, height: int, scenario: str):
    """Per step: (counters spent, what was fitted)."""
    context = browser.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce",
                                  base_url=url)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    total = builtin.step_count(scenario)
    position = page.get_by_test_id("position")
    page.goto(f"{path}?scenario={scenario}")
    expect(position).to_have_text(re.compile(rf"^0 / {total}\b"))
    steps = []
    for i in range(1, total + 1):
        before = counters(cdp)
        page.keyboard.press("ArrowRight")
        expect(position).to_have_text(re.compile(rf"^{i} / {total}\b"))
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))")  # its frame's work
        after = counters(cdp)
        steps.append(({k: after[k] - before[k] for k in COUNTERS}, page.evaluate(FITTED_JS)))
    context.close()
    return steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", type=Path, help="another checkout (the code before a change), walked alike")
    ap.add_argument("--scenarios", help="comma-separated built-in ids (all of them by default)")
    args = ap.parse_args()
    scenarios = args.scenarios.split(",") if args.scenarios else list(builtin.ids())
    trees = {"this tree": ROOT} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    servers = {name: Server("threading", {"INFLIGHT_SCOPE_MAX_ROOMS_PER_ADDRESS": "0"}, root=root)
               for name, root in trees.items()}
    differ = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for view, path, width, height in VIEWS:
                spent: dict[str, list[dict[str, float]]] = {name: [] for name in servers}
                for scenario in scenarios:
                    fitted = {}
                    for name, server in servers.items():  # alternated: both trees see the machine alike
                        steps = walk(browser, server.url, path, width, height, scenario)
                        spent[name] += [s for s, _ in steps]
                        fitted[name] = [f for _, f in steps]
                    if len(set(map(str, fitted.values()))) > 1:
                        differ += [(view, scenario, i + 1, [fitted[n][i] for n in servers])
                                   for i in range(len(fitted["this tree"]))
                                   if len({str(fitted[n][i]) for n in servers}) > 1]
                row = {name: {k: median([s[k] for s in steps]) for k in COUNTERS} for name, steps in spent.items()}
                n = len(spent["this tree"])
                print(f"{view} {width}x{height} {path}: {n} steps, medians per step")
                for name, r in row.items():
                    print(f"  {name:10} layouts {r['LayoutCount']:5.0f}  style recalcs {r['RecalcStyleCount']:5.0f}"
                          f"  main-thread tasks {r['TaskDuration'] * 1000:6.1f} ms")
                if "baseline" in row:
                    base, this = row["baseline"], row["this tree"]
                    print(f"  ratio      layouts {base['LayoutCount'] / this['LayoutCount']:.2f}x"
                          f"  tasks {base['TaskDuration'] / this['TaskDuration']:.2f}x (baseline / this tree)")
            browser.close()
    finally:
        for server in servers.values():
            server.stop()
    print(f"steps whose lists differ: {len(differ)}")
    for view, scenario, step, values in differ[:40]:
        print(f"  {view} {scenario} step {step}: " + " | ".join(map(str, values)))


if __name__ == "__main__":
    main()
