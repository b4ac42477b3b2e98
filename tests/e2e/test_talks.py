"""Talk features in a real browser: permalinks, presenter and audience, embed, presentation mode, predict."""

import re
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import expect

from tests.e2e.shown import POSITION, shown
from tests.e2e.test_browser import (
    B_MARKER,
    SETTLED_JS,
    V1,
    assert_b_placed_differently,
    at,
    built_in_json,
    inline_value,
    open_lost_marker,
    settle,
)
from tests.e2e.test_stage import READABLE_JS, settled_reading
from webapp.presenter.messages import INTRO_UNTOLD


def position_of(page):
    return int(page.locator(POSITION).inner_text().split("/")[0])


def copied_link(page):
    page.click("#btn-copy-link")
    expect(page.locator("#link-status")).not_to_be_empty()  # the link is built asynchronously
    return page.locator("#link-output").input_value()


# --- permalinks -----------------------------------------------------------------------------------------
def test_copy_link_restores_the_exact_position_and_versions(make_page):
    page = make_page()
    page.goto("/?scenario=lost-marker&versions=v1.28.1&theme=dark")
    expect(page.locator("#panes > [data-variant]")).to_have_count(1)
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    at(page, 5)
    link = copied_link(page)
    query = parse_qs(urlsplit(link).query)
    assert query == {"scenario": ["lost-marker"], "position": ["5"], "versions": ["v1.28.1"], "theme": ["dark"]}

    other = make_page()
    other.goto(link)
    at(other, 5)
    expect(other.locator("#panes > [data-variant]")).to_have_count(1)
    expect(other.locator(f'{V1} [data-marker="B"][data-detached="true"]')).to_have_count(1)
    assert other.evaluate("document.documentElement.dataset.theme") == "dark"


def test_inline_scenario_link_round_trips(make_page):
    page = make_page()
    page.goto("/?scenario=lost-marker")
    at(page, 0)
    scenario = built_in_json(page, "gate-off")
    scenario["name"] = "An inline scenario"
    other = make_page()
    other.goto(f"/?inline={inline_value(page, scenario)}&position=3")
    expect(other.locator("#scenario-name")).to_have_text("An inline scenario")
    shown(other, POSITION, re.compile(r"^3 / "))
    again = parse_qs(urlsplit(copied_link(other)).query)
    assert again["position"] == ["3"]
    decoded = other.evaluate("async (s) => (await import('/static/js/links.js')).decodeScenario(s)", again["inline"][0])
    assert decoded == scenario


# --- presenter and audience -----------------------------------------------------------------------------
def start_presenter(make_page):
    presenter = make_page(width=1600, height=900)
    presenter.goto("/present?scenario=lost-marker")
    expect(presenter.locator("#audience-link a")).to_be_visible()
    expect(presenter.locator("#panes > [data-variant]")).to_have_count(2)
    fragment = parse_qs(urlsplit(presenter.url).fragment)
    return presenter, fragment["room"][0], fragment["token"][0]


def test_the_presenters_banner_keeps_the_room_code_inside_on_a_phone(make_page):
    """A speaker opening the room from a phone: the audience link and the code wrap within the banner (at 360 px
    the code stuck 40 px out of it, past the screen's edge)."""
    presenter = make_page(width=1280, height=844)
    presenter.goto("/present?scenario=lost-marker")
    expect(presenter.locator("#audience-link a")).to_be_visible()
    for width in (1280, 390, 360):
        presenter.set_viewport_size({"width": width, "height": 844})
        # the page refits to a new size on its resize observations: once nothing sticks out (a fault: 30 s pass)
        presenter.wait_for_function("(width) => document.documentElement.scrollWidth <= width", arg=width)
        banner = presenter.locator("#audience-link").bounding_box()
        for part in ("a", ".code"):
            box = presenter.locator(f"#audience-link {part}").bounding_box()
            assert banner["x"] <= box["x"] and box["x"] + box["width"] <= banner["x"] + banner["width"], (width, part)


