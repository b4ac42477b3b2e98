"""Each rule of v1.32.0 and v1.36.2 (webapp/model/versions.py) decides its one-change scenario: the ``change/…``
scenario REAL-QUEUE-NEW.md's digest gives for it (from tests/data/real-queue-traces-new.jsonl.gz, with the step it
was cut before), run on the version that has the rule, gives the real release's outcome; with only this rule
switched off it gives the outcome before the change (or, for what the version lacks, a refusal)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from tests.model.realqueue import read_lines
from tests.model.test_real_queue_new import TRACES_FILE, scenario_of
from webapp.model.errors import StepError
from webapp.model.versions import VERSIONS
from webapp.scenario.errors import ScenarioError
from webapp.scenario.scenario import from_valid_dict

SCENARIOS = {(t, v): line for t, v, line in read_lines(TRACES_FILE) if t.startswith("change/")}
REFUSED = "refused"


def change(trace_id: str, variant: str = "v1.36.2") -> dict[str, Any]:
    """The change scenario of the traces' ``variant`` line, with the step it was cut before."""
    trace = json.loads(SCENARIOS[(trace_id, variant)])
    raw = scenario_of(trace)
    if trace.get("then_refused"):
        raw["steps"].append(trace["then_refused"]["op"])
    return raw


def outcome(raw: dict[str, Any], version: str, rules) -> Any:
    """({sub-queue: pods} of the non-empty ones, the last result), or REFUSED."""
    scenario = from_valid_dict(raw)
    try:
        model = scenario.model_with(version, rules)
        result = None
        for i, step in enumerate(scenario.steps):
            result = model.apply(i, step)[0]
    except (StepError, ScenarioError):
        return REFUSED
    state = model.state()
    queues = ("activeQ", "backoffQ", "unschedulablePods", "backoffQ_error")
    return {q: state[q] for q in queues if state.get(q)}, result


def gating_plugin_shown(raw: dict[str, Any], version: str, rules) -> Any:
    """The gated pod's record after the first step, as views show it."""
    scenario = from_valid_dict(raw)
    model = scenario.model_with(version, rules)
    model.apply(0, scenario.steps[0])
    return model.view()["pods"]["G"].get("gatingPlugin")


_POP_FAIL = [{"op": "pop", "expect": "A"}, {"op": "event", "event": "NodeAdd"},
             {"op": "fail", "pod": "A", "unschedulable_plugins": ["P"]}]
# 1.36: the failure handler clears the plugins Pop left; a second failure giving none is an error failure.
_FAILED_AGAIN = {"schema": 1, "name": "t", "pods": [{"name": "A"}], "initial_active": ["A"],
                 "hints": [{"event": "NodeAdd", "plugin": "P", "hint": "QueueAfterBackoff"}],
                 "steps": [*_POP_FAIL, {"op": "advance_clock", "seconds": 5}, {"op": "flush_backoff"},
                           {"op": "pop", "expect": "A"}, {"op": "fail", "pod": "A"}]}

