"""Every conformance case reproduces its expected result and state at every step, on both variants."""

import json
from pathlib import Path

import pytest

from tests.conftest import CASES_FILE, conformance_cases, first_difference
from webapp.scenario.scenario import from_valid_dict

SHARED = Path(__file__).resolve().parents[3] / "shared" / "conformance" / "cases.json"

CASES = [(c["id"], variant, c) for c in conformance_cases() for variant in sorted(c["expected"])]


@pytest.mark.parametrize("case_id,variant,case", CASES, ids=[f"{c}-{v}" for c, v, _ in CASES])
def test_case_reproduces_every_step(case_id, variant, case):
    model = from_valid_dict(case["scenario"]).model(variant)
    expected = case["expected"][variant]
    assert len(expected["steps"]) == len(case["scenario"]["steps"])
    for i, (step, want) in enumerate(zip(case["scenario"]["steps"], expected["steps"])):
        result, record = model.apply(i, step)
        assert (i, step["op"], result) == (want["step"], want["op"], want["result"])
        state = model.state()
        assert state == want["state"], f"state after step {i} ({step['op']}): {first_difference(state, want['state'])}"
    assert model.state() == expected["final"]


def test_there_are_cases_for_both_variants():
    assert len(CASES) >= 54
    assert {v for _, v, _ in CASES} == {"v1.28.1", "v1.28.2"}


@pytest.mark.skipif(not SHARED.exists(), reason="no shared checkout beside this project")
def test_copy_equals_shared_cases():
    assert json.loads(CASES_FILE.read_text()) == json.loads(SHARED.read_text())
