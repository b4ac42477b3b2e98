import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
CASES_FILE = DATA / "cases.json"


def conformance_cases():
    return json.loads(CASES_FILE.read_text())["cases"]


@pytest.fixture
def artifacts_dir():
    path = Path(__file__).resolve().parent.parent / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path
