import pytest

from tests.conftest import conformance_cases
from webapp.engine.simulation import Simulation
from webapp.engine.trace import replay
from webapp.scenario.errors import ScenarioError
from webapp.scenario.scenario import from_valid_dict

CASES = {c["id"]: c for c in conformance_cases()}


def scenario(case_id):
    return from_valid_dict(CASES[case_id]["scenario"])


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_seek_anywhere_matches_the_expected_trace(case_id):
    case = CASES[case_id]
    sim = Simulation(scenario(case_id), interval=2)
    order = list(range(sim.total, -1, -1)) + list(range(0, sim.total + 1, 3))
    for position in order:
        frame = sim.seek(position)
        assert frame["position"] == position
        for variant, view in frame["variants"].items():
            if position == 0:
                assert view["result"] is None and view["record"] is None
                continue
            want = case["expected"][variant]["steps"][position - 1]
            assert (view["state"], view["result"]) == (want["state"], want["result"])
            assert view["record"]["step"] == position - 1


def test_step_and_back_walk_the_cursor():
    sim = Simulation(scenario("custom-lost-marker-01"))
    assert sim.position == 0 and sim.peek()["op"] == "pop"
    assert sim.step()["position"] == 1
    assert sim.step()["position"] == 2
    assert sim.back()["position"] == 1
    assert sim.run()["position"] == sim.total
    assert sim.peek() is None
    assert sim.step()["position"] == sim.total  # stays at the end
    assert sim.run(until=0)["position"] == 0
    assert sim.back()["position"] == 0


def test_back_restores_the_earlier_state_exactly():
    sim = Simulation(scenario("upstream-moveall-01"), interval=4)
    before = [sim.seek(p)["variants"] for p in range(sim.total + 1)]
    for p in range(sim.total, -1, -1):
        assert sim.seek(p)["variants"] == before[p]


def test_divergence_is_the_first_position_placing_a_pod_differently():
    sim = Simulation(scenario("custom-lost-marker-01"))
    assert sim.divergence == 6  # after step 5: B fails
    frame = sim.seek(6)["variants"]
    assert frame["v1.28.1"]["state"]["unschedulablePods"] == ["B"]
    assert frame["v1.28.2"]["state"]["backoffQ"] == ["B"]
    assert Simulation(scenario("custom-control-01")).divergence is None


def test_single_variant_has_no_divergence():
    sim = Simulation(scenario("custom-lost-marker-01"), ["v1.28.2"])
    assert list(sim.frame()["variants"]) == ["v1.28.2"] and sim.divergence is None


def test_time_back_to_active_queue_per_variant():
    sim = Simulation(scenario("custom-lost-marker-06"))
    (old,) = sim.returns["v1.28.1"].returns
    (new,) = sim.returns["v1.28.2"].returns
    assert (old["pod"], old["via"], old["seconds"]) == ("B", "unschedulablePods", 330.0)
    assert (new["pod"], new["via"], new["seconds"]) == ("B", "backoffQ", 1.0)


def test_seek_outside_the_range_is_rejected_and_changes_nothing():
    sim = Simulation(scenario("custom-lost-marker-01"))
    sim.seek(3)
    for bad in (-1, sim.total + 1, "2", 1.5, True):
        with pytest.raises(IndexError):
            sim.seek(bad)
    assert sim.position == 3


def test_invalid_step_fails_the_load_naming_step_and_field():
    raw = dict(CASES["custom-lost-marker-01"]["scenario"])
    raw["steps"] = raw["steps"][:2] + [{"op": "pop", "expect": "A"}]  # A is in flight, B is the head
    with pytest.raises(ScenarioError) as err:
        Simulation(from_valid_dict(raw))
    (problem,) = err.value.problems
    assert problem["step"] == 2 and problem["field"] == "steps[2].expect"


def test_checkpoints_are_sparse():
    sim = Simulation(scenario("upstream-moveall-01"), interval=8)
    for line in sim.timelines.values():
        assert line.checkpoints == 1 + sim.total // 8


def test_unknown_variant_is_rejected():
    with pytest.raises(ValueError):
        Simulation(scenario("custom-lost-marker-01"), ["v1.27"])


def test_replay_trace_shape():
    trace = replay(scenario("custom-lost-marker-01"), "v1.28.1")
    assert trace["schema"] == 1 and trace["variant"] == "v1.28.1"
    assert trace["final"] == trace["steps"][-1]["state"]
