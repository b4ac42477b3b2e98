"""From a log to the incident: the editor's import panel shows the report's verdict, its link opens the report
page, and the report's link opens the viewer at the incident, where the versions part for the pod that lost time."""

import re
from pathlib import Path

from playwright.sync_api import expect

from tests.e2e.shown import POSITION, shown
from tests.export.incident_logs import klog
from tests.scenario.real_logs import BUG, STANDBY, election, write

VERDICT = "v1.28.1 behaves as the cluster did: its replay makes every queue move the log states."


def import_log(page, tmp_path):
    log = tmp_path / "incident.log"
    log.write_bytes(klog())
    page.goto("/editor")
    page.get_by_role("button", name="Import log…").click()
    page.locator("#import-file").set_input_files(str(log))
    return page.locator("#import-result")


KEPT = re.compile(r"/report/kept/[\w-]+$")  # a kept report's address (webapp/web/kept.py)


def test_import_then_report_then_the_viewer_at_the_incident(page, tmp_path):
    panel = import_log(page, tmp_path)
    expect(panel.get_by_test_id("verdict")).to_have_text(VERDICT)
    expect(panel.get_by_test_id("import-lost")).to_have_text("worker-1 lost 308.00 s on v1.28.1 against v1.28.2")

    panel.get_by_test_id("report-link").click()
    page.wait_for_url(KEPT)
    for _ in range(2):  # and again after a reload: the address is the report's own (it answered 405)
        expect(page.get_by_test_id("verdict")).to_have_text(f"Verdict: {VERDICT}")
        expect(page.get_by_test_id("report-pods")).to_contain_text("its marker e1 was removed: saw nothing")
        expect(page.get_by_test_id("report-fix")).to_contain_text("v1.28.2 (#120445)")
        expect(page.locator("[data-testid=report-frames] img:visible")).to_have_count(2)
        expect(page.get_by_test_id("report-keep")).to_contain_text("kept until")
        page.reload()
    with page.expect_download() as download:
        page.get_by_test_id("report-markdown").click()
    assert download.value.suggested_filename == "incident-report.md"
    assert Path(download.value.path()).read_text(encoding="utf-8").startswith("# Incident report: Imported from")

    page.get_by_test_id("report-viewer-link").click()
    shown(page, POSITION, re.compile(r"^15 / 19(\D|$)"))
    expect(page.locator("#scenario-name")).to_have_text("Imported from incident.log")
    caption = page.locator('[data-variant="v1.28.1"] [data-testid=caption]')
    expect(caption).to_contain_text("its marker e1 was removed: saw nothing")


def test_a_real_log_of_replicas_to_the_report_and_the_incident(page, tmp_path):
    """``kubectl logs -l component=kube-scheduler --prefix --timestamps`` of a 1.30 cluster, a standby's log then the
    leader's (tests/scenario/real_logs.py): the panel says the verdict and the standby's lines left out, the report
    page says it, and its link opens the viewer at the incident."""
    log = tmp_path / "kube-scheduler.log"
    log.write_bytes(write(election(False) + STANDBY, "1.30", timestamps=True, prefix="kube-scheduler-cp-2")
                    + write(election(True) + BUG, "1.30", timestamps=True, prefix="kube-scheduler-cp-1"))
    page.goto("/editor")
    page.get_by_role("button", name="Import log…").click()
    page.locator("#import-file").set_input_files(str(log))
    panel = page.locator("#import-result")
    expect(panel.get_by_test_id("verdict")).to_have_text(VERDICT)
    expect(panel.locator("[data-count=standby]")).to_have_text(
        "3 scheduler lines of a standby replica (not the leader) left out")
    panel.get_by_test_id("report-link").click()
    page.wait_for_url(KEPT)
    expect(page.get_by_test_id("verdict")).to_have_text(f"Verdict: {VERDICT}")
    expect(page.get_by_test_id("report-fix")).to_contain_text("v1.28.2 (#120445)")
    page.get_by_test_id("report-viewer-link").click()
    shown(page, POSITION, re.compile(r"^15 / 19(\D|$)"))


def test_run_opens_an_import_at_the_incident_and_an_edited_one_at_0(page, tmp_path):
    """Run hands the imported scenario to the viewer at the incident, as the panel's link does; once the text is
    edited it is the user's scenario, which Run opens at 0 (the panel still offers the incident)."""
    import_log(page, tmp_path)
    expect(page.get_by_test_id("verdict")).to_have_text(VERDICT)
    page.get_by_role("button", name="Run ▶").click()
    shown(page, POSITION, re.compile(r"^15 / 19(\D|$)"))
    import_log(page, tmp_path)
    expect(page.get_by_test_id("verdict")).to_have_text(VERDICT)
    source = page.locator("#source")
    source.fill(source.input_value().replace('name: "Imported from incident.log"', 'name: "Edited"'))
    page.get_by_role("button", name="Run ▶").click()
    expect(page.locator("#scenario-name")).to_have_text("Edited")
    shown(page, POSITION, re.compile(r"^0 / 19(\D|$)"))


def test_the_panel_offers_the_viewer_at_the_incident(page, tmp_path):
    panel = import_log(page, tmp_path)
    panel.get_by_test_id("incident-link").click()
    shown(page, POSITION, re.compile(r"^15 / 19(\D|$)"))


def test_a_run_of_clock_steps_is_one_segment_labelled_with_its_time(page):
    page.goto("/?scenario=five-minute-wait")
    shown(page, POSITION, re.compile(r"^0 / 11"))
    spans = page.locator("#ticks .tick[data-span]")
    assert spans.count() >= 1
    first = spans.first
    assert re.fullmatch(r"\+\d+(\.\d+)? s", first.get_attribute("data-span"))
    assert int(first.get_attribute("data-step")) > int(first.get_attribute("data-first"))


def test_the_report_page_passes_axe_in_both_themes(page):
    from tests.e2e.test_accessibility import COLOUR_RULES, serious_violations

    page.goto("/report/lost-marker")
    expect(page.get_by_test_id("verdict")).to_contain_text("No log: the versions part at step")
    assert serious_violations(page) == []
    page.emulate_media(color_scheme="dark")
    expect(page.locator("body")).to_have_css("background-color", "rgb(15, 19, 24)")
    assert serious_violations(page, COLOUR_RULES) == []
