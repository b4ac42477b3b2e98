"""The editor's HTTP side: the page, /api/validate with line and column, trace files and their check."""

import copy
import html
import json
import re
from importlib import resources

import pytest

from webapp import create_app
from webapp.engine.trace import replay
from webapp.model.variant import VARIANTS
from webapp.scenario import builtin
from webapp.scenario.load import load_scenario
from webapp.scenario.validate import Limits
from webapp.web.editor import STARTER

LOST_MARKER = (resources.files("webapp.scenario") / "library" / "lost-marker.yaml").read_text(encoding="utf-8")
STEP_3_EVENT = "    event: PvAdd\n"  # line 40 of lost-marker.yaml
EMPTY_POP = "schema: 1\nname: empty pop\npods:\n  - {name: A}\ninitial_active: [A]\nsteps:\n  - op: pop\n  - op: pop\n"
# On v1.28.1 B is parked in unschedulablePods, on v1.28.2 it waits in backoffQ: only v1.28.2 can pop it again.
POP_B_AGAIN = LOST_MARKER + "  - {op: advance_clock, seconds: 2}\n  - op: flush_backoff\n  - {op: pop, expect: B}\n"


def textarea(page_html: str) -> str:
    body = re.search(r"<textarea[^>]*>(.*?)</textarea>", page_html, re.S)[1]
    return html.unescape(body.removeprefix("\n"))  # HTML drops one newline right after <textarea>


def post_json(client, url, obj):
    """POST ``obj`` with its keys in order (the test client's ``json=`` sorts them)."""
    return client.post(url, data=json.dumps(obj), content_type="application/json")


def check_validate(client, text, fmt=None):
    response = client.post("/api/validate", json={"text": text, "format": fmt})
    assert response.status_code == 200
    return response.json


def trace_file(client, scenario):
    response = post_json(client, "/api/trace", scenario)
    assert response.status_code == 200, response.json
    return response.json


def check_trace(client, doc):
    response = post_json(client, "/api/trace/check", doc)
    assert response.status_code == 200, response.json
    return response.json


# --- the page ------------------------------------------------------------------------------------------------
def test_editor_page_starts_from_a_builtins_file_as_written(client):
    response = client.get("/editor?scenario=lost-marker")
    assert response.status_code == 200
    assert textarea(response.get_data(as_text=True)) == LOST_MARKER


@pytest.mark.parametrize("query", ["", "?scenario=", "?scenario=%3Cscript%3Ealert(1)%3C/script%3E"])
def test_editor_page_without_a_known_builtin_starts_from_the_starter(client, query):
    page = client.get("/editor" + query).get_data(as_text=True)
    assert textarea(page) == STARTER
    assert "<script>alert" not in page


@pytest.mark.parametrize("name, quoted", [
    ("nope", "“nope”"),
    ("<script>alert(1)</script>", "“<script>alert(1)</script>”"),
    ("x" * 50, f"“{'x' * 40}…”"),  # cut short, as the viewer quotes a link's value
])
def test_editor_page_says_when_its_link_names_no_builtin(client, name, quoted):
    """QA: /editor?scenario=nope fell back to the starter without a word. It says so, in the viewer's words for its
    own links (routes.py), in the same notice (#link-notice, role alert, Dismiss)."""
    page = client.get("/editor", query_string={"scenario": name}).get_data(as_text=True)
    assert textarea(page) == STARTER
    notice = re.search(r'<div id="link-notice"[^>]*>.*?</div>', page, re.S)[0]
    assert 'role="alert"' in notice and " hidden" not in notice.split(">")[0]
    assert html.unescape(notice).count("<li>") == 1
    assert f"<li>This link names no built-in scenario {html.escape(quoted, quote=False)}. Starting from a blank " \
           "scenario instead.</li>" in notice.replace("&#34;", '"').replace("&#39;", "'")
    assert "<script>alert" not in page


@pytest.mark.parametrize("query", ["", "?scenario=", "?scenario=lost-marker", "?draft=1&scenario=gate-off"])
def test_editor_page_without_a_bad_link_has_its_notice_hidden(client, query):
    page = client.get("/editor" + query).get_data(as_text=True)
    notice = re.search(r'<div id="link-notice"[^>]*>', page)[0]
    assert " hidden" in notice and "<li>" not in page.split('id="link-notice"')[1].split("</div>")[0]


