"""Security headers: a strict CSP on every page and response, its exceptions (/embed, the offline download,
the SVG export), and the markup and scripts that make such a policy possible (no inline script, no inline style but
the pages' own stylesheet where a page draws its first frame, allowed by its hash)."""

import base64
import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from webapp.scenario import builtin
from webapp.server import security
from webapp.web import export

ROOT = Path(__file__).resolve().parents[2]
BRIEF_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
                "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'")
PAGES = ["/", "/?room=ABCDEF", "/present", "/editor", "/editor?scenario=lost-marker"]
OTHER_RESPONSES = ["/api/scenarios", "/api/scenarios/lost-marker", "/healthz", "/static/js/app.js",
                   "/static/css/app.css", "/no-such-page", "/api/scenarios/nope", "/r/ABCDEF"]


@pytest.fixture
def lost_marker_raw():
    return builtin.get("lost-marker")


def directives(policy: str) -> dict[str, str]:
    return {d.split()[0]: " ".join(d.split()[1:]) for d in (p.strip() for p in policy.split(";")) if d}


def assert_common_headers(response):
    h = response.headers
    assert h["X-Content-Type-Options"] == "nosniff"
    assert h["Referrer-Policy"] == "no-referrer"
    assert h["Cross-Origin-Opener-Policy"] == "same-origin"
    permissions = h["Permissions-Policy"]
    for feature in ("camera", "microphone", "geolocation", "usb", "payment"):
        assert f"{feature}=()" in permissions


def page_policy(html: str, policy: str = BRIEF_POLICY) -> str:
    """``policy`` as a page with ``html`` is served it: a page that carries its stylesheet inline (its first frame,
    webapp/web/inline_style.py) has that one <style> allowed by its hash."""
    styles = [text for attrs, text in Tags(html).script_text if attrs["tag"] == "style"]
    return policy.replace("style-src 'self'", f"style-src 'self' {sha256_source(styles[0])}") if styles else policy


@pytest.mark.parametrize("url", PAGES + OTHER_RESPONSES)
def test_every_response_carries_the_strict_policy_and_the_common_headers(client, url):
    response = client.get(url)
    assert response.headers["Content-Security-Policy"] == page_policy(response.get_data(as_text=True))
    assert response.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert_common_headers(response)


def test_the_page_policy_allows_no_inline_script_style_or_eval():
    policy = directives(security.PAGE_POLICY)
    for directive in ("default-src", "script-src", "style-src"):
        assert "unsafe" not in policy[directive] and "data:" not in policy[directive]
    assert policy["script-src"] == "'self'" and policy["object-src"] == "'none'" and policy["base-uri"] == "'none'"


def test_post_responses_and_errors_carry_it_too(client):
    for response in (client.post("/api/replay", data="nope"), client.post("/api/validate", json={"text": "x"})):
        assert response.headers["Content-Security-Policy"] == BRIEF_POLICY
        assert_common_headers(response)
    refused = client.post("/export/html", json=[])  # the download's route: its (stricter) policy, even for a 400
    assert refused.status_code == 400
    assert refused.headers["Content-Security-Policy"] == security.DOWNLOAD_POLICY


def test_embed_may_be_framed_by_any_page(client):
    response = client.get("/embed?scenario=lost-marker&from=1&to=4")
    assert response.status_code == 200
    policy = directives(response.headers["Content-Security-Policy"])
    # no frame-ancestors at all: "*" would still refuse file:// slide decks and opaque-origin hosts
    assert "frame-ancestors" not in policy
    assert "X-Frame-Options" not in response.headers
    assert policy["script-src"] == "'self'"
    assert response.headers["Content-Security-Policy"] == page_policy(response.get_data(as_text=True),
                                                                      security.EMBED_POLICY)
    assert_common_headers(response)


