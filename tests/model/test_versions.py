"""Each row of the version table (webapp/model/versions.py) has a built-in lesson: the smallest scenario we found
that behaves differently on the version before the change and on the version that made it. Checked both ways:

* on the two versions, each gives the outcome its release gives (the old one the old, the new one the new);
* the difference is that row's change and nothing else: the new version with the row's rules switched off
  behaves as the old one, and the old version with them switched on behaves as the new one.

And the versions compose: each one is the one before it plus its row's rules.
"""

from dataclasses import fields, replace

import pytest

from tests.model.test_new_rules import CASES as NEW_RULE_CASES
from webapp.model.versions import VERSIONS, Rules
from webapp.scenario import builtin
from webapp.scenario.scenario import from_valid_dict

# lesson id -> (old version, new version, the rules that changed, what to compare, old outcome, new outcome)
ROWS = {
    "pop-clears-plugins": ("v1.28.2", "v1.28.4", {"pop_clears_plugins"}, "last result",
                           {"hint": "QueueSkip", "queue": "unschedulablePods"},
                           {"hint": "QueueAfterBackoff", "queue": "backoffQ"}),
    "gate-default-off": ("v1.28.4", "v1.28.5", {"gate_off"}, "last result",
                         {"hint": "QueueSkip", "queue": "unschedulablePods"},
                         {"queue": "backoffQ", "rule": "moveRequestCycle>=podSchedulingCycle"}),
    "no-rejector-backoff": ("v1.28.4", "v1.29.9", {"pending_plugins", "no_rejector_backoff"}, "last result",
                            {"hint": "QueueSkip", "queue": "unschedulablePods"},
                            {"hint": "QueueAfterBackoff", "queue": "backoffQ"}),
    "ignored-events": ("v1.29.9", "v1.30.14", {"events_of_interest", "wildcard_registration"}, "list after step 1",
                       [{"pod": "A"}, {"event": "NodeAdd", "id": "e1"}], [{"pod": "A"}]),
    "in-flight-update": ("v1.30.14", "v1.31.13",
                         {"in_flight_update_event", "unschedulable_update_by_hint", "not_in_flight_backoff",
                          "activate_in_active_q"}, "last result",
                         {"error": "Pod A is already present in the active queue"},
                         {"hint": "QueueAfterBackoff", "queue": "backoffQ"}),
}


def run(scenario, variant: str, rules=None) -> list[tuple[dict, dict]]:
    """(result, state) after every step."""
    model = scenario.model(variant) if rules is None else scenario.model_with(variant, rules)
    return [(model.apply(i, step)[0], model.state()) for i, step in enumerate(scenario.steps)]


def observed(run_: list, what: str):
    if what == "last result":
        return run_[-1][0]
    assert what == "list after step 1"
    return run_[1][1]["inFlightEvents"]


def switched(rules: Rules, names: set, on: bool) -> Rules:
    return replace(rules, **{name: on for name in names})


@pytest.mark.parametrize("lesson", ROWS)
def test_each_change_has_a_lesson_that_shows_it_both_ways(lesson):
    old, new, changed, what, old_outcome, new_outcome = ROWS[lesson]
    scenario = from_valid_dict(builtin.get(lesson))
    assert scenario.versions == (old, new), "the lesson opens on the two versions it compares"
    assert observed(run(scenario, old), what) == old_outcome
    assert observed(run(scenario, new), what) == new_outcome
    # The difference is exactly this row's change.
    assert observed(run(scenario, new, switched(VERSIONS[new].rules, changed, False)), what) == old_outcome
    assert observed(run(scenario, old, switched(VERSIONS[old].rules, changed, True)), what) == new_outcome


