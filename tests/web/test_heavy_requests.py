"""HTTP routes that replay a whole scenario are bounded: a scenario whose in-flight list keeps growing makes a
trace quadratic in its steps (pop, then 3,000 events: ~4.5 M list entries per variant), so it is refused at the
step where the bound is passed, and the editor's dry run keeps no trace at all."""

import json

import pytest

from webapp import create_app

EVENTS = 3_000
GROWING = {"schema": 1, "name": "growing", "pods": [{"name": "A"}], "initial_active": ["A"],
           "steps": [{"op": "pop"}] + [{"op": "event", "event": "PvAdd"}] * EVENTS}


@pytest.fixture
def small_app():
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True, "MAX_TRACE_ENTRIES": 10_000,
                      "MAX_SESSION_BYTES": 256 * 1024})
    yield app
    app.extensions["inflight_guard"].sweeper.stop()


@pytest.fixture
def small(small_app):
    return small_app.test_client()


@pytest.mark.parametrize("route", ["/api/replay", "/api/trace"])
def test_a_trace_over_the_bound_is_refused_at_its_step(small, route):
    response = small.post(route, json=GROWING)
    assert response.status_code == 400
    [problem] = response.json["problems"]
    assert problem["field"] == "steps" and 100 < problem["step"] < 200  # 10,000 entries: ~n²/2 by step ~140
    assert "too large to build here" in problem["message"] and "10,000 entries" in problem["message"]


@pytest.mark.parametrize("route", ["/api/replay", "/api/trace"])
def test_a_trace_within_the_bound_is_answered(small, route):
    response = small.post(route, json={**GROWING, "steps": GROWING["steps"][:50]})
    assert response.status_code == 200
    traces = response.json["traces"] if route == "/api/trace" else response.json
    assert len(traces["v1.28.2"]["steps"]) == 50


def test_the_editor_dry_run_keeps_no_trace(small):
    response = small.post("/api/validate", json={"text": json.dumps(GROWING), "format": "json"})
    assert response.status_code == 200
    assert response.json["ok"] is True and response.json["total"] == EVENTS + 1
    assert response.json["variants_ok"] == ["v1.28.1", "v1.28.2"]


def test_checking_a_trace_file_replays_only_as_far_as_it_matches(small):
    doc = {"schema": 1, "scenario_object": GROWING,
           "traces": {"v1.28.2": {"schema": 1, "scenario": "growing", "variant": "v1.28.2",
                                  "steps": [{"step": 0, "op": "pop", "result": {"pod": "B"}}]}}}
    response = small.post("/api/trace/check", json=doc)
    assert response.status_code == 200
    mismatch = response.json["variants"]["v1.28.2"]["first_mismatch"]
    assert mismatch["step"] == 0 and mismatch["path"].startswith("steps[0].result")


@pytest.mark.parametrize("route", ["/export/svg?position=1", "/export/html"])
def test_an_export_builds_its_simulation_under_the_session_bound(small, route):
    response = small.post(route, json={**GROWING, "steps": GROWING["steps"][:1_500]})  # offline files: 2,000 at most
    assert response.status_code == 400
    assert response.json["message"].startswith("this scenario is too large to step through here: by step ")
