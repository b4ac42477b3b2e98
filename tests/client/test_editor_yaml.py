"""static/js/editor-yaml.js in node: the YAML a valid scenario is converted to (the editor's Format) reads back, through
the server's own /api/validate, as the same scenario: every built-in, and strings YAML would read as something else
(or not at all) unquoted; a value written as YAML flow text reads back as itself."""

import pytest
import yaml

from tests.client.node import in_node
from webapp import create_app
from webapp.scenario import builtin


@pytest.fixture(scope="module")
def client():
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True})
    yield app.test_client()
    app.extensions["inflight_guard"].sweeper.stop()


def test_the_yaml_written_from_json_reads_back_as_the_same_scenario(client):
    tricky = {**builtin.get("lost-marker"), "name": "null", "description": "  leading spaces\nand two\n\n",
              "gate": False}
    tricky["steps"] = [{**step, "note": note} for step, note in zip(tricky["steps"], [
        "yes", "a: b # not a comment", "line one\nline two\n", "\u2028 a line separator \u0085 and NEL",
        "- a dash", "tab\tand \"quotes\" and 'single' and é ✓ 🙂"])]
    scenarios = [builtin.get(s["id"]) for s in builtin.index()] + [tricky]
    texts = in_node("editor-yaml.js", [["yamlDocument", scenario] for scenario in scenarios])
    for scenario, text in zip(scenarios, texts):
        answer = client.post("/api/validate", json={"text": text, "format": "yaml"}).get_json()
        assert answer["ok"], (scenario["name"], answer, text)
        assert answer["scenario"] == scenario


def test_a_value_as_yaml_flow_text_reads_back_as_itself():
    values = [1e-07, 1.5e21, -2.5e-10, 3, 0.5, None, True, "null", "yes", "No", "1e3", "a b", "\u0085\u2028", "é"]
    [flow] = in_node("editor-yaml.js", [["yamlValue", values]])
    assert yaml.safe_load(flow) == values, flow  # what the server's YAML reader (PyYAML, YAML 1.1) reads back