def test_versions_compose_row_by_row():
    names = list(VERSIONS)
    assert names == ["v1.28.1", "v1.28.2", "v1.28.4", "v1.28.5", "v1.29.9", "v1.30.14", "v1.31.13", "v1.32.0",
                     "v1.36.2"]
    rows = {new: changed for old, new, changed, *_ in ROWS.values()}
    rows["v1.28.2"] = {"pod_entries"}  # the fix itself: the lost-marker lesson
    rows["v1.32.0"] = {"pop_discards_in_flight", "activate_force_event", "never_attempted_no_backoff",
                       "pod_update_events"}
    rows["v1.36.2"] = {"gating_plugin", "pop_from_backoff_q", "error_backoff_q", "backing_off_at_expiry",
                       "backoff_counts_failures", "zero_max_backoff", "hints_locked_on", "pop_clears_plugins",
                       "plugins_cleared_at_failure", "pod_groups", "pop_specific"}
    # v1.36.2 moves the clearing of the rejector plugins from Pop to the failure handler (#135126).
    moved = {"v1.36.2": {"pop_clears_plugins"}}
    base = {"v1.28.5": "v1.28.4", "v1.29.9": "v1.28.4"}  # 1.29 branched from 1.28's line, gate default aside
    for i, name in enumerate(names[1:], 1):
        before = VERSIONS[base.get(name, names[i - 1])].rules
        after = VERSIONS[name].rules
        differ = {f.name for f in fields(Rules) if getattr(before, f.name) != getattr(after, f.name)}
        assert differ == rows[name], name
        assert all(getattr(after, n) for n in differ - moved.get(name, set())), f"{name} only adds behaviour"


def _raw(steps, **fields) -> dict:
    return {"schema": 1, "name": "t", "pods": [{"name": "A"}], "initial_active": ["A"], "steps": steps, **fields}


_POP_FAIL_A = [{"op": "pop", "expect": "A"}, {"op": "event", "event": "NodeAdd"},
               {"op": "fail", "pod": "A", "unschedulable_plugins": ["P"]}]
_PARKED_A = [{"op": "pop", "expect": "A"}, {"op": "fail", "pod": "A", "unschedulable_plugins": ["P"]},
             {"op": "done", "pod": "A"}]
# rule -> (the version that brought it, the smallest scenario we found where it alone decides, where the pods end:
# with the rule, and with only this rule switched off). A rule no scenario tells apart is one no test checks.
RULE_CASES = {
    "pod_entries": ("v1.28.2", builtin.get("lost-marker"), {"backoffQ": ["B"]}, {"unschedulablePods": ["B"]}),
    "pop_clears_plugins": ("v1.28.4", builtin.get("pop-clears-plugins"), {"backoffQ": ["A"]},
                           {"unschedulablePods": ["A"]}),
    "gate_off": ("v1.28.5", builtin.get("gate-default-off"), {"backoffQ": ["A"]}, {"unschedulablePods": ["A"]}),
    "pending_plugins": ("v1.29.9", _raw([*_POP_FAIL_A[:2], {"op": "fail", "pod": "A", "unschedulable_plugins": [],
                                                            "pending_plugins": ["P"]}],
                                        hints=[{"event": "NodeAdd", "plugin": "P", "hint": "Queue"}]),
                        {"activeQ": ["A"]}, {"backoffQ": ["A"]}),
    "no_rejector_backoff": ("v1.29.9", builtin.get("no-rejector-backoff"), {"backoffQ": ["A"]},
                            {"unschedulablePods": ["A"]}),
    "events_of_interest": ("v1.30.14", _raw(_POP_FAIL_A, gate=False,
                                            hints=[{"event": "PvAdd", "plugin": "P", "hint": "Queue"}]),
                           {"unschedulablePods": ["A"]}, {"backoffQ": ["A"]}),
    "wildcard_registration": ("v1.30.14", _raw(_POP_FAIL_A, gate=False,
                                               hints=[{"event": "PvAdd", "plugin": "P", "hint": "Queue"},
                                                      {"event": "WildCardEvent", "plugin": "Q", "hint": "QueueSkip"}]),
                              {"backoffQ": ["A"]}, {"unschedulablePods": ["A"]}),
    "in_flight_update_event": ("v1.31.13", builtin.get("in-flight-update"), {"backoffQ": ["A"]}, {"activeQ": ["A"]}),
    "unschedulable_update_by_hint": ("v1.31.13", _raw([*_PARKED_A, {"op": "update", "pod": "A", "changed": True}],
                                                      hints=[{"event": "AssignedPodUpdate", "plugin": "P",
                                                              "hint": "QueueSkip"}]),
                                     {"unschedulablePods": ["A"]}, {"backoffQ": ["A"]}),
    "not_in_flight_backoff": ("v1.31.13", _raw([{"op": "fail", "pod": "A", "unschedulable_plugins": [],
                                                 "pod_info": "fresh"}], initial_active=[]),
                              {"backoffQ": ["A"]}, {"unschedulablePods": ["A"]}),
    # 1.30 returns early for a pod in activeQ, so its record parked in unschedulablePods (raw ops) stays there.
    "activate_in_active_q": ("v1.31.13", _raw([*_PARKED_A, {"op": "active_add_raw", "pod": "A"},
                                               {"op": "activate", "pods": ["A"]}]),
                             {"activeQ": ["A"]}, {"activeQ": ["A"], "unschedulablePods": ["A"]}),
}
QUEUES = ("activeQ", "backoffQ", "unschedulablePods")


