"""The visualizer in a real browser: keyboard and buttons, the lost-marker story read from the DOM,
permalinks, help, timeline, autoplay, steps travelling as deltas (and a lost one made good by a sync);
screenshots of the key steps for review."""

import re

from playwright.sync_api import expect

from tests.e2e.conftest import CHROMIUM, MISSING, heard, socketio_event
from tests.e2e.shown import POSITION, shown

TOTAL = 6
V1, V2 = '[data-variant="v1.28.1"]', '[data-variant="v1.28.2"]'
B_MARKER = f'{V1} [data-marker="B"]'

# What a pane shows, read only through data-* hooks (the animation's leaving clones have none) plus text.
SNAPSHOT_JS = """() => [...document.querySelectorAll('#panes > [data-variant]')].map((pane) => ({
  variant: pane.dataset.variant,
  entries: [...pane.querySelectorAll('[data-entry]')].map((e) => `${e.dataset.entry}:${e.dataset.id}`),
  ghosts: [...pane.querySelectorAll('[data-removed-id]')].map((e) => e.dataset.removedId),
  markers: [...pane.querySelectorAll('[data-marker]')].map((m) => {
    const host = m.closest('[data-id], [data-removed-id]');  // an entry, a removed element, or the front slot
    return `${m.dataset.marker}:${m.dataset.detached}`
      + `@${host ? host.dataset.id ?? 'removed:' + host.dataset.removedId : 'front'}`;
  }),
  lanes: Object.fromEntries([...pane.querySelectorAll('[data-queue]')].map((q) =>
    [q.dataset.queue, [...q.querySelectorAll('[data-pod]')].map((c) => c.dataset.pod)])),
  narration: pane.querySelector('[data-testid=narration]').innerText,
  // the list's arrows left out: one at a row's break is hidden (fit.js), and where the rows break is the page's width
  text: pane.innerText.replace(/\\s*\u2192\\s*/g, '\\n').replace(/\\n+/g, '\\n'),
}))"""
SETTLED_JS = "() => !document.querySelector('#panes .leaving') && document.getAnimations().length === 0"


# --- helpers ----------------------------------------------------------------------------------------------
def at(page, position, total=TOTAL):
    """Wait until the page shows ``position`` of ``total`` (the position text is written after the panes are
    drawn; ``total``: the lost marker's unless given)."""
    shown(page, POSITION, re.compile(rf"^{position} / {total}(\D|$)"))


def settle(page):
    page.wait_for_function(SETTLED_JS)


def open_lost_marker(page, query=""):
    page.goto(f"/?scenario=lost-marker{query}")
    shown(page, POSITION, re.compile(rf"^\d+ / {TOTAL}(\D|$)"))  # the panes are drawn
    expect(page.locator("#panes > [data-variant]")).to_have_count(2)
    expect(page.locator("#scenario-name")).to_have_text("The lost marker")


def built_in_json(page, scenario_id: str) -> dict:
    """A built-in's scenario object, as the page's own server hands it out (the page must be open)."""
    return page.evaluate(f"fetch('/api/scenarios/{scenario_id}').then((r) => r.json())")


def inline_value(page, scenario: dict) -> str:
    """The ?inline= value of ``scenario``, encoded by the page's own links.js (the page must be open)."""
    return page.evaluate("async (s) => (await import('/static/js/links.js')).encodeScenario(s)", scenario)


def snapshot(page):
    settle(page)
    return page.evaluate(SNAPSHOT_JS)


def assert_b_placed_differently(page):
    expect(page.locator(f'{V1} [data-queue="unschedulablePods"] [data-pod="B"]')).to_have_count(1)
    expect(page.locator(f'{V2} [data-queue="backoffQ"] [data-pod="B"]')).to_have_count(1)
    expect(page.locator(f'{V1} [data-queue] [data-pod="B"]')).to_have_count(1)
    expect(page.locator(f'{V2} [data-queue] [data-pod="B"]')).to_have_count(1)


def assert_marker(page, detached):
    expect(page.locator(B_MARKER)).to_have_count(1)
    expect(page.locator(f'{B_MARKER}[data-detached="{"true" if detached else "false"}"]')).to_have_count(1)


