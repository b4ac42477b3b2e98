"""What 1.32+ adds to the picture, drawn from what a step did: a pod Pop took from backoffQ is marked early, the
error heap and the backoff windows are marked in backoffQ, a discarded duplicate is drawn faint where Pop took it,
a gated pod carries its gate, a ForceActivate entry names its pod, and the narration names the files the step ran
in, per release."""

from __future__ import annotations

from webapp.presenter.files import NEW_DIR, OLD_FILE, where
from webapp.presenter.lanes import lanes, mark
from webapp.presenter.scene import entry
from webapp.presenter.words import CHIP_MARKS

STATE = {"activeQ": [], "backoffQ": ["A", "B"], "unschedulablePods": ["G"], "inFlightPods": ["P"],
         "inFlightEvents": [{"pod": "P"}], "schedulingCycle": 3, "moveRequestCycle": 1, "backoffQ_error": ["B"]}
VIEW = {"now": 0.5, "entries": [], "markers": [], "heads": [],
        "order": {"activeQ": [], "backoffQ": ["A", "B"]},
        "pods": {"A": {"where": "backoffQ", "timestamp": 0.2, "backoffExpiry": 1.0},
                 "B": {"where": "backoffQ", "timestamp": 0.0, "backoffExpiry": 1.0, "backoffHeap": "error"},
                 "G": {"where": "unschedulablePods", "timestamp": 0.0, "gated": True,
                       "gatingPlugin": "SchedulingGates"},
                 "P": {"where": "inFlight", "attempts": 2}}}


def marks_of(drawn):
    return {(lane["queue"], c["pod"]): [m["kind"] for m in c.get("marks", ())] for lane in drawn
            for c in lane["chips"]}


def test_a_pod_popped_from_backoffq_is_marked_early_in_flight_and_the_error_heap_in_backoffq():
    drawn = marks_of(mark(lanes(STATE, VIEW, 300.0), STATE, VIEW, {"popped": "P", "from": "backoffQ"}))
    assert drawn[("inFlight", "P")] == ["early"]
    assert drawn[("backoffQ", "B")] == ["error"] and drawn[("backoffQ", "A")] == []
    assert drawn[("unschedulablePods", "G")] == ["gated"]


def test_a_pop_from_activeq_marks_nothing_early():
    drawn = marks_of(mark(lanes(STATE, VIEW, 300.0), STATE, VIEW, {"popped": "P"}))
    assert drawn[("inFlight", "P")] == []


def test_with_windows_backoffq_names_the_second_each_run_of_backoffs_ends_in():
    drawn = mark(lanes(STATE, VIEW, 300.0), STATE, VIEW, None, windows=True)
    [backoff] = [lane for lane in drawn if lane["queue"] == "backoffQ"]
    # one rule per window, over its first chip: A and B end in the same one
    assert [c["window"]["text"] if "window" in c else None for c in backoff["chips"]] == ["window 1–2 s", None]
    assert "A, B" in backoff["chips"][0]["window"]["title"]


def test_a_discarded_duplicate_is_drawn_faint_at_the_front_of_activeq():
    state = {**STATE, "activeQ": ["C"]}
    view = {**VIEW, "order": {"activeQ": ["C"], "backoffQ": ["A", "B"]},
            "pods": {**VIEW["pods"], "C": {"where": "activeQ", "timestamp": 0.0}}}
    drawn = mark(lanes(state, view, 300.0), state, view, {"popped": "P", "discarded": ["P"]})
    [active] = [lane for lane in drawn if lane["queue"] == "activeQ"]
    assert [(c["pod"], c.get("ghost", False)) for c in active["chips"]] == [("P", True), ("C", False)]
    assert active["chips"][0]["marks"][0]["text"] == CHIP_MARKS["discarded"][0]


def test_a_forceactivate_entry_is_drawn_with_the_pod_it_is_for():
    item = entry({"id": "a1", "kind": "event", "event": "ForceActivate:A"}, [], None)
    assert item["label"] == "ForceActivate" and item["forPod"] == "A" and item["forText"] == "for A"
    plain = entry({"id": "e1", "kind": "event", "event": "NodeAdd"}, [], None)
    assert plain["label"] == "NodeAdd" and "forPod" not in plain


def test_the_narration_names_the_files_of_each_release():
    record = {"appended": [{"pod": "A"}], "removed": [], "calls": []}
    pop = {"op": "pop"}
    assert where("v1.31.13", ["Pop"], pop, {"popped": "A"}, record) == OLD_FILE
    assert where("v1.32.0", ["Pop"], pop, {"popped": "A"}, record) == (
        f"{NEW_DIR} scheduling_queue.go: Pop · active_queue.go: unlockedPop")
    early = where("v1.36.2", ["Pop"], pop, {"popped": "A", "from": "backoffQ"}, record)
    assert early.endswith("active_queue.go: unlockedPop · backoff_queue.go: popBackoff")
    # v1.32.0's tree has no backoff_queue.go: its backoff stays in scheduling_queue.go
    failed = {"appended": [], "removed": [], "calls": []}
    assert "backoff_queue.go" not in where("v1.32.0", ["AddUnschedulableIfNotPresent"], {"op": "fail"},
                                           {"queue": "backoffQ"}, failed)
    assert "backoff_queue.go: add" in where("v1.36.2", ["AddUnschedulableIfNotPresent"], {"op": "fail"},
                                            {"queue": "backoffQ"}, failed)


