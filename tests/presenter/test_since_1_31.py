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


def test_with_windows_each_backoffq_chip_names_the_second_its_backoff_ends_in():
    drawn = mark(lanes(STATE, VIEW, 300.0), STATE, VIEW, None, windows=True)
    [backoff] = [lane for lane in drawn if lane["queue"] == "backoffQ"]
    windows = [m["text"] for c in backoff["chips"] for m in c["marks"] if m["kind"] == "window"]
    assert windows == ["window 1–2 s", "window 1–2 s"]


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