# --- the browser itself -----------------------------------------------------------------------------------
def test_chromium_is_installed():
    assert CHROMIUM.exists(), MISSING


# --- the lost-marker story ------------------------------------------------------------------------------
def test_arrow_keys_through_the_lost_marker_and_back(moving_page):
    page = moving_page
    open_lost_marker(page)
    at(page, 0)
    expect(page.locator("#intro")).to_have_attribute("open", "")
    for position in range(1, 5):
        page.keyboard.press("ArrowRight")
        at(page, position)
    # before Done(A): B's marker e1 is still in receivedEvents
    assert_marker(page, detached=False)
    expect(page.locator(f'{V1} [data-entry="event"][data-id="e1"] [data-marker="B"]')).to_have_count(1)
    expect(page.locator("#intro")).not_to_have_attribute("open", "")  # folds away once the story starts

    page.keyboard.press("ArrowRight")
    at(page, 5)
    assert_marker(page, detached=True)
    expect(page.locator(f'{V1} [data-removed-id="e1"] [data-marker="B"]')).to_have_count(1)
    # e1 stays drawn only as the ghost Done(A) left (the picture shows what the step removed)
    expect(page.locator(f'{V1} [data-entry][data-id="e1"]:not([data-ghost="true"])')).to_have_count(0)
    expect(page.locator(f"{V1} .entry.unseen[data-id=\"e2\"]")).to_have_count(1)
    five = snapshot(page)

    page.keyboard.press("ArrowRight")
    at(page, 6)
    shown(page, POSITION, "variants differ here")
    assert_b_placed_differently(page)
    # B is no longer in flight; its marker is drawn where its walk started: the removed e1
    expect(page.locator(f'{V1} [data-removed-id="e1"] [data-marker="B"][data-detached="true"]')).to_have_count(1)
    for pane in (V1, V2):
        narration = page.locator(f"{pane} [data-testid=narration]")
        expect(narration).to_contain_text("AddUnschedulableIfNotPresent")
        expect(narration).to_contain_text("determineSchedulingHintForInFlightPod")
    expect(page.locator(f"{V1} [data-hint-pod=B] .decision")).to_have_text("QueueSkip")
    expect(page.locator(f"{V2} [data-hint-pod=B] .decision")).to_have_text("QueueAfterBackoff")
    six = snapshot(page)
    assert six != five

    page.keyboard.press("ArrowLeft")
    at(page, 5)
    assert snapshot(page) == five
    assert_marker(page, detached=True)


def test_timeline_help_and_step_buttons(page):
    """One page at 0: the timeline has one tick per step; the help dialog opens with ? (and its button) and closes
    with Escape (and its button), moving nothing; the buttons step as the keys do (the steps with the full motion:
    the arrow-key story above)."""
    open_lost_marker(page)
    at(page, 0)
    ticks = page.locator("#ticks .tick[data-kind]")
    expect(ticks).to_have_count(TOTAL)
    assert ticks.evaluate_all("els => els.map(e => e.dataset.kind)") == ["pop", "event", "pop", "event", "done", "fail"]
    assert ticks.evaluate_all("els => els.map(e => e.dataset.step)") == [str(i) for i in range(1, TOTAL + 1)]
    expect(page.locator("#ticks .tick.divergence")).to_have_attribute("data-step", "6")
    expect(page.locator("#ticks .tick.current")).to_have_count(0)

    dialog = page.get_by_role("dialog", name="Keyboard")
    expect(dialog).to_be_hidden()
    page.keyboard.press("?")
    expect(dialog).to_be_visible()
    expect(page.locator("#help-close")).to_be_focused()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.get_by_role("button", name="Keyboard help").click()
    expect(dialog).to_be_visible()
    page.locator("#help-close").click()
    expect(dialog).to_be_hidden()
    at(page, 0)  # none of this moved the cursor

    step = page.get_by_role("button", name="Step forward")
    for position in range(1, 5):
        step.click()
        at(page, position)
        if position == 1:
            expect(page.locator('#ticks .tick.current[data-step="1"]')).to_have_count(1)
    assert_marker(page, detached=False)
    step.click()
    at(page, 5)
    assert_marker(page, detached=True)
    step.click()
    at(page, 6)
    assert_b_placed_differently(page)
    page.get_by_role("button", name="Step back").click()
    at(page, 5)
    assert_marker(page, detached=True)


