"""The editor's palette, log import and plugin catalogue in a real browser, on one shared page: a scenario built
by clicking only (pods added, pop, an event and a failure with a plugin from the catalogue, done) runs in the
viewer; the sample log imported through "Import log…" shows its counts and assumptions and gives a valid
scenario; a log over the upload limit is not sent; the catalogue lists VolumeBinding with PvAdd."""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import TIMEOUT_MS
from webapp.web.editor import PALETTE

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"


@pytest.fixture(scope="module")
def editor(browser, live_server):
    """One page for the module: the editor on a blank start; console errors, dialogs and foreign requests fail."""
    problems = []
    context = browser.new_context(viewport={"width": 1280, "height": 720}, reduced_motion="reduce",
                                  base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)  # against a hang only: a loaded machine is slow
    page = context.new_page()
    # the refused logs (400s the page shows) are the failed requests expected
    page.on("console", lambda m: m.type == "error" and "/api/import" not in m.location.get("url", "")
            and problems.append(f"console.error: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    page.on("request", lambda r: r.url.startswith(live_server.url) or r.url.startswith(("data:", "blob:"))
            or problems.append(f"request to another origin: {r.url}"))
    page.goto("/editor")
    expect(page.locator("#summary")).to_have_text(re.compile("^Valid: "))
    yield page
    context.close()
    assert problems == [], problems


def append(page, op, **fields):
    page.locator(f'.pal-op[data-op="{op}"]').click()
    form = page.locator(f'.pal-form[data-op="{op}"]')
    for name, value in fields.items():
        control = form.locator(f'[data-param="{name}"]')
        if name == "unschedulable_plugins":
            for plugin in value:
                control.locator(f'input[value="{plugin}"]').check()
        elif control.evaluate("(el) => el.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)
    form.get_by_role("button", name=f"Append {op}").click()
    expect(page.get_by_test_id("palette-status")).to_have_text(re.compile(f"^Appended {op} at line \\d+"))


def test_the_palette_offers_the_registry_operations_and_catalogue_events(editor):
    featured = editor.locator("#palette > .pal-ops .pal-op")
    expect(featured).to_have_count(len(PALETTE))
    assert featured.evaluate_all("(els) => els.map((e) => e.dataset.op)") == list(PALETTE)
    editor.locator('.pal-op[data-op="event"]').click()
    event = editor.locator('.pal-form [data-param="event"]')
    expect(event.locator('option[value="PvAdd"]')).to_have_count(1)
    event.select_option("PvAdd")
    expect(editor.locator(".pal-form")).to_contain_text("wakes VolumeBinding")  # from GET /api/plugins
    editor.locator('.pal-op[data-op="fail"]').click()
    fit = editor.locator('.pal-form [data-param="unschedulable_plugins"] input[value="NodeResourcesFit"]')
    expect(fit).to_have_count(1)


def test_a_scenario_built_by_clicking_runs_in_the_viewer(editor):
    editor.get_by_role("button", name="Start empty").click()
    expect(editor.locator("#summary")).to_have_text("Valid: “My scenario”, 0 steps; runs on v1.28.1 and v1.28.2.")
    append(editor, "add", pod="A")
    append(editor, "add", pod="B")
    append(editor, "pop", expect="A")
    append(editor, "event", event="PvAdd")
    append(editor, "fail", pod="A", unschedulable_plugins=["VolumeBinding"])
    append(editor, "pop", expect="B")
    append(editor, "done", pod="B")
    expect(editor.locator("#summary")).to_have_text("Valid: “My scenario”, 7 steps; runs on v1.28.1 and v1.28.2.")
    text = editor.locator("#source").input_value()
    assert "pods:\n  - {name: A}\n  - {name: B}\nsteps:\n" in text  # declared once each, by their add steps
    assert text.endswith("  - {op: fail, pod: A, unschedulable_plugins: [VolumeBinding]}\n"
                         "  - {op: pop, expect: B}\n  - {op: done, pod: B}\n")
    expect(editor.locator("#gutter [data-line-added]")).to_have_count(1)

    editor.get_by_role("button", name="Run ▶").click()
    editor.wait_for_url(re.compile(r"/\?scenario=__inline__$"))
    stored = json.loads(editor.evaluate("() => sessionStorage.getItem('inflight-scope:inline-scenario')"))
    assert [s["op"] for s in stored["steps"]] == ["add", "add", "pop", "event", "fail", "pop", "done"]
    expect(editor.locator("#scenario-name")).to_have_text("My scenario")  # the viewer loaded it
    editor.go_back()
    expect(editor.locator("#summary")).to_have_text(re.compile("^Valid: “My scenario”, 7 steps"))


def test_a_log_over_the_limit_is_not_sent(editor, tmp_path):
    limit = int(editor.locator("#editor").get_attribute("data-max-bytes"))
    big = tmp_path / "huge.log"
    big.write_bytes(b"x" * (limit + 1))
    sent = []

    def watch(request):
        if "/api/import" in request.url:
            sent.append(request.url)

    editor.on("request", watch)
    editor.get_by_role("button", name="Import log…").click()
    editor.locator("#import-file").set_input_files(str(big))
    expect(editor.get_by_test_id("import-status")).to_contain_text("huge.log is 2.0 MiB")
    expect(editor.get_by_test_id("import-status")).to_contain_text("inflight-scope import")
    editor.get_by_role("button", name="Import pasted log").click()
    expect(editor.get_by_test_id("import-status")).to_have_text("Paste a log first, or choose a file.")
    editor.locator("#import-paste").fill("hello\nworld\n")
    editor.get_by_role("button", name="Import pasted log").click()
    expect(editor.get_by_test_id("import-status")).to_contain_text("not a kube-scheduler log")  # the server's 400
    editor.remove_listener("request", watch)
    assert len(sent) == 1  # only the pasted text went out
    editor.get_by_role("button", name="Cancel").click()
    expect(editor.locator("#import-dialog")).not_to_be_visible()


def test_a_refused_file_is_named(editor, tmp_path):
    """The server said "the log: empty input, not a log" of any file: the page sends the file's name along."""
    empty = tmp_path / "my2.log"
    empty.write_bytes(b"")
    editor.get_by_role("button", name="Import log…").click()
    editor.locator("#import-file").set_input_files(str(empty))
    expect(editor.get_by_test_id("import-status")).to_have_text("Not imported: my2.log: empty input, not a log")
    editor.get_by_role("button", name="Cancel").click()


def test_import_a_log_shows_its_assumptions_and_a_valid_scenario(editor):
    editor.get_by_role("button", name="Import log…").click()
    editor.locator("#import-file").set_input_files(str(LOGS / "five-minute-incident.log"))
    result = editor.get_by_test_id("import-result")
    expect(result).to_be_visible()
    expect(result).to_contain_text("five-minute-incident.log → 3 pods, 35 steps.")
    expect(editor.locator('[data-testid=import-counts] [data-count="used"]')).to_have_text("27 used")
    expect(editor.locator('[data-testid=import-counts] [data-count="disagreeing"]')).to_have_text(
        "1 disagreeing with the model's replay")
    disagreements = editor.get_by_test_id("import-disagreements").locator("li")
    expect(disagreements).to_have_count(1)
    expect(disagreements.first).to_contain_text("five-minute-incident.log:27 (t = 335 s): the log moves b to activeQ "
                                                "by UnschedulableTimeout")
    expect(editor.locator("#notice")).to_contain_text("read its 6 assumptions and 1 disagreement with the model")
    assumptions = editor.get_by_test_id("import-assumptions").locator("li")
    expect(assumptions).to_have_count(6)
    expect(assumptions.nth(2)).to_contain_text("VolumeBinding")
    expect(result.get_by_role("heading", level=2)).to_have_text("Imported from five-minute-incident.log")
    expect(editor.locator("#summary")).to_have_text(
        "Valid: “Imported from five-minute-incident.log”, 35 steps; runs on v1.28.1 and v1.28.2.")
    assert editor.locator("#source").input_value().startswith("# Imported from a kube-scheduler log")
    expect(editor.locator("#import-dialog")).not_to_be_visible()


def test_the_catalogue_lists_volume_binding_with_pvadd(editor):
    editor.locator("#catalogue > summary").click()
    editor.get_by_label("Find a plugin or an event").fill("PvAdd")
    volume_binding = editor.locator('#catalogue [data-plugin="VolumeBinding"]')
    expect(volume_binding).to_be_visible()
    expect(volume_binding.locator('.cat-event[data-event="PvAdd"]')).to_have_attribute("data-match", "true")
    expect(volume_binding).to_contain_text("volumebinding/volume_binding.go:98")
    expect(volume_binding).to_contain_text("QueueAfterBackoff")
    expect(editor.locator('#catalogue [data-plugin="NodeAffinity"]')).to_be_hidden()  # not woken by PvAdd


def test_the_viewer_opens_the_catalogue_from_its_help(editor):
    editor.goto("/?scenario=lost-marker")
    position = editor.get_by_test_id("position")
    expect(position).to_have_text(re.compile(r"^0 / [1-9]"))  # loaded
    before = position.inner_text()
    editor.locator("#help-toggle").click()
    editor.get_by_role("button", name="Plugin catalogue…").click()
    dialog = editor.get_by_test_id("catalogue-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_label("Find a plugin or an event")).to_be_focused()  # drawn once /api/plugins answered
    editor.keyboard.type("PvAdd")  # the search has the focus; the viewer's keys stay quiet
    expect(dialog.locator('[data-plugin="VolumeBinding"]')).to_be_visible()
    expect(dialog.locator('[data-plugin="NodeAffinity"]')).to_be_hidden()
    editor.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(editor.locator("#help")).to_be_visible()  # Escape closed the catalogue alone
    assert position.inner_text() == before