def test_audience_follows_and_a_late_joiner_lands_on_the_current_step(make_page):
    """One room through what were tests of their own: a follower's page shows no introduction naming the outcome
    (the presenter's does: it says where B ends up); the audience follows a clicker and a late joiner lands on the
    current step; an audience member cannot drive the room (no controls, its keys refused, a hand-made message
    without the token refused by the server); the room shows the versions the presenter picks, a follower's picker
    locked; a follower detaches (and then opens the built-in like any viewer, its introduction and all), explores
    on the room's versions and snaps back to the room's step."""
    presenter, room, token = start_presenter(make_page)
    audience = make_page()
    audience.goto(f"/r/{room}")
    expect(audience.locator("#room-code")).to_have_text(room)
    shown(audience, POSITION, re.compile(r"^0 / 6"))
    expect(presenter.locator("#scenario-description")).to_contain_text("B is parked in unschedulablePods")
    expect(audience.locator("#scenario-description")).to_have_text(INTRO_UNTOLD)
    for expected in range(1, 5):
        presenter.keyboard.press("PageDown")  # a clicker
        shown(audience, POSITION, re.compile(rf"^{expected} / 6"))
    expect(presenter.locator("#presenter-notes")).to_contain_text("Next")
    expect(presenter.locator("#presenter-notes")).to_contain_text("Done(A)")

    late = make_page()
    late.goto(f"/?room={room}")
    shown(late, POSITION, re.compile(r"^4 / 6"))
    presenter.keyboard.press("ArrowRight")
    at(late, 5)
    expect(late.locator(B_MARKER + '[data-detached="true"]')).to_have_count(1)

    # an audience member cannot drive the room
    at(audience, 5)
    for control in ("#btn-play", "#btn-step", "#btn-end", "#btn-reset", "#scrubber"):
        expect(audience.locator(control)).to_be_hidden()  # no controls that would only produce an error
    audience.keyboard.press("ArrowRight")
    expect(audience.locator("#error")).to_contain_text("Detach")
    # Even a hand-made message without the token is refused by the server.
    audience.evaluate("""(room) => new Promise((resolve) => {
        import('/static/vendor/socket.io/socket.io.esm.min.js').then(({ io }) => {
          const s = io({ transports: ['websocket'] });
          s.on('error', (m) => { resolve(m); s.close(); });
          s.on('connect', () => s.emit('seek', { room, position: 6 }));
        });
    })""", room)
    presenter.keyboard.press("PageUp")
    at(presenter, 4)
    at(audience, 4)

    # the room shows the versions the presenter picks, at the same step; a follower's picker is locked
    presenter.click("#versions-summary")
    presenter.locator('#versions-options input[value="v1.30.14"]').check()
    expect(audience.locator("#panes > [data-variant]")).to_have_count(3)
    expect(audience.locator('#panes > [data-variant="v1.30.14"] h2')).to_have_text("v1.30.14")
    at(audience, 4)
    expect(audience.locator('#versions-options input[value="v1.30.14"]')).to_be_checked()
    expect(audience.locator('#versions-options input[value="v1.28.4"]')).to_be_disabled()
    audience.click("#btn-detach")
    at(audience, 4)
    expect(audience.locator("#scenario-description")).to_contain_text("B is parked in unschedulablePods")
    expect(audience.locator("#panes > [data-variant]")).to_have_count(3)  # exploring on the room's versions
    audience.locator("#btn-step").click()
    at(audience, 5)
    audience.keyboard.press("ArrowRight")
    at(audience, 6)
    assert_b_placed_differently(audience)
    at(presenter, 4)  # the room did not move
    presenter.keyboard.press("ArrowRight")
    at(audience, 6)  # still exploring
    audience.click("#btn-detach")  # snap back
    at(audience, 5)


# --- embed --------------------------------------------------------------------------------------------
def test_embed_locked_to_a_range_refuses_to_go_past_it(make_page):
    page = make_page(width=900, height=600)
    page.goto("/embed?scenario=lost-marker&from=2&to=4")
    at(page, 2)
    expect(page.locator(".topbar")).to_be_hidden()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Home")
    at(page, 2)
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    at(page, 4)
    page.keyboard.press("End")
    at(page, 4)
    assert position_of(page) == 4