def test_snapshot_at_five_does_not_depend_on_the_way_there(page):
    open_lost_marker(page, "&position=5")
    at(page, 5)
    direct = snapshot(page)
    page.keyboard.press("Home")
    at(page, 0)
    for position in range(1, 6):
        page.keyboard.press("ArrowRight")
        at(page, position)
    assert snapshot(page) == direct


def test_permalink_opens_at_position_4_and_home_end_and_divergence_keys(page):
    open_lost_marker(page, "&position=4")
    at(page, 4)
    assert_marker(page, detached=False)
    expect(page.locator("#scrubber")).to_have_value("4")
    expect(page.locator("#step-note")).to_contain_text("4. event PvAdd")
    expect(page.locator('.tick.current[data-step="4"]')).to_have_count(1)
    page.keyboard.press("End")
    at(page, TOTAL)
    assert_b_placed_differently(page)
    page.keyboard.press("Home")
    at(page, 0)
    expect(page.locator(f'{V1} [data-queue="activeQ"] [data-pod]')).to_have_count(2)
    expect(page.locator("#step-note")).to_have_text("Press → to apply the first step.")
    page.keyboard.press("d")
    at(page, 6)
    shown(page, POSITION, "variants differ here")


# --- what travels: deltas, whole states, and a sync after a lost delta -------------------------------------
def relay(page, drop):
    """Routes the page's WebSocket through the test: records every Socket.IO event name each way, and drops a
    message from the server while ``drop(name)`` says so."""
    seen = {"sent": [], "received": []}

    def event_name(message):
        event = socketio_event(message)
        return event[0] if event else None

    def route(ws):
        server = ws.connect_to_server()

        def upward(message):
            seen["sent"].append(event_name(message))
            server.send(message)

        def downward(message):
            name = event_name(message)
            seen["received"].append(name)
            if not drop(name):
                ws.send(message)

        ws.on_message(upward)
        server.on_message(downward)

    page.route_web_socket("**/socket.io/**", route)
    return seen


def test_steps_travel_as_deltas_and_a_lost_one_is_made_good(own_page):
    page = own_page
    lose = []  # a delta arriving while this holds an item is dropped (one item, one delta)
    seen = relay(page, lambda name: name == "delta" and bool(lose) and bool(lose.pop()))
    open_lost_marker(page, "&position=3")
    at(page, 3)
    three = snapshot(page)
    page.keyboard.press("ArrowRight")
    at(page, 4)
    assert seen["received"][-1] == "delta" and "state" in seen["received"]  # a whole state at load, then a delta
    page.keyboard.press("Home")
    at(page, 0)
    assert seen["received"][-1] == "state"  # a seek travels whole

    for position in range(1, 3):
        page.keyboard.press("ArrowRight")
        at(page, position)
    deltas, sent = seen["received"].count("delta"), len(seen["sent"])
    lose.append(True)  # the next step's delta is lost on the way
    page.keyboard.press("ArrowRight")
    heard(page, lambda: seen["received"].count("delta") > deltas, "the lost delta never reached the relay")
    assert seen["received"].count("delta") == deltas + 1
    shown(page, POSITION, re.compile(r"^2 / "))
    page.keyboard.press("ArrowRight")  # this delta does not follow what the page holds: it asks for the whole state
    at(page, 4)
    # nothing asked for the whole state before the next delta showed the gap (the two steps' order is the barrier)
    assert [name for name in seen["sent"][sent:] if name] == ["step", "step", "sync"]
    assert seen["received"][-1] == "state"
    page.keyboard.press("ArrowLeft")  # and deltas apply again from there
    at(page, 3)
    assert seen["received"][-1] == "delta"
    assert snapshot(page) == three


