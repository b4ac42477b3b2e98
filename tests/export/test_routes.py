"""Export routes: the built-in scenarios by id, and posted scenario objects (the editor's)."""

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from tests.web.test_http import XML_NAMESPACES
from webapp.export import offline

from .conftest import renamed


class Links(HTMLParser):
    """Every URL-valued attribute of the document's elements (script and style text is not parsed)."""

    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        self.found += [value for name, value in attrs if name in ("src", "href", "action", "srcset", "poster")]


BUNDLE = re.compile(r'<script type="application/json" id="inflight-bundle">(.*?)</script>', re.DOTALL)


def inlined_bundle(html: str) -> dict:
    [data] = BUNDLE.findall(html)
    assert not set("<>&") & set(data)
    return json.loads(data)


def test_builtin_html_is_a_self_contained_download(client):
    response = client.get("/export/lost-marker.html")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert response.headers["Content-Disposition"] == 'attachment; filename="lost-marker.html"'
    html = response.get_data(as_text=True)
    links = Links()
    links.feed(html)
    # the empty favicon, the incident report's frames as SVG images (and in-page links): nothing to fetch
    refs = [ref for ref in links.found if not ref.startswith("#")]
    assert refs[0] == "data:,"
    assert all(ref.startswith("data:image/svg+xml;base64,") for ref in refs[1:]), refs
    for namespace in XML_NAMESPACES:  # an identifier, never fetched
        html = html.replace(f'"{namespace}"', "")
    assert not re.search(r"https?://|url\(|@import|\bimport\s*\{|type=\"module\"", html)
    assert "<style>" in html and "--bg:" in html  # the stylesheet, inline
    data = inlined_bundle(html)
    assert data["scenario"]["id"] == "lost-marker"
    assert [f["position"] for f in data["frames"]] == list(range(7))
    assert data["frames"][6]["variants"]["v1.28.1"]["state"]["unschedulablePods"] == ["B"]
    assert '<option value="lost-marker" selected>The lost marker</option>' in html
    assert html.count("<option value=") == 1 + 5  # one scenario; the speed picker (the versions come with the data)


def test_posted_html_escapes_a_script_in_a_pod_name(client, lost_marker_raw):
    name = "</script><script>alert(1)</script>"
    response = client.post("/export/html", json=renamed(lost_marker_raw, "B", name))
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == 'attachment; filename="the-lost-marker.html"'
    html = response.get_data(as_text=True)
    assert "alert(1)</script>" not in html
    data = inlined_bundle(html)
    assert data["scenario"]["id"] is None
    assert data["scenario"]["pods"] == ["A", name]
    assert 'data-scenario=""' in html


@pytest.mark.parametrize("path", ["/export/no-such-scenario.html", "/export/no-such-scenario.svg"])
def test_unknown_ids_are_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "unknown built-in scenario 'no-such-scenario'" in response.json["message"]


def test_builtin_svg(client):
    response = client.get("/export/lost-marker.svg?position=5")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
    root = ET.fromstring(response.data)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert any(g.get("data-detached") == "true" for g in root.iter("{http://www.w3.org/2000/svg}g"))


def test_svg_position_defaults_to_the_start(client):
    response = client.get("/export/lost-marker.svg")
    assert response.status_code == 200
    assert b"Initial state (position 0 of 6)" in response.data


@pytest.mark.parametrize("position", ["7", "-1", "1.5", "x", "", "\u00b2"])
def test_bad_svg_positions_are_400(client, position):
    response = client.get("/export/lost-marker.svg", query_string={"position": position})
    assert response.status_code == 400
    assert response.json["message"] == f"position must be an integer in 0..6, got {position!r}"


def test_posted_svg(client, lost_marker_raw):
    response = client.post("/export/svg?position=6", json=renamed(lost_marker_raw, "B", "pod-b"))
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert b'data-pod="pod-b"' in response.data
    response = client.post("/export/svg?position=9", json=lost_marker_raw)
    assert response.status_code == 400
    assert response.json["message"] == "position must be an integer in 0..6, got '9'"


@pytest.mark.parametrize("path", ["/export/html", "/export/svg?position=1"])
def test_invalid_posted_scenarios_are_400_naming_step_and_field(client, lost_marker_raw, path):
    lost_marker_raw["steps"][3]["event"] = "NoSuchEvent"
    response = client.post(path, json=lost_marker_raw)
    assert response.status_code == 400
    assert response.json["message"].startswith("step 3, field 'steps[3].event': unknown event 'NoSuchEvent'")
    assert response.json["problems"][0]["field"] == "steps[3].event"


@pytest.mark.parametrize("body", ['"lost-marker"', "[1]", "not json"])
@pytest.mark.parametrize("path", ["/export/html", "/export/svg"])
def test_posted_bodies_must_be_scenario_objects(client, path, body):
    response = client.post(path, data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.json["message"].startswith("expected a scenario object as JSON in the request body")


def test_html_exports_are_limited_in_steps(client, monkeypatch):
    monkeypatch.setattr(offline, "MAX_STEPS", 5)
    response = client.get("/export/lost-marker.html")
    assert response.status_code == 400
    assert response.json["message"] == "an offline export holds at most 5 steps; this scenario has 6"


def test_html_exports_are_limited_in_bytes(client, monkeypatch):
    monkeypatch.setattr(offline, "MAX_FRAME_BYTES", 20_000)  # lost-marker's 7 positions take ~5 kB each
    response = client.get("/export/lost-marker.html")
    assert response.status_code == 400
    assert response.json["message"].startswith("an offline export holds at most 20,000 bytes of positions; "
                                               "this scenario passes it at position ")


def test_exports_draw_the_versions_asked_for_or_the_scenarios_own(client):
    three = client.get("/export/lost-marker.svg?position=6&versions=v1.28.1,v1.28.2,v1.30.14")
    assert three.status_code == 200
    svg = three.get_data(as_text=True)
    assert all(f'data-variant="{v}"' in svg for v in ("v1.28.1", "v1.28.2", "v1.30.14"))
    lesson = client.get("/export/in-flight-update.svg?position=3").get_data(as_text=True)
    assert 'data-variant="v1.30.14"' in lesson and 'data-variant="v1.31.13"' in lesson
    assert 'data-variant="v1.28.1"' not in lesson
    for bad in ("v1.27", "", "v1.28.1," * 60, "a,b,c,d,e"):
        answer = client.get(f"/export/lost-marker.svg?position=1&versions={bad}")
        message = answer.get_json()["message"]
        assert answer.status_code == 400 and ("versions" in message or "variants" in message), (bad, message)