def test_embed_in_an_iframe_speaks_post_message_to_its_host_alone(make_page, live_server, tmp_path, artifacts_dir):
    """The host is another origin with an inline script, as a blog or a slide deck opened from disk would be: our
    own pages' CSP forbids inline scripts, and /embed must be frameable from anywhere (file:// included; an
    about:blank host is refused by Chromium's local-network-access check, not by us). A frame beside the embed, of
    another origin (a sandboxed ad, say), posts it a step: ignored. Only the embedding page drives it: the
    positions it reports are the host's seeks and steps and nothing else."""
    sibling = ("<script>addEventListener('message', () => { parent.frames[0].postMessage("
               "{type: 'inflight-scope', action: 'step'}, '*'); parent.postMessage('sent', '*'); });</script>")
    host = tmp_path / "host.html"
    host.write_text(f"""<!doctype html><body style="margin:0">
      <iframe id="f" src="{live_server.url}/embed?scenario=lost-marker&from=0&to=6"
        style="width:1000px;height:620px;border:0"></iframe>
      <iframe id="ad" sandbox="allow-scripts" srcdoc="{sibling}"></iframe>
      <script>window.positions = []; addEventListener('message', (e) => {{
        if (e.data === 'sent') window.sent = true;
        else if (e.data && e.data.type === 'inflight-scope') window.positions.push(e.data.position); }});</script>
      </body>""")
    page = make_page(width=1100, height=700)
    page.goto(host.as_uri())
    page.wait_for_function("window.positions && window.positions.includes(0)")
    page.evaluate("document.getElementById('ad').contentWindow.postMessage('go', '*')")
    page.wait_for_function("window.sent === true")  # the sibling posted its step before it said so
    page.evaluate("document.getElementById('f').contentWindow.postMessage("
                  "{type: 'inflight-scope', action: 'seek', position: 4}, '*')")
    page.wait_for_function("window.positions.includes(4)")
    assert page.evaluate("window.positions") == [0, 4]
    frame = page.frame_locator("#f")
    page.evaluate("document.getElementById('f').contentWindow.postMessage("
                  "{type: 'inflight-scope', action: 'seek', position: 5}, '*')")
    page.wait_for_function("window.positions.includes(5)")
    expect(frame.locator(f'{V1} [data-marker="B"][data-detached="true"]')).to_have_count(1)
    page.evaluate("document.getElementById('f').contentWindow.postMessage("
                  "{type: 'inflight-scope', action: 'step'}, '*')")
    page.wait_for_function("window.positions.includes(6)")
    frame.locator("#app").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowLeft")  # keys work inside the iframe once it has focus
    page.wait_for_function("window.positions[window.positions.length - 1] === 5")
    embedded = next(f for f in page.frames if "/embed" in f.url)
    embedded.wait_for_function(SETTLED_JS)  # a function, not an expression: the embed's CSP forbids eval
    page.evaluate("document.getElementById('ad').remove()")  # the screenshot shows the embed in its host
    page.screenshot(path=str(artifacts_dir / "screenshots" / "embed-in-iframe-1100x700.png"))
    assert not page.problems, page.problems


# --- presentation mode ----------------------------------------------------------------------------------
def test_presentation_mode_hides_the_chrome_and_keeps_16_by_9(make_page, artifacts_dir):
    page = make_page(width=1280, height=720, color_scheme="dark")
    open_lost_marker(page, "&position=5")
    at(page, 5)
    page.keyboard.press("p")
    expect(page.locator("#app.presenting")).to_have_count(1)
    expect(page.locator(".topbar")).to_be_hidden()
    expect(page.locator("#intro")).to_be_hidden()
    box = page.locator("#app").bounding_box()
    assert abs(box["width"] / box["height"] - 16 / 9) < 0.02
    controls = page.locator(".controls").bounding_box()
    assert controls["y"] + controls["height"] <= 720 + 0.5  # nothing falls off the projected area
    page.keyboard.press("b")
    expect(page.locator("#blank")).to_be_visible()
    page.keyboard.press("b")
    expect(page.locator("#blank")).to_be_hidden()
    settle(page)
    page.screenshot(path=str(artifacts_dir / "screenshots" / "presentation-mode-1280x720-dark.png"))
    page.keyboard.press("p")
    expect(page.locator(".topbar")).to_be_visible()


