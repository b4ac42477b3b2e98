"""Every trace of the newer real queues (tests/data/real-queue-traces-new.jsonl.gz, see REAL-QUEUE-NEW.md beside
it) replays step by step on its version: the lines of v1.33.0-alpha.0 (the 1.32 branch point) on v1.32.0, those of
v1.36.2 on v1.36.2. Compared as in test_real_queue.py (tests/model/realqueue.py), plus the newer fields: results
``pop.discarded``, ``pop.from``, ``activate.recorded_in_flight``/``event_ids``; state ``backoffQ_error``; records
``unschedulable_count``, ``consecutive_errors``, ``backoff_expiration``, ``backoff_heap``, ``gating_plugin``,
``gated``. A line cut before a step the release cannot run names it in ``then_refused``: the model must refuse it.

The traces' scenarios are this project's format but for three things the test translates: they carry no
``schema`` or ``name`` (schema 1, named by the line's id) and give ``flush_phase`` beside ``config`` instead of in it.
``extra.inflight_event_labels`` is the release's own label of an in-flight update entry (the list names it
UnschedulablePodUpdate, as the model does): only checked to be one label per entry the update appended.
"""

import json
from collections import Counter
from typing import Any

import pytest

from tests.conftest import DATA
from tests.model.realqueue import EXTRA_CHECKS, EXTRA_FIELDS, SHARED, Mismatch, read_lines, replay
from webapp.model.errors import StepError
from webapp.scenario.scenario import from_valid_dict
from webapp.scenario.validate import validate

TRACES_FILE = DATA / "real-queue-traces-new.jsonl.gz"
NOTES_FILE = DATA / "REAL-QUEUE-NEW.md"
# The real code's variant key -> the version that reproduces it.
VERSION_OF = {"v1.33.0-alpha.0": "v1.32.0", "v1.36.2": "v1.36.2"}

LINES = read_lines(TRACES_FILE)


def scenario_of(trace: dict[str, Any]) -> dict[str, Any]:
    """The line's scenario in this project's format (see the module's note)."""
    raw = dict(trace["scenario"])
    config = {**raw.get("config", {}), "flush_phase": raw.pop("flush_phase", 0)}
    return {"schema": 1, "name": trace["id"], **raw, "config": config}


def _labels(where, step, model, result, record, head, extra) -> None:
    """extra.inflight_event_labels: the release's own label of each entry an in-flight update appended."""
    if "inflight_event_labels" in extra:
        appended = [e for e in record["appended"] if e["kind"] == "event"]
        assert step["op"] == "update" and len(extra["inflight_event_labels"]) == len(appended) > 0, where


def replayed(trace: dict[str, Any]) -> int:
    """Replay one line on its version, then check the step it was cut before is refused; the steps replayed."""
    version, scenario = VERSION_OF[trace["variant"]], scenario_of(trace)
    model = replay(trace, version, scenario, EXTRA_FIELDS | {"inflight_event_labels"}, (*EXTRA_CHECKS, _labels))
    refused = trace.get("then_refused")
    if refused:
        step, index = refused["op"], refused["step"]
        label = f"{trace['id']} on {trace['variant']}, step {index} ({step['op']}) after the trace"
        with_step = {**scenario, "steps": [*scenario["steps"], step]}
        assert index == len(scenario["steps"]) and validate(with_step) == [], label
        # A step the version lacks refuses the whole scenario; one it cannot run now is refused by the model.
        problems = from_valid_dict(with_step).refused(version)
        if problems:
            assert [p["step"] for p in problems] == [index], f"{label}: {problems}"
        else:
            with pytest.raises(StepError):
                model.apply(index, step)
    return len(scenario["steps"])


@pytest.mark.parametrize("trace_id,variant,line", LINES, ids=[f"{v}-{t}" for t, v, _ in LINES])
def test_new_real_trace_replays_every_step(trace_id, variant, line):
    trace = json.loads(line)
    assert (trace["id"], trace["variant"]) == (trace_id, variant)
    steps = replayed(trace)
    assert steps == len(trace["steps"]) and (steps > 0 or trace.get("then_refused"))


def test_every_line_is_replayed_on_its_version():
    assert Counter(v for _, v, _ in LINES) == {"v1.33.0-alpha.0": 455, "v1.36.2": 392}
    assert sum(len(json.loads(line)["steps"]) for _, _, line in LINES) == 26_906


def test_a_mismatch_in_a_new_field_names_it():
    trace = json.loads(next(line for t, v, line in LINES if t == "change/pop-from-backoffq" and v == "v1.36.2"))
    step = next(i for i, s in enumerate(trace["steps"]) if s["result"].get("from"))
    trace["steps"][step]["result"]["from"] = "activeQ"
    with pytest.raises(Mismatch) as info:
        replayed(trace)
    assert f"step {step} (pop): result.from: model 'backoffQ', expected 'activeQ'" in str(info.value)


@pytest.mark.skipif(not SHARED.exists(), reason="no shared checkout beside this project")
@pytest.mark.parametrize("copy", [TRACES_FILE, NOTES_FILE], ids=lambda p: p.name)
def test_copy_equals_shared(copy):
    assert copy.read_bytes() == (SHARED / copy.name).read_bytes()
