"""The lessons on what 1.33-1.36 added (scheduling gates, pod groups, PopSpecificPod) equal the real queues: each is
built from a one-change scenario of tests/data/real-queue-traces-new.jsonl.gz (REAL-QUEUE-NEW.md's digest).

gated-pods and pop-specific are their trace's scenario with notes: every step replays on each version the lesson
opens on, checked as test_real_queue_new.py checks the trace itself (state, results, records). pod-group-backoff
sets a member of pod group g beside an ordinary pod: each one's failure equals the real failure of the grouped pod
of the trace with GenericWorkload on (the member) and off (the ordinary pod, whose failure takes the same path).
"""

from __future__ import annotations

import json

import pytest

from tests.model.realqueue import EXTRA_CHECKS, EXTRA_FIELDS, queued_records, replay
from tests.model.test_real_queue_new import LINES, VERSION_OF, _labels
from webapp.scenario import builtin
from webapp.scenario.scenario import from_valid_dict

TRACES = {(t, VERSION_OF[v]): json.loads(line) for t, v, line in LINES if t.startswith("change/")}
# lesson -> the one-change scenario it replays
REPLAYED = {"gated-pods": "change/gated-pod-ungate [EXT]", "pop-specific": "change/pop-specific [EXT]"}


@pytest.mark.parametrize("lesson", REPLAYED)
def test_the_lesson_replays_its_real_trace_on_each_version_it_opens_on(lesson):
    raw = builtin.get(lesson)
    for version in raw["versions"]:
        model = replay(TRACES[REPLAYED[lesson], version], version, raw, EXTRA_FIELDS | {"inflight_event_labels"},
                       (*EXTRA_CHECKS, _labels))
        assert model.state()["inFlightPods"], f"{lesson} on {version} ends with pods in flight"


def test_the_gated_lesson_differs_only_in_the_record_of_the_gate():
    """v1.32.0 and v1.36.2 move the same pods; v1.36.2's record of the gated pod names its gating plugin."""
    raw = builtin.get("gated-pods")
    assert raw["versions"] == ["v1.32.0", "v1.36.2"]
    gated = {v: TRACES[REPLAYED["gated-pods"], v]["steps"][0]["extra"]["records"]["G"] for v in raw["versions"]}
    assert gated["v1.32.0"]["gated"] and "gating_plugin" not in gated["v1.32.0"]
    assert gated["v1.36.2"]["gating_plugin"] == "SchedulingGates"


def _failure(trace: dict, pod: str) -> tuple[dict, dict, dict]:
    """(result, extra.failed, the failed pod's record) of the trace's fail step, named ``pod``."""
    [step] = [s for s in trace["steps"] if s["op"] == "fail"]
    return step["result"], {**step["extra"]["failed"], "pod": pod}, step["extra"]["records"]["A"]


def test_the_pod_group_lesson_fails_each_pod_as_the_real_queue_does():
    raw = builtin.get("pod-group-backoff")
    assert raw["versions"] == ["v1.36.2"] and raw["feature_gates"] == {"GenericWorkload": True}
    assert [p.get("pod_group") for p in raw["pods"]] == ["g", None]
    real = {"A": _failure(TRACES["change/pod-group-member-backoff [EXT]", "v1.36.2"], "A"),
            "B": _failure(TRACES["change/pod-group-member-backoff-gate-off [EXT]", "v1.36.2"], "B")}
    scenario = from_valid_dict(raw)
    model = scenario.model("v1.36.2")
    for i, step in enumerate(scenario.steps):
        result, record = model.apply(i, step)
        if step["op"] == "fail":
            pod = step["pod"]
            assert (result, record["failed"], queued_records(model)[pod]) == real[pod], pod
    assert model.state()["backoffQ"] == ["A"] and model.state()["unschedulablePods"] == ["B"]
