"""Real logs import, edited or not: an excerpt anonymised by hand (pod "quota/pod-A", capital letters) was refused
because its names are no DNS names. Any name is read but an unsafe or unbounded one (test_hostile_names.py
BAD_PODS); one that is no Kubernetes name is kept as written, escaped wherever it goes (YAML, Markdown, HTML), and
the import says the log was edited, in its assumptions (the report's and the editor's import panel's)."""

import io

import pytest
import yaml

from tests.scenario.test_hostile_names import failing
from webapp.export.incident import imported_report
from webapp.export.report_md import markdown
from webapp.scenario.load import load_scenario, parse_text
from webapp.scenario.logs import import_logs

EDITED = ["quota/pod-A", "default/a_b", "default/a/b", "de.fault/a", "default/-a", "default/a..b", "default/a b",
          "default/é", "team/<b>pod</b>", "x/a`b*c_d", "ns/key: value # not a comment", "ns/[link](http://x)",
          "ns/&amp;", "ns/" + "Z" * 253]
SAID = "The log was edited: its pod names are not all valid Kubernetes names"


def imported(pod: str):
    return import_logs([("edited.log", io.BytesIO(failing(pod)))])


@pytest.mark.parametrize("pod", EDITED, ids=range(len(EDITED)))
def test_a_name_anonymised_by_hand_is_read_and_the_log_called_edited(pod):
    result = imported(pod)
    [said] = [a for a in result.assumptions if a.startswith(SAID)]
    assert "edited.log:1" in said and "DNS label" in said
    name = result.scenario["pods"][0]["name"]
    assert name in pod and pod.endswith(name)  # kept as written (the importer may drop the namespace)
    assert yaml.safe_load(result.yaml) == result.scenario  # the YAML holds it as text
    load_scenario(parse_text(result.yaml.encode("utf-8"), "yaml"))


def test_kubernetes_names_say_nothing_of_an_edit():
    assert not [a for a in imported("default/api-0").assumptions if a.startswith(SAID)]


@pytest.mark.parametrize("pod", ["team/<b>pod</b>", "x/a`b*c_d", "ns/[link](http://x)"])
def test_the_report_escapes_the_name_in_markdown(pod):
    _, facts = imported_report(imported(pod))
    md = markdown(facts)
    assert "<b>" not in md and "[link](http" not in md and "a`b*c" not in md
    assert any(a.startswith(SAID) for a in facts["assumptions"])