# --- onboarding ---------------------------------------------------------------------------------------
def test_predict_asks_before_the_failure_and_reveals_after_and_the_table_view_lists_the_queues(page):
    """Predict asks at 5 and reveals at 6; back at 5, the table view lists the queues and the list."""
    open_lost_marker(page, "&position=5")
    at(page, 5)
    page.check("#predict")
    page.keyboard.press("ArrowRight")
    dialog = page.locator("#predict-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("backoffQ").first.check()  # v1.28.1
    dialog.locator('input[name="guess-v1.28.2"][value="backoffQ"]').check()
    dialog.get_by_role("button", name="Step and reveal").click()
    at(page, 6)
    expect(page.locator("#prediction")).to_contain_text("v1.28.1: you said backoffQ, it went to unschedulablePods ✗")
    expect(page.locator("#prediction")).to_contain_text("v1.28.2: you said backoffQ, it went to backoffQ ✓")
    # the table view at 5 (stepped back to it)
    page.keyboard.press("ArrowLeft")
    at(page, 5)
    page.keyboard.press("v")
    tables = page.locator("#tables")
    expect(tables).to_be_visible()
    expect(tables.locator('[data-table-variant="v1.28.1"]')).to_contain_text(
        "previousEvent e1 (detached; cannot see e2)")
    expect(tables.locator('[data-table-variant="v1.28.2"] table').nth(1)).to_contain_text("pod B")
    # what Done(A) removed at this step is listed where it was, unnumbered, with what removed it; the numbers
    # count what the list holds (receivedEvents: e2 alone; the picture says "1 entry (+1 just removed)")
    received = tables.locator('[data-table-variant="v1.28.1"] table').nth(1)
    expect(received.locator("caption")).to_contain_text("1 entry (+1 just removed")
    expect(received.locator('tr[data-ghost="true"]')).to_have_count(1)
    expect(received.locator('tr[data-ghost="true"] td').nth(0)).to_have_text("removed")
    expect(received.locator('tr[data-ghost="true"] td').nth(2)).to_have_text("e1")
    expect(received.locator('tr[data-ghost="true"] td').nth(3)).to_contain_text("Done(A)")
    expect(received.locator("tbody tr:not([data-ghost]) td:first-child")).to_have_text(["1"])


def test_course_navigation_moves_through_the_lessons(page):
    page.goto("/?scenario=in-flight-basics")
    expect(page.locator("#course")).to_contain_text("Lesson 1 of")
    # the way on is in view at the bottom of the intro, its text scrolling above (at 1280x720 it was a sliver)
    inside = page.evaluate("""() => { const i = document.getElementById('intro').getBoundingClientRect();
      const b = document.querySelector('#course').getBoundingClientRect();
      return b.height > 20 && b.top >= i.top && b.bottom <= i.bottom + 1 && b.bottom <= innerHeight; }""")
    assert inside, "the course's navigation is not fully in view at the bottom of the intro"
    page.get_by_role("button", name="Next lesson ›").click()
    expect(page.locator("#course")).to_contain_text("Lesson 2 of")
    expect(page.locator("#scenario-picker")).to_have_value("queueing-hints")


# --- exports from the page ---------------------------------------------------------------------------------
def test_offline_file_and_svg_download_from_the_toolbar_with_the_versions_on_screen(page, tmp_path):
    """The toolbar's downloads, named for the scenario (and the step); three versions chosen in the page: the SVG
    and the offline file have those three panes, not the pair the scenario opens on."""
    page.goto("/?scenario=lost-marker&position=5&versions=v1.28.1,v1.28.2,v1.30.14")
    at(page, 5)
    with page.expect_download() as download:
        page.click("#btn-export-svg")
    assert download.value.suggested_filename == "lost-marker-5.svg"
    svg = download.value.path().read_text()
    assert 'data-marker="B"' in svg and 'data-detached="true"' in svg
    assert re.findall(r'<g[^>]* data-variant="([^"]+)"', svg) == ["v1.28.1", "v1.28.2", "v1.30.14"]
    with page.expect_download() as download:
        page.click("#btn-export-html")
    assert download.value.suggested_filename == "lost-marker.html"
    offline = tmp_path / "offline.html"
    download.value.save_as(offline)
    assert "inflight-bundle" in offline.read_text()
    page.goto(offline.as_uri())
    expect(page.locator("#panes > [data-variant]")).to_have_count(3)
    expect(page.locator('#panes > [data-variant="v1.30.14"]')).to_have_count(1)


def test_the_presenters_laptop_screen_and_an_old_projector_keep_the_picture_readable(make_page):
    """/present at 1280x720, beside the notes, at the lost marker's last step: the lists were squeezed to 6 px text
    with their tags spilling over the lanes, and the notes were empty there (no next step to preview). Now the
    diagram keeps its room (the column scrolls), the controls stay on screen and the notes say this step.
    The same page at 1024x768 (a speaker's old projector, the laptop mirrored): beside the 24rem notes column the
    two panes had 688 px, the lists fell to fit.js's floor, 6.3 px, their tags spilling over the lanes (lost-marker
    6: 1 entry, queueing-hints 7: 9). Now the notes go under the viewer and the panes take the width (29.2 and 17.5
    px here); the step note is back under the panes, the controls on screen."""
    presenter = make_page(width=1280, height=720)
    presenter.goto("/present?scenario=lost-marker&position=6")
    expect(presenter.locator("#audience-link a")).to_be_visible()
    at(presenter, 6)
    settle(presenter)
    got = presenter.evaluate(READABLE_JS)
    assert got["font"] >= 12 and got["spills"] == [] and got["stepOnScreen"], got
    expect(presenter.locator('#presenter-notes [data-notes="now"]')).to_contain_text("6. B fails")
    expect(presenter.locator('#presenter-notes [data-notes="next"]')).to_have_text("End of the scenario.")
    presenter.keyboard.press("ArrowLeft")  # the keys step it as before
    at(presenter, 5)
    expect(presenter.locator('#presenter-notes [data-notes="next"]')).to_contain_text("6. B fails")
    # presentation mode takes the screen: the notes give way (they showed through beside the stage), and come back
    presenter.keyboard.press("p")
    expect(presenter.locator("#presenter-notes")).to_be_hidden()
    assert presenter.locator("#app").bounding_box()["width"] >= 1280 - 1
    presenter.keyboard.press("p")
    expect(presenter.locator("#presenter-notes")).to_be_visible()

    presenter.set_viewport_size({"width": 1024, "height": 768})  # the old projector, back at the last step
    presenter.keyboard.press("ArrowRight")
    at(presenter, 6)
    readable_on_an_old_projector(presenter, "lost-marker 6", "6. B fails")
    presenter.goto("/present?scenario=queueing-hints&position=7")
    expect(presenter.locator("#audience-link a")).to_be_visible()
    at(presenter, 7, 13)
    readable_on_an_old_projector(presenter, "queueing-hints 7", "7. B fails")


def readable_on_an_old_projector(presenter, label: str, note: str):
    """At 1024x768 the lists keep an 11 px font at least with no tag spilling, the step control on screen, the
    notes (saying ``note``) under the panes at the page's width and the step note shown."""
    got = settled_reading(presenter.locator("body"), READABLE_JS)
    assert got["font"] >= 11 and got["spills"] == [] and got["stepOnScreen"], f"{label}: {got}"
    expect(presenter.locator('#presenter-notes [data-notes="now"]')).to_contain_text(note)
    expect(presenter.get_by_test_id("step-note")).to_be_visible()
    notes, panes = presenter.locator("#presenter-notes").bounding_box(), presenter.locator("#panes").bounding_box()
    assert notes["y"] >= panes["y"] + panes["height"] and notes["width"] >= 1000, (notes, panes)
