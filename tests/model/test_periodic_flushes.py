"""Time that runs like the scheduler's: with ``periodic_flushes`` the clock runs Run's two tickers
(flushBackoffQCompleted every 1 s, flushUnschedulablePodsLeftover every 30 s, phase ``config.flush_phase``).

The model only runs the ticks that move a pod; the property test checks that against the brute force: the same
scenario with the flushes off and an explicit flush step written at every single tick."""

import random

import pytest

from webapp.model.versions import VERSIONS
from webapp.scenario import builtin
from webapp.scenario.generate import generate
from webapp.scenario.scenario import from_valid_dict
from webapp.scenario.validate import validate

NS = 1_000_000_000


def entering_active_q(scenario, variant: str, pod: str) -> list[float]:
    """Times at which ``pod`` entered activeQ from another sub-queue."""
    model, times = scenario.model(variant), []
    for i, step in enumerate(scenario.steps):
        result, record = model.apply(i, step)
        for flush in result.get("flushes", ()):
            moved = flush["result"].get("moved_to_activeQ", ()) or [
                p for p, q in flush["result"].get("moved", {}).items() if q == "activeQ"]
            if pod in moved:
                times.append(flush["at"])
    return times


def test_a_pod_parked_at_zero_waits_until_the_first_leftover_tick_after_five_minutes_without_flush_steps():
    raw = builtin.get("five-minute-wait")
    assert raw["periodic_flushes"] is True
    assert not [s for s in raw["steps"] if s["op"].startswith("flush")], "no flush step is written"
    scenario = from_valid_dict(raw)
    (late,) = entering_active_q(scenario, "v1.28.1", "B")
    (early,) = entering_active_q(scenario, "v1.28.2", "B")
    assert 300 < late <= 330 and late == 330  # the first 30 s tick after more than 300 s parked
    assert early == 1  # the first 1 s tick after its 1 s backoff


def test_the_phase_moves_the_ticks():
    raw = builtin.get("five-minute-wait")
    raw["config"] = {"flush_phase": 10.5}  # the scheduler started 10.5 s before t = 0
    scenario = from_valid_dict(raw)
    # backoff ticks at k - 10.5 (…, 0.5, 1.5): the 1 s backoff is over at the tick at 1.5;
    # leftover ticks at 30k - 10.5 (…, 289.5, 319.5): the first after more than 300 s is 319.5.
    assert entering_active_q(scenario, "v1.28.2", "B") == [1.5]
    assert entering_active_q(scenario, "v1.28.1", "B") == [319.5]


def test_off_by_default_so_explicit_flush_steps_stay_exact():
    raw = builtin.get("five-minute-wait")
    del raw["periodic_flushes"]
    raw["steps"] = raw["steps"][:-2]  # without flushes B never gets back to activeQ to be popped
    scenario = from_valid_dict(raw)
    model = scenario.model("v1.28.2")
    results = [model.apply(i, step)[0] for i, step in enumerate(scenario.steps)]
    assert all("flushes" not in r for r in results) and model.state()["backoffQ"] == ["B"]


@pytest.mark.parametrize("bad", [-1, 30, "5", True, None])
def test_flush_phase_must_be_seconds_below_the_leftover_period(bad):
    raw = {**builtin.get("five-minute-wait"), "config": {"flush_phase": bad}}
    (problem,) = validate(raw)
    assert problem["field"] == "config.flush_phase" and "< 30" in problem["message"]