def test_the_starter_is_a_valid_scenario(client):
    assert check_validate(client, STARTER)["ok"]


# --- /api/validate -------------------------------------------------------------------------------------------
def test_valid_yaml(client):
    answer = check_validate(client, LOST_MARKER, "yaml")
    assert answer == {"ok": True, "scenario": builtin.get("lost-marker"), "total": 6, "variants_ok": list(VARIANTS),
                      "advice": []}


def test_time_that_runs_no_flush_is_pointed_out(client):
    """Hand-written, periodic flushes off: 310 s pass after B fails, and v1.28.2's B still 'backs off' at the end,
    the fix looking worse than the bug. The editor says so, and what to add; with flushes on it has nothing to
    say."""
    raw = {**builtin.get("five-minute-wait"), "periodic_flushes": False}
    raw["steps"] = raw["steps"][:6] + [{"op": "advance_clock", "seconds": 310}]
    advice = check_validate(client, json.dumps(raw), "json")["advice"]
    assert advice[:2] == [
        "v1.28.1 ends at t = 310 s with B still in unschedulablePods (its wait of 300 s at most ended at t = 300 s).",
        "v1.28.2 ends at t = 310 s with B still in backoffQ (its backoff ended at t = 1 s)."]
    assert advice[2].startswith(
        "Nothing moved it: this scenario runs no periodic flushes. Add “periodic_flushes: true”")
    assert check_validate(client, json.dumps({**raw, "periodic_flushes": True}), "json")["advice"] == []
    raw["config"] = {**raw.get("config", {}), "max_in_unschedulable": 60}  # the scenario's own limit is said
    assert "(its wait of 60 s at most ended at t = 60 s)" in check_validate(
        client, json.dumps(raw), "json")["advice"][0]


def test_a_plugin_name_like_a_catalogue_plugins_is_pointed_out(client):
    """A misspelt in-tree plugin (NodeResourceFit) is a placeholder to the model: valid, registering no event, so
    nothing ever wakes the pod it rejects. The editor says so, and which plugin it looks like; a placeholder far from
    every name (P), a catalogue name and a name its own hints give are left alone."""
    raw = builtin.get("lost-marker")
    fail = next(i for i, step in enumerate(raw["steps"]) if step["op"] == "fail")
    misspelt = copy.deepcopy(raw)
    misspelt["steps"][fail]["unschedulable_plugins"] = ["NodeResourceFit", "P", "nodeaffinity", "NodeResourceFit"]
    assert check_validate(client, json.dumps(misspelt), "json")["advice"] == [
        f"steps[{fail}].unschedulable_plugins names plugin “NodeResourceFit”, which is not one of the in-tree plugins "
        "this tool knows, and no hint names it: no event wakes a pod it rejects. Did you mean “NodeResourcesFit”?",
        f"steps[{fail}].unschedulable_plugins names plugin “nodeaffinity”, which is not one of the in-tree plugins "
        "this tool knows, and no hint names it: no event wakes a pod it rejects. Did you mean “NodeAffinity”?"]
    misspelt["hints"] = [*raw["hints"], {"event": "NodeAdd", "plugin": "NodeResourceFit", "hint": "QueueAfterBackoff"},
                         {"event": "NodeAdd", "plugin": "nodeaffinity", "hint": "QueueAfterBackoff"}]
    assert check_validate(client, json.dumps(misspelt), "json")["advice"] == []


@pytest.mark.parametrize("fmt", ["json", None])
def test_valid_json_keeps_its_key_order(client, fmt):
    scenario = builtin.get("lost-marker")
    answer = check_validate(client, json.dumps(scenario, indent=2), fmt)
    assert answer["ok"] and answer["scenario"] == scenario
    assert list(answer["scenario"]) == list(scenario)


def test_a_misspelt_event_is_reported_on_its_line(client):
    text = LOST_MARKER.replace(STEP_3_EVENT, "    event: PvAddd\n")
    answer = check_validate(client, text)
    assert answer["ok"] is False and answer["variants_ok"] == []
    [problem] = answer["problems"]
    assert problem["step"] == 3 and problem["field"] == "steps[3].event"
    assert (problem["line"], problem["column"]) == (40, 12)
    assert "did you mean 'PvAdd'" in problem["message"]