def test_every_rule_has_a_case():
    """The rules up to 1.31 here, those of v1.32.0 and v1.36.2 with their change scenarios (test_new_rules.py)."""
    assert set(RULE_CASES) | set(NEW_RULE_CASES) == {f.name for f in fields(Rules)}
    assert not set(RULE_CASES) & set(NEW_RULE_CASES)


@pytest.mark.parametrize("rule", RULE_CASES)
def test_each_rule_alone_decides_its_case(rule):
    """Each rule checked on its own (a row's test switches the row's rules together): on the version that brought
    it, switching only this rule off changes where the pods end."""
    version, raw, with_rule, without = RULE_CASES[rule]
    scenario = from_valid_dict(raw)
    rules = VERSIONS[version].rules
    assert getattr(rules, rule), f"{version} has {rule}"
    for switched_rules, expected in ((rules, with_rule), (replace(rules, **{rule: False}), without)):
        state = run(scenario, version, switched_rules)[-1][1]
        assert {q: state[q] for q in QUEUES if state[q]} == expected


def test_every_lesson_is_in_the_course():
    """The rows' lessons follow each other in the course in release order (the lessons on 1.32-1.36 come after)."""
    ids = builtin.ids()
    assert set(ROWS) <= set(ids)
    start = ids.index(next(iter(ROWS)))
    assert ids[start:start + len(ROWS)] == list(ROWS)


def _last(raw: dict, variant: str) -> tuple[dict, dict]:
    runs = run(from_valid_dict({"schema": 1, "name": "t", **raw}), variant)
    return runs[-1]


def test_the_1_29_vocabulary_queue_and_pending_plugins():
    raw = {"hints": [{"event": "NodeAdd", "plugin": "P", "hint": "Queue"}], "pods": [{"name": "A"}],
           "initial_active": ["A"],
           "steps": [{"op": "pop", "expect": "A"}, {"op": "event", "event": "NodeAdd"},
                     {"op": "fail", "pod": "A", "unschedulable_plugins": [], "pending_plugins": ["P"]}]}
    # 1.29: Queue from a pending plugin is queueImmediately: straight back to activeQ.
    assert _last(raw, "v1.29.9")[0] == {"hint": "QueueImmediately", "queue": "activeQ"}
    # 1.28 has one plugin set: P is an unschedulable plugin and Queue means after backoff.
    assert _last(raw, "v1.28.4")[0] == {"hint": "QueueAfterBackoff", "queue": "backoffQ"}
    # The same failure with P as an unschedulable plugin is after backoff on 1.29 too.
    raw["steps"][-1] = {"op": "fail", "pod": "A", "unschedulable_plugins": ["P"]}
    assert _last(raw, "v1.29.9")[0] == {"hint": "QueueAfterBackoff", "queue": "backoffQ"}


def test_1_30_ignores_an_event_nobody_registered_even_for_the_move_request():
    raw = {"gate": False, "hints": [{"event": "PvAdd", "plugin": "P", "hint": "QueueAfterBackoff"}],
           "pods": [{"name": "A"}], "initial_active": ["A"],
           "steps": [{"op": "pop", "expect": "A"}, {"op": "event", "event": "NodeAdd"},
                     {"op": "fail", "pod": "A", "unschedulable_plugins": ["P"]}]}
    result, state = _last(raw, "v1.30.14")
    assert (result["queue"], state["moveRequestCycle"]) == ("unschedulablePods", -1)
    result, state = _last(raw, "v1.29.9")
    assert (result["queue"], state["moveRequestCycle"]) == ("backoffQ", 1)
    # A hint registered on the wildcard event makes every event interesting on 1.30 (Match, #123117).
    raw["hints"].append({"event": "WildCardEvent", "plugin": "Q", "hint": "QueueSkip"})
    assert _last(raw, "v1.30.14")[0]["queue"] == "backoffQ"
