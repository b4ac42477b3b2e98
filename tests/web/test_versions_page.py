"""GET /versions and /api/versions show the computed verdicts."""

import re


def test_the_page_lists_every_version_and_marks_the_one_that_loses_the_marker(client):
    page = client.get("/versions")
    assert page.status_code == 200 and page.headers["Content-Security-Policy"].startswith("default-src 'self'")
    html = page.get_data(as_text=True)
    rows = re.findall(r'<tr data-version="([^"]+)" class="(lost|kept)">', html)
    assert rows == [("v1.28.1", "lost"), ("v1.28.2", "kept"), ("v1.28.4", "kept"), ("v1.28.5", "kept"),
                    ("v1.29.9", "kept"), ("v1.30.14", "kept"), ("v1.31.13", "kept"), ("v1.32.0", "kept"),
                    ("v1.36.2", "kept")]
    assert "yes (step 5)" in html and "only its own Done removes" in html


def test_the_api_gives_the_same_verdicts(client):
    verdicts = client.get("/api/versions").get_json()
    assert [(v["version"], v["lost"]) for v in verdicts][:2] == [("v1.28.1", True), ("v1.28.2", False)]
    assert {v["why"] for v in verdicts} == {"marker-removed", "own-entry", "gate-off"}
    verified = {v["version"]: v["verified"] for v in verdicts}
    assert verified["v1.32.0"] == "verified on v1.33.0-alpha.0's tree (the 1.32 branch point)"
    assert verified["v1.36.2"] == "verified on v1.36.2"


def test_the_page_lists_every_change_since_1_31_with_its_pr_and_what_shows_it(client):
    """Each change of the digest is a row; a lesson that shows it is a link that opens it, and every lesson of
    the course after 1.31 shows one of them."""
    from webapp.presenter.changes import CHANGES
    from webapp.scenario import builtin

    html = client.get("/versions").get_data(as_text=True)
    rows = re.findall(r'<tr data-change="([^"]+)">(.*?)</tr>', html, re.S)
    assert [trace for trace, _ in rows] == [c.trace for c in CHANGES]
    for (_, cells), change in zip(rows, CHANGES):
        assert change.upstream.replace("†", "") in cells.replace("†", "")
        if change.lesson:
            assert f'href="/?scenario={change.lesson}"' in cells
            assert change.lesson in builtin.ids()
    after_1_31 = builtin.ids()[builtin.ids().index("in-flight-update") + 1:]
    assert after_1_31 and set(after_1_31) <= {c.lesson for c in CHANGES}


def test_each_change_names_a_one_change_scenario_of_the_conformance_traces():
    import gzip
    import json
    from pathlib import Path

    from webapp.presenter.changes import CHANGES, NO_TRACE

    path = Path(__file__).resolve().parents[1] / "data" / "real-queue-traces-new.jsonl.gz"
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        ids = {json.loads(line)["id"] for line in lines}
    assert {c.trace for c in CHANGES if c.trace != NO_TRACE} <= ids