# rule -> (version, scenario, how it is observed, with the rule, with only it switched off)
CASES: dict[str, tuple[str, dict[str, Any], Any, Any, Any]] = {
    "pop_discards_in_flight": ("v1.32.0", change("change/pop-discards-inflight-duplicate", "v1.33.0-alpha.0"),
                               outcome, ({}, {}), ({"activeQ": ["B"]}, {})),
    "activate_force_event": ("v1.32.0", change("change/activate-inflight-records-forceactivate", "v1.33.0-alpha.0"),
                             outcome, ({"backoffQ": ["A"]}, {"hint": "QueueAfterBackoff", "queue": "backoffQ"}),
                             ({"unschedulablePods": ["A"]}, {"hint": "QueueSkip", "queue": "unschedulablePods"})),
    "never_attempted_no_backoff": ("v1.32.0", change("change/never-attempted-record-no-backoff", "v1.33.0-alpha.0"),
                                   outcome, ({"activeQ": ["A"]}, {"hint": "QueueAfterBackoff", "queue": "activeQ"}),
                                   ({"backoffQ": ["A"]}, {"hint": "QueueAfterBackoff", "queue": "backoffQ"})),
    "pod_update_events": ("v1.32.0", change("change/gated-pod-ungate [EXT]", "v1.33.0-alpha.0"), outcome,
                          ({}, {"popped": "G"}), REFUSED),
    "gating_plugin": ("v1.36.2", change("change/gated-pod-ungate [EXT]"), gating_plugin_shown, "SchedulingGates",
                      None),
    "pop_from_backoff_q": ("v1.36.2", change("change/pop-from-backoffq"), outcome,
                           ({}, {"popped": "A", "from": "backoffQ"}), REFUSED),
    "error_backoff_q": ("v1.36.2", change("change/error-backoffq-not-poppable"), outcome, REFUSED,
                        ({}, {"popped": "A", "from": "backoffQ"})),
    "backing_off_at_expiry": ("v1.36.2", change("change/backoff-expiry-boundary-gate-off [EXT]"), outcome,
                              ({"activeQ": ["A"]}, {"moved_to_activeQ": ["A"]}),
                              ({"activeQ": ["A"]}, {"moved_to_activeQ": []})),
    "backoff_counts_failures": ("v1.36.2", change("change/backoff-counts-failures"), outcome,
                                ({"activeQ": ["A"]}, {"moved_to_activeQ": ["A"]}),
                                ({"backoffQ": ["A"]}, {"moved_to_activeQ": []})),
    "zero_max_backoff": ("v1.36.2", change("change/max-backoff-zero"), outcome,
                         ({"activeQ": ["A"]}, {"hint": "QueueAfterBackoff", "queue": "activeQ"}),
                         ({"backoffQ": ["A"], "backoffQ_error": ["A"]},
                          {"hint": "QueueAfterBackoff", "queue": "backoffQ"})),
    "hints_locked_on": ("v1.36.2", change("change/queueing-hints-ga", "v1.33.0-alpha.0"), outcome, REFUSED,
                        ({"unschedulablePods": ["A"]},
                         {"queue": "unschedulablePods", "rule": "moveRequestCycle<podSchedulingCycle"})),
    "plugins_cleared_at_failure": ("v1.36.2", _FAILED_AGAIN, outcome,
                                   ({"backoffQ": ["A"], "backoffQ_error": ["A"]},
                                    {"hint": "QueueAfterBackoff", "queue": "backoffQ"}),
                                   ({"unschedulablePods": ["A"]}, {"hint": "QueueSkip", "queue": "unschedulablePods"})),
    "pod_groups": ("v1.36.2", change("change/pod-group-member-backoff [EXT]"), outcome,
                   ({"backoffQ": ["A"]}, {"hint": "QueueAfterBackoff", "queue": "backoffQ"}), REFUSED),
    "pop_specific": ("v1.36.2", change("change/pop-specific [EXT]"), outcome,
                     ({"activeQ": ["B"]}, {"popped": None}), REFUSED),
}


@pytest.mark.parametrize("rule", CASES)
def test_each_new_rule_decides_its_change_scenario(rule):
    version, raw, observe, with_rule, without = CASES[rule]
    rules = VERSIONS[version].rules
    assert getattr(rules, rule), f"{version} has {rule}"
    assert observe(raw, version, rules) == with_rule
    assert observe(raw, version, replace(rules, **{rule: False})) == without


def test_the_gate_off_control_of_pod_groups_parks_the_member():
    raw = change("change/pod-group-member-backoff-gate-off [EXT]")
    assert outcome(raw, "v1.36.2", VERSIONS["v1.36.2"].rules) == (
        {"unschedulablePods": ["A"]}, {"hint": "QueueSkip", "queue": "unschedulablePods"})


def test_v1_32_refuses_what_only_v1_36_runs():
    for trace_id in ("change/pop-specific [EXT]", "change/pod-group-member-backoff [EXT]",
                     "change/pop-from-backoffq-gate-off [EXT]"):
        problems = from_valid_dict(change(trace_id)).refused("v1.32.0")
        assert problems and all("v1.32.0" in p["message"] and "v1.36.2" in p["message"] for p in problems), problems


def test_gate_off_on_v1_36_is_refused_naming_1_34():
    [problem] = from_valid_dict(change("change/queueing-hints-ga", "v1.33.0-alpha.0")).refused("v1.36.2")
    assert problem["field"] == "gate" and "1.34" in problem["message"] and "locked" in problem["message"]
