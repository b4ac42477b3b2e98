"""The scenario editor in a real browser: problems on their lines, the gutter, keyboard, files in and out,
trace files, Run's hand-over to the viewer, user text shown as text; screenshots for review."""

import json
import re
from importlib import resources
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.shown import POSITION, shown
from tests.e2e.test_browser import built_in_json, inline_value
from webapp.model.variant import VARIANTS
from webapp.scenario import builtin
from webapp.web.editor import STARTER

LOST_MARKER = (resources.files("webapp.scenario") / "library" / "lost-marker.yaml").read_text(encoding="utf-8")
EVENT_LINE = 40  # "    event: PvAdd" in lost-marker.yaml, step 3
EMPTY_POP = "schema: 1\nname: empty pop\npods:\n  - {name: A}\ninitial_active: [A]\nsteps:\n  - op: pop\n  - op: pop\n"
XSS = "<img src=x onerror=alert(1)>"
DRAFTS_KEY = "inflight-scope:editor-drafts"  # editor.js: each page's draft


@pytest.fixture
def editor(page):
    """The editor opened on lost-marker, validated; any dialog (an alert from injected HTML) fails the test."""
    page.goto("/editor?scenario=lost-marker")
    expect(page.locator("#summary")).to_have_text("Valid: “The lost marker”, 6 steps; runs on v1.28.1 and v1.28.2.")
    yield page
    assert page.dialogs == [], f"a dialog was opened: {page.dialogs}"


def error_lines(page):
    return page.locator("#gutter [data-line-error]").evaluate_all("els => els.map((e) => Number(e.dataset.lineError))")


def problem_texts(page):
    return page.locator("#problems li").all_inner_texts()


def put_cursor_at_end_of_line(page, line):
    page.locator("#source").evaluate("""(ta, line) => {
        const lines = ta.value.split("\\n");
        const at = lines.slice(0, line).join("\\n").length;
        ta.focus();
        ta.setSelectionRange(at, at);
    }""", line)


def set_source(page, text):
    page.locator("#source").fill(text)


def test_time_that_runs_no_flush_is_pointed_out_under_the_summary(editor):
    raw = {**builtin.get("five-minute-wait"), "periodic_flushes": False}
    raw["steps"] = raw["steps"][:6] + [{"op": "advance_clock", "seconds": 310}]
    set_source(editor, json.dumps(raw, indent=2))
    expect(editor.locator("#summary")).to_have_text(re.compile("^Valid: "))
    advice = editor.get_by_test_id("advice")
    expect(advice).to_be_visible()
    expect(advice.locator("li")).to_have_count(3)
    expect(advice).to_contain_text("v1.28.2 ends at t = 310 s with B still in backoffQ (its backoff ended at t = 1 s).")
    set_source(editor, LOST_MARKER)  # nothing to say
    expect(editor.locator("#summary")).to_have_text(re.compile("^Valid: “The lost marker”"))
    expect(advice).to_be_hidden()


def test_gutter_numbers_every_line(editor):
    expect(editor.locator("#gutter .ln")).to_have_count(LOST_MARKER.count("\n") + 1)
    assert error_lines(editor) == []
    expect(editor.locator("#source")).to_have_value(LOST_MARKER)


def test_a_broken_step_is_shown_on_its_line_and_fixed_from_the_keyboard(editor):
    assert LOST_MARKER.splitlines()[EVENT_LINE - 1] == "    event: PvAdd"
    put_cursor_at_end_of_line(editor, EVENT_LINE)
    editor.keyboard.type("d")  # live validation, debounced
    problem = editor.locator("#problems li")
    expect(problem).to_have_count(1)
    expect(problem).to_contain_text(
        f"line {EVENT_LINE}, col 12 — steps[3].event: unknown event 'PvAddd' (did you mean 'PvAdd'?)")
    expect(editor.locator("#summary")).to_have_text("1 problem.")
    assert error_lines(editor) == [EVENT_LINE]
    expect(editor.locator(f"#gutter .ln:nth-child({EVENT_LINE})")).to_have_attribute("data-line-error", str(EVENT_LINE))

    # the entry is a button: Enter moves the cursor to the offending value and selects it
    editor.get_by_role("button", name=re.compile(rf"^line {EVENT_LINE}, col 12")).focus()
    editor.keyboard.press("Enter")
    expect(editor.locator("#source")).to_be_focused()
    selected = editor.locator("#source").evaluate("(ta) => ta.value.slice(ta.selectionStart, ta.selectionEnd)")
    assert selected == "PvAddd"
    editor.keyboard.type("PvAdd")  # replaces the selection
    expect(editor.locator("#summary")).to_have_text(re.compile("^Valid: "))
    expect(editor.locator("#problems li")).to_have_count(0)
    assert error_lines(editor) == []