def test_json_problems_are_located(client):
    scenario = builtin.get("lost-marker")
    scenario["steps"][4]["pod"] = "Z"
    text = json.dumps(scenario, indent=2)
    [problem] = check_validate(client, text, "json")["problems"]
    assert problem["field"] == "steps[4].pod"
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.strip() == '"pod": "Z",')
    assert (problem["line"], problem["column"]) == (line, 14)


def test_a_runtime_error_is_reported_at_its_steps_line(client):
    answer = check_validate(client, EMPTY_POP)
    assert answer["ok"] is False and answer["variants_ok"] == []
    assert [(p["step"], p["field"], p["line"], p["column"]) for p in answer["problems"]] == [
        (1, "steps[1].op", 8, 9)] * 2
    assert ["pop on an empty activeQ" in p["message"] for p in answer["problems"]] == [True, True]
    assert [p["message"].endswith(f"(on {v})") for p, v in zip(answer["problems"], VARIANTS)] == [True, True]


def test_a_step_that_fails_on_one_variant_names_it_and_the_other_runs(client):
    answer = check_validate(client, POP_B_AGAIN)
    assert answer["ok"] is False and answer["variants_ok"] == ["v1.28.2"]
    [problem] = answer["problems"]
    assert problem["field"] == "steps[8].op" and problem["message"].endswith("(on v1.28.1)")
    assert problem["line"] == len(POP_B_AGAIN.splitlines())


def test_validation_runs_the_scenarios_own_versions(client):
    """A scenario that names its versions is checked on them: a pop that only 1.31 cannot make is located there
    (it was checked on v1.28.1 and v1.28.2 only, and said ok)."""
    raw = builtin.get("in-flight-update")
    assert check_validate(client, json.dumps(raw), "json")["variants_ok"] == ["v1.30.14", "v1.31.13"]
    pop_the_copy = {**raw, "steps": [*raw["steps"][:2], {"op": "pop", "expect": "A"}]}
    answer = check_validate(client, json.dumps(pop_the_copy), "json")
    assert answer["ok"] is False and answer["variants_ok"] == ["v1.30.14"]
    [problem] = answer["problems"]
    assert problem["step"] == 2 and problem["message"].endswith("(on v1.31.13)"), problem


@pytest.mark.parametrize("text, fmt, line, column", [
    ("schema: 1\nname: [x\n", None, 3, 1),
    ('{"schema": 1,\n "name": }', None, 2, 10),
    (LOST_MARKER, "json", 1, 1),  # YAML read as JSON
])
def test_parse_errors_are_reported_where_the_parser_stopped(client, text, fmt, line, column):
    [problem] = check_validate(client, text, fmt)["problems"]
    assert problem["field"] == "document" and problem["step"] is None
    assert (problem["line"], problem["column"]) == (line, column)


@pytest.mark.parametrize("text, key, line, column", [
    (LOST_MARKER + "name: again\n", "name", len(LOST_MARKER.splitlines()) + 1, 1),
    ("schema: 1\nname: x\nconfig:\n  max_backoff: 10\n  max_backoff: 1\npods: []\nsteps: []\n", "max_backoff", 5, 3),
    ("schema: 1\nname: x\npods: [{name: A, 'name': B}]\nsteps: []\n", "name", 3, 18),
])
def test_a_key_twice_in_a_yaml_mapping_is_a_located_problem(client, text, key, line, column):
    """YAML requires each key once in a mapping; the loader kept the last and dropped the first without a word."""
    [problem] = check_validate(client, text, "yaml")["problems"]
    assert problem["field"] == "document" and f"the key {key!r} is already in this mapping" in problem["message"]
    assert (problem["line"], problem["column"]) == (line, column)


@pytest.mark.parametrize("body, message", [
    (b"not json", "expected {text, format} as JSON"),
    (b"[1, 2]", "expected {text: string"),
    (b'{"format": "yaml"}', "expected {text: string"),
    (b'{"text": 7}', "expected {text: string"),
    (b'{"text": "a: 1", "format": "xml"}', 'format must be "yaml", "json" or null'),
    (b'{"text": NaN}', "NaN is not a JSON value"),
    (b"\xff\xfe{", "expected {text, format} as JSON"),
    (b'{"text": "a: 1", "formt": "json"}',  # was read as YAML without a word
     "the request body takes no field 'formt' (did you mean 'format'?); it takes text, format"),
])
def test_malformed_validate_bodies_are_400_with_a_message(client, body, message):
    response = client.post("/api/validate", data=body, content_type="application/json")
    assert response.status_code == 400
    assert message in response.json["message"]


