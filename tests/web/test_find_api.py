"""POST /api/find runs the search of `inflight-scope find` for the page: a shrunk scenario with its explanation,
a clear 404 when nothing is found in the budget (bounded by the server), and a 4xx with {message, kind} for
every body that is not {target, seed, versions}; GET /api/operations is the palette's source."""

import json

import pytest

from webapp import create_app
from webapp.engine.find import Search, check_query
from webapp.errors import Invalid
from webapp.model.operations import OPERATIONS
from webapp.scenario.load import load_scenario
from webapp.web import find as find_module

V1, V2 = "v1.28.1", "v1.28.2"


@pytest.fixture
def app_with():
    """An app made with extra config; its idle sweeper stopped after."""
    apps = []

    def make(**config):
        app = create_app({"ASYNC_MODE": "threading", "TESTING": True, **config})
        apps.append(app)
        return app.test_client()

    yield make
    for app in apps:
        app.extensions["inflight_guard"].sweeper.stop()


# The search stops at a wall-clock budget: this seed's first generated scenario breaks an invariant, so it is
# found however busy the machine.
FIRST_TRY_SEED = 12


def test_found_an_invariant_breaking_scenario_that_replays_and_is_explained(client):
    query = {"target": "invariant", "seed": FIRST_TRY_SEED, "versions": [V1, V2]}
    answer = client.post("/api/find", json=query)
    assert answer.status_code == 200
    body = answer.get_json()
    scenario = body["scenario"]
    load_scenario(scenario)  # a valid scenario the viewer can load inline
    assert scenario["versions"] == [V1, V2] and scenario["description"] == body["explanation"]
    assert "in_flight_boundary" in body["explanation"] and V1 in body["explanation"]
    assert body["size"]["steps"] == len(scenario["steps"]) <= body["from"]["steps"]
    finding = Search("invariant", (V1, V2)).first_finding(scenario)
    assert finding is not None and body["position"] == finding.step + 1
    # the same seed gives the same answer
    again = client.post("/api/find", json=query).get_json()
    assert again["scenario"] == scenario


def test_nothing_found_in_the_budget_is_a_clear_404(app_with):
    client = app_with(FIND_BUDGET_SECONDS=0)
    answer = client.post("/api/find", json={"target": "divergence", "seed": 7})
    assert answer.status_code == 404
    assert answer.get_json()["kind"] == "NotFound" and "nothing found" in answer.get_json()["message"]


def test_the_budget_is_bounded_by_the_server(app_with, monkeypatch):
    asked = []
    monkeypatch.setattr(Search, "search", lambda self, seed, budget: asked.append(budget))
    app_with(FIND_BUDGET_SECONDS=10_000).post("/api/find", json={"seed": 1})
    assert asked == [find_module.MAX_BUDGET_SECONDS] and find_module.MAX_BUDGET_SECONDS <= 3


BAD_BODIES = {
    "not JSON": b"{target",
    "not UTF-8": b"\xff\xfe{}",
    "an array": b"[]",
    "a string": b'"divergence"',
    "null": b"null",
    "unknown field": {"target": "divergence", "budget_seconds": 100},
    "target a number": {"target": 5},
    "target null": {"target": None},
    "target a list": {"target": ["divergence"]},
    "unknown target": {"target": "everything"},
    "seed a string": {"seed": "1"},
    "seed a huge string": {"seed": "9" * 500_000},
    "seed a float": {"seed": 1.5},
    "seed a bool": {"seed": True},
    "seed negative": {"seed": -1},
    "seed too large": {"seed": 2**64},
    "seed of many digits": b'{"seed": ' + b"9" * 5000 + b"}",
    "seed an object": {"seed": {"n": 1}},
    "versions a string": {"versions": "v1.28.1,v1.28.2"},
    "versions unknown": {"versions": [V1, "v9.99.9"]},
    "versions empty": {"versions": []},
    "versions too many": {"versions": ["v1.28.1", "v1.28.2", "v1.28.4", "v1.28.5", "v1.29.9"]},
    "versions of numbers": {"versions": [1, 2]},
    "one version for a divergence": {"target": "divergence", "versions": [V2]},
    "nested deep": b'{"seed": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    "a deep body": b"[" * 100_000 + b"]" * 100_000,
}


@pytest.mark.parametrize("body", BAD_BODIES.values(), ids=BAD_BODIES.keys())
def test_bad_bodies_are_answered_4xx_with_message_and_kind(client, body):
    answer = client.post("/api/find", data=body, content_type="application/json") if isinstance(body, bytes) \
        else client.post("/api/find", json=body)
    assert 400 <= answer.status_code < 500, answer.get_data(as_text=True)[:200]
    error = answer.get_json()
    assert set(error) == {"message", "kind"} and error["kind"] != "Internal"
    assert len(error["message"]) < 400  # a huge value is not echoed back


@pytest.mark.parametrize("versions", [[V2], [V2, V2]])
def test_a_divergence_of_one_version_is_refused_by_the_engines_rule(client, versions):
    with pytest.raises(Invalid) as refused:
        check_query("divergence", versions)
    answer = client.post("/api/find", json={"target": "divergence", "versions": versions})
    assert answer.status_code == 400 and answer.get_json() == {"message": str(refused.value), "kind": "Invalid"}


@pytest.mark.parametrize("versions", ["v1.28.1", {"x": {}}, [V1, "v9.99.9"], [], [1, 2]])
def test_bad_versions_are_named_as_the_field_they_came_in(client, versions):
    """The message said 'variants must be ...' for the body's field 'versions'."""
    answer = client.post("/api/find", json={"target": "invariant", "versions": versions})
    assert answer.status_code == 400 and answer.get_json()["message"].startswith("versions: variants must be ")


def test_a_body_over_the_upload_limit_is_413(client):
    answer = client.post("/api/find", data=b'{"seed": "' + b"1" * (3 * 1024 * 1024) + b'"}',
                         content_type="application/json")
    assert answer.status_code == 413 and answer.get_json()["kind"] == "TooLarge"


def test_find_is_post_only(client):
    assert client.get("/api/find").status_code == 405


def test_operations_come_from_the_registry(client):
    body = client.get("/api/operations").get_json()
    assert [op["name"] for op in body["operations"]] == list(OPERATIONS)
    event = next(op for op in body["operations"] if op["name"] == "event")
    assert event["summary"] == OPERATIONS["event"].summary and event["kind"] == "event"
    assert event["params"][0]["name"] == "event" and "PvAdd" in event["params"][0]["choices"]
    assert json.loads(json.dumps(body)) == body
