"""The versions verdicts are computed by running the model; the README's table is the generated one."""

from pathlib import Path

from webapp.engine.verdicts import lost_marker_verdicts
from webapp.model.versions import VERSIONS
from webapp.presenter.verdicts import markdown

README = Path(__file__).resolve().parents[2] / "README.md"


def test_only_v1_28_1_loses_the_marker_and_each_answer_has_its_reason():
    verdicts = {v["version"]: v for v in lost_marker_verdicts()}
    assert list(verdicts) == list(VERSIONS)
    lost = verdicts.pop("v1.28.1")
    # Done(A) at step 4 removes e1, the element B's marker points at, while B is in flight; B is then parked.
    assert (lost["lost"], lost["step"], lost["why"], lost["where"]) == (True, 4, "marker-removed", "unschedulablePods")
    for name, v in verdicts.items():
        assert not v["lost"] and v["step"] is None and v["where"] == "backoffQ", name
        assert v["why"] == ("gate-off" if VERSIONS[name].rules.gate_off else "own-entry"), name


def test_the_readme_table_is_the_generated_one():
    text = README.read_text()
    table = markdown(lost_marker_verdicts())
    assert table in text, f"README.md: replace the versions table with\n\n{table}\n"
