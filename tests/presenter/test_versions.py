"""The scene on any one to four versions: every built-in presents on every version it can run on, each pane is
titled by its version, the rules that came after v1.28.2 are said in words (and by the version whose rule acted),
and the scenario message carries the version table the picker offers."""

from __future__ import annotations

import pytest

from tests.presenter.test_scene import check_position
from webapp.engine.simulation import MAX_PANES, Simulation
from webapp.errors import UserError
from webapp.model.versions import VERSIONS
from webapp.presenter import scenario_message, state_message
from webapp.presenter.scene import present
from webapp.scenario import builtin
from webapp.scenario.resolve import resolve
from webapp.scenario.scenario import from_valid_dict

NAMES = list(VERSIONS)
# every version, in groups of at most four side by side (the last three with v1.28.1, so each group has a pair
# that differs on the lost marker)
GROUPS = [NAMES[:MAX_PANES], ["v1.28.1", *NAMES[MAX_PANES:]]]


def simulations(scenario_id: str):
    scenario = resolve(scenario_id)[0]
    for group in GROUPS:
        try:
            yield Simulation(scenario, group)
        except UserError:  # a step that cannot run on one of them as written (a pop whose head changed)
            for name in group:
                try:
                    yield Simulation(scenario, [name])
                except UserError:
                    continue


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_every_built_in_presents_on_every_version(scenario_id):
    for sim in simulations(scenario_id):
        message = scenario_message(sim.summary(), scenario_id)
        assert message["variants"] == list(sim.variants)
        for position in range(sim.total + 1):
            sim.seek(position)
            check_position(sim)
            scene = state_message(sim.frame(), sim.preview())["scene"]
            assert list(scene["panes"]) == list(sim.variants)
            for name, pane in scene["panes"].items():
                assert pane["title"] == name and VERSIONS[name].releases in pane["tag"]
                assert pane["tone"] == ("fix" if VERSIONS[name].rules.pod_entries else "bug")
                listed = "inFlightEvents" if VERSIONS[name].rules.pod_entries else "receivedEvents"
                assert pane["list"]["name"] == listed
            # the returns line names the version of each part, in the panes' order
            for pod in scene["outcomes"]["pods"]:
                shown = [p["variant"] for p in pod["parts"]]
                assert shown == [v for v in sim.variants if v in shown]
                assert all(p["text"].startswith(f"{p['variant']}: ") for p in pod["parts"])


def test_the_scenario_message_carries_the_version_table():
    sim = Simulation(resolve("lost-marker")[0], ["v1.28.1", "v1.30.14", "v1.31.13"])
    message = scenario_message(sim.summary(), "lost-marker")
    assert message["versions"] == [{"name": v.name, "releases": v.releases, "summary": v.summary}
                                   for v in VERSIONS.values()]
    assert message["opensOn"] == ["v1.28.1", "v1.28.2"]
    lesson = Simulation(resolve("ignored-events")[0], ["v1.28.1"])
    opens_on = list(resolve("ignored-events")[0].versions)
    assert scenario_message(lesson.summary(), "ignored-events")["opensOn"] == opens_on


def test_the_divergence_flag_holds_for_any_pair():
    """Three panes: the flag is where any two of them first place a pod differently."""
    scenario = resolve("lost-marker")[0]
    three = Simulation(scenario, ["v1.28.2", "v1.30.14", "v1.28.1"])
    pairs = {(a, b): Simulation(scenario, [a, b]).divergence for a in three.variants for b in three.variants if a < b}
    firsts = [d for d in pairs.values() if d is not None]
    assert three.divergence == (min(firsts) if firsts else None) == 6
    three.seek(three.divergence)
    scene = present(three.frame())
    assert scene["positionText"] != scene["counter"]  # "6 / 6 · variants differ here"
    same = Simulation(scenario, ["v1.28.2", "v1.30.14"])  # the fix and a later release agree on every step
    assert same.divergence is None


BASE = {"schema": 1, "name": "t", "description": "t", "gate": True,
        "hints": [{"event": "PvAdd", "plugin": "VolumeBinding", "hint": "QueueAfterBackoff"},
                  {"event": "PvcAdd", "plugin": "VolumeBinding", "hint": "QueueImmediately"}],
        "pods": [{"name": "A"}, {"name": "B"}], "initial_active": ["A", "B"]}


def panes_at(raw: dict, variants: list, position: int) -> dict:
    sim = Simulation(from_valid_dict({**BASE, **raw}), variants)
    sim.seek(position)
    return present(sim.frame(), sim.preview())["panes"]


