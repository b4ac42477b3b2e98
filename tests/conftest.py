import json
from pathlib import Path

import pytest

from webapp.scenario.errors import ScenarioError

DATA = Path(__file__).parent / "data"
CASES_FILE = DATA / "cases.json"


def conformance_cases():
    return json.loads(CASES_FILE.read_text())["cases"]


@pytest.fixture
def artifacts_dir():
    path = Path(__file__).resolve().parent.parent / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path


def problem_of(call, *args, **kwargs) -> dict:
    """The one problem of the ScenarioError that ``call(*args, **kwargs)`` raises."""
    with pytest.raises(ScenarioError) as info:
        call(*args, **kwargs)
    assert len(info.value.problems) == 1
    return info.value.problems[0]
