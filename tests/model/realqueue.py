"""Replaying a line of a real-queue traces file (REAL-QUEUE.md, REAL-QUEUE-NEW.md) on the model, step by step: the
machinery both replay test files share (tests/model/test_real_queue.py for 1.28-1.31, test_real_queue_new.py for
1.32 and 1.36). What is compared is documented in test_real_queue.py."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tests.conftest import first_difference
from webapp.model.errors import StepError
from webapp.model.events import ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_PODS
from webapp.model.variant import Model
from webapp.scenario.scenario import from_valid_dict
from webapp.scenario.validate import validate

SHARED = Path(__file__).resolve().parents[3] / "shared" / "conformance"

_EVENT_RESULT = ("event", "event_id", "recorded_in_flight", "moved")
# op -> the result fields REAL-QUEUE.md (and REAL-QUEUE-NEW.md) list for it (ops not named here have none).
RESULT_FIELDS = {
    "pop": ("popped", "discarded", "from"),
    "pop_specific": ("popped",),
    "fail": ("hint", "queue", "rule", "error"),
    "event": _EVENT_RESULT,
    "assigned_pod_added": _EVENT_RESULT,
    "flush_unschedulable_leftover": _EVENT_RESULT,
    "flush_backoff": ("moved_to_activeQ",),
    "update": ("event_id", "recorded_in_flight"),  # 1.31: an update of an in-flight pod is a list entry
    "activate": ("recorded_in_flight", "event_ids"),  # 1.32: ForceActivate entries of in-flight pods
}
QUEUED = (ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_PODS)
RULE = re.compile(r"moveRequestCycle=(-?\d+) podSchedulingCycle=(-?\d+)")
# A record's field in the traces -> the model view's (PodView); the traces' later fields are REAL-QUEUE-NEW.md's.
RECORD_FIELDS = {"where": "where", "attempts": "attempts", "plugins": "plugins", "pending": "pending",
                 "timestamp": "timestamp", "unschedulable_count": "unschedulableCount",
                 "consecutive_errors": "consecutiveErrors", "backoff_expiration": "backoffExpiration",
                 "backoff_heap": "backoffHeap", "gated": "gated", "gating_plugin": "gatingPlugin"}

# The files are written with sorted keys (compact or with a space after each colon): "id" opens each line and
# "variant" closes it, so collecting (every worker collects every test) reads the two from the ends of the line;
# the trace itself is parsed by its test. A line written otherwise is parsed whole.
_ENDS = re.compile(rb'^\{"id": ?"((?:[^"\\]|\\.)+)".*"variant": ?"([^"\\]+)"\}\s*$', re.DOTALL)


def read_lines(path: Path) -> list[tuple[str, str, bytes]]:
    """(id, variant, line) of every line of a traces file, in file order."""
    lines = []
    with gzip.open(path, "rb") as f:
        for line in f:
            if line.strip():
                ends = _ENDS.match(line)
                if ends:
                    lines.append((json.loads(b'"' + ends[1] + b'"'), ends[2].decode(), line))
                else:
                    trace = json.loads(line)
                    lines.append((trace["id"], trace["variant"], line))
    return lines


class Mismatch(AssertionError):
    pass


def check(where: str, what: str, got: Any, want: Any) -> None:
    if got != want:
        raise Mismatch(f"{where}: {first_difference(got, want, what) or f'{what}: model {got!r}, expected {want!r}'}")


def queued_records(model: Model) -> dict[str, dict[str, Any]]:
    """extra.records as the model knows them: Model.view() per pod, plus the second record of a pod that is
    in activeQ and in another sub-queue (keyed NAME@where, as the harness does)."""
    records = {
        name: {key: pod[shown] for key, shown in RECORD_FIELDS.items() if shown in pod}
        for name, pod in model.view()["pods"].items()
        if pod["where"] in QUEUED
    }
    queue = model.queue
    others = ((BACKOFF_Q, queue.backoff_q.records()), (UNSCHEDULABLE_PODS, queue.unschedulable_pods.values()))
    for where, subqueue in others:
        for r in subqueue:
            if records[r.name]["where"] != where:
                shown = queue._record_view(r, where)
                records[f"{r.name}@{where}"] = {key: shown[view] for key, view in RECORD_FIELDS.items()
                                                if view in shown}
    return records


def results(step: Mapping[str, Any], result: Mapping[str, Any], record: Mapping[str, Any], want: Mapping[str, Any]
            ) -> tuple[dict[str, Any], dict[str, Any]]:
    """(model, expected) results reduced to the fields the traces list for the op, in one rendering."""
    fields = RESULT_FIELDS.get(step["op"], ())
    unlisted = set(want) - set(fields)
    assert not unlisted, f"the trace's result has fields the traces' notes do not list for {step['op']}: {unlisted}"
    got = {k: v for k, v in result.items() if k in fields}
    expected = dict(want)
    if "rule" in got:
        numbers = record["gate_off_rule"]
        mrc, cycle = numbers["moveRequestCycle"], numbers["podSchedulingCycle"]
        branch = "moveRequestCycle>=podSchedulingCycle" if mrc >= cycle else "moveRequestCycle<podSchedulingCycle"
        # 1.29+: with no rejector plugin the pod backs off whatever the cycles say.
        allowed = (branch, "no-rejector-plugins") if mrc < cycle else (branch,)
        assert got["rule"] in allowed, f"the model's rule {got['rule']!r} does not follow from {numbers}"
        got["rule"] = f"moveRequestCycle={mrc} podSchedulingCycle={cycle}"
        assert "rule" not in expected or RULE.fullmatch(expected["rule"]), f"unexpected rule {expected['rule']!r}"
    if "error" in expected:
        expected["error"] = expected["error"].replace(f"Pod default/{step['pod']} ", f"Pod {step['pod']} ", 1)
    return got, expected


# A trace's extra fields -> how a step checks it: (where, step, model, result, record, head before, extra).
ExtraCheck = Callable[[str, Mapping[str, Any], Model, Mapping[str, Any], Mapping[str, Any], Any, Mapping[str, Any]],
                      None]


def _failed(where, step, model, result, record, head, extra) -> None:
    if step["op"] == "fail":
        check(where, "extra.failed", record.get("failed"), extra.get("failed"))


def _attempts(where, step, model, result, record, head, extra) -> None:
    if step["op"] == "pop":
        check(where, "extra.attempts", model.queue.popped[result["popped"]].attempts, extra.get("attempts"))
        reordered = step.get("expect") is not None and step["expect"] != head
        check(where, "extra.expect_tie_reordered", reordered, extra.get("expect_tie_reordered", False))


def _updated(where, step, model, result, record, head, extra) -> None:
    if step["op"] == "update":
        assert extra.get("isPodUpdated") == step.get("changed", True), f"{where}: isPodUpdated is not `changed`"


EXTRA_CHECKS: tuple[ExtraCheck, ...] = (_failed, _attempts, _updated)
EXTRA_FIELDS = {"records", "failed", "attempts", "isPodUpdated", "expect_tie_reordered"}


def replay(trace: Mapping[str, Any], variant: str, scenario: dict[str, Any], extra_fields: set[str] = EXTRA_FIELDS,
           extra_checks: tuple[ExtraCheck, ...] = EXTRA_CHECKS) -> Model:
    """Replay one trace line on ``variant`` with ``scenario`` (the line's, in this project's format), checking
    every step; returns the model after the last one."""
    label = f"{trace['id']} on {trace['variant']}"
    assert validate(scenario) == [], f"{label}: the scenario is not valid in this project's format"
    model = from_valid_dict(scenario).model(variant)
    check(f"{label}, initial state", "initial_state", model.state(), trace["initial_state"])
    steps, expected = scenario["steps"], trace["steps"]
    assert len(expected) == len(steps), f"{label}: {len(expected)} trace steps for {len(steps)} scenario steps"
    for i, (step, want) in enumerate(zip(steps, expected)):
        where = f"{label}, step {i} ({step['op']})"
        assert (want["step"], want["op"]) == (i, step["op"]), f"{where}: the trace has step {want['step']} {want['op']}"
        extra = want["extra"]
        assert set(extra) <= extra_fields, f"{where}: unknown extra fields {set(extra) - extra_fields}"
        head = model.queue.next_pop() if step["op"] == "pop" else None
        try:
            result, record = model.apply(i, step)
        except StepError as err:
            raise Mismatch(f"{where}: the model cannot apply the step: {err.field}: {err.message}") from None
        check(where, "state", model.state(), want["state"])
        check(where, "result", *results(step, result, record, want["result"]))
        check(where, "extra.records", queued_records(model), extra["records"])
        for extra_check in extra_checks:
            extra_check(where, step, model, result, record, head, extra)
    return model
