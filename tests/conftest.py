import json
from pathlib import Path

import pytest
from hypothesis import settings

from tests.profiles import PROFILE
from webapp.scenario.errors import ScenarioError

settings.load_profile(PROFILE)  # tests/profiles.py: make test's counts, or make fuzz's (deep)

DATA = Path(__file__).parent / "data"
CASES_FILE = DATA / "cases.json"


def runnable_variants(scenario) -> list[str]:
    """The default pair of variants where they can run ``scenario``, else the versions it opens on: a built-in on
    what later releases added (scheduling gates, pod groups, PopSpecificPod) names fields 1.28 refuses."""
    from webapp.model.variant import VARIANTS

    return [v for v in VARIANTS if not scenario.refused(v)] or list(scenario.versions)


def builtin_simulation(scenario_id: str):
    """A Simulation of a built-in on its runnable_variants."""
    from webapp.engine.simulation import Simulation
    from webapp.scenario.resolve import resolve

    scenario = resolve(scenario_id)[0]
    return Simulation(scenario, runnable_variants(scenario))


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
# last runs alone at the end. The longest files (seconds of test time, a quiet full run's --junitxml summed per file,
# a4eac10 at three workers, 2026-12-08, docs/benchmarks.md; every file of 10 s or more) go first; the rest follow in
# their usual order and fill the gaps. Only the order depends on these figures.
# (xdist would otherwise reorder the files by their number of tests, which puts the 1,450 real-queue traces first
# and the few long browser files last: addopts has --no-loadscope-reorder.)
LONGEST = {
    "tests/e2e/test_stage.py": 79, "tests/e2e/test_presenting_whole.py": 76, "tests/e2e/test_flow.py": 73,
    "tests/web/test_sockets.py": 51, "tests/scale/test_two_processes.py": 45, "tests/e2e/test_first_screen.py": 44,
    "tests/web/test_import_budget.py": 40, "tests/web/test_hall.py": 38, "tests/web/test_rooms.py": 35,
    "tests/e2e/test_presenting_narration.py": 31, "tests/e2e/test_editor.py": 31,
    "tests/web/test_abandoned_work.py": 30, "tests/e2e/test_since_1_31.py": 29, "tests/web/test_bad_input.py": 29,
    "tests/web/test_fuzz_entry_points.py": 27, "tests/export/test_frame_memory.py": 25,
    "tests/e2e/test_reconnect.py": 23, "tests/web/test_connections.py": 21, "tests/e2e/test_talks.py": 21,
    "tests/e2e/test_browser.py": 18, "tests/web/test_deadlines.py": 18, "tests/e2e/test_scrollytelling.py": 17,
    "tests/web/test_memory_ceiling.py": 17, "tests/e2e/test_xss.py": 17, "tests/e2e/test_vote.py": 16,
    "tests/e2e/test_screens.py": 16, "tests/web/test_http_limit.py": 16, "tests/e2e/test_traps.py": 14,
    "tests/web/test_procfile.py": 14, "tests/web/test_remote.py": 13, "tests/e2e/test_offline_export.py": 13,
    "tests/web/test_live_server.py": 12, "tests/e2e/test_first_frame.py": 12, "tests/web/test_proxies.py": 11,
    "tests/web/test_backpressure.py": 11, "tests/e2e/test_phone.py": 11, "tests/scale/test_room_votes.py": 11,
    "tests/web/test_offload_processes.py": 11, "tests/e2e/test_animated_export.py": 10,
    "tests/engine/test_find.py": 10, "tests/e2e/test_source_pane.py": 10, "tests/e2e/test_stage_layout.py": 10,
}


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: -LONGEST.get(item.nodeid.split("::", 1)[0], 0))  # stable: files keep their order
