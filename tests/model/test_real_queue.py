"""Every trace of the real kube-scheduler queue (tests/data/real-queue-traces.jsonl.gz, see
../shared/conformance/REAL-QUEUE.md) whose variant this product models replays step by step: after every step
the model's state, result and queued-pod records are the ones the real Go PriorityQueue produced.

Every line is replayed on the version it names (webapp/model/versions.py): v1.28.1, v1.28.2, v1.28.4, v1.29.9,
v1.30.14 and v1.31.13.

What is compared after each step (the fields REAL-QUEUE.md lists):
* ``state``: all of it, with the same layout and helper (``first_difference``) as cases.json; ``initial_state`` too.
* ``result``: only the fields REAL-QUEUE.md lists for the op (the model adds e.g. ``now`` to advance_clock), two of
  them rendered differently by the harness:
  - ``rule`` (gate off): the harness writes the numbers the decision was taken on, "moveRequestCycle=M
    podSchedulingCycle=C"; the model names the branch ("moveRequestCycle>=podSchedulingCycle") and keeps the
    numbers in its step record. The numbers are compared, and the model's branch must follow from them (the
    queue the pod went to is compared as ``queue``).
  - ``error``: Go prints the pod as klog.KObj, "default/NAME" (every scenario pod is in namespace default); the
    model prints the name. The namespace is stripped before comparing; the rest of the message is exact.
* ``extra.records``: where, attempts, UnschedulablePlugins and timestamp of every queued record, from
  ``Model.view()``; a pod the raw ops left in two sub-queues at once has a second record, which the harness
  keys "NAME@backoffQ" / "NAME@unschedulablePods" and view() (one record per pod) cannot show: that one is
  read from the sub-queue itself.
* ``extra.failed`` (fail: pod, plugins, attempts as AddUnschedulableIfNotPresent got them) against the step
  record's ``failed``; ``extra.attempts`` (pop) against the record Pop returned.
* ``extra.expect_tie_reordered`` (pop): the harness moved the expected pod to the head because the real heap
  had another tied pod first; compared with "the model's head before the pop is not ``expect``" (the model
  orders ties by creation too and pops the named tied pod).
* ``extra.isPodUpdated`` (update) is the harness's translation of the step's ``changed`` (an input, not an
  outcome): only checked to agree with ``changed``.
"""

import json
from collections import Counter

import pytest

from tests.conftest import DATA
from tests.model.realqueue import SHARED, Mismatch, read_lines
from tests.model.realqueue import replay as replay_on
from webapp.model.versions import VERSIONS

TRACES_FILE = DATA / "real-queue-traces.jsonl.gz"

ALL_LINES = read_lines(TRACES_FILE)
TRACES = [(trace_id, variant, line) for trace_id, variant, line in ALL_LINES if variant in VERSIONS]


def replay(trace: dict) -> int:
    """Replay one trace line on its variant, checking every step; returns the number of steps replayed."""
    replay_on(trace, trace["variant"], trace["scenario"])
    return len(trace["scenario"]["steps"])


@pytest.mark.parametrize("trace_id,variant,line", TRACES, ids=[f"{v}-{t}" for t, v, _ in TRACES])
def test_real_trace_replays_every_step(trace_id, variant, line):
    trace = json.loads(line)
    assert (trace["id"], trace["variant"]) == (trace_id, variant)
    assert replay(trace) == len(trace["steps"]) > 0


def test_every_line_is_replayed_on_its_version():
    in_file = Counter(variant for _, variant, _ in ALL_LINES)
    (mark,) = [m for m in test_real_trace_replays_every_step.pytestmark if m.name == "parametrize"]
    replayed = Counter(variant for _, variant, _ in mark.args[1])
    assert replayed == in_file and len(mark.args[1]) == len(ALL_LINES) == 1450
    # Every version the model offers has the real code's traces, except v1.28.5: v1.28.4's code with the gate
    # off, whose gate-off behaviour the scenarios with `gate: false` check on v1.28.4; v1.32.0 and v1.36.2 are
    # replayed from the newer file (test_real_queue_new.py).
    assert set(VERSIONS) - set(in_file) == {"v1.28.5", "v1.32.0", "v1.36.2"}
    # One line per scenario and version; the two default variants ran every scenario.
    lines = Counter((trace_id, variant) for trace_id, variant, _ in mark.args[1])
    assert max(lines.values()) == 1
    assert {t for t, v in lines if v == "v1.28.1"} == {t for t, v in lines if v == "v1.28.2"}


def test_a_mismatch_names_trace_variant_step_op_and_field():
    trace = json.loads(next(line for _, _, line in TRACES))
    step = next(i for i, s in enumerate(trace["steps"]) if s["state"]["activeQ"])
    trace["steps"][step]["state"]["activeQ"][0] += "-other"
    with pytest.raises(Mismatch) as info:
        replay(trace)
    message = str(info.value)
    want = trace["steps"][step]["state"]["activeQ"][0]
    assert message.startswith(f"{trace['id']} on {trace['variant']}, step {step} ({trace['steps'][step]['op']}): ")
    assert f"state.activeQ[0]: model {want[:-len('-other')]!r}, expected {want!r}" in message


@pytest.mark.skipif(not SHARED.exists(), reason="no shared checkout beside this project")
def test_copy_equals_shared_traces():
    assert TRACES_FILE.read_bytes() == (SHARED / TRACES_FILE.name).read_bytes()
