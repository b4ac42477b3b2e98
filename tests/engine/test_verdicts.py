"""The versions verdicts are computed by running the model; docs/versions.md's table is the generated one."""

from pathlib import Path

from webapp.engine.trace import replay
from webapp.engine.verdicts import lost_marker_verdicts
from webapp.model.versions import VERSIONS
from webapp.presenter.verdicts import ANSWERS, markdown
from webapp.scenario.load import load_scenario, parse_text

VERSIONS_DOC = Path(__file__).resolve().parents[2] / "docs" / "versions.md"


def test_only_v1_28_1_loses_the_marker_and_each_answer_has_its_reason():
    verdicts = {v["version"]: v for v in lost_marker_verdicts()}
    assert list(verdicts) == list(VERSIONS)
    lost = verdicts.pop("v1.28.1")
    # Done(A) at step 4 removes e1, the element B's marker points at, while B is in flight; B is then parked.
    assert (lost["lost"], lost["step"], lost["why"], lost["where"]) == (True, 4, "marker-removed", "unschedulablePods")
    for name, v in verdicts.items():
        assert not v["lost"] and v["step"] is None and v["where"] == "backoffQ", name
        assert v["why"] == ("gate-off" if VERSIONS[name].rules.gate_off else "own-entry"), name


def test_the_documented_table_is_the_generated_one():
    text = VERSIONS_DOC.read_text()
    table = markdown(lost_marker_verdicts())
    assert table in text, f"docs/versions.md: replace the versions table with\n\n{table}\n"


def test_the_gate_off_reason_says_what_the_model_does():
    """v1.28.5's reason once said a failure goes to backoffQ "whenever any event arrived during the attempt": the
    scheduler passes the current cycle (schedule_one.go:1003 at v1.28.0), so an event during A's attempt that came
    before B's Pop is forgotten and A is parked; one after the latest Pop sends it to backoffQ."""
    reason = ANSWERS["gate-off"][1]
    assert "since the latest Pop of any pod" in reason and "during the attempt" not in reason
    text = """schema: 1
name: gate off, the current cycle
hints: [{event: NodeAdd, plugin: P, hint: QueueAfterBackoff}]
pods: [{name: A}, {name: B}]
initial_active: [A, B]
steps:
  - {op: pop, expect: A}
  - {op: event, event: NodeAdd}
  - {op: pop, expect: B}
  - {op: fail, pod: A, unschedulable_plugins: [P]}
"""
    before_pop = load_scenario(parse_text(text, "yaml"))
    after_pop = load_scenario(parse_text(text.replace("  - {op: event, event: NodeAdd}\n  - {op: pop, expect: B}\n",
                                                      "  - {op: pop, expect: B}\n  - {op: event, event: NodeAdd}\n"),
                                         "yaml"))
    assert replay(before_pop, "v1.28.5")["final"]["unschedulablePods"] == ["A"]
    assert replay(after_pop, "v1.28.5")["final"]["backoffQ"] == ["A"]
