"""HTTP routes: the page, the scenario library, whole-scenario replay, health."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import conformance_cases
from webapp.engine.simulation import MAX_PANES
from webapp.model.variant import VARIANTS
from webapp.model.versions import VERSIONS
from webapp.scenario import builtin

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
CASES = conformance_cases()


class Page(HTMLParser):
    """Start tags with their attributes, plus the element with id="app" and the scenario picker's options."""

    def __init__(self, html: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.options: list[dict] = []
        self._in_picker = False
        self._option: dict | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "select":
            self._in_picker = attrs.get("id") == "scenario-picker"
        elif tag == "option" and self._in_picker:
            self._option = {**attrs, "text": ""}
            self.options.append(self._option)

    def handle_endtag(self, tag):
        if tag == "select":
            self._in_picker = False
        if tag == "option":
            self._option = None

    def handle_data(self, data):
        if self._option is not None:
            self._option["text"] += data

    def by_id(self, element_id: str) -> dict:
        matches = [a for _, a in self.tags if a.get("id") == element_id]
        assert len(matches) == 1, f"expected one element with id={element_id!r}, found {len(matches)}"
        return matches[0]


def get_page(client, url="/") -> Page:
    response = client.get(url)
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    return Page(response.get_data(as_text=True))


# --- GET / -----------------------------------------------------------------------------------------
def test_index_lists_every_builtin_in_the_picker(client):
    page = get_page(client)
    assert [o["value"] for o in page.options] == builtin.ids()
    assert [o["text"] for o in page.options] == [s["name"] for s in builtin.index()]
    selected = [o["value"] for o in page.options if "selected" in o]
    assert selected == ["lost-marker"]  # DEFAULT_SCENARIO


def view(page) -> tuple:
    """(scenario, position, versions): versions None when the URL names none (the scenario's own are shown)."""
    app_el = page.by_id("app")
    return app_el["data-scenario"], app_el["data-position"], app_el.get("data-versions")


DEFAULT = None  # no versions asked for: the scenario opens on its own


def test_index_defaults(client):
    page = get_page(client)
    assert view(page) == ("lost-marker", "0", DEFAULT)
    assert page.by_id("app")["data-max-versions"] == str(MAX_PANES)


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_index_query_parameters_go_into_app_data_attributes(client, scenario_id):
    page = get_page(client, f"/?scenario={scenario_id}&position=2&versions=v1.28.2,v1.30.14")
    assert view(page) == (scenario_id, "2", "v1.28.2,v1.30.14")
    assert [o["value"] for o in page.options if "selected" in o] == [scenario_id]


@pytest.mark.parametrize("query,expected", [
    *[(f"versions={name}", name) for name in VERSIONS],
    ("versions=v1.31.13,v1.28.1,v1.28.1", "v1.28.1,v1.31.13"),  # the table's order, once each
    ("versions=v1.28.1,v1.28.2,v1.28.4,v1.29.9", "v1.28.1,v1.28.2,v1.28.4,v1.29.9"),
    # an old link's layout
    ("layout=both", ",".join(VARIANTS)),
    ("layout=v1.28.1", "v1.28.1"),
    ("layout=v1.28.2", "v1.28.2"),
    ("layout=v1.30.14", "v1.30.14"),
    ("versions=v1.28.2&layout=v1.28.1", "v1.28.2"),  # versions wins
])
def test_index_takes_versions_and_old_layouts(client, query, expected):
    assert view(get_page(client, f"/?{query}"))[2] == expected


@pytest.mark.parametrize("query,expected", [
    ("scenario=no-such-scenario", ("lost-marker", "0", DEFAULT)),
    ("scenario=", ("lost-marker", "0", DEFAULT)),
    ("scenario=../../etc/passwd&position=2", ("lost-marker", "2", DEFAULT)),
    ("layout=v1.28.3", ("lost-marker", "0", DEFAULT)),
    ("versions=", ("lost-marker", "0", DEFAULT)),
    ("versions=v1.28.3", ("lost-marker", "0", DEFAULT)),
    ("versions=v1.28.1,v1.28.2,v1.28.4,v1.28.5,v1.29.9", ("lost-marker", "0", DEFAULT)),  # more than four
    ("versions=%22%3E%3Cscript%3E", ("lost-marker", "0", DEFAULT)),
    ("position=-1", ("lost-marker", "0", DEFAULT)),
    ("position=two", ("lost-marker", "0", DEFAULT)),
    ("position=1.5", ("lost-marker", "0", DEFAULT)),
    # str.isdigit() is true for superscript digits, which int() rejects
    ("position=%C2%B2", ("lost-marker", "0", DEFAULT)),
])
def test_index_falls_back_on_unknown_values(client, query, expected):
    assert view(get_page(client, f"/?{query}")) == expected


def test_index_escapes_the_theme_parameter(client):
    html = client.get('/?theme="><script>alert(1)</script>').get_data(as_text=True)
    assert "<script>alert(1)" not in html


def test_index_references_only_local_files(client, app):
    page = get_page(client)
    refs = [a[attr] for _, a in page.tags for attr in ("src", "href") if attr in a]
    assert refs, "the page should load its stylesheet and script"
    for ref in refs:
        # the empty favicon, a file of this server, or a place in this page (the skip link)
        assert ref == "data:," or (ref.startswith("/") and not ref.startswith("//")) or ref.startswith("#"), ref
        if ref.startswith("/"):
            path = ref.split("?", 1)[0]
            assert client.get(path).status_code == 200, f"{ref} is not served"


# --- no external URL ---------------------------------------------------------------------------------
# XML namespace names are identifiers that are never fetched: the page draws SVG with createElementNS.
XML_NAMESPACES = ("http://www.w3.org/2000/svg",)
URL = re.compile(r"https?://", re.I)
# The vendored, minified socket.io client contains "https://" twice as string literals, neither of them a
# resource it loads: a link in an error message for v2 servers, and the scheme it prepends when io() is given a
# host without one (app code calls io() without a URL, so the page's own origin is used).
VENDOR_LITERALS = [
    "(more information here: https://socket.io/docs/v3/migrating-from-2-x-to-3-0/)",
    'i.protocol+"//"+t:"https://"+t',
]
LICENCE_OR_README = re.compile(r"(^|/)(LICEN[CS]E|COPYING|NOTICE|README)(\.\w+)?$", re.I)


def static_files():
    return sorted(p for p in STATIC.rglob("*") if p.is_file())


def test_rendered_page_has_no_external_url(client):
    for url in ["/", "/?scenario=gate-off&versions=v1.28.1,v1.31.13&position=2"]:
        html = client.get(url).get_data(as_text=True)
        assert not URL.search(html), URL.search(html)


def test_static_files_have_no_external_url():
    offenders = []
    for path in static_files():
        rel = path.relative_to(STATIC).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        if rel.startswith("vendor/") and LICENCE_OR_README.search(rel):
            continue
        if rel == "vendor/socket.io/socket.io.esm.min.js":
            for literal in VENDOR_LITERALS:
                assert literal in text, f"vendored socket.io changed; re-check its URLs ({literal!r} not found)"
                text = text.replace(literal, "")
        if rel.startswith("bundle/") and rel.endswith(".js"):  # the vendored socket.io again, minified anew
            text = text.replace(VENDOR_LITERALS[0], "")
            text = re.sub(r'\w+\.protocol\+"//"\+\w+:"https://"\+\w+', "", text)
        for namespace in XML_NAMESPACES:
            text = text.replace(f'"{namespace}"', "")
        offenders += [f"{rel}: ...{text[max(0, m.start() - 40):m.end() + 40]}..." for m in URL.finditer(text)]
    assert not offenders, "\n".join(offenders)


def test_no_external_src_href_url_or_import_anywhere():
    """Stricter on what loads things: attributes, CSS url(), @import, and JS import specifiers."""
    loaders = [
        re.compile(r"""\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", re.I),
        re.compile(r"""url\(\s*["']?\s*(?:https?:)?//""", re.I),
        re.compile(r"""@import\s+(?:url\()?\s*["']?\s*(?:https?:)?//""", re.I),
        re.compile(r"""\b(?:import|from)\s*\(?\s*["'](?:https?:)?//""", re.I),
    ]
    files = [p for p in static_files() if p.suffix in (".js", ".css", ".html")]
    files += sorted((ROOT / "templates").glob("*.html"))
    assert any(p.suffix == ".css" for p in files) and any(p.suffix == ".js" for p in files)
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for pattern in loaders:
            assert not pattern.search(text), f"{path}: {pattern.search(text).group(0)!r}"


def test_static_js_imports_resolve_to_served_files(client):
    for path in sorted((STATIC / "js").glob("*.js")):
        for spec in re.findall(r"""\bfrom\s+["']([^"']+)["']""", path.read_text(encoding="utf-8")):
            assert spec.startswith("."), f"{path.name} imports {spec!r}, not a relative file"
            target = (path.parent / spec).resolve()
            url = "/static/" + target.relative_to(STATIC).as_posix()
            assert client.get(url).status_code == 200, f"{path.name}: {url}"


# --- /api/scenarios ------------------------------------------------------------------------------------
def test_api_scenarios_lists_the_library(client):
    response = client.get("/api/scenarios")
    assert response.status_code == 200
    assert response.is_json
    body = response.get_json()
    assert body == builtin.index()
    assert [s["id"] for s in body] == builtin.ids()
    for s in body:
        assert set(s) == {"id", "name", "description"}
        assert isinstance(s["name"], str) and s["name"]


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_api_scenario_returns_the_raw_object(client, scenario_id):
    response = client.get(f"/api/scenarios/{scenario_id}")
    assert response.status_code == 200
    assert response.get_json() == builtin.get(scenario_id)


@pytest.mark.parametrize("scenario_id", ["no-such-scenario", "LOST-MARKER", "lost-marker.yaml", "..%2Fsecret"])
def test_api_scenario_unknown_is_404(client, scenario_id):
    assert client.get(f"/api/scenarios/{scenario_id}").status_code == 404


@pytest.mark.parametrize("method, path, status, words", [
    ("get", "/api/scenarios/no-such%00", 404, "unknown built-in scenario 'no-such\\x00'; expected one of "),
    ("get", "/api/scenarios/%ed%a0%80", 404, "unknown built-in scenario"),
    ("get", "/api/no-such-route", 404, "not found"),
    ("get", "/export/..%2f..%2fetc%2fpasswd.html", 404, "not found"),
    ("post", "/api/challenges/a%2fb/check", 404, "not found"),
    ("get", "/api/replay", 405, "not allowed"),
    ("delete", "/export/html", 405, "not allowed"),
])
def test_api_errors_are_json_for_unknown_ids_routes_and_methods(client, method, path, status, words):
    """A path parameter, a route or a method the API does not have was answered with Werkzeug's HTML page."""
    response = client.open(path, method=method.upper())
    assert response.status_code == status and response.mimetype == "application/json"
    body = response.get_json()
    assert body["kind"] in ("NotFound", "MethodNotAllowed") and words in body["message"], body
    if status == 405:
        assert "POST" in response.headers["Allow"] or "GET" in response.headers["Allow"]


def test_pages_keep_werkzeugs_own_404(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404 and response.mimetype == "text/html"


# --- POST /api/replay --------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_replay_matches_conformance_case(client, case):
    response = client.post("/api/replay", json=case["scenario"])
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert set(body) == set(VARIANTS)
    for variant, expected in case["expected"].items():
        trace = body[variant]
        assert trace["variant"] == variant
        assert trace["scenario"] == case["scenario"]["name"]
        assert len(trace["steps"]) == len(expected["steps"])
        for got, want in zip(trace["steps"], expected["steps"]):
            assert (got["step"], got["op"]) == (want["step"], want["op"])
            assert got["result"] == want["result"], f"{variant} step {want['step']} result"
            assert got["state"] == want["state"], f"{variant} step {want['step']} state"
        assert trace["final"] == expected["final"]


def test_replay_accepts_a_builtin_id(client):
    body = client.post("/api/replay", json="lost-marker").get_json()
    assert body["v1.28.1"]["steps"][5]["state"]["unschedulablePods"] == ["B"]
    assert body["v1.28.2"]["steps"][5]["state"]["backoffQ"] == ["B"]


def test_replay_runs_a_scenario_on_its_own_versions(client):
    body = client.post("/api/replay", json="in-flight-update").get_json()
    assert list(body) == ["v1.30.14", "v1.31.13"]
    assert body["v1.31.13"]["steps"][-1]["result"] == {"hint": "QueueAfterBackoff", "queue": "backoffQ"}


def broken(step_index, change):
    scenario = builtin.get("lost-marker")
    change(scenario["steps"][step_index])
    return scenario


@pytest.mark.parametrize("scenario,step,field", [
    (broken(3, lambda s: s.update(event="NoSuchEvent")), 3, "steps[3].event"),
    (broken(4, lambda s: s.update(pod="Z")), 4, "steps[4].pod"),
    (broken(5, lambda s: s.pop("pod")), 5, "steps[5].pod"),
    (broken(2, lambda s: s.update(expect="A")), 2, "steps[2].expect"),  # valid schema, fails when applied
])
def test_replay_invalid_scenario_is_400_naming_step_and_field(client, scenario, step, field):
    response = client.post("/api/replay", json=scenario)
    assert response.status_code == 400
    body = response.get_json()
    assert f"step {step}" in body["message"]
    assert field in body["message"]
    assert any(p["step"] == step and p["field"] == field for p in body["problems"]), body["problems"]


@pytest.mark.parametrize("payload", [[1, 2], 42, {"schema": 1}])
def test_replay_wrong_shape_is_400_with_a_message(client, payload):
    response = client.post("/api/replay", json=payload)
    assert response.status_code == 400
    assert response.get_json()["message"]


@pytest.mark.parametrize("data,content_type", [
    ("{not json", "application/json"),
    ("null", "application/json"),
    ("lost-marker", "text/plain"),
    ("", "application/json"),
])
def test_replay_non_json_is_400(client, data, content_type):
    response = client.post("/api/replay", data=data, content_type=content_type)
    assert response.status_code == 400
    assert "JSON" in response.get_json()["message"]


def test_replay_is_post_only(client):
    assert client.get("/api/replay").status_code == 405


def test_replay_rejects_oversized_body(client, app):
    too_big = b" " * (app.config["MAX_UPLOAD_BYTES"] + 1)
    response = client.post("/api/replay", data=too_big, content_type="application/json")
    assert response.status_code == 413


# --- /healthz --------------------------------------------------------------------------------------
def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    idle = {"running": 0, "waiting": 0}
    assert response.get_json() == {"status": "ok", "async_mode": "threading",
                                   "work": {"heavy": idle, "small": idle, "search": idle, "import": idle},
                                   "autoplays": 0}


@pytest.mark.parametrize("query", ["scenario=__inline__", "scenario=nope"])
def test_embed_falls_back_to_a_built_in_scenario(client, query):
    response = client.get(f"/embed?{query}&from=1&to=3")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'data-scenario="lost-marker"' in html and 'data-range-from="1"' in html and "data-inline" not in html


def test_an_embed_range_past_the_end_says_so(client):
    """from=9&to=12 on the six-step lost marker was clamped to 6..6 without a word."""
    html = client.get("/embed?scenario=lost-marker&from=9&to=12").get_data(as_text=True)
    assert 'data-range-from="6" data-range-to="6"' in html
    assert "This link&#39;s range runs to step 12, past the scenario&#39;s last, step 6. Showing steps 6 to 6." in html
    assert "range runs to step" not in client.get("/embed?scenario=lost-marker&from=2&to=6").get_data(as_text=True)


def test_embed_of_an_inline_scenario_keeps_it_and_its_range(client):
    html = client.get("/embed?inline=abc&from=1&to=30").get_data(as_text=True)
    assert 'data-inline="abc"' in html and 'data-range-from="1" data-range-to="30"' in html
    assert "data-range-from" not in client.get("/embed?inline=abc").get_data(as_text=True)