def test_a_misspelt_parameter_is_pointed_at_by_its_key_and_renamed_from_the_keyboard(editor):
    set_source(editor, LOST_MARKER.replace("    event: PvAdd\n", "    evnt: PvAdd\n"))
    entry = editor.get_by_role("button", name=re.compile(r"steps\[3\]\.evnt: unknown parameter 'evnt'"))
    expect(entry).to_contain_text(f"line {EVENT_LINE}, col 5")  # the key, not its value at col 11
    entry.click()
    selected = editor.locator("#source").evaluate("(ta) => ta.value.slice(ta.selectionStart, ta.selectionEnd)")
    assert selected == "evnt"
    editor.keyboard.type("event")  # replaces the key alone
    expect(editor.locator("#summary")).to_have_text(re.compile("^Valid: "))


def test_a_runtime_error_from_an_uploaded_file_is_shown_on_its_steps_line(editor, tmp_path):
    path = tmp_path / "empty-pop.yaml"
    path.write_text(EMPTY_POP)
    editor.locator("#upload").set_input_files(str(path))
    expect(editor.locator("#notice")).to_have_text("Loaded empty-pop.yaml.")
    expect(editor.locator("#source")).to_have_value(EMPTY_POP)
    expect(editor.locator("#format")).to_have_value("yaml")
    expect(editor.locator("#problems li")).to_have_count(2)
    assert problem_texts(editor) == [
        f"line 8, col 9 — steps[1].op: pop on an empty activeQ (Pop would block) (on {v})" for v in VARIANTS]
    assert error_lines(editor) == [8]
    expect(editor.locator("#gutter .ln")).to_have_count(9)


def test_download_the_scenario(editor):
    with editor.expect_download() as info:
        editor.get_by_role("button", name="Download scenario").click()
    download = info.value
    assert download.suggested_filename == "the-lost-marker.yaml"
    assert Path(download.path()).read_text(encoding="utf-8") == LOST_MARKER


def test_download_a_trace_and_load_it_back(editor, tmp_path):
    with editor.expect_download() as info:
        editor.get_by_role("button", name="Download trace").click()
    download = info.value
    assert download.suggested_filename == "the-lost-marker.trace.json"
    doc = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert doc["schema"] == 1 and doc["scenario_object"] == builtin.get("lost-marker")
    assert sorted(doc["traces"]) == list(VARIANTS)

    # loaded back: it matches, and its scenario is in the editor as JSON
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    editor.locator("#load-trace").set_input_files(str(saved))
    result = editor.locator("#trace-result")
    expect(result).to_have_attribute("data-match", "true")
    expect(result).to_contain_text("✓ the-lost-marker.trace.json matches")
    expect(editor.locator("#format")).to_have_value("json")
    assert json.loads(editor.locator("#source").input_value()) == builtin.get("lost-marker")
    expect(editor.locator("#summary")).to_have_text(re.compile("^Valid: “The lost marker”"))

    # tampered: the first differing step is named, per variant
    doc["traces"]["v1.28.1"]["steps"][5]["result"]["queue"] = "backoffQ"
    tampered = tmp_path / "tampered.trace.json"
    tampered.write_text(json.dumps(doc))
    editor.locator("#load-trace").set_input_files(str(tampered))
    expect(result).to_have_attribute("data-match", "false")
    expect(result.locator('[data-variant="v1.28.1"]')).to_have_text(
        'v1.28.1: first difference at step 5, steps[5].result.queue: recorded "backoffQ", replayed "unschedulablePods"')
    expect(result.locator('[data-variant="v1.28.2"]')).to_have_text("v1.28.2: same trace")


