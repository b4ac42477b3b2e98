import pytest

from tests.conftest import conformance_cases
from webapp.engine.simulation import MAX_PANES, Simulation, versions_in
from webapp.engine.trace import replay
from webapp.errors import Invalid
from webapp.model.variant import VARIANTS
from webapp.model.versions import VERSIONS
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
        sim.seek(position)
        frame = sim.frame()
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
    for command, args, position in ((sim.step, (), 1), (sim.step, (), 2), (sim.back, (), 1), (sim.run, (), sim.total),
                                    (sim.step, (), sim.total), (sim.run, (0,), 0), (sim.back, (), 0)):
        assert command(*args) is None  # commands move the cursor; frame() is the one query
        assert sim.position == sim.frame()["position"] == position
    sim.run()
    assert sim.peek() is None and sim.frame()["next"] is None


def test_one_frame_is_built_per_position_however_often_it_is_asked_for():
    sim = Simulation(scenario("custom-lost-marker-01"))
    built = sim.frames_built
    for position in (1, 2, 2, 3):
        sim.seek(position)
        assert sim.frame() is sim.frame()
    assert sim.frames_built == built + 3
    sim.preview()
    assert sim.frames_built == built + 3 and sim.position == 3


def test_a_frame_at_another_position_moves_no_cursor_and_is_not_kept():
    sim, fresh = Simulation(scenario("custom-lost-marker-01")), Simulation(scenario("custom-lost-marker-01"))
    for position in range(sim.total):
        here = sim.frame()
        built = sim.frames_built
        ahead = sim.frame_at(position + 1)
        assert sim.frame_at(position + 1) is not ahead and sim.frames_built == built + 2
        assert sim.position == position and sim.frame() is here  # the cursor and its frame stay what they were
        fresh.seek(position + 1)
        assert ahead == fresh.frame()  # the same as a frame built at that position the usual way
        sim.step()
        assert sim.frame() == ahead and sim.frames_built == built + 3  # the cursor's own, built when asked for
    with pytest.raises(Invalid):
        sim.frame_at(sim.total + 1)


def test_moving_the_cursor_moves_no_model_until_a_frame_is_asked_for():
    sim = Simulation(scenario("custom-lost-marker-01"), interval=2)
    fresh = Simulation(scenario("custom-lost-marker-01"), interval=2)
    lines = list(sim.timelines.values())
    sim.seek(1)
    before = [line.position for line in lines]
    for position in (2, 3, 0, sim.total, 2):
        sim.seek(position)
        assert sim.position == position and [line.position for line in lines] == before
    fresh.seek(2)
    assert sim.frame() == fresh.frame() and sim.preview() == fresh.preview()
    assert [line.position for line in lines] == [2] * len(lines)


def test_preview_is_the_next_step_without_moving_the_cursor():
    sim = Simulation(scenario("custom-lost-marker-01"))
    for position in range(sim.total):
        sim.seek(position)
        frame = sim.frame()
        ahead = sim.preview()
        assert sim.position == position and sim.frame() is frame
        sim.step()
        for variant, payload in sim.frame()["variants"].items():
            assert ahead[variant] == {"result": payload["result"], "record": payload["record"]}
    sim.run()
    assert sim.preview() is None


def test_back_restores_the_earlier_state_exactly():
    sim = Simulation(scenario("upstream-moveall-01"), interval=4)
    before = []
    for p in range(sim.total + 1):
        sim.seek(p)
        before.append(sim.frame()["variants"])
    for p in range(sim.total, -1, -1):
        sim.seek(p)
        assert sim.frame()["variants"] == before[p]


def test_divergence_is_the_first_position_placing_a_pod_differently():
    sim = Simulation(scenario("custom-lost-marker-01"))
    assert sim.divergence == 6  # after step 5: B fails
    sim.seek(6)
    frame = sim.frame()["variants"]
    assert frame["v1.28.1"]["state"]["unschedulablePods"] == ["B"]
    assert frame["v1.28.2"]["state"]["backoffQ"] == ["B"]
    assert Simulation(scenario("custom-control-01")).divergence is None


def test_single_variant_has_no_divergence():
    sim = Simulation(scenario("custom-lost-marker-01"), ["v1.28.2"])
    assert list(sim.frame()["variants"]) == ["v1.28.2"] and sim.divergence is None


def test_time_back_to_active_queue_per_variant():
    sim = Simulation(scenario("custom-lost-marker-06"))
    (old,) = sim.returns["v1.28.1"].returns["B"]
    (new,) = sim.returns["v1.28.2"].returns["B"]
    assert (old["pod"], old["via"], old["seconds"]) == ("B", "unschedulablePods", 330.0)
    assert (new["pod"], new["via"], new["seconds"]) == ("B", "backoffQ", 1.0)


def test_seek_outside_the_range_is_rejected_and_changes_nothing():
    sim = Simulation(scenario("custom-lost-marker-01"))
    sim.seek(3)
    for bad in (-1, sim.total + 1, "2", 1.5, True):
        with pytest.raises(Invalid):
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
    with pytest.raises(Invalid):
        Simulation(scenario("custom-lost-marker-01"), ["v1.27"])


def test_replay_trace_shape():
    trace = replay(scenario("custom-lost-marker-01"), "v1.28.1")
    assert trace["schema"] == 1 and trace["variant"] == "v1.28.1"
    assert trace["final"] == trace["steps"][-1]["state"]


# --- a list of versions as people write it (a link's ?versions=, the CLI's --variant, an export) ---------------
@pytest.mark.parametrize("text, chosen", [
    ("both", VARIANTS),
    ("v1.30.14", ("v1.30.14",)),
    ("v1.31.13, v1.28.1,v1.31.13", ("v1.31.13", "v1.28.1")),  # the order given, once each, spaces ignored
])
def test_versions_in_reads_a_comma_list(text, chosen):
    assert versions_in(text) == chosen


@pytest.mark.parametrize("text, words", [
    ("", "1 to 4"),
    ("v1.28.1,,v1.28.2", "unknown version: ''"),
    ("v1.28.1,v1.28.3", "unknown version: 'v1.28.3'"),
    (",".join(list(VERSIONS)[:MAX_PANES + 1]), f"1 to {MAX_PANES} of"),
    ("v1.28.1," * 5000, "separated by commas"),  # refused before it is split
])
def test_versions_in_refuses_what_it_cannot_show(text, words):
    with pytest.raises(Invalid, match=words.replace(".", r"\.")):
        versions_in(text)


def test_the_engine_runs_every_version_in_lockstep_the_panes_are_the_pages_bound():
    """Four was the engine's bound; it is only how many panes a page shows (the transports check it)."""
    sim = Simulation(scenario("custom-lost-marker-01"), list(VERSIONS))
    assert sim.variants == tuple(VERSIONS) and len(VERSIONS) > MAX_PANES
    sim.seek(sim.total)
    frame = sim.frame()
    for version in VERSIONS:  # each as it runs alone
        alone = Simulation(scenario("custom-lost-marker-01"), [version])
        alone.seek(alone.total)
        assert frame["variants"][version]["state"] == alone.frame()["variants"][version]["state"], version


def test_a_replay_may_ask_for_every_version():
    assert versions_in(",".join(VERSIONS), most=len(VERSIONS)) == tuple(VERSIONS)
