"""POST /api/import: the log importer over HTTP (the editor's Import log button)."""

from pathlib import Path

import yaml

LOG = Path(__file__).resolve().parents[1] / "data" / "logs" / "five-minute-incident.json.log"


def test_a_log_becomes_a_scenario(client):
    response = client.post("/api/import", data=LOG.read_bytes(), content_type="text/plain")
    assert response.status_code == 200
    body = response.get_json()
    assert body["counts"]["used"] == 27 and body["counts"]["unknown"] == 0
    assert body["assumptions"] == body["scenario"]["assumptions"]
    assert yaml.safe_load(body["text"]) == body["scenario"]
    check = client.post("/api/validate", json={"text": body["text"], "format": "yaml"}).get_json()
    assert check["ok"] and check["variants_ok"] == ["v1.28.1", "v1.28.2"]


def test_what_is_not_a_log_is_a_400(client):
    for data in (b"", b"schema: 1\nname: x\n", bytes(range(256))):
        response = client.post("/api/import", data=data, content_type="text/plain")
        assert response.status_code == 400
        body = response.get_json()
        assert body["kind"] == "LogError" and "log" in body["message"]