def test_run_hands_the_scenario_to_the_viewer_through_session_storage(editor):
    set_source(editor, LOST_MARKER.replace("name: The lost marker", "name: The edited marker"))
    editor.get_by_role("button", name="Run ▶").click()
    editor.wait_for_url(re.compile(r"/\?scenario=__inline__$"))
    stored = editor.evaluate("() => sessionStorage.getItem('inflight-scope:inline-scenario')")
    assert json.loads(stored) == {**builtin.get("lost-marker"), "name": "The edited marker"}
    expect(editor.locator("#scenario-name")).to_have_text("The edited marker")  # the viewer loaded it


def test_run_with_problems_stays_and_focuses_the_first_problem(editor):
    set_source(editor, EMPTY_POP)
    editor.get_by_role("button", name="Run ▶").click()
    expect(editor.locator("#problems li button").first).to_be_focused()
    assert editor.url.endswith("/editor?scenario=lost-marker")


def test_user_text_is_shown_as_text(editor):
    scenario = {"schema": 1, "name": XSS, "pods": [{"name": "A"}], "initial_active": ["A"],
                "steps": [{"op": "pop"}, {"op": "event", "event": XSS}]}
    set_source(editor, json.dumps(scenario, indent=2))
    expect(editor.locator("#problems li")).to_contain_text(f"unknown event '{XSS}'")
    scenario["steps"].pop()
    set_source(editor, json.dumps(scenario, indent=2))
    expect(editor.locator("#summary")).to_have_text(f"Valid: “{XSS}”, 1 step; runs on v1.28.1 and v1.28.2.")
    with editor.expect_download() as info:
        editor.get_by_role("button", name="Download trace").click()
    assert info.value.suggested_filename == "img-src-x-onerror-alert-1.trace.json"
    expect(editor.locator("#editor img")).to_have_count(0)


def test_every_control_has_a_visible_label_and_takes_the_keyboard(editor):
    for name in ("Validate", "Run ▶", "Download scenario", "Download trace", "Open", "Viewer"):
        expect(editor.get_by_role("button", name=name).or_(editor.get_by_role("link", name=name))).to_be_visible()
    for label in ("Format", "Start from", "Upload scenario…", "Load trace…", "Scenario source"):
        expect(editor.get_by_label(re.compile("^" + re.escape(label)))).to_have_count(1)
        expect(editor.get_by_text(label).first).to_be_visible()
    editor.get_by_role("button", name="Download scenario").focus()
    editor.keyboard.press("Tab")
    assert editor.evaluate("() => document.activeElement.id") == "upload"
    editor.get_by_role("button", name="Download trace").focus()
    editor.keyboard.press("Tab")
    assert editor.evaluate("() => document.activeElement.id") == "load-trace"
    expect(editor.locator("#report")).to_have_attribute("aria-live", "polite")


def test_start_empty_on_a_json_scenario_writes_yaml_and_says_so(page):
    """The viewer's Editor on a fork opens its JSON under the Format JSON; Start empty wrote the YAML template and
    left JSON chosen, so the fresh template was reported as invalid JSON. The Format follows what is written."""
    page.goto("/?scenario=lost-marker")
    expect(page.locator("#scenario-name")).to_have_text("The lost marker")
    fork = {**built_in_json(page, "gate-off"), "name": "My fork"}
    page.goto(f"/?inline={inline_value(page, fork)}")
    expect(page.locator("#scenario-name")).to_have_text("My fork")
    page.click("#btn-editor")
    page.wait_for_url(re.compile(r"/editor"))
    expect(page.locator("#format")).to_have_value("json")
    expect(page.locator("#summary")).to_have_text(re.compile("^Valid: “My fork”"))
    page.click("#btn-empty")
    expect(page.locator("#source")).to_have_value(re.compile(r"^schema: 2\nname: My scenario\n"))
    expect(page.locator("#format")).to_have_value("yaml")
    expect(page.locator("#summary")).to_have_text(re.compile("^Valid: “My scenario”"))


def test_start_from_opens_another_builtin(editor):
    editor.get_by_label("Start from").select_option("gate-off")
    editor.get_by_role("button", name="Open").click()
    editor.wait_for_url(re.compile(r"/editor\?scenario=gate-off$"))
    expect(editor.locator("#summary")).to_have_text(re.compile("^Valid: "))


def start_from(page, scenario_id):
    page.get_by_label("Start from").select_option(scenario_id)
    page.get_by_role("button", name="Open").click()
    page.wait_for_url(re.compile(rf"/editor\?scenario={scenario_id}$"))


