"""The scene's picture, checked against the frame it comes from on every built-in and on generated scenarios:
every in-flight pod has one pointer aimed at an item that is drawn; a failure keeps what its walk saw (the
failed pod's pointer, the walked entries, the entries the deferred Done removed as ghosts); timers stay in
range. The oracles read the frame's records and views, not the presenter's own tables."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import builtin_simulation
from tests.profiles import examples
from webapp.engine.simulation import Simulation
from webapp.model.variant import VARIANTS
from webapp.presenter.scene import present
from webapp.presenter.words import step_label
from webapp.scenario import builtin
from webapp.scenario.generate import PLUGINS, generate
from webapp.scenario.resolve import resolve
from webapp.scenario.scenario import from_valid_dict


def check_position(sim: Simulation) -> None:
    frame = sim.frame()
    scene = present(frame, sim.preview())
    # no spoilers: an outcome is shown only for a pod that has failed in the steps applied so far
    failed_so_far = {s["pod"] for s in sim.scenario.steps[:frame["position"]] if s["op"] == "fail"}
    assert {p["pod"] for p in scene["outcomes"]["pods"]} <= failed_so_far
    for variant, payload in frame["variants"].items():
        pane, record = scene["panes"][variant], payload["record"] or {}
        items = {i["key"]: i for i in pane["list"]["items"]}
        tracked = sorted(payload["state"].get("inFlightPods") or ())  # the tracker's in-flight pods
        live = [p for p in pane["pointers"] if not p["decided"]]
        assert sorted(p["pod"] for p in live) == tracked
        [lane] = [lane for lane in pane["lanes"] if lane["queue"] == "inFlight"]
        assert set(tracked) <= {c["pod"] for c in lane["chips"]}  # each pointer starts at a chip there
        for p in pane["pointers"]:
            assert p["key"] in items, (variant, p, list(items))
            assert p["target"] == ("detached" if p["detached"] else p["key"] if p["key"] != "front" else "front")
            assert len(p["reach"]) in (0, 2) and set(p["reach"]) <= set(items)  # [first, last] or nothing
        removed = {r["id"] for r in record.get("removed", [])}
        ghosts = {i["key"] for i in pane["list"]["items"] if i.get("ghost")}
        assert ghosts == removed, (variant, frame["position"])
        exhausted = {r["id"] for r in record.get("removed", []) if r["reason"] == "exhausted"}
        # a ghost counted down to 0 says n=0, not the count it had before Done (beside entries drawn after it)
        assert all(items[key]["count"] == "n=0" for key in exhausted), (variant, frame["position"])
        hint = record.get("hint")
        walked = {i["key"] for i in pane["list"]["items"] if i.get("walked")}
        assert walked == ({w["id"] for w in hint["walk"]} if hint else set())
        decided = [p for p in pane["pointers"] if p["decided"]]
        if hint and frame["gate"] and hint["start"]["rule"] in ("after-own-entry", "marker-next", "marker-detached",
                                                                "front"):
            assert [p["pod"] for p in decided] == [hint["pod"]]
            walk = [w["id"] for w in hint["walk"]]
            assert decided[0]["reach"] == ([walk[0], walk[-1]] if walk else [])
            assert decided[0]["detached"] == (hint["start"]["rule"] == "marker-detached")
        else:
            assert decided == []
        for lane in pane["lanes"]:
            for chip in lane["chips"]:
                timer = chip["timer"]
                assert (timer is not None) == (lane["queue"] in ("backoffQ", "unschedulablePods"))
                if timer:
                    assert 0 <= timer["fraction"] <= 1 and timer["value"] >= 0 and timer["text"]


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_every_position_of_every_built_in(scenario_id):
    sim = builtin_simulation(scenario_id)
    for position in range(sim.total + 1):
        sim.seek(position)
        check_position(sim)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(1, 40), st.integers(2, 5), st.booleans())
def test_generated_scenarios(seed, steps, pods, gate):
    rng = random.Random(seed)
    hints = [{"event": e, "plugin": p, "hint": rng.choice(["QueueAfterBackoff", "QueueImmediately", "QueueSkip"])}
             for e in ("NodeAdd", "PvAdd") for p in PLUGINS]
    raw = generate(lambda options: rng.choice(list(options)), steps, pods=pods, hints=hints, gate=gate)
    sim = Simulation(from_valid_dict(raw), list(VARIANTS))
    for position in range(sim.total + 1):
        sim.seek(position)
        check_position(sim)


def test_the_decisive_frame_of_the_lost_marker_tells_the_story():
    sim = Simulation(resolve("lost-marker")[0], list(VARIANTS))
    sim.seek(6)
    panes = present(sim.frame())["panes"]
    bug, fix = panes["v1.28.1"], panes["v1.28.2"]
    assert bug["caption"] == "B fails → unschedulablePods: its marker e1 was removed: saw nothing"
    assert fix["caption"] == "B fails → backoffQ: saw PvAdd (QueueAfterBackoff)"
    assert [(i["key"], i.get("gone")) for i in fix["list"]["items"]] == [
        ("B@2", "removed by Done(B)"), ("e2", "dropped from the front by Done(B)")]
    [chip] = [c for lane in bug["lanes"] for c in lane["chips"] if c["pod"] == "B"]
    assert chip["timer"]["text"] == "0 s / 300 s"


def test_timers_count_the_wait_and_the_backoff():
    raw = {"schema": 1, "name": "t", "pods": [{"name": "A"}, {"name": "B"}], "initial_active": ["A", "B"],
           "hints": [{"event": "PvAdd", "plugin": "P", "hint": "QueueAfterBackoff"}],
           "steps": [{"op": "pop", "expect": "A"}, {"op": "fail", "pod": "A", "unschedulable_plugins": ["P"]},
                     {"op": "pop", "expect": "B"}, {"op": "event", "event": "PvAdd"},
                     {"op": "fail", "pod": "B", "unschedulable_plugins": ["Q"]},
                     {"op": "advance_clock", "seconds": 0.25}]}
    sim = Simulation(from_valid_dict(raw), ["v1.28.2"])
    sim.seek(6)
    chips = {c["pod"]: c["timer"] for lane in present(sim.frame())["panes"]["v1.28.2"]["lanes"] for c in lane["chips"]}
    # PvAdd moved A (its plugin P says QueueAfterBackoff) to backoffQ; nothing B saw helps its plugin Q
    assert chips["A"] == {"kind": "backoff", "value": 0.75, "limit": 1.0, "fraction": 0.75, "text": "0.75 s left"}
    assert chips["B"] == {"kind": "wait", "value": 0.25, "limit": 300.0, "fraction": 0.25 / 300,
                          "text": "0.25 s / 300 s"}


def test_with_periodic_flushes_each_parked_chip_says_when_the_flush_moves_it():
    sim = Simulation(resolve("five-minute-wait")[0], list(VARIANTS))
    sim.seek(6)  # B has just failed at t = 0 s
    scene = present(sim.frame(), sim.preview())
    timers = {v: [c["timer"] for lane in pane["lanes"] for c in lane["chips"] if c["timer"]]
              for v, pane in scene["panes"].items()}
    assert [(t["kind"], t["next"], t["text"]) for t in timers["v1.28.1"]] == [
        ("wait", 330, "0 s / 300 s · flush at 330 s")]
    assert [(t["kind"], t["next"], t["text"]) for t in timers["v1.28.2"]] == [
        ("backoff", 1, "1 s left · flush at 1 s")]
    # Without periodic flushes nothing is promised.
    sim = Simulation(resolve("lost-marker")[0], list(VARIANTS))
    sim.seek(6)
    chips = [c for pane in present(sim.frame(), sim.preview())["panes"].values() for lane in pane["lanes"]
             for c in lane["chips"] if c["timer"]]
    assert chips and all("next" not in c["timer"] and "flush" not in c["timer"]["text"] for c in chips)


def test_each_walked_event_carries_the_hint_the_walk_read_there():
    """queueing-hints position 7: B's walk read PvAdd's QueueAfterBackoff and NodeAdd's QueueSkip; the picture
    only had them in the line above the list."""
    sim = Simulation(resolve("queueing-hints")[0], list(VARIANTS))
    sim.seek(7)
    for variant, pane in present(sim.frame())["panes"].items():
        walked = {i["label"]: i.get("walkHint") for i in pane["list"]["items"] if i.get("walked")}
        assert walked == {"PvAdd": "QueueAfterBackoff", "NodeAdd": "QueueSkip"}, variant
        assert all("walkHint" not in i for i in pane["list"]["items"] if not i.get("walked"))


def test_a_flush_run_by_the_clock_is_said_in_the_caption_and_the_narration():
    """The clock's periodic flushes ran inside advance_clock and nothing said so: v1.28.2's B went from backoffQ
    to activeQ at t = 1 s under the caption "Clock +1 s"; v1.28.1's 30 s leftover flush likewise."""
    sim = Simulation(resolve("five-minute-wait")[0], list(VARIANTS))
    said = {}
    for position in (7, 9):
        sim.seek(position)
        said[position] = {v: (p["caption"], p["narration"]["lines"]) for v, p in present(sim.frame())["panes"].items()}
    assert said[7]["v1.28.2"] == ("Clock +1 s · backoff flush: B → activeQ", [
        "The fake clock moves forward 1 s to t = 1 s.",
        "At t = 1 s the 1 s backoff flush (flushBackoffQCompleted) moves B → activeQ."])
    assert said[7]["v1.28.1"][0] == "Clock +1 s"  # nothing to flush there: B waits in unschedulablePods
    assert said[9]["v1.28.1"] == ("Clock +30 s · leftover flush: B → activeQ", [
        "The fake clock moves forward 30 s to t = 330 s.",
        "At t = 330 s the 30 s leftover flush (flushUnschedulablePodsLeftover) moves B → activeQ "
        "(event UnschedulableTimeout, e3)."])