# --- on the lessons, through present(): the frame the page and the SVG export draw ---------------------------
def scene_at(scenario_id: str, position: int):
    from webapp.engine.simulation import Simulation
    from webapp.presenter.scene import present
    from webapp.scenario.resolve import resolve

    scenario = resolve(scenario_id)[0]
    sim = Simulation(scenario, list(scenario.versions))
    sim.seek(position)
    return present(sim.frame(), sim.preview())["panes"]


def chips(pane, queue):
    [lane] = [lane for lane in pane["lanes"] if lane["queue"] == queue]
    return {c["pod"]: c for c in lane["chips"]}


def test_the_lesson_pop_from_backoffq_draws_the_pod_flying_from_backoffq_only_on_v1_36():
    panes = scene_at("pop-from-backoffq", 6)
    early = chips(panes["v1.36.2"], "inFlight")["A"]
    assert [m["kind"] for m in early["marks"]] == ["early"]
    assert "before its backoff ended at 2 s" in early["marks"][0]["title"]  # the end of its window, 1–2 s
    assert "marks" not in chips(panes["v1.31.13"], "inFlight")["A"]
    assert panes["v1.36.2"]["narration"]["title"] == "Pop → A from backoffQ"
    assert "backoff_queue.go: popBackoff" in panes["v1.36.2"]["narration"]["where"]
    assert panes["v1.31.13"]["narration"]["where"] == OLD_FILE
    # a step earlier, v1.36.2 still holds A in backoffQ: its window 1–2 s has not passed
    held = chips(scene_at("pop-from-backoffq", 5)["v1.36.2"], "backoffQ")["A"]
    assert held["detail"] == "until 2 s" and held["window"]["text"] == "window 1–2 s"


def test_the_lesson_force_activate_draws_the_entry_with_its_pod_on_v1_32_only():
    panes = scene_at("force-activate", 3)
    [forced] = [i for i in panes["v1.32.0"]["list"]["items"] if i.get("forPod")]
    assert forced["forPod"] == "A" and forced["label"] == "ForceActivate"
    assert not any(i.get("forPod") for i in panes["v1.31.13"]["list"]["items"])
    assert "active_queue.go: addEventsIfPodInFlight" in panes["v1.32.0"]["narration"]["where"]


def test_the_lesson_pop_discards_duplicate_draws_the_dropped_record_where_pop_took_it():
    panes = scene_at("pop-discards-duplicate", 4)
    dropped = chips(panes["v1.32.0"], "activeQ")["A"]
    assert dropped["ghost"] and [m["kind"] for m in dropped["marks"]] == ["discarded"]
    assert panes["v1.32.0"]["narration"]["title"] == "Pop → B (A discarded)"
    assert not any(c.get("ghost") for c in chips(panes["v1.31.13"], "activeQ").values())


def test_the_lesson_error_backoffq_marks_the_error_heap_that_pop_passes_over():
    panes = scene_at("error-backoffq", 8)
    waiting = chips(panes["v1.36.2"], "backoffQ")["A"]
    assert [m["kind"] for m in waiting["marks"]] == ["error"] and waiting["window"]["text"] == "window 1–2 s"
    assert waiting["timer"]["text"] == "1 s left"  # until the window has passed, at 2 s
    assert [m["kind"] for m in chips(panes["v1.36.2"], "inFlight")["B"]["marks"]] == ["early"]
    assert "error heap" in " ".join(scene_at("error-backoffq", 4)["v1.36.2"]["narration"]["lines"])


def test_a_pod_groups_members_are_marked_wherever_they_are():
    from webapp.engine.simulation import Simulation
    from webapp.presenter.scene import present
    from webapp.scenario.load import load_scenario

    scenario = load_scenario({"schema": 1, "name": "group", "versions": ["v1.36.2"],
                              "feature_gates": {"GenericWorkload": True},
                              "hints": [{"event": "NodeAdd", "plugin": "P", "hint": "QueueAfterBackoff"}],
                              "pods": [{"name": "A", "pod_group": "g"}, {"name": "B", "pod_group": "g"},
                                       {"name": "C"}],
                              "initial_active": ["A", "B", "C"],
                              "steps": [{"op": "pop", "expect": "A"}, {"op": "fail", "pod": "A",
                                                                      "unschedulable_plugins": ["P"]}]})
    sim = Simulation(scenario, ["v1.36.2"])
    sim.seek(2)
    pane = present(sim.frame())["panes"]["v1.36.2"]
    grouped = {(lane["queue"], c["pod"]): [m["text"] for m in c.get("marks", ()) if m["kind"] == "group"]
               for lane in pane["lanes"] for c in lane["chips"]}
    assert grouped == {("activeQ", "B"): ["group g"], ("activeQ", "C"): [], ("backoffQ", "A"): ["group g"]}