# --- each page keeps its own draft -----------------------------------------------------------------------------
def test_back_and_forward_after_start_from_keep_each_pages_edits(page):
    """QA: with the back/forward cache off (Playwright's Chromium; Chrome when it evicts a page) the editor kept one
    draft: Back after "Start from" showed the template (the first page's edits lost, a reload too), and Forward
    lost the second page's edits as well. Each page now keeps its own draft."""
    page.goto("/editor")
    source = page.locator("#source")
    expect(source).to_have_value(STARTER)
    first = STARTER.replace("name: My scenario", "name: First edits")
    set_source(page, first)
    start_from(page, "lost-marker")
    expect(source).to_have_value(LOST_MARKER)
    second = LOST_MARKER.replace("name: The lost marker", "name: Second edits")
    set_source(page, second)
    page.go_back()
    page.wait_for_url(re.compile(r"/editor$"))
    expect(source).to_have_value(first)
    expect(page.locator("#summary")).to_have_text(re.compile("^Valid: “First edits”"))
    expect(page.locator("#start-from")).to_have_value("")  # Back restored the select to the later page's choice
    page.reload()
    expect(source).to_have_value(first)
    page.go_forward()
    page.wait_for_url(re.compile(r"/editor\?scenario=lost-marker$"))
    expect(source).to_have_value(second)
    expect(page.locator("#start-from")).to_have_value("lost-marker")
    page.reload()
    expect(source).to_have_value(second)
    # two pages started from the same scenario keep their own drafts too
    start_from(page, "lost-marker")
    expect(source).to_have_value(LOST_MARKER)  # "Start from" starts afresh
    third = LOST_MARKER.replace("name: The lost marker", "name: Third edits")
    set_source(page, third)
    page.go_back()
    expect(source).to_have_value(second)
    page.go_forward()
    expect(source).to_have_value(third)


def test_drafts_are_bounded_the_oldest_dropped(page):
    page.goto("/editor?scenario=lost-marker")
    expect(page.locator("#summary")).to_have_text(re.compile("^Valid: "))
    old = [{"id": f"old-{i}", "from": "", "text": f"name: old {i}\n", "format": "", "saved": i}
           for i in range(10, 0, -1)]
    page.evaluate("([key, drafts]) => localStorage.setItem(key, JSON.stringify(drafts))", [DRAFTS_KEY, old])
    set_source(page, LOST_MARKER.replace("name: The lost marker", "name: Mine"))
    page.wait_for_function("key => localStorage.getItem(key).includes('name: Mine')", arg=DRAFTS_KEY)
    drafts = json.loads(page.evaluate("key => localStorage.getItem(key)", DRAFTS_KEY))
    assert 1 < len(drafts) <= 8
    assert drafts[0]["from"] == "lost-marker" and "name: Mine" in drafts[0]["text"]  # the newest first
    assert [d["id"] for d in drafts[1:]] == [d["id"] for d in old[:len(drafts) - 1]]  # the oldest dropped
    # a page left as it opened keeps no draft (it would only push out the others)
    start_from(page, "gate-off")
    page.go_back()
    expect(page.locator("#source")).to_have_value(re.compile("name: Mine"))
    ids = [d["id"] for d in json.loads(page.evaluate("key => localStorage.getItem(key)", DRAFTS_KEY))]
    assert len(ids) == len(drafts) and ids[0] == drafts[0]["id"]


def test_the_viewers_editor_link_still_opens_its_scenario_after_another_pages_draft(page):
    """The viewer's "Editor" hands its scenario over as the newest draft (flow.js, ?draft): another editor page's
    draft saved in between does not take its place, and Back to the hand-over shows what it was edited to."""
    page.goto("/editor?scenario=gate-off")
    set_source(page, LOST_MARKER.replace("name: The lost marker", "name: Ran from the editor"))
    page.click("#btn-run")
    expect(page.locator("#scenario-name")).to_have_text("Ran from the editor")
    page.click("#btn-editor")
    page.wait_for_url(re.compile(r"/editor\?draft=1&scenario=gate-off$"))
    expect(page.locator("#source")).to_have_value(re.compile("name: Ran from the editor"))
    set_source(page, LOST_MARKER.replace("name: The lost marker", "name: Edited again"))
    start_from(page, "lost-marker")
    set_source(page, LOST_MARKER.replace("name: The lost marker", "name: Elsewhere"))
    page.go_back()
    expect(page.locator("#source")).to_have_value(re.compile("name: Edited again"))