def test_a_flush_long_before_the_clock_stops_says_when_it_ran():
    """Advancing 330 s, v1.28.2's backoff flush moved A at t = 1 s: the caption said "Clock +330 s · backoff flush:
    A → activeQ", as if at 330 s."""
    raw = {"schema": 1, "name": "t", "periodic_flushes": True, "pods": [{"name": "A"}], "initial_active": ["A"],
           "steps": [{"op": "pop", "expect": "A"}, {"op": "event", "event": "NodeAdd"},
                     {"op": "fail", "pod": "A", "unschedulable_plugins": []}, {"op": "advance_clock", "seconds": 330}]}
    sim = Simulation(from_valid_dict(raw), ["v1.28.2"])
    sim.seek(4)
    assert present(sim.frame())["panes"]["v1.28.2"]["caption"] == "Clock +330 s · backoff flush at t = 1 s: A → activeQ"


def test_a_rooms_scene_has_presenter_notes_at_every_position_the_last_included():
    """At the last step there is no next step to preview: the notes said nothing (null), so the presenter's page
    kept the previous step's lines ("5. …" at 6 / 6), or none after a load there. A scene outside a room has none."""
    sim = Simulation(resolve("lost-marker")[0], list(VARIANTS))
    for position in range(sim.total + 1):
        sim.seek(position)
        scene = present(sim.frame(), sim.preview(), {"room": "ABCDEF"})
        step = sim.frame()["step"]
        assert scene["notes"]["now"] == (f"{position}. {step['note']}" if position else "Before the first step.")
        assert scene["notes"]["next"].startswith(f"{position + 1}. ") or position == sim.total
        assert present(sim.frame())["notes"] is None
    assert scene["notes"]["next"] == "End of the scenario." and scene["upcoming"] is None


