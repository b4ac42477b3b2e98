"""What the editor page hands its palette: the registry operations shown first (data-palette, each one the
registry has, and GET /api/operations describes them) and the empty scenario it starts from (valid)."""

import html
import re

from webapp.model.operations import OPERATIONS
from webapp.web.editor import EMPTY, PALETTE


def attribute(page: str, name: str) -> str:
    return html.unescape(re.search(rf'{name}="([^"]*)"', page)[1])


def test_the_page_names_the_palette_operations_from_the_registry(client):
    page = client.get("/editor").get_data(as_text=True)
    assert attribute(page, "data-palette").split() == list(PALETTE)
    assert set(PALETTE) <= set(OPERATIONS)
    described = {op["name"]: op for op in client.get("/api/operations").get_json()["operations"]}
    assert set(PALETTE) <= set(described)
    assert [p["name"] for p in described["fail"]["params"]][:2] == ["pod", "unschedulable_plugins"]


def test_the_empty_scenario_is_on_the_page_and_valid(client):
    page = client.get("/editor").get_data(as_text=True)
    assert attribute(page, "data-empty") == EMPTY
    answer = client.post("/api/validate", json={"text": EMPTY}).get_json()
    assert answer["ok"] and answer["total"] == 0 and answer["scenario"]["pods"] == []


def test_the_viewer_page_loads_the_catalogue_dialog(client):
    page = client.get("/?scenario=lost-marker").get_data(as_text=True)
    # catalogue-view.js itself, or the bundle made from it (webapp/web/bundles.py), one folder below the root
    module = re.search(r'"(/static/v/\w+/)(js/catalogue-view\.js|bundle/viewer\.js)"', page)
    assert module, "the page names no versioned catalogue-view.js"
    assert client.get(module.group(1) + module.group(2)).status_code == 200
    assert client.get(module.group(1) + "css/catalogue.css").status_code == 200  # as the module finds it: ../css/