# --- Format and Download -----------------------------------------------------------------------------------------
def download_scenario(page):
    with page.expect_download() as info:
        page.get_by_role("button", name="Download scenario").click()
    return info.value.suggested_filename, open(info.value.path(), encoding="utf-8").read()


def test_choosing_json_converts_the_text_and_download_saves_json(editor):
    """QA: Format = JSON then Download saved the YAML text as scenario.json, the summary saying "1 problem" (the
    YAML read as JSON). Choosing a Format now converts a valid text to it (one edit: Ctrl+Z takes it back), and the
    download is what the Format says."""
    editor.locator("#format").select_option("json")
    source = editor.locator("#source")
    expect(source).to_have_value(re.compile(r"^\{\n  \"schema\": 1,"))
    assert json.loads(source.input_value()) == builtin.get("lost-marker")
    expect(editor.locator("#summary")).to_have_text(re.compile("^Valid: “The lost marker”"))
    expect(editor.locator("#notice")).to_have_text(re.compile(r"^Converted to JSON \(Ctrl\+Z"))
    name, text = download_scenario(editor)
    assert name == "the-lost-marker.json" and json.loads(text) == builtin.get("lost-marker")

    # Ctrl+Z in the text brings the YAML back, and the Format follows it (not "1 problem")
    source.focus()
    editor.keyboard.press("Control+z")
    expect(source).to_have_value(LOST_MARKER)
    expect(editor.locator("#summary")).to_have_text(re.compile("^Valid: “The lost marker”"))
    expect(editor.locator("#format")).to_have_value("yaml")
    assert download_scenario(editor) == ("the-lost-marker.yaml", LOST_MARKER)

    # and back to YAML from JSON: the palette's style, one flow item per line, read as the same scenario
    editor.locator("#format").select_option("json")
    expect(editor.locator("#notice")).to_have_text(re.compile(r"^Converted to JSON"))
    editor.locator("#format").select_option("yaml")
    expect(editor.locator("#notice")).to_have_text(re.compile(r"^Converted to YAML"))
    expect(source).to_have_value(re.compile(r"^schema: 1\nname: The lost marker\ndescription: \|\n"))
    expect(source).to_have_value(re.compile(r"\npods:\n  - \{name: A\}\n  - \{name: B\}\ninitial_active: \[A, B\]\n"))
    expect(editor.locator("#summary")).to_have_text(re.compile("^Valid: “The lost marker”"))
    name, text = download_scenario(editor)
    assert name == "the-lost-marker.yaml"
    assert check_validate(editor, text, "yaml")["scenario"] == builtin.get("lost-marker")


def test_a_format_the_text_cannot_be_converted_to_is_said_and_nothing_mislabelled_is_saved(editor):
    set_source(editor, EMPTY_POP)
    expect(editor.locator("#summary")).to_have_text("2 problems.")
    editor.locator("#format").select_option("json")
    expect(editor.locator("#notice")).to_have_text(
        re.compile(r"^Not converted to JSON: the text is not a valid scenario"))
    expect(editor.locator("#format")).to_have_value("yaml")  # back to what the text is written in
    expect(editor.locator("#source")).to_have_value(EMPTY_POP)
    expect(editor.locator("#summary")).to_have_text("2 problems.")  # its own problems, not "1 problem" of JSON
    assert download_scenario(editor) == ("scenario.yaml", EMPTY_POP)
    # YAML pasted over JSON under Format JSON: the Format follows the text, the download is YAML
    editor.locator("#format").select_option("json")  # (an invalid text: stays YAML)
    set_source(editor, json.dumps(builtin.get("gate-off")))
    expect(editor.locator("#format")).to_have_value("json")
    set_source(editor, LOST_MARKER)
    assert download_scenario(editor) == ("the-lost-marker.yaml", LOST_MARKER)
    expect(editor.locator("#format")).to_have_value("yaml")


def check_validate(page, text, fmt=None):
    return page.evaluate("""([text, format]) => fetch("/api/validate", {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify({text, format})}).then((r) => r.json())""",
                         [text, fmt])


