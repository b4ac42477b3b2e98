"""GET /api/challenges lists the exercises; POST /api/challenges/<id>/check runs the scenario in the body on the
challenge's versions and answers solved or not yet with the why; every bad body is a 4xx with {message, kind},
never a 500."""

import json

import pytest

from webapp.scenario import builtin

LOST = builtin.get("lost-marker")


def test_the_list(client):
    body = client.get("/api/challenges").get_json()
    ids = [c["id"] for c in body["challenges"]]
    assert ids == ["lose-marker", "five-minutes", "unbounded-list", "sooner-retry"]
    first = body["challenges"][0]
    assert first["versions"] == ["v1.28.1"] and first["start"] in builtin.ids() and "two pods" in first["title"]


def test_check_solved_with_the_why(client):
    answer = client.post("/api/challenges/lose-marker/check", json=LOST)
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["solved"] is True and body["id"] == "lose-marker" and body["versions"] == ["v1.28.1"]
    assert body["evidence"]["step"] == 4 and body["evidence"]["pod"] == "B"
    assert "in_flight_boundary" in body["why"] and "step 5 (done A)" in body["why"]


def test_check_not_yet(client):
    answer = client.post("/api/challenges/five-minutes/check", json=LOST)
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["solved"] is False and body["evidence"]["reason"] == "not-long-enough" and "300 s" in body["why"]


def test_unknown_challenge_is_404(client):
    answer = client.post("/api/challenges/nope/check", json=LOST)
    assert answer.status_code == 404 and answer.get_json()["kind"] == "NotFound"


def deep(n):
    text = "1"
    for _ in range(n):
        text = "[" + text + "]"
    return text


BAD = {
    "not JSON": b"{not json",
    "a list": b"[1, 2]",
    "a string": b'"lost-marker"',
    "a number": b"42",
    "null": b"null",
    "wrong types": json.dumps({**LOST, "pods": "A"}).encode(),
    "a step of the wrong type": json.dumps({**LOST, "steps": [{"op": "pop", "expect": 7}]}).encode(),
    "an unknown op": json.dumps({**LOST, "steps": [{"op": "explode"}]}).encode(),
    "deep nesting": json.dumps({**LOST, "description": "x"}).encode()[:-1] + b', "x": ' + deep(5000).encode() + b"}",
    "a huge integer": json.dumps(LOST).encode()[:-1] + b', "x": 1' + b"0" * 5000 + b"}",
    "not UTF-8": b'{"name": "\xff"}',
    "a step that cannot run": json.dumps({**LOST, "steps": [{"op": "pop"}] * 3}).encode(),
}


@pytest.mark.parametrize("name", BAD)
def test_bad_bodies_are_400_with_a_kind(client, name):
    answer = client.post("/api/challenges/lose-marker/check", data=BAD[name], content_type="application/json")
    assert answer.status_code == 400, answer.get_data()[:300]
    body = answer.get_json()
    assert body["kind"] in ("Invalid", "ScenarioError", "DocumentError") and body["message"]


def test_a_huge_body_is_413(client, app):
    huge = b'{"name": "' + b"x" * (app.config["MAX_UPLOAD_BYTES"] + 10) + b'"}'
    answer = client.post("/api/challenges/lose-marker/check", data=huge, content_type="application/json")
    assert answer.status_code == 413 and answer.get_json()["kind"] == "TooLarge"


@pytest.mark.parametrize("flushes", [True, False])
def test_many_steps_within_the_limits_are_checked(client, flushes):
    steps = [{"op": "advance_clock", "seconds": 1}] * 20_000
    answer = client.post("/api/challenges/five-minutes/check",
                         json={**LOST, "periodic_flushes": flushes, "steps": [*LOST["steps"], *steps]})
    body = answer.get_json()
    assert answer.status_code == 200 and body["evidence"]["seen_step"] == 5 + 300
    # without the 1 s flush v1.28.2's B waits in backoffQ as long as v1.28.1's waits parked: no retry either
    assert body["solved"] is flushes and "backoffQ" in body["why"]
