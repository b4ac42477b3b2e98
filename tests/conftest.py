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


# --- the order files are handed out in ----------------------------------------------------------------------
# pytest-xdist (--dist loadfile) gives each worker the next file in collection order, so a long file picked up
# last runs alone at the end. The longest files (seconds of test time, `pytest --durations=0` summed per file, a
# whole run on two cores kept busy by other jobs, 2026-12-03) go first; the rest follow in their usual order and
# fill the gaps. Only the order depends on these figures. (xdist would otherwise reorder the files by their number
# of tests, which puts the 1,450 real-queue traces first and the few long browser files last: addopts has
# --no-loadscope-reorder.)
LONGEST = {
    "tests/e2e/test_stage.py": 311, "tests/e2e/test_flow.py": 286, "tests/e2e/test_reconnect.py": 136,
    "tests/scale/test_two_processes.py": 99, "tests/e2e/test_xss.py": 89, "tests/e2e/test_editor.py": 86,
    "tests/e2e/test_browser.py": 84, "tests/e2e/test_talks.py": 82, "tests/web/test_live_server.py": 72,
    "tests/model/test_real_queue.py": 66, "tests/e2e/test_screens.py": 49, "tests/e2e/test_traps.py": 46,
    "tests/model/test_properties.py": 42, "tests/web/test_bad_input.py": 34, "tests/web/test_sockets.py": 32,
    "tests/web/test_procfile.py": 31, "tests/e2e/test_offline_export.py": 30, "tests/client/test_delta_fold.py": 24,
    "tests/web/test_limits.py": 24, "tests/web/test_offload_processes.py": 23,
}


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: -LONGEST.get(item.nodeid.split("::", 1)[0], 0))  # stable: files keep their order