@pytest.fixture
def roomy_client():
    """An app whose request limit leaves room for a text over the scenario limit (Limits.max_bytes)."""
    return create_app({"ASYNC_MODE": "threading", "TESTING": True, "MAX_UPLOAD_BYTES": 3 * 1024 * 1024}).test_client()


def test_oversize_text_is_rejected_by_the_scenario_limits(roomy_client):
    text = "#" * (Limits().max_bytes + 1)
    [problem] = check_validate(roomy_client, text)["problems"]
    assert problem == {"step": None, "field": "document", "message": f"larger than {Limits().max_bytes} bytes",
                       "line": 1, "column": 1}


def test_a_body_over_the_upload_limit_is_413_with_a_message(client, app):
    response = client.post("/api/validate", json={"text": "#" * app.config["MAX_UPLOAD_BYTES"]})
    assert response.status_code == 413
    assert response.json == {"message": f"the request body is larger than {app.config['MAX_UPLOAD_BYTES']} bytes",
                             "kind": "TooLarge"}


# --- trace files ---------------------------------------------------------------------------------------------
def test_trace_file_holds_the_scenario_and_a_trace_per_variant(client):
    scenario = builtin.get("lost-marker")
    doc = trace_file(client, scenario)
    assert list(doc) == ["schema", "scenario_object", "traces"]
    assert doc["schema"] == 1
    assert doc["scenario_object"] == scenario and list(doc["scenario_object"]) == list(scenario)
    loaded = load_scenario(scenario)
    assert doc["traces"] == {v: json.loads(json.dumps(replay(loaded, v))) for v in VARIANTS}


def test_trace_of_an_invalid_scenario_is_400_with_the_problems(client):
    response = client.post("/api/trace", json={"schema": 1, "name": "x", "pods": [], "steps": [{"op": "pop"}]})
    assert response.status_code == 400
    assert response.json["problems"][0]["field"] == "steps[0].op"
    assert "pop on an empty activeQ" in response.json["message"]


def test_trace_file_round_trip_matches(client):
    scenario = builtin.get("lost-marker")
    downloaded = post_json(client, "/api/trace", scenario).data
    response = client.post("/api/trace/check", data=downloaded, content_type="application/json")
    assert response.status_code == 200
    assert response.json == {
        "match": True,
        "variants": {v: {"match": True, "first_mismatch": None} for v in VARIANTS},
        "scenario_object": scenario,
    }


def test_a_trace_file_with_one_variant_is_checked_on_that_variant(client):
    doc = trace_file(client, builtin.get("lost-marker"))
    del doc["traces"]["v1.28.1"]
    assert check_trace(client, doc)["variants"] == {"v1.28.2": {"match": True, "first_mismatch": None}}


@pytest.mark.parametrize("tamper, variant, mismatch", [
    (lambda t: t["v1.28.1"]["steps"][5]["result"].update(queue="backoffQ"), "v1.28.1",
     {"step": 5, "path": "steps[5].result.queue", "recorded": "backoffQ", "replayed": "unschedulablePods"}),
    (lambda t: t["v1.28.2"]["steps"][3]["state"]["inFlightEvents"].pop(), "v1.28.2",
     {"step": 3, "path": "steps[3].state.inFlightEvents[3]", "replayed": {"event": "PvAdd", "id": "e2"}}),
    (lambda t: t["v1.28.2"]["steps"].pop(), "v1.28.2",
     {"step": 5, "path": "steps[5]", "replayed": None}),  # replayed: the whole step (checked below)
    (lambda t: t["v1.28.1"]["steps"][0]["state"].update(schedulingCycle=1.0), "v1.28.1",
     {"step": 0, "path": "steps[0].state.schedulingCycle", "recorded": 1.0, "replayed": 1}),
    (lambda t: t["v1.28.2"]["final"].update(activeQ=["B"]), "v1.28.2",
     {"step": None, "path": "final.activeQ[0]", "recorded": "B"}),
    (lambda t: t["v1.28.1"].update(scenario="renamed"), "v1.28.1",
     {"step": None, "path": "scenario", "recorded": "renamed", "replayed": "The lost marker"}),
])
def test_a_tampered_trace_reports_its_first_mismatching_step(client, tamper, variant, mismatch):
    doc = trace_file(client, builtin.get("lost-marker"))
    tamper(doc["traces"])
    answer = check_trace(client, doc)
    other = next(v for v in VARIANTS if v != variant)
    assert answer["match"] is False
    assert answer["variants"][other] == {"match": True, "first_mismatch": None}
    assert answer["variants"][variant]["match"] is False
    got = answer["variants"][variant]["first_mismatch"]
    if mismatch.get("replayed", "") is None:
        mismatch["replayed"] = trace_file(client, builtin.get("lost-marker"))["traces"][variant]["steps"][5]
    assert got == mismatch


