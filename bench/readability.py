"""How large the page draws the in-flight lists at every built-in's key positions, per screen size.

Opens each built-in at each of its key positions (messages.key_positions: where the variants first differ, each
failure, the end) in Debian's Chromium, reduced motion, light theme, and reads the lists' font size (the smaller of
the panes, after fit.js) and the entries spilling below their list's area; on the --presenting screens the same again
in presentation mode (the `p` key), as a speaker shows it; on the --present screens on the presenter's page (/present:
the viewer beside its notes; each opens a room). Prints every position under --floor px or with a spill, then the
smallest size per screen. In presentation mode it also reads the smallest text on screen and the outcome badges' size
(bench/textsize.py), and prints every position whose text is under --text-floor px or whose panes scroll (a list
grown past the stage, fit.js). The tags above the entries keep a readable 12 px (16 px presenting two panes at
1200 px wide or more), so on a screen with little room the entries are what shrinks, down to fit.js's floor: 0.4 of
the stylesheet's size (6.3 px at 1024x768), or the least size that keeps an entry's id at the tokens' least text
(static/js/tokens.js `type`: 20 px presenting two panes at 1200 px wide or more).
    python bench/readability.py [--sizes 1280x720,1366x768,1920x1080,1024x768] [--presenting 1024x768]
        [--present 1024x768] [--floor 11] [--text-floor 16] [--versions v1.28.1,v1.28.2,v1.29.9,v1.31.13]
(--versions: the versions shown side by side, one to four; the scenario's own pair when not given.)
"""

from __future__ import annotations

import argparse

from playwright.sync_api import sync_playwright
from server import Server
from textsize import BADGES_JS, SMALLEST_TEXT_JS

from webapp.engine.simulation import Simulation
from webapp.errors import UserError
from webapp.presenter.messages import key_positions
from webapp.scenario import builtin
from webapp.scenario.resolve import resolve

AT_JS = "(p) => document.querySelector('#position').textContent.startsWith(`${p} / `)"  # the position is drawn
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
LISTS_JS = """() => [...document.querySelectorAll('#panes > [data-variant]')].map((pane) => {
  const list = pane.querySelector('.inflight-list');
  const bottom = pane.querySelector('.list-area').getBoundingClientRect().bottom;
  return [parseFloat(getComputedStyle(list).fontSize),
          [...list.children].filter((li) => li.getBoundingClientRect().bottom > bottom + 1).length];
})"""

# how far (px) the panes reach beyond their box (fit.js grows a list's area where the least size leaves its entries
# more rows than it has: the panes then scroll)
OVER_JS = "() => { const p = document.querySelector('#panes'); return p.scrollHeight - p.clientHeight; }"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1280x720,1366x768,1920x1080,1024x768")
    ap.add_argument("--presenting", default="1024x768", help="screens also measured in presentation mode ('' for none)")
    ap.add_argument("--present", default="1024x768", help="screens also measured on the presenter's page ('' for none)")
    ap.add_argument("--floor", type=float, default=11.0)
    ap.add_argument("--text-floor", type=float, default=16.0, help="presentation mode: text under this is printed")
    ap.add_argument("--versions", default="", help="versions side by side (comma list); the scenario's own pair if ''")
    args = ap.parse_args()
    screens = [(size, "") for size in args.sizes.split(",") if size]
    screens += [(size, "presenting") for size in args.presenting.split(",") if size]
    screens += [(size, "present") for size in args.present.split(",") if size]
    positions = [(sid, p) for sid in builtin.ids() if (sim := simulation(sid, args.versions))
                 for p in key_positions(sim.summary())]
    # each /present opens a room: more in a minute than one address may hold by default (a room is forgotten a
    # minute after its presenter leaves)
    server = Server("threading", {"INFLIGHT_SCOPE_MAX_ROOMS_PER_ADDRESS": "0", "INFLIGHT_SCOPE_MAX_ROOMS": "0"})
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            for size, mode in screens:
                width, height = map(int, size.split("x"))
                screen = f"{size} {mode}".strip()
                page = browser.new_page(viewport={"width": width, "height": height}, reduced_motion="reduce")
                smallest, texts, badges, scrolled = [], [], [], []
                for sid, position in positions:
                    path = "/present" if mode == "present" else "/"
                    versions = f"&versions={args.versions}" if args.versions else ""
                    page.goto(f"{server.url}{path}?scenario={sid}&position={position}{versions}")
                    page.locator(f'#app[data-position="{position}"][data-scenario="{sid}"]').wait_for(state="attached")
                    page.wait_for_function(AT_JS, arg=position)
                    if mode == "present":
                        page.locator("#audience-link a").wait_for()  # the room is made, its notes drawn
                    if mode == "presenting":
                        page.keyboard.press("p")
                        page.locator("#app.presenting").wait_for(state="attached")
                    page.wait_for_timeout(400)  # fit.js refits a frame or two after the draw (or the resize)
                    lists = page.evaluate(LISTS_JS)
                    font, spills = min(f for f, _ in lists), sum(s for _, s in lists)
                    smallest.append((font, sid, position))
                    if font < args.floor or spills:
                        print(f"{screen} {sid} {position}: lists at {font:.1f} px, {spills} entries spilling")
                    if mode == "presenting":
                        over = page.evaluate(OVER_JS)
                        if over > 1:
                            scrolled.append((over, sid, position))
                            print(f"{screen} {sid} {position}: the panes scroll, {over:.0f} px beyond the stage")
                        text = page.evaluate(SMALLEST_TEXT_JS)
                        texts.append((text[0], sid, position, text[1], text[2]))
                        badges += [(size, sid, position) for _, size, shown in page.evaluate(BADGES_JS) if shown]
                        if text[0] < args.text_floor:
                            print(f"{screen} {sid} {position}: text at {text[0]:.1f} px ({text[1]}: {text[2]!r})")
                font, sid, position = min(smallest)
                print(f"{screen}: {len(positions)} key positions, smallest lists {font:.1f} px ({sid} {position})")
                if texts:
                    size, sid, position, what, words = min(texts)
                    print(f"{screen}: smallest text {size:.1f} px ({sid} {position}, {what}: {words!r})")
                if mode == "presenting":
                    print(f"{screen}: the panes scroll at {len(scrolled)} of {len(positions)} key positions")
                if badges:
                    print(f"{screen}: {len(badges)} badges, {min(badges)[0]:.1f} to {max(badges)[0]:.1f} px")
                page.close()
            browser.close()
    finally:
        server.stop()


def simulation(sid: str, versions: str) -> Simulation | None:
    """The built-in on the versions asked for (its own pair if none); None when it does not run as written on them
    (a pop whose expected pod is no longer the head)."""
    scenario = resolve(sid)[0]
    try:
        return Simulation(scenario, versions.split(",") if versions else scenario.versions)
    except UserError:
        return None


if __name__ == "__main__":
    main()