@pytest.mark.parametrize("step, label", [
    ({"op": "fail", "pod": "B", "unschedulable_plugins": ["P"]}, "fail B — plugin P"),
    ({"op": "fail", "pod": "B", "unschedulable_plugins": ["P", "Q"]}, "fail B — plugins P, Q"),
    ({"op": "fail", "pod": "B", "unschedulable_plugins": []}, "fail B — no plugins"),
    ({"op": "fail", "pod": "A", "unschedulable_plugins": [], "pending_plugins": ["NodeAffinity"]},
     "fail A — no plugins, pending plugin NodeAffinity"),  # was "no plugins, plugin NodeAffinity"
    ({"op": "fail", "pod": "A", "pending_plugins": []}, "fail A — no pending plugins"),
    ({"op": "advance_clock", "seconds": 30}, "advance_clock 30 s"),
    ({"op": "pop", "expect": "A"}, "pop — expect A"),
    ({"op": "assigned_pod_added", "affinity_matching": ["A", "B"]}, "assigned_pod_added A, B"),
    ({"op": "assigned_pod_added", "affinity_matching": []}, "assigned_pod_added — affinity matching none"),
])
def test_step_labels_name_each_plugin_list_for_what_it_is(step, label):
    assert step_label(step) == label


def test_activeq_is_drawn_in_pop_order_with_its_heads_marked():
    """The lanes drew a trace's state, which lists pods by name: at duplicate-pop-growth 3, activeQ read W1 W2 ... W6
    X while X was the head, and clicking W1 to pop it was refused. A lane now lists its pods in the order pops (and
    the backoff flush) take them, and marks the heads a pop may take; every position of every built-in agrees with
    the model's next pop."""
    for scenario_id in builtin.ids():
        sim = builtin_simulation(scenario_id)
        for position in range(sim.total + 1):
            sim.seek(position)
            scene, step = present(sim.frame()), sim.scenario.steps[position] if position < sim.total else None
            for variant, pane in scene["panes"].items():
                [active] = [lane["chips"] for lane in pane["lanes"] if lane["queue"] == "activeQ"]
                heads = [c["pod"] for c in active if c.get("head")]
                assert heads == [c["pod"] for c in active[:len(heads)]] and bool(heads) == bool(active)
                if step and step["op"] == "pop" and step.get("expect"):
                    assert step["expect"] in heads, (scenario_id, position, variant)
    sim = Simulation(resolve("duplicate-pop-growth")[0], list(VARIANTS))
    sim.seek(3)
    for pane in present(sim.frame())["panes"].values():
        [active] = [lane["chips"] for lane in pane["lanes"] if lane["queue"] == "activeQ"]
        assert active[0] == {**active[0], "pod": "X", "head": True} and not any(c.get("head") for c in active[1:])
