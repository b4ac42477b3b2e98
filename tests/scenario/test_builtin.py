"""The built-in scenario library: every scenario loads, replays on both variants, is narrated on every
step, and shows what it claims to show (read from the traces)."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

import pytest

from tests.conftest import runnable_variants
from webapp.engine.trace import replay
from webapp.scenario import builtin
from webapp.scenario.load import load_scenario, parse_text
from webapp.scenario.scenario import from_valid_dict, frozen_step

V1, V2 = "v1.28.1", "v1.28.2"
QUEUES = ("activeQ", "backoffQ", "unschedulablePods", "schedulingCycle", "moveRequestCycle")

# The upstream function a note must name, per op (advance_clock is the fake clock: no function).
FUNCTIONS = {
    "pop": ("Pop()",),
    "event": ("MoveAllToActiveOrBackoffQueue", "movePodsToActiveOrBackoffQueue"),
    "done": ("Done(",),
    "fail": ("AddUnschedulableIfNotPresent", "determineSchedulingHintForInFlightPod"),
    "update": ("Update(",),
    "flush_backoff": ("flushBackoffQCompleted",),
    "flush_unschedulable_leftover": ("flushUnschedulablePodsLeftover",),
}


@functools.cache
def traces(scenario_id: str) -> dict:
    """Its traces on the default pair where they can run it (a lesson on what later releases added names fields
    1.28 lacks) and on the versions it opens on (the version lessons)."""
    scenario = from_valid_dict(builtin.get(scenario_id))
    return {v: replay(scenario, v) for v in dict.fromkeys((*runnable_variants(scenario), *scenario.versions))}


def states(scenario_id: str, variant: str) -> list[dict]:
    return [s["state"] for s in traces(scenario_id)[variant]["steps"]]


def queues(state: dict) -> dict:
    return {k: state[k] for k in QUEUES}


def event_ids(state: dict) -> list[str]:
    """Ids of the events an in-flight list holds, on either variant."""
    entries = state.get("receivedEvents", state.get("inFlightEvents"))
    return [e["id"] for e in entries if "event" in e]


def step_index(scenario_id: str, **match) -> int:
    """Index of the first step whose fields equal ``match``."""
    steps = builtin.get(scenario_id)["steps"]
    return next(i for i, s in enumerate(steps) if all(s.get(k) == v for k, v in match.items()))


def first_time_in(scenario_id: str, variant: str, pod: str, queue: str, after: int = 0) -> float:
    """Clock (seconds) at the first step from index ``after`` on after which ``pod`` is in ``queue``."""
    now = 0.0
    for i, (step, entry) in enumerate(zip(builtin.get(scenario_id)["steps"], traces(scenario_id)[variant]["steps"])):
        if step["op"] == "advance_clock":
            now += step["seconds"]
        if i >= after and pod in entry["state"][queue]:
            return now
    raise AssertionError(f"{pod} never reaches {queue} on {variant}")


# --- the library itself -------------------------------------------------------------------------------
def test_ids_are_the_library_files_in_course_order():
    files = {p.name[: -len(".yaml")] for p in (resources.files("webapp.scenario") / "library").iterdir()
             if p.name.endswith(".yaml")}
    assert len(builtin.ids()) == len(set(builtin.ids()))
    assert set(builtin.ids()) == files
    assert builtin.ids()[0] == "in-flight-basics"
    assert builtin.ids().index("lost-marker") < builtin.ids().index("five-minute-wait")


def test_index_lists_every_scenario_with_name_and_description():
    index = builtin.index()
    assert [e["id"] for e in index] == builtin.ids()
    for entry in index:
        assert set(entry) == {"id", "name", "description"}
        assert entry["name"] == builtin.get(entry["id"])["name"]


def test_get_unknown_id_raises_key_error():
    with pytest.raises(KeyError):
        builtin.get("no-such-scenario")
    with pytest.raises(KeyError):
        builtin.get("../scenario")


def test_get_returns_a_fresh_copy():
    raw = builtin.get("lost-marker")
    raw["steps"].clear()
    assert builtin.get("lost-marker")["steps"]


# --- every scenario -----------------------------------------------------------------------------------
@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_passes_validation_from_file_text(scenario_id):
    text = (resources.files("webapp.scenario") / "library" / f"{scenario_id}.yaml").read_text("utf-8")
    scenario = load_scenario(parse_text(text, "yaml"))
    assert scenario.steps == tuple(map(frozen_step, builtin.get(scenario_id)["steps"]))


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_replays_on_both_variants_with_every_pop_expected(scenario_id):
    steps = builtin.get(scenario_id)["steps"]
    for variant, trace in traces(scenario_id).items():
        assert len(trace["steps"]) == len(steps)
        for i, (step, entry) in enumerate(zip(steps, trace["steps"])):
            if step["op"] == "pop":  # 1.32+ says where it took the pod from and what it discarded
                assert set(entry["result"]) <= {"popped", "from", "discarded"}
                # a pop names its pod, but where the versions pop different ones (the lesson is about that)
                popped = {t["steps"][i]["result"]["popped"] for t in traces(scenario_id).values()}
                assert entry["result"]["popped"] == step["expect"] if "expect" in step else len(popped) > 1
            if step["op"] == "fail" and "error" in entry["result"]:
                # Only where the lesson is about it: its note says the failure is refused and why.
                assert "refuses" in step["note"] and "already in activeQ" in step["note"], (variant, step)


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_description_and_a_note_naming_the_upstream_function_on_every_step(scenario_id):
    raw = builtin.get(scenario_id)
    assert raw["name"].strip() and raw["description"].strip()
    for i, step in enumerate(raw["steps"]):
        note = step.get("note", "")
        assert note.strip(), f"step {i} has no note"
        names = FUNCTIONS.get(step["op"], ())
        assert not names or any(n in note for n in names), f"step {i} ({step['op']}) names none of {names}"


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_notes_speak_of_both_variants_where_they_diverge(scenario_id):
    raw = builtin.get(scenario_id)
    steps, (a1, *rest) = raw["steps"], raw.get("versions", (V1, V2))
    a2 = rest[0] if rest else a1  # a lesson on one version compares its pods, not versions
    t1, t2 = traces(scenario_id)[a1]["steps"], traces(scenario_id)[a2]["steps"]
    for i, (step, a, b) in enumerate(zip(steps, t1, t2)):
        before_same = i == 0 or queues(t1[i - 1]["state"]) == queues(t2[i - 1]["state"])
        if before_same and (queues(a["state"]) != queues(b["state"]) or a["result"] != b["result"]):
            assert a1 in step["note"] and a2 in step["note"], f"step {i}"


# --- each scenario makes its point ---------------------------------------------------------------------
@pytest.mark.parametrize("scenario_id", ["in-flight-basics", "queueing-hints", "gate-off"])
def test_same_queues_on_both_variants(scenario_id):
    for a, b in zip(states(scenario_id, V1), states(scenario_id, V2)):
        assert queues(a) == queues(b)
        assert event_ids(a) == event_ids(b)


def test_in_flight_basics_records_only_while_a_pod_is_in_flight():
    t = traces("in-flight-basics")[V2]["steps"]
    recorded = [e["result"]["recorded_in_flight"] for e in t if e["op"] == "event"]
    assert True in recorded and False in recorded
    assert {"pod": "A"} in t[0]["state"]["inFlightEvents"]
    final = traces("in-flight-basics")
    assert final[V1]["final"]["receivedEvents"] == [] and final[V2]["final"]["inFlightEvents"] == []
    fails = [e["result"]["queue"] for e in t if e["op"] == "fail"]
    assert fails == ["unschedulablePods", "backoffQ"]


def test_queueing_hints_three_outcomes():
    for variant in (V1, V2):
        fails = [e["result"] for e in traces("queueing-hints")[variant]["steps"] if e["op"] == "fail"]
        assert fails == [
            {"hint": "QueueSkip", "queue": "unschedulablePods"},
            {"hint": "QueueAfterBackoff", "queue": "backoffQ"},
            {"hint": "QueueImmediately", "queue": "activeQ"},
        ]


def test_lost_marker():
    fail = step_index("lost-marker", op="fail", pod="B")
    done_a = step_index("lost-marker", op="done", pod="A")
    v1, v2 = states("lost-marker", V1), states("lost-marker", V2)
    assert v1[done_a - 1]["inFlightPods"]["B"] == {"previousEvent": "e1", "previousEventInList": True}
    assert v1[done_a]["inFlightPods"]["B"] == {"previousEvent": "e1", "previousEventInList": False}
    assert event_ids(v1[done_a]) == ["e2"]  # the PvAdd B should see is still there
    assert v2[done_a]["inFlightEvents"] == [{"pod": "B"}, {"event": "PvAdd", "id": "e2"}]
    assert v1[fail]["unschedulablePods"] == ["B"] and v1[fail]["backoffQ"] == []
    assert v2[fail]["backoffQ"] == ["B"] and v2[fail]["unschedulablePods"] == []


def test_three_pod_cascade():
    fail_b = step_index("three-pod-cascade", op="fail", pod="B")
    done_a = step_index("three-pod-cascade", op="done", pod="A")
    v1 = states("three-pod-cascade", V1)
    assert v1[done_a]["inFlightPods"]["B"]["previousEventInList"] is False
    assert v1[done_a]["inFlightPods"]["C"]["previousEventInList"] is True
    assert v1[fail_b]["inFlightPods"]["C"]["previousEventInList"] is False  # B's Done removed C's marker
    assert event_ids(v1[fail_b]) == ["e3"]  # C's PvAdd is retained, yet C will not see it
    final = {v: traces("three-pod-cascade")[v]["final"] for v in (V1, V2)}
    assert final[V1]["unschedulablePods"] == ["B", "C"] and final[V1]["backoffQ"] == []
    assert final[V2]["backoffQ"] == ["B", "C"] and final[V2]["unschedulablePods"] == []


def test_five_minute_wait():
    fail = step_index("five-minute-wait", op="fail", pod="B")
    assert first_time_in("five-minute-wait", V2, "B", "backoffQ", fail) == 0
    assert first_time_in("five-minute-wait", V2, "B", "activeQ", fail) == 1
    assert first_time_in("five-minute-wait", V1, "B", "unschedulablePods", fail) == 0
    assert first_time_in("five-minute-wait", V1, "B", "activeQ", fail) == 330
    # No flush step is written: the periodic flushes run as the clock advances, and only the 330 s tick moves B.
    v1 = traces("five-minute-wait")[V1]["steps"]
    flushes = [f for step in v1 for f in step["result"].get("flushes", ())]
    assert [(f["at"], f["op"], f["result"]["moved"]) for f in flushes] == [
        (330, "flush_unschedulable_leftover", {"B": "activeQ"})]
    assert flushes[0]["result"]["event"] == "UnschedulableTimeout"
    assert queues(traces("five-minute-wait")[V1]["final"]) == queues(traces("five-minute-wait")[V2]["final"])


def test_no_unschedulable_plugin_global_vs_per_pod_rule():
    steps = builtin.get("no-unschedulable-plugin")["steps"]
    fails = [i for i, s in enumerate(steps) if s["op"] == "fail"]
    assert all(steps[i]["unschedulable_plugins"] == [] for i in fails)
    results = {v: [traces("no-unschedulable-plugin")[v]["steps"][i]["result"] for i in fails] for v in (V1, V2)}
    backoff = {"hint": "QueueAfterBackoff", "queue": "backoffQ"}
    assert results[V1] == [backoff, backoff]
    assert results[V2] == [backoff, {"hint": "QueueSkip", "queue": "unschedulablePods"}]
    # C failed while the list held only B's older event: v1.28.1 saw it, v1.28.2 did not look before [C].
    before = states("no-unschedulable-plugin", V2)[fails[1] - 1]["inFlightEvents"]
    assert before[-1] == {"pod": "C"} and any("event" in e for e in before)
    final = {v: traces("no-unschedulable-plugin")[v]["final"] for v in (V1, V2)}
    assert "C" in final[V1]["activeQ"] and final[V2]["unschedulablePods"] == ["C"]


def test_front_cleanup():
    v1, v2 = states("front-cleanup", V1), states("front-cleanup", V2)
    steps = builtin.get("front-cleanup")["steps"]
    assert max(len(s["inFlightPods"]) for s in v2) >= 3
    assert all(event_ids(a) == event_ids(b) for a, b in zip(v1, v2))  # same events retained, always
    done_c = step_index("front-cleanup", op="done", pod="C")
    before, after = (
        {e["id"]: e["inFlightPodsNum"] for e in s["receivedEvents"]} for s in (v1[done_c - 1], v1[done_c])
    )
    assert before.keys() == after.keys() and any(after[k] < before[k] for k in after)
    # v1.28.2: nothing pruned by a Done in the middle; event entries now sit between pod entries.
    assert event_ids(v2[done_c]) == event_ids(v2[done_c - 1])
    kinds = ["pod" if "pod" in e else "event" for e in v2[done_c]["inFlightEvents"]]
    assert kinds[0] == "pod" and "pod" in kinds[kinds.index("event"):][1:]
    # ...and some later Done drops several events from the front at once.
    dones = [i for i, s in enumerate(steps) if s["op"] == "done"]
    assert max(len(event_ids(v2[i - 1])) - len(event_ids(v2[i])) for i in dones) >= 2
    assert v1[-1]["receivedEvents"] == [] and v2[-1]["inFlightEvents"] == []


def test_duplicate_pop_growth():
    steps = builtin.get("duplicate-pop-growth")["steps"]
    assert len(steps) >= 20
    pops = [s.get("expect") for s in steps if s["op"] == "pop"]
    assert pops.count("X") == 2
    v1, v2 = states("duplicate-pop-growth", V1), states("duplicate-pop-growth", V2)
    middle, end = len(steps) // 2, len(steps) - 1
    assert v1[end]["inFlightPods"] == {} and v2[end]["inFlightPods"] == []
    assert len(v2[end]["inFlightEvents"]) > len(v1[end]["receivedEvents"])
    assert len(v2[end]["inFlightEvents"]) > len(v2[middle]["inFlightEvents"])
    assert v2[end]["inFlightEvents"][0] == {"pod": "X"}  # the orphan, never removed
    assert len(v1[end]["receivedEvents"]) == 1  # v1.28.1: only the event counted for the first attempt
    # v1.28.2 never drops an event after the orphan appears; v1.28.1 keeps dropping later ones.
    orphan = step_index("duplicate-pop-growth", op="done", pod="X")
    counts = [len(event_ids(s)) for s in v2[orphan:]]
    assert counts == sorted(counts) and counts[-1] >= 6
    assert max(len(event_ids(s)) for s in v1[orphan:]) <= 3


def test_gate_off_identical_and_no_in_flight_state():
    t1, t2 = traces("gate-off")[V1], traces("gate-off")[V2]
    assert builtin.get("gate-off")["gate"] is False
    for a, b in zip(t1["steps"], t2["steps"]):
        assert a["result"] == b["result"]
        assert queues(a["state"]) == queues(b["state"])
        assert a["state"]["inFlightPods"] == {} and a["state"]["receivedEvents"] == []
        assert b["state"]["inFlightPods"] == [] and b["state"]["inFlightEvents"] == []
    rules = [e["result"]["rule"] for e in t1["steps"] if e["op"] == "fail"]
    assert rules == ["moveRequestCycle<podSchedulingCycle", "moveRequestCycle>=podSchedulingCycle",
                     "moveRequestCycle<podSchedulingCycle"]


def test_the_guide_lists_the_course_as_the_picker_does():
    """The README said 'lesson N of 9' when the course had 14: the guide's table and count follow builtin.index()."""
    readme = (Path(__file__).resolve().parents[2] / "docs" / "guide.md").read_text(encoding="utf-8")
    table = "\n".join(f"| `{s['id']}` | {s['name']} |" for s in builtin.index())
    assert table in readme, f"docs/guide.md: the built-ins table should read\n{table}"
    assert f"lesson N of {len(builtin.ids())}," in readme
