"""The lines a step ran (webapp/presenter/sourcelines.py), per version, in order, with their values: at the lost
marker's fail, v1.28.1 shows previousEvent.Next() returning nil and the loop not run; v1.28.2 walks [B] -> PvAdd.
Every lit line is an anchor of the version's map, inside its function."""

import pytest

from webapp.engine.trace import replay
from webapp.model.versions import VERSIONS
from webapp.presenter.sourcelines import lit_lines, with_lines
from webapp.scenario import builtin
from webapp.scenario.errors import ScenarioError
from webapp.scenario.resolve import resolve
from webapp.sources.maps import MAPS


def steps(scenario: str, version: str) -> list[dict]:
    return replay(resolve(scenario)[0], version, records=True)["steps"]


def the_fail(version: str) -> list[dict]:
    step = next(s for s in steps("lost-marker", version) if s["op"] == "fail")
    return lit_lines(version, step["record"], step["result"], step["state"])


def test_v1_28_1_the_marker_next_is_nil_and_the_loop_does_not_run():
    lit = the_fail("v1.28.1")
    anchors = [x["anchor"] for x in lit]
    m = MAPS["v1.28.1"]
    nxt = next(x for x in lit if x["anchor"] == "dh.marker_next")
    assert nxt["line"] == m.anchors["dh.marker_next"].lines[0] and "Next() = nil" in nxt["value"]
    loop = next(x for x in lit if x["anchor"] == "dh.loop")
    assert "does not run" in loop["value"]
    assert "dh.worth" not in anchors  # isPodWorthRequeuing is never asked
    assert anchors.index("dh.marker_next") < anchors.index("dh.loop") < anchors.index("dh.return")
    assert [x["value"] for x in lit if x["anchor"] in ("dh.return", "rq.unschedulable")] == \
        ["QueueSkip", "unschedulablePods"]


def test_v1_28_2_walks_from_the_pods_entry_to_pvadd():
    lit = the_fail("v1.28.2")
    anchors = [x["anchor"] for x in lit]
    assert "dh.marker_next" not in anchors
    worth = next(x for x in lit if x["anchor"] == "dh.worth")
    assert "PvAdd" in worth["value"] and "QueueAfterBackoff" in worth["value"]
    assert anchors.index("dh.loop") < anchors.index("dh.worth") < anchors.index("dh.backoff") < \
        anchors.index("dh.return") < anchors.index("rq.backoff")
    assert next(x for x in lit if x["anchor"] == "rq.backoff")["value"] == "backoffQ"
    # the deferred done runs last; it empties the list, so its loop ends on `if e == nil` (upstream's line)
    assert anchors[-2:] == ["done.prune_front", "done.prune_empty"]
    assert lit[-1]["line"] == 884 and lit[-1]["function"] == "done"  # v1.28.4's text, read in the mirror


def test_v1_28_2_a_done_with_a_pod_still_in_flight_stops_at_its_entry():
    done = [s for s in steps("three-pod-cascade", "v1.28.2") if s["op"] in ("done", "fail")]
    ends = [[x["anchor"] for x in lit_lines("v1.28.2", s["record"], s["result"], s["state"])][-1] for s in done]
    assert ends == ["done.prune_pod", "done.prune_pod", "done.prune_empty"]


# the built-ins whose own expectations fail on a version they do not name (test_the_unrunnable_are_refused)
UNRUNNABLE = {("duplicate-pop-growth", "v1.31.13")}
RUNNABLE = [(s, v) for s in builtin.ids() for v in sorted(VERSIONS) if (s, v) not in UNRUNNABLE]


@pytest.mark.parametrize("scenario, version", sorted(UNRUNNABLE))
def test_the_unrunnable_are_refused(scenario, version):
    with pytest.raises(ScenarioError, match="expected"):
        steps(scenario, version)


@pytest.mark.parametrize("scenario, version", RUNNABLE)
def test_every_lit_line_is_an_anchor_inside_its_function(scenario, version):
    run = steps(scenario, version)
    m = MAPS[version]
    for step in run:
        for x in lit_lines(version, step["record"], step["result"], step["state"]):
            f = m.functions[x["function"]]
            assert m.anchors[x["anchor"]].lines[0] == x["line"] and f.first < x["line"] < f.last


def test_before_the_first_step_nothing_is_lit():
    assert lit_lines("v1.28.1", None, None, {}) == []


def test_replay_records_carry_the_lines_in_order():
    trace = with_lines(replay(resolve("lost-marker")[0], "v1.28.2", records=True))
    lines = trace["steps"][-1]["record"]["lines"]
    assert lines[0] == {"file": "pkg/scheduler/internal/queue/scheduling_queue.go",
                        "line": MAPS["v1.28.2"].anchors["aup.defer_done"].lines[0],
                        "function": "AddUnschedulableIfNotPresent"}


def test_the_paraphrase_names_only_lines_the_versions_text_has():
    from webapp.presenter.sourcepane import pane_payload
    v2, v4 = pane_payload("v1.28.2", None), pane_payload("v1.28.4", None)
    assert "pop.clear" not in {a for a, _ in v2["paraphrase"]["Pop"]}  # #120334's line, not in v1.28.2
    assert "pop.clear" in {a for a, _ in v4["paraphrase"]["Pop"]}
    assert "mp.interest" not in {a for a, _ in v4["paraphrase"]["movePodsToActiveOrBackoffQueue"]}  # 1.30+
    for version in MAPS:
        payload = pane_payload(version, None)
        assert all(a is None or a in payload["anchorLines"] for lines in payload["paraphrase"].values()
                   for a, _ in lines)


def test_the_state_message_carries_the_lines_as_anchor_and_value():
    from webapp.engine.simulation import Simulation
    from webapp.presenter import state_message
    from webapp.presenter.sourcelines import on_the_wire
    scenario = resolve("lost-marker")[0]
    sim = Simulation(scenario, ("v1.28.1", "v1.28.2"))
    sim.seek(sim.total)
    variants = state_message(sim.frame())["variants"]
    for version in ("v1.28.1", "v1.28.2"):
        assert variants[version]["source"] == on_the_wire(the_fail(version))
    assert ["dh.marker_next", next(x["value"] for x in the_fail("v1.28.1") if x["anchor"] == "dh.marker_next")] \
        in variants["v1.28.1"]["source"]
    sim.seek(0)
    assert all(v["source"] == [] for v in state_message(sim.frame())["variants"].values())