def test_space_and_play_play_end_and_the_picker_loads_another_scenario(page):
    """One page at 0: Space plays and pauses; the Play button plays to the end (at 8x); End with reduced motion
    (the page's preference) draws the same story; the picker loads another scenario."""
    open_lost_marker(page)
    at(page, 0)
    play = page.locator("#btn-play")
    page.keyboard.press(" ")  # 1 step per second
    expect(play).to_have_text("⏸ Pause")
    shown(page, POSITION, re.compile(r"^[1-5] / "))
    page.keyboard.press(" ")
    expect(play).to_have_text("▶ Play")
    stopped = page.get_by_test_id("position").inner_text()
    assert not stopped.startswith(f"{TOTAL} /"), "paused too late to tell"

    page.keyboard.press("Home")
    at(page, 0)
    page.evaluate("""() => {
      window.__positions = [];
      new MutationObserver(() => window.__positions.push(document.getElementById('position').textContent))
        .observe(document.getElementById('position'), { childList: true, characterData: true, subtree: true });
    }""")
    page.locator("#speed").select_option("8")
    expect(play).to_have_text("▶ Play")
    play.click()
    at(page, TOTAL)
    expect(play).to_have_text("▶ Play")
    expect(play).to_have_attribute("aria-label", "Play")
    assert_b_placed_differently(page)
    seen = [int(text.split(" / ")[0]) for text in page.evaluate("window.__positions")]
    assert seen == sorted(seen) and set(range(1, TOTAL + 1)) <= set(seen), seen

    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    page.keyboard.press("Home")
    at(page, 0)
    page.keyboard.press("End")
    at(page, TOTAL)
    assert_b_placed_differently(page)

    page.locator("#scenario-picker").select_option("gate-off")
    expect(page.locator("#scenario-name")).not_to_have_text("The lost marker")
    shown(page, POSITION, re.compile(r"^0 / \d+"))


# --- themes (the screenshots for review are tests/e2e/test_screens.py's) ----------------------------------
def test_the_system_theme_colours_the_page(page):
    open_lost_marker(page, "&position=6")
    at(page, 6)
    for color_scheme, expected in (("light", "rgb(246, 247, 249)"), ("dark", "rgb(15, 19, 24)")):
        page.emulate_media(color_scheme=color_scheme)
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == expected, color_scheme


MODULES_JS = """() => ({
  fetched: performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)
    .filter((p) => p.endsWith('.js')),
  preloaded: [...document.querySelectorAll('link[rel=modulepreload]')].map((l) => new URL(l.href).pathname),
  entries: [...document.querySelectorAll('script[type=module]')].map((s) => new URL(s.src).pathname),
})"""


def test_every_module_a_page_runs_is_preloaded_with_the_page(page):
    """The whole module graph is named in the <head>, so the browser asks for it at once instead of one import
    level per round trip; and nothing is preloaded that the page does not run."""
    for path in ("/?scenario=lost-marker", "/present?scenario=lost-marker", "/embed?scenario=lost-marker",
                 "/editor"):
        page.goto(path)
        page.wait_for_load_state("load")
        got = page.evaluate(MODULES_JS)
        assert got["entries"] and not set(got["entries"]) & set(got["preloaded"]), (path, got)
        assert len(got["preloaded"]) == len(set(got["preloaded"])), (path, got)
        assert set(got["fetched"]) - set(got["entries"]) == set(got["preloaded"]), (path, got)


STATIC_ENTRIES_JS = """() => performance.getEntriesByType('resource')
  .filter((e) => new URL(e.name).pathname.startsWith('/static/'))
  .map((e) => ({ path: new URL(e.name).pathname, transferred: e.transferSize }))"""


def test_a_second_visit_takes_every_file_from_the_browsers_cache(page):
    """The page's files have versioned addresses the browser keeps (webapp/web/assets.py): opened again, the page
    asks the server for none of them, not even to revalidate (a 304 would transfer its headers)."""
    page.context.new_cdp_session(page).send("Network.clearBrowserCache")  # a kept page has been here before
    open_lost_marker(page)
    first = page.evaluate(STATIC_ENTRIES_JS)
    assert len(first) >= 2 and all(e["path"].startswith("/static/v/") for e in first), first  # bundled: a few
    assert all(e["transferred"] > 0 for e in first)  # the first visit fetched them
    page.goto("/healthz")
    open_lost_marker(page)
    again = page.evaluate(STATIC_ENTRIES_JS)
    assert {e["path"] for e in again} == {e["path"] for e in first}
    assert [e for e in again if e["transferred"] != 0] == []
