"""GET /api/plugins serves the 1.28 plugin catalogue read-only."""

from webapp.model.plugins import PLUGINS


def test_the_api_serves_the_catalogue(client):
    answer = client.get("/api/plugins")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    body = answer.get_json()
    assert body["version"] == "1.28" and body["source"]["commit"] == "cb95d464"
    assert [p["name"] for p in body["plugins"]] == list(PLUGINS)
    fit = next(p for p in body["plugins"] if p["name"] == "NodeResourcesFit")
    assert [(r["resource"], r["action_name"], r["source"], r["hint"]) for r in fit["registrations"]] == [
        ("Pod", "Delete", "framework/plugins/noderesources/fit.go:247", "QueueAfterBackoff"),
        ("Node", "Add|Update", "framework/plugins/noderesources/fit.go:248", "QueueAfterBackoff")]
    assert "NodeAdd" in fit["registrations"][1]["events"]
    assert body["events"]["PvAdd"][:2] == ["VolumeBinding", "VolumeZone"]
    assert "WildCardEvent" not in body["events"]


def test_the_api_is_read_only(client):
    assert client.post("/api/plugins", json={}).status_code == 405
