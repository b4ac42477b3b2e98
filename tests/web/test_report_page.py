"""The incident report as a page: POST /report (the log as the multipart field ``log``) and GET /report/<id>."""

import io

from tests.export.incident_logs import klog


def post_log(client, data: bytes, name: str = "incident.log"):
    return client.post(f"/report?name={name}", data={"log": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")


def test_an_imported_log_s_report_page(client):
    res = post_log(client, klog())
    assert res.status_code == 200
    page = res.get_data(as_text=True)
    assert ('data-testid="verdict"><strong>Verdict:</strong> v1.28.1 behaves as the cluster did: its replay makes '
            "every queue move the log states.") in page
    assert "worker-1 lost 308.00 s on v1.28.1 against v1.28.2" in page
    assert "its marker e1 was removed: saw nothing" in page
    assert page.count("data:image/svg+xml;base64,") == 4 and "<script" not in page.split("</main>")[0]
    assert 'href="/?inline=' in page and "position=15" in page


def test_a_built_in_s_report_page(client):
    res = client.get("/report/lost-marker")
    assert res.status_code == 200
    page = res.get_data(as_text=True)
    assert "No log: the versions part at step" in page and 'href="/?scenario=lost-marker&amp;position=' in page


def test_what_is_not_a_log_is_refused_and_names_the_file(client):
    res = post_log(client, b"hello\n", "notes.txt")
    assert res.status_code == 400 and "notes.txt" in res.get_json()["message"]
    assert client.post("/report").status_code == 400
    assert client.get("/report/no-such-scenario").status_code == 404
