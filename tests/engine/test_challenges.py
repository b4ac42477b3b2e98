"""Each challenge is checked by running the model: a smallest solving scenario counts, with the step, pod and
evidence that make it count; a near miss (one thing different) does not, and says what is missing."""

import pytest

from webapp.engine.challenges import BY_ID, CHALLENGES, GROWTH, MAX_PODS_LOSE, WAIT, challenge, check
from webapp.errors import NotFound
from webapp.presenter.challenges import explain
from webapp.scenario import builtin
from webapp.scenario.errors import ScenarioError
from webapp.scenario.load import load_scenario

P_HINT = [{"event": "PvAdd", "plugin": "P", "hint": "QueueAfterBackoff"}]


def scenario(steps, pods=("A", "B"), **more):
    return load_scenario({"schema": 1, "name": "t", "gate": True, "hints": P_HINT,
                          "pods": [{"name": p} for p in pods], "initial_active": list(pods), "steps": steps, **more})


POP = lambda pod: {"op": "pop", "expect": pod}  # noqa: E731
EVENT = lambda event="NodeAdd": {"op": "event", "event": event}  # noqa: E731
DONE = lambda pod: {"op": "done", "pod": pod}  # noqa: E731
FAIL = lambda pod, *plugins: {"op": "fail", "pod": pod, "unschedulable_plugins": list(plugins)}  # noqa: E731
CLOCK = lambda seconds: {"op": "advance_clock", "seconds": seconds}  # noqa: E731

LOST = [POP("A"), EVENT(), POP("B"), EVENT("PvAdd"), DONE("A"), FAIL("B", "P")]  # the lost-marker built-in's steps


def verdict(challenge_id, sc):
    result = check(challenge_id, sc)
    return result["solved"], result["why"], explain(result, sc.steps)


def test_the_table_states_each_challenge_once_with_a_start_that_does_not_solve_it():
    assert [c.id for c in CHALLENGES] == ["lose-marker", "five-minutes", "unbounded-list", "sooner-retry"]
    assert len(BY_ID) == len(CHALLENGES)
    for c in CHALLENGES:
        assert c.start in builtin.ids() and c.versions and c.title and c.goal
        assert check(c.id, load_scenario(builtin.get(c.start)))["solved"] is False


def test_an_unknown_challenge_is_not_found():
    with pytest.raises(NotFound):
        challenge("nope")


# --- 1. lose B's marker with two pods --------------------------------------------------------------------------
def test_lose_marker_in_four_steps():
    solved, why, words = verdict("lose-marker", scenario([POP("A"), EVENT(), POP("B"), DONE("A")]))
    assert solved
    assert why["step"] == 3 and why["pod"] == "B" and why["invariant"] == "in_flight_boundary"
    assert why["marker"] == "e1" and why["pods"] == 2
    assert "step 4 (done A)" in words and "B's marker e1" in words and "in_flight_boundary" in words


def test_lose_marker_near_miss_the_event_after_both_pops_marks_nothing():
    solved, why, words = verdict("lose-marker", scenario([POP("A"), POP("B"), EVENT(), DONE("A")]))
    assert not solved and why["reason"] == "no-marker-lost" and "kept its marker" in words


def test_lose_marker_near_miss_three_pods_do_not_count_even_if_the_marker_is_lost():
    solved, why, words = verdict("lose-marker", scenario([POP("A"), EVENT(), POP("B"), DONE("A")], pods="ABC"))
    assert not solved and why["reason"] == "too-many-pods" and why["step"] == 3 and why["pods"] == 3
    assert f"at most {MAX_PODS_LOSE}" in words


# --- 2. five minutes on v1.28.1 but not on v1.28.2 ------------------------------------------------------------
def test_five_minutes_after_the_lost_marker():
    solved, why, words = verdict("five-minutes", scenario([*LOST, CLOCK(WAIT)], periodic_flushes=True))
    assert solved and why["reason"] == "waited-long-on-old-only" and why["pod"] == "B" and why["step"] == 5
    assert why["seen_step"] == 6 and why["waited"] == WAIT and why["queues"] == ["unschedulablePods"]
    # v1.28.2 backed B off for 1 s: the 1 s flush inside the same advance_clock step retried it, at t = 1 s
    assert why["theirs"] == [{"began": 5, "since": 0, "queues": ["backoffQ"], "ended": 6, "until": 1,
                              "to": "activeQ", "waited": 1}]
    assert "300 s ≥ 300 s without a retry" in words and "B waited in backoffQ from t = 0 s" in words
    assert "moved it to activeQ at t = 1 s" in words and "A retry is the pod reaching activeQ" in words


def test_five_minutes_with_periodic_flushes_counts_the_wait_until_the_flush():
    solved, why, _ = verdict("five-minutes", scenario([*LOST, CLOCK(1), CLOCK(299), CLOCK(30)], periodic_flushes=True))
    assert solved and why["seen_step"] == 7 and why["ended"] == 8 and why["to"] == "activeQ"  # out at the 330 s flush
    assert why["until"] == why["waited"] == 330


def test_five_minutes_times_a_retry_by_the_flush_inside_one_long_step():
    # one 330 s step: v1.28.1's B is retried by the 330 s flush, v1.28.2's by the 1 s flush, not at the step's end
    solved, why, _ = verdict("five-minutes", scenario([*LOST, CLOCK(330)], periodic_flushes=True))
    assert solved and why["ended"] == 6 and why["waited"] == 330 and why["theirs"][0]["waited"] == 1