def said(pane: dict) -> str:
    return " ".join(pane["narration"]["lines"])


def test_an_ignored_event_is_said_by_the_version_that_ignores_it():
    panes = panes_at({"steps": [{"op": "pop", "expect": "A"}, {"op": "event", "event": "NodeAdd"}]},
                     ["v1.29.9", "v1.30.14"], 2)
    assert "v1.30.14 ignores NodeAdd: no registered hint matches it" in said(panes["v1.30.14"])
    assert panes["v1.30.14"]["narration"]["title"] == panes["v1.30.14"]["caption"] == "Event NodeAdd (e1) ignored"
    assert "ignores" not in said(panes["v1.29.9"]) and "appended to inFlightEvents" in said(panes["v1.29.9"])


def test_queue_from_a_pending_plugin_and_the_pending_set_on_a_chip():
    steps = [{"op": "pop", "expect": "A"}, {"op": "fail", "pod": "A", "unschedulable_plugins": ["VolumeBinding"]},
             {"op": "event", "event": "PvcAdd"}]
    panes = panes_at({"steps": steps}, ["v1.28.2", "v1.29.9"], 3)
    assert ("A: QueueImmediately (VolumeBinding#pending was pending: Queue means at once (1.29+, #119517))."
            in said(panes["v1.29.9"]))
    parked = panes_at({"steps": steps}, ["v1.28.2", "v1.29.9"], 2)
    [chip] = [c for lane in parked["v1.29.9"]["lanes"] for c in lane["chips"] if c["pod"] == "A"]
    assert chip["title"] == "plugins: VolumeBinding · pending plugins: VolumeBinding#pending"
    [chip] = [c for lane in parked["v1.28.2"]["lanes"] for c in lane["chips"] if c["pod"] == "A"]
    assert chip["title"] == "plugins: VolumeBinding"


def test_no_rejector_plugins_goes_through_backoff_gate_on_and_off():
    steps = [{"op": "pop", "expect": "A"}, {"op": "event", "event": "PvAdd"},
             {"op": "fail", "pod": "A", "unschedulable_plugins": []}]
    panes = panes_at({"steps": steps}, ["v1.28.2", "v1.29.9"], 3)
    assert panes["v1.29.9"]["outcome"] == "backoffQ"
    assert "on v1.29.9 such a pod always goes through backoff" in said(panes["v1.29.9"])
    assert panes["v1.29.9"]["caption"] == "A fails → backoffQ: no rejector plugin: backoff"
    off = panes_at({"gate": False, "steps": [steps[0], steps[2]]}, ["v1.28.2", "v1.29.9"], 2)
    assert (off["v1.28.2"]["outcome"], off["v1.29.9"]["outcome"]) == ("unschedulablePods", "backoffQ")
    assert "no plugin rejected it, and on v1.29.9 such a pod always goes through backoff" in said(off["v1.29.9"])
    assert "no event asked to move pods since its attempt began" in said(off["v1.28.2"])


def test_a_failing_pod_not_in_flight_goes_through_backoff_on_1_31():
    steps = [{"op": "pop", "expect": "A"}, {"op": "done", "pod": "A"},
             {"op": "fail", "pod": "A", "unschedulable_plugins": ["VolumeBinding"]}]
    panes = panes_at({"steps": steps}, ["v1.30.14", "v1.31.13"], 3)
    assert "on v1.31.13 a failing pod that is not in flight always goes through backoff" in said(panes["v1.31.13"])
    assert panes["v1.31.13"]["caption"].endswith("not in flight: backoff")
    assert "an unknown pod with plugins is retried after backoff" in said(panes["v1.30.14"])


def test_an_update_in_flight_becomes_an_entry_on_1_31():
    steps = [{"op": "pop", "expect": "A"}, {"op": "update", "pod": "A"}]
    panes = panes_at({"steps": steps}, ["v1.30.14", "v1.31.13"], 2)
    assert ("A is in flight: on v1.31.13 its update is appended to inFlightEvents as UnschedulablePodUpdate (u1)"
            in said(panes["v1.31.13"]))
    assert [i["label"] for i in panes["v1.31.13"]["list"]["items"]] == ["[A]", "UnschedulablePodUpdate"]
    assert "a second record is added to activeQ" in said(panes["v1.30.14"])


