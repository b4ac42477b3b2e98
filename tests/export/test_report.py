"""The incident report (presenter/report.py, export/report_md.py) of an import at -v=4, -v=2 and in JSON, from the
logs of tests/export/incident_logs.py (each message cited there)."""

import io

import pytest

from webapp.export.incident import frames_svg, imported_report, incident_report
from webapp.export.report_md import markdown
from webapp.export.report_md import text as md_text
from webapp.scenario import builtin
from webapp.scenario.logs import import_logs
from webapp.scenario.scenario import from_valid_dict

from .incident_logs import json_log, klog

FIX_RELEASES = ("v1.28.2, v1.28.3, v1.28.4, v1.28.5 and later 1.28 patches, v1.29.0 to v1.29.9, v1.30.0 to "
                "v1.30.14, v1.31.0 to v1.31.13, v1.32.0 and v1.36.2")


def report_of(name: str, data: bytes):
    return imported_report(import_logs([(name, io.BytesIO(data))]))


@pytest.mark.parametrize("name, data", [("incident.log", klog()), ("incident.json.log", json_log())])
def test_v4_and_json_name_v1_28_1_and_the_time_worker_1_lost(name, data):
    _, facts = report_of(name, data)
    assert facts["verdict"] == ("v1.28.1 behaves as the cluster did: its replay makes every queue move the log "
                                "states.")
    assert facts["sure"][1:-1] == ["v1.28.1: agrees with 4, disagrees with 0.",
                                 f"v1.28.2: agrees with 2, disagrees with 2 ({name}:9, {name}:10)."]
    [pod] = facts["pods"]
    assert (pod["pod"], pod["version"], pod["text"]) == ("worker-1", "v1.28.1",
                                                         "worker-1 lost 308.00 s on v1.28.1 against v1.28.2")
    assert [w["caption"] for w in pod["why"]] == [
        "worker-1 fails → unschedulablePods: its marker e1 was removed: saw nothing",
        "worker-1 fails → backoffQ: saw NodeAdd (QueueAfterBackoff)"]
    assert facts["fix"]["version"] == "v1.28.2" and facts["fix"]["upstream"] == "#120445"
    assert facts["fix"]["text"].endswith(f"Carried by {FIX_RELEASES}.")
    assert facts["incident"] == 15 and facts["frames"] == [14, 15]
    assert [d["line"] for d in facts["disagree"]] == [f"{name}:9", f"{name}:10"]


def test_v2_cannot_tell_the_versions_apart():
    _, facts = report_of("incident-v2.log", klog(2))
    assert facts["verdict"].startswith("The log does not tell the versions apart")
    assert facts["pods"] == [] and facts["incident"] is None and facts["frames"] == []
    assert facts["fix"]["version"] == "v1.28.2" and facts["fix"]["text"].endswith(f"Carried by {FIX_RELEASES}.")
    assert any("Attempts are not in the log" in a for a in facts["assumptions"])


def test_a_scenario_with_no_log_reports_where_the_versions_part():
    scenario = from_valid_dict(builtin.get("lost-marker"))
    facts = incident_report(scenario)
    assert facts["verdict"] == f"No log: the versions part at step {facts['incident']}, as the model replays the " \
                               "scenario."
    assert facts["incident"] is not None and facts["frames"] == [facts["incident"] - 1, facts["incident"]]
    assert facts["sure"] == [] and facts["agree"] == [] and facts["disagree"] == []


def test_the_frames_are_the_svg_export_at_the_incident():
    scenario, facts = report_of("incident.log", klog())
    before, after = frames_svg(scenario, facts)
    assert before.startswith("<svg") and "Step 14:" in before and "Step 15:" in after