def test_the_course_solution_counts():
    assert check("five-minutes", load_scenario(builtin.get("five-minute-wait")))["solved"]


def test_five_minutes_near_miss_waiting_in_backoff_q_is_no_retry():
    # without periodic flushes nothing takes v1.28.2's B out of backoffQ: it waits the 301 s too (this counted)
    solved, why, words = verdict("five-minutes", scenario([*LOST, CLOCK(WAIT + 1)]))
    assert not solved and why["reason"] == "waited-long-on-both" and why["pod"] == "B"
    assert why["theirs"] == [{"began": 5, "since": 0, "queues": ["backoffQ"], "ended": None, "until": None,
                              "to": None, "waited": WAIT + 1}]
    assert "B waited in backoffQ from t = 0 s, at step 6, and was still waiting at the end, 301 s later" in words
    assert "does not count" in words and "without periodic_flushes" in words


def test_five_minutes_one_wait_whatever_queue_it_is_in():
    # PvAdd moves v1.28.1's parked B to backoffQ (still backing off): the same wait goes on, and nothing retries it
    solved, why, _ = verdict("five-minutes", scenario([*LOST, EVENT("PvAdd"), CLOCK(WAIT)]))
    assert not solved and why["reason"] == "waited-long-on-both"
    assert why["queues"] == ["unschedulablePods", "backoffQ"] and why["waited"] == WAIT and why["ended"] is None


def test_five_minutes_near_miss_one_second_short():
    solved, why, words = verdict("five-minutes", scenario([*LOST, CLOCK(WAIT - 1)], periodic_flushes=True))
    assert not solved and why["reason"] == "not-long-enough" and why["seconds"] == WAIT - 1
    assert "299 s" in words


def test_five_minutes_near_miss_parked_as_long_on_both_versions():
    # no event at all: B is parked on both versions, for five minutes on both
    solved, why, words = verdict("five-minutes", scenario([POP("B"), FAIL("B", "P"), CLOCK(WAIT)]))
    assert not solved and why["reason"] == "waited-long-on-both" and why["pod"] == "B"
    assert why["theirs"] and why["theirs"][0]["ended"] is None and "does not count" in words


def test_five_minutes_never_waiting():
    solved, why, words = verdict("five-minutes", scenario([POP("A"), DONE("A")]))
    assert not solved and why["reason"] == "never-waited" and "No pod ever waited" in words


# --- 3. v1.28.2's list without bound ---------------------------------------------------------------------------
TWICE = [POP("X"), {"op": "update", "pod": "X"}, POP("X")]  # X popped again while its first attempt is in flight


def test_unbounded_list_an_orphan_and_events_behind_it():
    solved, why, words = verdict("unbounded-list", scenario([*TWICE, *[EVENT()] * GROWTH], pods=("X",)))
    assert solved and why["step"] == 2 and why["pod"] == "X" and why["invariant"] == "pod_entries_in_flight"
    assert len(why["behind"]) == GROWTH and why["broken_at"] == 2
    assert "orphan" in words and "grows without bound" in words


def test_unbounded_list_near_miss_too_little_growth():
    solved, why, words = verdict("unbounded-list", scenario([*TWICE, *[EVENT()] * (GROWTH - 1)], pods=("X",)))
    assert not solved and why["reason"] == "too-little-growth" and len(why["behind"]) == GROWTH - 1
    assert f"at least {GROWTH}" in words


def test_unbounded_list_near_miss_many_events_but_no_orphan():
    solved, why, _ = verdict("unbounded-list", scenario([POP("X"), *[EVENT()] * 8], pods=("X",)))
    assert not solved and why["reason"] == "no-orphan" and why["length"] == 9  # long, but Done(X) would clean it


# --- 4. v1.28.1 retries sooner ---------------------------------------------------------------------------------
def test_sooner_retry_a_failure_without_plugins_after_an_older_event():
    solved, why, words = verdict("sooner-retry", scenario([POP("A"), EVENT(), POP("B"), FAIL("B")]))
    assert solved and why["step"] == 3 and why["pod"] == "B"
    assert why["where"] == {"v1.28.1": "backoffQ", "v1.28.2": "unschedulablePods"}
    assert why["hints"]["v1.28.1"]["reason"] == "no-plugins-list-nonempty" and why["retained"] == ["e1"]
    assert "receivedEvents holds at least one event" in words and "[B]" in words


def test_sooner_retry_near_miss_the_event_is_the_pods_own():
    solved, why, words = verdict("sooner-retry", scenario([POP("A"), POP("B"), EVENT(), FAIL("B")]))
    assert not solved and why["reason"] == "no-such-failure" and why["failures"] == 1 and "1 failure" in words


def test_a_step_a_version_cannot_run_is_a_located_error():
    with pytest.raises(ScenarioError) as err:
        check("sooner-retry", scenario([POP("A"), POP("A")]))
    assert err.value.problems[0]["step"] == 1


def test_the_command_line_says_solved_or_not_yet_with_its_status(capsys):
    from webapp.cli import main

    assert main(["check-challenge", "lose-marker", "lost-marker"]) == 0
    assert "solved" in capsys.readouterr().out
    assert main(["check-challenge", "five-minutes", "lost-marker"]) == 1
    assert "not yet" in capsys.readouterr().out
    assert main(["check-challenge", "nope", "lost-marker"]) == 2