@pytest.mark.parametrize("method,url", [("get", "/export/lost-marker.html"), ("post", "/export/html")])
def test_the_offline_download_is_sandboxed_when_served(client, lost_marker_raw, method, url):
    response = client.get(url) if method == "get" else client.post(url, json=lost_marker_raw)
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith("attachment;")
    policy = directives(response.headers["Content-Security-Policy"])
    assert "sandbox" in policy and policy["default-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert_common_headers(response)


@pytest.mark.parametrize("method,url", [("get", "/export/lost-marker.svg?position=2"), ("post", "/export/svg")])
def test_the_svg_export_keeps_its_own_policy(client, lost_marker_raw, method, url):
    response = client.get(url) if method == "get" else client.post(url, json=lost_marker_raw)
    assert response.status_code == 200
    assert response.headers["Content-Security-Policy"] == export.SVG_POLICY
    assert_common_headers(response)


# --- the markup and scripts the policy needs --------------------------------------------------------------
class Tags(HTMLParser):
    def __init__(self, html: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.script_text: list[tuple[dict, str]] = []
        self._script: dict | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag in ("script", "style"):
            self._script = {**attrs, "tag": tag}
            self.script_text.append((self._script, ""))

    def handle_data(self, data):
        if self._script is not None:
            attrs, text = self.script_text[-1]
            self.script_text[-1] = (attrs, text + data)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._script = None


def served_pages(client):
    for url in PAGES + ["/embed?scenario=lost-marker", "/?inline=abc&position=2"]:
        response = client.get(url)
        assert response.status_code == 200, url
        yield url, response.get_data(as_text=True)


def test_served_pages_have_no_inline_script_style_or_handlers(client):
    """None but the stylesheet of a page that draws its first frame, the bundle's own text, allowed by its hash."""
    bundled = (ROOT / "static" / "bundle" / "pages.css").read_text(encoding="utf-8")
    for url, html in served_pages(client):
        page = Tags(html)
        for tag, attrs in page.tags:
            assert "style" not in attrs, (url, tag, attrs)
            assert not [a for a in attrs if a.lower().startswith("on")], (url, tag, attrs)
            assert not str(attrs.get("href", "")).lower().startswith("javascript:"), (url, tag, attrs)
        styles = [text for attrs, text in page.script_text if attrs["tag"] == "style"]
        assert styles in ([], [bundled]), f"{url}: an inline <style> element that is not the pages' stylesheet"
        assert bool(styles) == ('id="first-frame"' in html), url
        for attrs, text in page.script_text:
            if attrs["tag"] == "script":
                assert attrs.get("src") and not text.strip(), f"{url}: an inline script {text[:80]!r}"


def test_templates_have_no_inline_style_attributes_or_handlers():
    for path in (ROOT / "templates").glob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\sstyle\s*=", text), path.name
        assert not re.search(r"\son[a-z]+\s*=", text, re.IGNORECASE), path.name


def test_scripts_never_parse_html_or_strings_as_code_or_set_style_attributes():
    forbidden = re.compile(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|"
                           r"setAttribute\(\s*[\"']style|setAttribute\(\s*[\"']on|\.cssText|javascript:")
    for path in (ROOT / "static" / "js").glob("*.js"):
        hits = [line for line in path.read_text(encoding="utf-8").splitlines() if forbidden.search(line)]
        assert not hits, f"{path.name}: {hits}"


def sha256_source(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_the_offline_file_allows_exactly_its_own_inline_script_and_style(client):
    html = client.get("/export/lost-marker.html").get_data(as_text=True)
    page = Tags(html)
    metas = [a for t, a in page.tags if t == "meta" and a.get("http-equiv", "").lower() == "content-security-policy"]
    assert len(metas) == 1
    policy = directives(metas[0]["content"])
    assert policy["default-src"] == "'none'" and "connect-src" not in policy  # nothing fetched, from file:// too
    runnable = [(a, text) for a, text in page.script_text
                if a["tag"] == "script" and a.get("type") != "application/json"]
    styles = [text for a, text in page.script_text if a["tag"] == "style"]
    assert len(runnable) == 1 and len(styles) == 1
    assert policy["script-src"] == sha256_source(runnable[0][1])
    assert policy["style-src"] == sha256_source(styles[0])
    assert "unsafe" not in metas[0]["content"]