MARKDOWN = """\
# Incident report: Imported from incident.log

**Verdict:** v1.28.1 behaves as the cluster did: its replay makes every queue move the log states.

## How sure

- 4 of the log's lines were checked against each replay (its queue moves and attempts).
- v1.28.1: agrees with 4, disagrees with 0.
- v1.28.2: agrees with 2, disagrees with 2 (incident.log:9, incident.log:10).
- The verdict names the versions whose replay agrees with every line of the log that tells the versions apart: \
a line some replays agree with and others do not. A line no replay agrees with tells them nothing; it is listed \
with the lines that disagree.

## Time lost against v1.28.2

- **worker-1 lost 308.00 s on v1.28.1 against v1.28.2** (its failure at step 15; the versions part at step 15)
  - worker-1 fails → unschedulablePods: its marker e1 was removed: saw nothing; v1.28.1: back in activeQ after \
309.95 s via unschedulablePods
  - worker-1 fails → backoffQ: saw NodeAdd (QueueAfterBackoff); v1.28.2: back in activeQ after 1.95 s via backoffQ

## The fix

v1.28.2 (#120445): inFlightEvents: each in-flight pod has its own entry; Done drops events from the front. Carried \
by v1.28.2, v1.28.3, v1.28.4, v1.28.5 and later 1.28 patches, v1.29.0 to v1.29.9, v1.30.0 to v1.30.14, v1.31.0 \
to v1.31.13, v1.32.0 and v1.36.2.

## Before and after

![Before step 15 (fail worker-1 — plugin NodeResourcesFit)](r.position-14.svg)
![After step 15 (fail worker-1 — plugin NodeResourcesFit): where the versions part](r.position-15.svg)

## Log lines that disagree

- `incident.log:9`: the log moves worker-1 to activeQ by UnschedulableTimeout (the 30 s flush of pods parked over \
5 minutes); on v1.28.2 the model: popped at t = 0.0199 s (incident.log:5), then to backoffQ by ScheduleAttemptFailure \
at t = 0.0499 s (incident.log:8), then to activeQ by BackoffComplete at t = 1.9999 s; next: popped at t = 310 s \
(incident.log:10)
- `incident.log:10`: the log attempts worker-1; on v1.28.2 the model: worker-1 in activeQ from t = 1.9999 s \
(BackoffComplete), no Pop until the log's at t = 310 s

## Log lines that agree

- `incident.log:9`: the log moves worker-1 to activeQ by UnschedulableTimeout (the 30 s flush of pods parked over \
5 minutes) (v1.28.1)
- `incident.log:3`: the log attempts api-0 (v1.28.1, v1.28.2)
- `incident.log:5`: the log attempts worker-1 (v1.28.1, v1.28.2)
- `incident.log:10`: the log attempts worker-1 (v1.28.1)

## What the importer assumed

"""


def test_the_markdown_report_in_full():
    _, facts = report_of("incident.log", klog())
    text = markdown(facts, ["r.position-14.svg", "r.position-15.svg"])
    head, assumed = text.split("## What the importer assumed\n\n")
    assert head + "## What the importer assumed\n\n" == MARKDOWN
    assert assumed == "".join(f"- {md_text(a)}\n" for a in facts["assumptions"])  # as text: `hints` as \`hints\`


def test_the_offline_file_holds_the_report_when_the_versions_part():
    from webapp.export.offline import export_html

    scenario, facts = report_of("incident.log", klog())
    html = export_html(scenario, None)
    assert 'data-testid="verdict"' in html and "worker-1 lost 308.00 s on v1.28.1 against v1.28.2" in html
    assert html.count("data:image/svg+xml;base64,") == 4 and "report-viewer-link" not in html
    alone = export_html(scenario, None, versions=["v1.28.1"])  # one version: nothing parts, no report
    assert 'data-testid="verdict"' not in alone


def test_when_no_pod_gets_back_the_report_says_nothing_is_measured():
    facts = incident_report(from_valid_dict(builtin.get("lost-marker")))
    assert facts["pods"] == []
    assert facts["no_loss"] == ("No pod failed and got back to activeQ on v1.28.2 by the end, so no time lost is "
                                f"measured; the versions part at step {facts['incident']}.")