def test_a_changed_scenario_object_no_longer_matches_its_traces(client):
    doc = trace_file(client, builtin.get("lost-marker"))
    doc["scenario_object"]["hints"][0]["hint"] = "QueueSkip"
    answer = check_trace(client, doc)
    assert answer["variants"]["v1.28.1"]["match"] is True  # B saw no events there anyway
    mismatch = answer["variants"]["v1.28.2"]["first_mismatch"]
    assert mismatch["step"] == 5 and mismatch["path"] == "steps[5].result.hint"
    assert (mismatch["recorded"], mismatch["replayed"]) == ("QueueAfterBackoff", "QueueSkip")
    assert answer["scenario_object"] == doc["scenario_object"]


def test_a_scenario_that_no_longer_runs_reports_the_failing_step(client):
    doc = trace_file(client, builtin.get("lost-marker"))
    doc["scenario_object"]["steps"].insert(0, {"op": "fail", "pod": "A"})
    answer = check_trace(client, doc)
    assert answer["match"] is False
    for variant in VARIANTS:
        mismatch = answer["variants"][variant]["first_mismatch"]
        assert (mismatch["step"], mismatch["path"]) == (0, "steps[0].pod_info")
        assert mismatch["error"].endswith(f"(on {variant})")


def test_a_trace_file_with_an_invalid_scenario_object_is_400(client):
    doc = trace_file(client, builtin.get("lost-marker"))
    doc["scenario_object"]["steps"][0]["op"] = "popp"
    response = client.post("/api/trace/check", json=doc)
    assert response.status_code == 400
    assert response.json["problems"][0]["field"] == "steps[0].op"
    assert response.json["message"].startswith("the trace file's scenario_object is not valid")


def _valid_doc():
    return {"schema": 1, "scenario_object": builtin.get("lost-marker"), "traces": {"v1.28.1": {}}}


@pytest.mark.parametrize("body, message", [
    (b"{", "expected a trace file as JSON"),
    (b"[]", "not a trace file: expected a trace file"),
    (json.dumps({**_valid_doc(), "schema": 2}).encode(), "expected schema 1, got 2"),
    (json.dumps({**_valid_doc(), "schema": True}).encode(), "expected schema 1, got true"),
    (json.dumps({**_valid_doc(), "scenario_object": "lost-marker"}).encode(), "expected scenario_object"),
    (json.dumps({**_valid_doc(), "traces": {}}).encode(), "expected traces to be an object"),
    (json.dumps({**_valid_doc(), "traces": [1]}).encode(), "expected traces to be an object"),
    (json.dumps({**_valid_doc(), "traces": {"v1.29": {}}}).encode(), "unknown variant 'v1.29'"),
    (b'{"schema": 1, "traces": Infinity}', "Infinity is not a JSON value"),
])
def test_malformed_trace_files_are_400_with_a_message(client, body, message):
    response = client.post("/api/trace/check", data=body, content_type="application/json")
    assert response.status_code == 400
    assert message in response.json["message"]


def test_a_trace_that_is_not_an_object_is_a_mismatch_not_an_error(client):
    doc = copy.deepcopy(_valid_doc())
    doc["traces"]["v1.28.1"] = "a string"
    mismatch = check_trace(client, doc)["variants"]["v1.28.1"]["first_mismatch"]
    assert mismatch["step"] is None and mismatch["path"] == "trace" and mismatch["recorded"] == "a string"