# --- names of what is saved --------------------------------------------------------------------------------------
def test_exported_file_names_are_trimmed_slugs(page):
    """QA: a fork's offline file and SVG were named "…-fork-.html" and "…-fork--9.svg": every name saved (the
    viewer's exports, the editor's scenario and trace) comes from one slug, trimmed of dashes."""
    page.goto("/?scenario=lost-marker")
    expect(page.locator("#scenario-name")).to_have_text("The lost marker")
    fork = {**built_in_json(page, "lost-marker"), "name": "In flight: the basics (fork)"}
    page.goto(f"/?inline={inline_value(page, fork)}&position=5")
    expect(page.locator("#scenario-name")).to_have_text("In flight: the basics (fork)")
    shown(page, POSITION, re.compile(r"^5 / 6"))
    with page.expect_download() as info:
        page.click("#btn-export-html")
    assert info.value.suggested_filename == "in-flight-the-basics-fork.html"
    with page.expect_download() as info:
        page.click("#btn-export-svg")
    assert info.value.suggested_filename == "in-flight-the-basics-fork-5.svg"
    # the slug's rules, name by name: tests/client/exporting.test.mjs


@pytest.mark.parametrize("color_scheme, background", [("dark", "#0f1318"), ("light", "#f6f7f9")])
def test_the_svg_is_exported_in_the_pages_theme(make_page, color_scheme, background):
    """The SVG export was always light, even from a dark page."""
    page = make_page(color_scheme=color_scheme)
    page.goto("/?scenario=lost-marker&position=6")
    shown(page, POSITION, re.compile(r"^6 / 6"))
    with page.expect_download() as info:
        page.click("#btn-export-svg")
    svg = Path(info.value.path()).read_text(encoding="utf-8")
    assert re.search(rf'<rect width="100%" height="\d+" fill="{background}"', svg)
    page.keyboard.press("t")  # the other theme, chosen on the page
    with page.expect_download() as info:
        page.click("#btn-export-svg")
    assert f'fill="{background}"' not in Path(info.value.path()).read_text(encoding="utf-8")


def test_the_editor_saves_under_the_same_slug(editor):
    set_source(editor, LOST_MARKER.replace("name: The lost marker", "name: \"  Été: the marker (fork)  \""))
    expect(editor.locator("#summary")).to_have_text(re.compile("^Valid: "))
    assert download_scenario(editor)[0] == "ete-the-marker-fork.yaml"
    with editor.expect_download() as info:
        editor.get_by_role("button", name="Download trace").click()
    assert info.value.suggested_filename == "ete-the-marker-fork.trace.json"


# --- a link naming no built-in -----------------------------------------------------------------------------------
def test_a_link_naming_no_builtin_says_so(page):
    """QA: /editor?scenario=nope opened the starter with no word; it says so as the viewer does of its links."""
    page.goto("/editor?scenario=nope")
    notice = page.get_by_test_id("link-notice")
    expect(notice).to_be_visible()
    expect(notice).to_have_attribute("role", "alert")
    expect(notice).to_contain_text(
        "This link names no built-in scenario “nope”. Starting from a blank scenario instead.")
    expect(page.locator("#source")).to_have_value(STARTER)
    expect(page.get_by_label("Start from")).to_have_value("")
    notice.get_by_role("button", name="Dismiss").click()
    expect(notice).to_be_hidden()
    for link in ("/editor", "/editor?scenario=", "/editor?scenario=gate-off"):
        page.goto(link)
        expect(page.locator("#summary")).to_have_text(re.compile("^Valid: "))
        expect(page.get_by_test_id("link-notice")).to_be_hidden()


# --- screenshots for review ----------------------------------------------------------------------------------
@pytest.mark.parametrize("color_scheme", ["light", "dark"])
def test_screenshot_of_an_error(make_page, artifacts_dir, color_scheme):
    page = make_page(1280, 720, color_scheme=color_scheme)
    page.goto("/editor?scenario=lost-marker")
    expect(page.locator("#summary")).to_have_text(re.compile("^Valid: "))
    set_source(page, LOST_MARKER.replace("    event: PvAdd\n", "    event: PvAddd\n"))
    page.get_by_role("button", name=re.compile(rf"^line {EVENT_LINE}, col 12")).click()
    expect(page.locator(f'#gutter [data-line-error="{EVENT_LINE}"]')).to_be_visible()
    out = artifacts_dir / "screenshots"
    out.mkdir(exist_ok=True)
    page.screenshot(path=str(out / f"editor-error-1280x720-{color_scheme}.png"))
