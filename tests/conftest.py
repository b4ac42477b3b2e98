import json
from pathlib import Path

import pytest

from webapp.scenario.errors import ScenarioError

DATA = Path(__file__).parent / "data"
CASES_FILE = DATA / "cases.json"


def conformance_cases():
    return json.loads(CASES_FILE.read_text())["cases"]


def first_difference(got, want, path: str = "") -> str | None:
    """Where ``got`` (the model) first differs from ``want`` (the expected trace), as
    'path: model X, expected Y'; None when they are equal. Dict keys are visited sorted, lists in order."""
    if type(got) is not type(want) and not (_is_number(got) and _is_number(want)):
        return f"{path or '.'}: model {got!r}, expected {want!r}"
    if isinstance(want, dict):
        for key in sorted(got.keys() | want.keys(), key=str):
            here = f"{path}.{key}" if path else str(key)
            if key not in want:
                return f"{here}: model {got[key]!r}, expected no such key"
            if key not in got:
                return f"{here}: model has no such key, expected {want[key]!r}"
            found = first_difference(got[key], want[key], here)
            if found:
                return found
        return None
    if isinstance(want, list):
        for i, (g, w) in enumerate(zip(got, want)):
            found = first_difference(g, w, f"{path}[{i}]")
            if found:
                return found
        if len(got) != len(want):
            return f"{path or '.'}: model has {len(got)} items, expected {len(want)} ({got!r} vs {want!r})"
        return None
    return None if got == want else f"{path or '.'}: model {got!r}, expected {want!r}"


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


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
