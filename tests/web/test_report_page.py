"""The incident report as a page: POST /report (the log as the multipart field ``log``) and GET /report/<id>."""

import io
import os
import re
import time
from pathlib import Path

import pytest

from tests.export.incident_logs import klog
from tests.scenario.test_hostile_names import failing
from tests.scenario.test_logs_edited_names import SAID as EDITED_SAID
from tests.web.conftest import one_app
from tests.web.heavy_logs import heavy_form
from webapp.web.kept import KEEP_HOURS, KeptReports

# One app for the file: each test posts logs of its own and reads back only what it was answered, so they share
# its import worker (tests/web/conftest.py one_app).
app = pytest.fixture(one_app, scope="module", name="app")


def post_log(client, data: bytes, name: str = "incident.log", follow_redirects=False):
    return client.post(f"/report?name={name}", data={"log": (io.BytesIO(data), name)},
                       content_type="multipart/form-data", follow_redirects=follow_redirects)


def test_the_report_of_a_log_has_an_address_that_reloads_and_says_how_long_it_is_kept(client):
    """The page answered the POST itself: its address (/report) answered 405 on a reload."""
    res = post_log(client, klog())
    assert res.status_code == 303
    address = res.headers["Location"]
    assert re.fullmatch(r"/report/kept/[\w-]{20,}", address)
    for _ in range(2):  # loaded, then reloaded
        page = client.get(address)
        assert page.status_code == 200
        text = page.get_data(as_text=True)
        assert "worker-1 lost 308.00 s on v1.28.1 against v1.28.2" in text
        assert re.search(rf"kept until \d{{4}}-\d\d-\d\d \d\d:\d\d UTC \({KEEP_HOURS} hours after the import", text)
    md = client.get(address + ".md")
    assert md.status_code == 200 and md.mimetype == "text/markdown"
    assert "attachment" in md.headers["Content-Disposition"]
    assert md.get_data(as_text=True).startswith("# Incident report: Imported from incident.log")
    assert f'href="{address}.md" download' in text


def test_a_report_no_longer_kept_says_so(client):
    res = client.get("/report/kept/no-such-key")
    assert res.status_code == 404 and f"kept {KEEP_HOURS} hours" in res.get_json()["message"]
    assert client.get("/report/kept/no-such-key.md").status_code == 404


def test_a_built_in_s_report_downloads_as_markdown(client):
    page = client.get("/report/lost-marker").get_data(as_text=True)
    assert 'href="/report/lost-marker.md" download' in page
    md = client.get("/report/lost-marker.md")
    assert md.status_code == 200 and md.get_data(as_text=True).startswith("# Incident report: The lost marker")


def test_kept_reports_expire_and_the_oldest_go_first_past_the_bound():
    now = [1000.0]
    kept = KeptReports(keep_seconds=60, max_bytes=100, clock=lambda: now[0])
    a, until = kept.keep({"x": "a" * 30})
    assert until == 1060.0 and kept.get(a) == ({"x": "a" * 30}, 1060.0)
    b, _ = kept.keep({"x": "b" * 30})
    c, _ = kept.keep({"x": "c" * 30})  # over 100 bytes with a: a goes
    assert kept.get(a) is None and kept.get(b) and kept.get(c)
    now[0] = 1060.0
    assert kept.get(b) is None and kept.get(c) is None


def test_an_imported_log_s_report_page(client):
    res = post_log(client, klog(), follow_redirects=True)
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


def test_the_report_page_and_the_import_answer_say_so_and_escape_the_name(client):
    data = failing("team/<b>pod-A</b>")  # tests/scenario/test_logs_edited_names.py: any name is read
    answer = client.post("/api/import?name=edited.log", data=data, content_type="text/plain")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert any(a.startswith(EDITED_SAID) for a in answer.get_json()["assumptions"])
    page = client.post("/report?name=edited.log", data={"log": (io.BytesIO(data), "edited.log")},
                       content_type="multipart/form-data", follow_redirects=True).get_data(as_text=True)
    assert EDITED_SAID in page and "<b>pod-A</b>" not in page and "&lt;b&gt;pod-A&lt;/b&gt;" in page


def test_a_form_without_the_log_field_or_over_its_parts_is_refused_naming_it(client):
    res = client.post("/report?name=a.log", data={"other": (io.BytesIO(b"x"), "a.log")},
                      content_type="multipart/form-data")
    assert res.status_code == 400 and "multipart field `log`" in res.get_json()["message"]
    many = {f"f{i}": "x" for i in range(1100)}
    res = client.post("/report?name=a.log", data=many, content_type="multipart/form-data")
    assert res.status_code == 400 and "parts" in res.get_json()["message"]


def test_a_report_s_form_is_parsed_apart_from_the_event_loop(tmp_path):
    """eventlet: the event loop's thread spends on a posted report a small part of what parsing its form costs
    (measured here, in the same run, on the same body): the parse runs in the import's worker. A viewer's step
    sent once the whole form is sent is answered before the report is; both are answered (no timing asserted)."""
    import socket
    import threading

    import socketio
    from werkzeug.formparser import parse_form_data

    from tests.web.liveserver import LiveServer

    body = heavy_form()
    environ = {"REQUEST_METHOD": "POST", "CONTENT_TYPE": "multipart/form-data; boundary=b",
               "CONTENT_LENGTH": str(len(body)), "wsgi.input": io.BytesIO(body)}
    started = time.process_time()
    parse_form_data(environ, max_form_memory_size=500_000, max_form_parts=1000)
    parse_cpu = time.process_time() - started
    env = {"INFLIGHT_SCOPE_HTTP_RATE_LIMIT_PER_SECOND": "0"}
    with LiveServer("eventlet", tmp_path, env=env) as server:
        viewer = socketio.SimpleClient()
        viewer.connect(server.url, transports=["websocket"], wait_timeout=60)
        try:
            viewer.emit("load", {"scenario": "lost-marker"})
            viewer.receive(timeout=60)
            hub_before = hub_cpu(server.proc.pid)
            conn = socket.create_connection(("127.0.0.1", server.port), timeout=120)
            order: list[str] = []
            answer = []

            def post():
                head = (f"POST /report?name=a.log HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n"
                        "Content-Type: multipart/form-data; boundary=b\r\nConnection: close\r\n\r\n")
                conn.sendall(head.encode() + body)
                order.append("sent")
                answer.append(read_all(conn))
                order.append("report")

            poster = threading.Thread(target=post)
            poster.start()
            while "sent" not in order:
                poster.join(0.01)
            viewer.emit("step")
            viewer.receive(timeout=60)
            order.append("step")
            poster.join(120)
            hub_spent = hub_cpu(server.proc.pid) - hub_before
        finally:
            viewer.disconnect()
            conn.close()
        assert answer and answer[0].startswith(b"HTTP/1.1 400") and b"multipart field `log`" in answer[0]
        assert order == ["sent", "step", "report"], order
        # parsed on the loop, the loop would spend all of the parse's cost and more; apart, under half of it (its own
        # share, reading the body and answering the step, reached 0.41 of it with both cores held by busy loops)
        assert hub_spent < parse_cpu / 2, (hub_spent, parse_cpu)
    assert "Traceback" not in server.log(), server.log()


def read_all(conn) -> bytes:
    data = b""
    while chunk := conn.recv(65536):
        data += chunk
    return data


def hub_cpu(pid: int) -> float:
    """CPU seconds of the server's main thread, where eventlet's event loop runs (Linux /proc)."""
    fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