def ticks_between(start: int, end: int, period: int, phase: int) -> list[int]:
    first = ((start + phase) // period + 1) * period - phase
    return list(range(first, end + 1, period))


def brute_force(raw: dict, aligned: bool = False) -> dict:
    """The scenario with periodic flushes off and every tick written out as flush steps; each original step is
    followed by a marker so the states can be compared after it. ``aligned``: the 1 s ticker ticks at whole
    seconds whatever the phase (v1.36.2's waitUntilAlignedWithOrderingWindow)."""
    phase = round(raw.get("config", {}).get("flush_phase", 0) * NS)
    steps, now, ends = [], 0, []
    for step in raw["steps"]:
        if step["op"] != "advance_clock":
            steps.append(step)
        else:
            target = now + round(step["seconds"] * NS)
            ticks = sorted([(t, 0) for t in ticks_between(now, target, NS, 0 if aligned else phase)]
                           + [(t, 1) for t in ticks_between(now, target, 30 * NS, phase)])
            for t, kind in ticks:
                if t > now:
                    steps.append({"op": "advance_clock", "seconds": (t - now) / NS})
                    now = t
                steps.append({"op": ("flush_backoff", "flush_unschedulable_leftover")[kind]})
            if target > now:
                steps.append({"op": "advance_clock", "seconds": (target - now) / NS})
            now = target
        ends.append(len(steps) - 1)
    return {**raw, "periodic_flushes": False, "steps": steps}, ends


@pytest.mark.parametrize("seed", range(12))
def test_running_only_the_ticks_that_move_a_pod_equals_running_every_tick(seed):
    rng = random.Random(seed)
    config = {"flush_phase": rng.choice([0, 0.25, 7, 29.5]), "initial_backoff": rng.choice([0.5, 1, 2]),
              "max_in_unschedulable": rng.choice([5, 60, 300])}
    raw = generate(rng.choice, 60, pods=4, variants=tuple(VERSIONS),
                   settings={"periodic_flushes": True, "config": config})
    explicit, ends = brute_force(raw)
    for variant in ("v1.28.1", "v1.28.2", "v1.31.13"):
        fast, slow = from_valid_dict(raw).model(variant), from_valid_dict(explicit).model(variant)
        slow_states = [(slow.apply(i, s), slow.state())[1] for i, s in enumerate(explicit["steps"])]
        for i, step in enumerate(raw["steps"]):
            fast.apply(i, step)
            assert fast.state() == slow_states[ends[i]], (seed, variant, i, step)
        # The records agree too (the fast view also says when the next flush moves each parked pod).
        records = {name: {k: v for k, v in pod.items() if k != "nextFlush"}
                   for name, pod in fast.view()["pods"].items()}
        assert records == slow.view()["pods"], (seed, variant)


@pytest.mark.parametrize("seed", range(8))
def test_a_parked_pods_next_flush_is_when_the_flush_moves_it(seed):
    rng = random.Random(100 + seed)
    config = {"flush_phase": rng.choice([0, 0.5, 13]), "max_in_unschedulable": rng.choice([5, 60])}
    raw = generate(rng.choice, 80, pods=4, settings={"periodic_flushes": True, "config": config})
    checked = 0
    for variant in ("v1.28.1", "v1.28.2"):
        model = from_valid_dict(raw).model(variant)
        promised = {}
        for i, step in enumerate(raw["steps"]):
            result, _ = model.apply(i, step)
            for flush in result.get("flushes", ()):
                if flush["op"] == "flush_backoff":
                    moved = [(p, "backoffQ") for p in flush["result"]["moved_to_activeQ"]]
                else:
                    moved = [(p, "unschedulablePods") for p in flush["result"]["moved"]]
                for key in moved:
                    if key in promised:
                        assert flush["at"] == promised.pop(key), (seed, variant, i, key)
                        checked += 1
            promised = {(name, pod["where"]): pod["nextFlush"] for name, pod in model.view()["pods"].items()
                        if "nextFlush" in pod}
    assert checked > 0


@pytest.mark.parametrize("seed", range(4))
def test_v1_36_2_flushes_backoff_at_whole_seconds(seed):
    """With SchedulerPopFromBackoffQ the 1 s flush is aligned to whole seconds; flush_phase shifts only the 30 s
    one. Running only the ticks that move a pod equals writing every aligned tick out."""
    rng = random.Random(seed)
    config = {"flush_phase": rng.choice([0.25, 0.5, 7.75]), "initial_backoff": rng.choice([0.5, 1, 2]),
              "max_in_unschedulable": rng.choice([5, 60])}
    raw = generate(rng.choice, 80, pods=4, variants=("v1.36.2",), settings={"periodic_flushes": True, "config": config})
    explicit, ends = brute_force(raw, aligned=True)
    fast, slow = from_valid_dict(raw).model("v1.36.2"), from_valid_dict(explicit).model("v1.36.2")
    slow_states = [(slow.apply(i, s), slow.state())[1] for i, s in enumerate(explicit["steps"])]
    for i, step in enumerate(raw["steps"]):
        fast.apply(i, step)
        assert fast.state() == slow_states[ends[i]], (seed, i, step)


@pytest.mark.parametrize("window,flushed_at", [(True, 2.0), (False, 1.5)])
def test_v1_36_2_backoff_ticks_and_windows(window, flushed_at):
    """A fails with no plugin at t = 0 (error backoff 1 s), the scheduler started 0.5 s before t = 0. With the
    window the expiry is its 1 s window, over once t reaches 2, and the flush ticks at whole seconds: A leaves at
    2.0. Without it (SchedulerPopFromBackoffQ off) A is still backing off at its expiry 1.0 and the 1 s ticker keeps
    the phase: A leaves at 1.5."""
    raw = {"schema": 2, "name": "t", "config": {"flush_phase": 0.5}, "pods": [{"name": "A"}], "initial_active": ["A"],
           "feature_gates": {"SchedulerPopFromBackoffQ": window},
           "steps": [{"op": "pop"}, {"op": "fail", "pod": "A", "unschedulable_plugins": []},
                     {"op": "advance_clock", "seconds": 2}]}
    model = from_valid_dict(raw).model("v1.36.2")
    results = [model.apply(i, step)[0] for i, step in enumerate(raw["steps"])]
    assert [(f["at"], f["op"]) for f in results[-1]["flushes"]] == [(flushed_at, "flush_backoff")]
    assert model.state()["activeQ"] == ["A"]
