"""The scenario editor in a real browser: problems on their lines, the gutter, keyboard, files in and out,
trace files, Run's hand-over to the viewer, user text shown as text; screenshots for review."""

import json
import re
from importlib import resources

import pytest
from playwright.sync_api import expect

from tests.e2e.test_browser import built_in_json, inline_value

from webapp.model.variant import VARIANTS
from webapp.scenario import builtin

LOST_MARKER = (resources.files("webapp.scenario") / "library" / "lost-marker.yaml").read_text(encoding="utf-8")
EVENT_LINE = 40  # "    event: PvAdd" in lost-marker.yaml, step 3
EMPTY_POP = "schema: 1\nname: empty pop\npods:\n  - {name: A}\ninitial_active: [A]\nsteps:\n  - op: pop\n  - op: pop\n"
XSS = "<img src=x onerror=alert(1)>"


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
    expect(problem).to_contain_text(f"line {EVENT_LINE}, col 12 — steps[3].event: unknown event 'PvAddd' (did you mean 'PvAdd'?)")
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
    assert open(download.path(), encoding="utf-8").read() == LOST_MARKER


def test_download_a_trace_and_load_it_back(editor, tmp_path):
    with editor.expect_download() as info:
        editor.get_by_role("button", name="Download trace").click()
    download = info.value
    assert download.suggested_filename == "the-lost-marker.trace.json"
    doc = json.loads(open(download.path(), encoding="utf-8").read())
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
    expect(page.locator("#source")).to_have_value(re.compile(r"^schema: 1\nname: My scenario\n"))
    expect(page.locator("#format")).to_have_value("yaml")
    expect(page.locator("#summary")).to_have_text(re.compile("^Valid: “My scenario”"))


def test_start_from_opens_another_builtin(editor):
    editor.get_by_label("Start from").select_option("gate-off")
    editor.get_by_role("button", name="Open").click()
    editor.wait_for_url(re.compile(r"/editor\?scenario=gate-off$"))
    expect(editor.locator("#summary")).to_have_text(re.compile("^Valid: "))


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