def test_gate_off_by_default_shows_no_list_on_1_28_5():
    panes = panes_at({"steps": [{"op": "pop", "expect": "A"}, {"op": "event", "event": "PvAdd"}]},
                     ["v1.28.4", "v1.28.5"], 2)
    assert panes["v1.28.5"]["list"]["note"] == "gate off: nothing is tracked"
    assert panes["v1.28.4"]["list"]["note"] == ""
    assert panes["v1.28.5"]["pointers"] == [] and len(panes["v1.28.4"]["pointers"]) == 1


def test_pop_clearing_the_plugins_is_said_by_the_version_that_clears_them():
    steps = [{"op": "pop", "expect": "A"}, {"op": "fail", "pod": "A", "unschedulable_plugins": ["VolumeBinding"]},
             {"op": "event", "event": "PvAdd"}, {"op": "flush_backoff"}, {"op": "advance_clock", "seconds": 20},
             {"op": "flush_backoff"}, {"op": "pop", "expect": "A"}]
    panes = panes_at({"periodic_flushes": False, "steps": steps}, ["v1.28.2", "v1.28.4", "v1.29.9"], 7)
    assert "Pop clears A's plugins (VolumeBinding): on v1.28.4 a later failure without new plugins is judged afresh " \
           "(1.28.3+, #120334)." in said(panes["v1.28.4"])
    assert "Pop clears A's plugins (VolumeBinding, VolumeBinding (pending)): on v1.29.9" in said(panes["v1.29.9"])
    assert "clears" not in said(panes["v1.28.2"])
    first_pop = panes_at({"steps": steps}, ["v1.28.4"], 1)  # nothing to clear: nothing said
    assert "clears" not in said(first_pop["v1.28.4"])


def test_the_gate_default_of_1_28_5_is_said_where_it_decides():
    steps = [{"op": "pop", "expect": "A"}, {"op": "fail", "pod": "A", "unschedulable_plugins": ["VolumeBinding"]}]
    panes = panes_at({"steps": steps}, ["v1.28.4", "v1.28.5"], 2)
    assert "Gate off (on v1.28.5 SchedulerQueueingHints is off by default (1.28.5+, #122291)): moveRequestCycle" \
           in said(panes["v1.28.5"])
    off = panes_at({"gate": False, "steps": steps}, ["v1.28.4"], 2)  # the scenario's gate, not the version's
    assert "Gate off: moveRequestCycle" in said(off["v1.28.4"]) and "by default" not in said(off["v1.28.4"])


def test_an_update_of_a_parked_pod_is_judged_by_hints_on_1_31():
    steps = [{"op": "pop", "expect": "A"}, {"op": "fail", "pod": "A", "unschedulable_plugins": ["VolumeBinding"]},
             {"op": "update", "pod": "A", "changed": True}]
    panes = panes_at({"steps": steps}, ["v1.30.14", "v1.31.13"], 3)
    assert "A is in unschedulablePods: on v1.31.13 its update is judged by its plugins' Pod/Update hints " \
           "(1.31+, #122234)." in said(panes["v1.31.13"])
    assert "Pod/Update" not in said(panes["v1.30.14"])


def test_activate_returning_early_before_1_31_is_said():
    steps = [{"op": "pop", "expect": "A"}, {"op": "fail", "pod": "A", "unschedulable_plugins": ["VolumeBinding"]},
             {"op": "active_add_raw", "pod": "A"}, {"op": "activate", "pods": ["A"]}]
    panes = panes_at({"steps": steps}, ["v1.30.14", "v1.31.13"], 4)
    assert "A: in activeQ already, so Activate returns early (before 1.31, #126222)." in said(panes["v1.30.14"])
    assert "returns early" not in said(panes["v1.31.13"])


def test_a_hint_registered_on_every_event_is_said_as_1_30s_match():
    """1.30 (#123117): a hint registered on the wildcard resource matches every event; the walk says so where it
    decides (on 1.29 the same registration matches no NodeAdd, and A is parked)."""
    raw = {"hints": [{"event": "WildCardEvent", "plugin": "VolumeBinding", "hint": "QueueAfterBackoff"}],
           "steps": [{"op": "pop", "expect": "A"}, {"op": "event", "event": "NodeAdd"},
                     {"op": "fail", "pod": "A", "unschedulable_plugins": ["VolumeBinding"]}]}
    panes = panes_at(raw, ["v1.29.9", "v1.30.14"], 3)
    assert "NodeAdd: QueueAfterBackoff (hint of VolumeBinding, registered on every event: 1.30 matches it to this " \
           "one (#123117))." in said(panes["v1.30.14"])
    assert (panes["v1.29.9"]["outcome"], panes["v1.30.14"]["outcome"]) == ("unschedulablePods", "backoffQ")
