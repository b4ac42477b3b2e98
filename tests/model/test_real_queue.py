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

import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import DATA, first_difference
from webapp.model.config import NS
from webapp.model.errors import StepError
from webapp.model.events import ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_PODS
from webapp.model.versions import VERSIONS
from webapp.scenario.scenario import from_valid_dict
from webapp.scenario.validate import validate

TRACES_FILE = DATA / "real-queue-traces.jsonl.gz"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "conformance" / "real-queue-traces.jsonl.gz"

_EVENT_RESULT = ("event", "event_id", "recorded_in_flight", "moved")
# op -> the result fields REAL-QUEUE.md lists for it (ops not named here have none).
RESULT_FIELDS = {
    "pop": ("popped",),
    "fail": ("hint", "queue", "rule", "error"),
    "event": _EVENT_RESULT,
    "assigned_pod_added": _EVENT_RESULT,
    "flush_unschedulable_leftover": _EVENT_RESULT,
    "flush_backoff": ("moved_to_activeQ",),
    "update": ("event_id", "recorded_in_flight"),  # 1.31: an update of an in-flight pod is a list entry
}
EXTRA_FIELDS = {"records", "failed", "attempts", "isPodUpdated", "expect_tie_reordered"}
QUEUED = (ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_PODS)
RULE = re.compile(r"moveRequestCycle=(-?\d+) podSchedulingCycle=(-?\d+)")


# The file is written with sorted keys (compact or with a space after each colon): "id" opens each line and
# "variant" closes it, so collecting (every worker collects every test) reads the two from the ends of the line;
# the trace itself is parsed by its test. A line written otherwise is parsed whole.
_ENDS = re.compile(rb'^\{"id": ?"([^"\\]+)".*"variant": ?"([^"\\]+)"\}\s*$', re.DOTALL)


def _read_lines():
    """(id, variant, line) of every line of the file, in file order."""
    lines = []
    with gzip.open(TRACES_FILE, "rb") as f:
        for line in f:
            if line.strip():
                ends = _ENDS.match(line)
                if ends:
                    lines.append((ends[1].decode(), ends[2].decode(), line))
                else:
                    trace = json.loads(line)
                    lines.append((trace["id"], trace["variant"], line))
    return lines


ALL_LINES = _read_lines()
TRACES = [(trace_id, variant, line) for trace_id, variant, line in ALL_LINES if variant in VERSIONS]


class Mismatch(AssertionError):
    pass


def _check(where: str, what: str, got, want) -> None:
    if got != want:
        raise Mismatch(f"{where}: {first_difference(got, want, what) or f'{what}: model {got!r}, expected {want!r}'}")


def _queued_records(model) -> dict:
    """extra.records as the model knows them: Model.view() per pod, plus the second record of a pod that is
    in activeQ and in another sub-queue (keyed NAME@where, as the harness does)."""
    keys = ("where", "attempts", "plugins", "pending", "timestamp")
    records = {
        name: {key: pod[key] for key in keys if key in pod}
        for name, pod in model.view()["pods"].items()
        if pod["where"] in QUEUED
    }
    queue = model.queue
    others = ((BACKOFF_Q, queue.backoff_q.records()), (UNSCHEDULABLE_PODS, queue.unschedulable_pods.values()))
    for where, subqueue in others:
        for r in subqueue:
            if records[r.name]["where"] != where:
                second = {"where": where, "attempts": r.attempts, "plugins": sorted(r.plugins)}
                if model.queue.rules.pending_plugins:
                    second["pending"] = sorted(r.pending)
                records[f"{r.name}@{where}"] = {**second, "timestamp": r.timestamp / NS}
    return records


def _results(step: dict, result: dict, record: dict, want: dict) -> tuple[dict, dict]:
    """(model, expected) results reduced to the fields REAL-QUEUE.md lists for the op, in one rendering."""
    fields = RESULT_FIELDS.get(step["op"], ())
    unlisted = set(want) - set(fields)
    assert not unlisted, f"the trace's result has fields REAL-QUEUE.md does not list for {step['op']}: {unlisted}"
    got = {k: v for k, v in result.items() if k in fields}
    want = dict(want)
    if "rule" in got:
        numbers = record["gate_off_rule"]
        mrc, cycle = numbers["moveRequestCycle"], numbers["podSchedulingCycle"]
        branch = "moveRequestCycle>=podSchedulingCycle" if mrc >= cycle else "moveRequestCycle<podSchedulingCycle"
        # 1.29+: with no rejector plugin the pod backs off whatever the cycles say.
        expected = (branch, "no-rejector-plugins") if mrc < cycle else (branch,)
        assert got["rule"] in expected, f"the model's rule {got['rule']!r} does not follow from {numbers}"
        got["rule"] = f"moveRequestCycle={mrc} podSchedulingCycle={cycle}"
        assert "rule" not in want or RULE.fullmatch(want["rule"]), f"unexpected rule format {want['rule']!r}"
    if "error" in want:
        want["error"] = want["error"].replace(f"Pod default/{step['pod']} ", f"Pod {step['pod']} ", 1)
    return got, want


def replay(trace: dict) -> int:
    """Replay one trace line on its variant, checking every step; returns the number of steps replayed."""
    variant, scenario = trace["variant"], trace["scenario"]
    label = f"{trace['id']} on {variant}"
    assert validate(scenario) == [], f"{label}: the scenario is not valid in this project's format"
    model = from_valid_dict(scenario).model(variant)
    _check(f"{label}, initial state", "initial_state", model.state(), trace["initial_state"])
    steps, expected = scenario["steps"], trace["steps"]
    assert len(expected) == len(steps), f"{label}: {len(expected)} trace steps for {len(steps)} scenario steps"
    for i, (step, want) in enumerate(zip(steps, expected)):
        where = f"{label}, step {i} ({step['op']})"
        assert (want["step"], want["op"]) == (i, step["op"]), f"{where}: the trace has step {want['step']} {want['op']}"
        extra = want["extra"]
        assert set(extra) <= EXTRA_FIELDS, f"{where}: unknown extra fields {set(extra) - EXTRA_FIELDS}"
        head = model.queue.active_q.peek() if step["op"] == "pop" else None
        try:
            result, record = model.apply(i, step)
        except StepError as err:
            raise Mismatch(f"{where}: the model cannot apply the step: {err.field}: {err.message}") from None
        _check(where, "state", model.state(), want["state"])
        _check(where, "result", *_results(step, result, record, want["result"]))
        _check(where, "extra.records", _queued_records(model), extra["records"])
        if step["op"] == "fail":
            _check(where, "extra.failed", record.get("failed"), extra.get("failed"))
        if step["op"] == "pop":
            _check(where, "extra.attempts", model.queue.popped[result["popped"]].attempts, extra.get("attempts"))
            reordered = step.get("expect") is not None and step["expect"] != head.name
            _check(where, "extra.expect_tie_reordered", reordered, extra.get("expect_tie_reordered", False))
        if step["op"] == "update":
            assert extra.get("isPodUpdated") == step.get("changed", True), f"{where}: isPodUpdated is not `changed`"
    return len(steps)


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
    # off, whose gate-off behaviour the scenarios with `gate: false` check on v1.28.4.
    assert set(VERSIONS) - set(in_file) == {"v1.28.5"}
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
    assert TRACES_FILE.read_bytes() == SHARED.read_bytes()