def test_a_pod_popped_from_backoffq_is_back_when_popped_not_waiting_in_flight():
    from webapp.engine.simulation import Simulation
    from webapp.presenter.scene import present
    from webapp.scenario.resolve import resolve

    scenario = resolve("pop-from-backoffq")[0]
    sim = Simulation(scenario, list(scenario.versions))
    sim.seek(6)
    [a] = present(sim.frame())["outcomes"]["pods"]
    assert [p["text"] for p in a["parts"]] == ["v1.31.13: back in activeQ after 1 s via backoffQ",
                                              "v1.36.2: popped from backoffQ after 1 s"]


def test_the_lesson_gated_pods_draws_the_gate_on_both_versions_until_the_ungate():
    for variant, pane in scene_at("gated-pods", 1).items():
        waiting = chips(pane, "unschedulablePods")["G"]
        assert [m["text"] for m in waiting["marks"]] == ["gated: SchedulingGates"], variant
        assert pane["narration"]["where"].endswith("scheduling_queue.go: MoveAllToActiveOrBackoffQueue, "
                                                   "movePodsToActiveOrBackoffQueue"), pane["narration"]["where"]
    said = {v: " ".join(p["narration"]["lines"]) for v, p in scene_at("gated-pods", 1).items()}
    assert "G is gated with SchedulingGates, so movePodsToActiveOrBackoffQueue skips it whatever" in said["v1.32.0"]
    assert "not among the events its gating plugin registered (GatingPluginEvents)" in said["v1.36.2"]
    for variant, pane in scene_at("gated-pods", 3).items():
        assert "marks" not in chips(pane, "activeQ")["G"] and pane["narration"]["title"] == "ungate G", variant


def test_the_lesson_pod_group_backoff_marks_the_member_that_backs_off_beside_the_parked_pod():
    pane = scene_at("pod-group-backoff", 4)["v1.36.2"]
    member, parked = chips(pane, "backoffQ")["A"], chips(pane, "unschedulablePods")["B"]
    assert [m["text"] for m in member["marks"]] == ["group g"] and "marks" not in parked
    assert scene_at("pod-group-backoff", 3)["v1.36.2"]["narration"]["title"] == "A fails → backoffQ"


def test_the_lesson_pop_specific_says_where_popspecificpod_took_each_pod_from():
    titles = [scene_at("pop-specific", p)["v1.36.2"]["narration"] for p in (3, 4, 5)]
    assert [n["title"] for n in titles] == ["PopSpecificPod(C) → C", "PopSpecificPod(A) → A from unschedulablePods",
                                            "PopSpecificPod(C) → nil"]
    assert titles[1]["lines"][0].startswith("PopSpecificPod activates A out of unschedulablePods and takes A")
    assert "activate" in titles[1]["where"] and titles[0]["lines"][0].startswith("PopSpecificPod takes C")
    assert set(chips(scene_at("pop-specific", 4)["v1.36.2"], "inFlight")) == {"A", "C"}


def test_the_lessons_say_in_words_where_each_version_put_each_pod():
    """What tests/e2e/test_since_1_31.py's walks find drawn, said by the scene: whose lanes, marks and words."""
    from webapp.engine.simulation import Simulation
    from webapp.presenter.scene import present
    from webapp.scenario.resolve import resolve

    before, popped = scene_at("pop-from-backoffq", 5), scene_at("pop-from-backoffq", 6)
    assert "A" in chips(before["v1.31.13"], "activeQ") and "A" in chips(before["v1.36.2"], "backoffQ")
    assert not any("window" in c for lane in before["v1.31.13"]["lanes"] for c in lane["chips"])
    assert chips(popped["v1.36.2"], "backoffQ") == {}
    assert [m["text"] for m in chips(popped["v1.36.2"], "inFlight")["A"]["marks"]] == ["from backoffQ"]
    sim = Simulation(resolve("pop-from-backoffq")[0], ["v1.31.13", "v1.32.0", "v1.36.2"])
    sim.seek(6)  # v1.32.0 has no Pop from backoffQ: like v1.31.13 it popped A from activeQ after the flush
    assert "marks" not in chips(present(sim.frame())["panes"]["v1.32.0"], "inFlight")["A"]
    dropped = chips(scene_at("pop-discards-duplicate", 4)["v1.32.0"], "activeQ")["A"]
    assert [m["text"] for m in dropped["marks"]] == ["discarded"]
    [forced] = [i for i in scene_at("force-activate", 3)["v1.32.0"]["list"]["items"] if i.get("forPod")]
    assert forced["forText"] == "for A"
    failed = scene_at("force-activate", 4)  # A's failure, whose walk reads the entry, sends A to backoffQ on v1.32.0
    assert "A" in chips(failed["v1.32.0"], "backoffQ") and "A" in chips(failed["v1.31.13"], "unschedulablePods")
    parked, taken = scene_at("pop-specific", 3)["v1.36.2"], scene_at("pop-specific", 4)["v1.36.2"]
    assert "A" in chips(parked, "unschedulablePods") and "B" in chips(parked, "activeQ")
    assert "B" in chips(taken, "activeQ") and chips(taken, "unschedulablePods") == {}  # B, the head, passed over
