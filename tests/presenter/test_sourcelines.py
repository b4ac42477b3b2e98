"""The lines a step ran (webapp/presenter/sourcelines.py), per version, in order, with their values: at the lost
marker's fail, v1.28.1 shows previousEvent.Next() returning nil and the loop not run; v1.28.2 walks [B] -> PvAdd.
From v1.32.0 Pop lights Pop in scheduling_queue.go, then activeQueue's steps in active_queue.go (a duplicate
discarded); on v1.36.2 backoffQueue's in backoff_queue.go. Every lit line is an anchor of the version's map, inside
its function."""

import json

import pytest

from webapp.engine.trace import replay
from webapp.model.versions import VERSIONS
from webapp.presenter.sourcelines import lit_lines, with_lines
from webapp.scenario import builtin
from webapp.scenario.errors import ScenarioError
from webapp.scenario.load import load_scenario, parse_text
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


# the built-ins a version refuses: their own expectations fail on it (1.32+ Pop discards the duplicate), or it
# cannot run them (1.36.2 refuses `gate: false`) -> what the refusal says
UNRUNNABLE = {("duplicate-pop-growth", "v1.31.13"): "expected", ("duplicate-pop-growth", "v1.32.0"): "expected",
              ("duplicate-pop-growth", "v1.36.2"): "expected", ("gate-off", "v1.36.2"): "locked on since 1.34"}
# the lessons on what later releases added, on the versions before them (what they lack, from which version)
UNRUNNABLE |= {(s, v): why for s, why, first in (("gated-pods", "no scheduling_gates", "v1.32.0"),
                                               ("pod-group-backoff", "no feature gate GenericWorkload", "v1.36.2"),
                                               ("pop-specific", "cannot run pop_specific", "v1.36.2"))
               for v in VERSIONS if list(VERSIONS).index(v) < list(VERSIONS).index(first)}
RUNNABLE = [(s, v) for s in builtin.ids() for v in sorted(VERSIONS) if (s, v) not in UNRUNNABLE]


@pytest.mark.parametrize("scenario, version", sorted(UNRUNNABLE))
def test_the_unrunnable_are_refused(scenario, version):
    with pytest.raises(ScenarioError, match=UNRUNNABLE[scenario, version]):
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


def lit_of(text: str, version: str) -> list[list[dict]]:
    """Each step's lit lines of the scenario ``text`` on ``version``."""
    run = replay(resolve(parse_text(text, "yaml"))[0], version, records=True)["steps"]
    return [lit_lines(version, s["record"], s["result"], s["state"]) for s in run]


def where(m, lit: list[dict]) -> list[tuple[str, str, int]]:
    return [(m.functions[x["function"]].path.rsplit("/", 1)[-1], x["function"], x["line"]) for x in lit]


DISCARD = """schema: 1
name: a duplicate discarded
gate: true
pods: [{name: A}, {name: B}]
initial_active: [A]
steps:
  - {op: pop, expect: A}
  - {op: add, pod: A}
  - {op: add, pod: B}
  - {op: pop}
  - {op: activate, pods: [A]}
  - {op: done, pod: A}
"""


@pytest.mark.parametrize("version", ["v1.32.0", "v1.36.2"])
def test_pop_runs_activeqs_pop_in_active_queue_go_and_discards_the_duplicate(version):
    m = MAPS[version]
    _, _, _, pop, activate, done = lit_of(DISCARD, version)
    assert where(m, pop)[0] == ("scheduling_queue.go", "Pop", m.anchors["pop.call"].lines[0])
    anchors = [x["anchor"] for x in pop]
    assert anchors.count("pop.take") == 2 and anchors.index("pop.in_flight") < anchors.index("pop.discard")
    assert next(x for x in pop if x["anchor"] == "pop.discard")["value"] == "A discarded: pop the next"
    assert {file for file, _, _ in where(m, pop[1:])} == {"active_queue.go"}
    assert [x["value"] for x in pop if x["anchor"] == "pop.return"] == ["B"]
    assert [x["anchor"] for x in activate] == ["act.loop", "act.force", "act.cycle"]  # A is in flight: #128170
    assert [x["anchor"] for x in done][:3] == ["done.gate", "Done.call", "done.lookup"]
    assert where(m, done)[2][:2] == ("active_queue.go", "activeQueue.unlockedDone" if version == "v1.36.2"
                                     else "activeQueue.done")


BACKOFF = """schema: 1
name: popped from backoffQ
gate: true
hints:
  - {event: NodeAdd, plugin: P, hint: QueueAfterBackoff}
pods: [{name: A}]
initial_active: [A]
steps:
  - {op: pop, expect: A}
  - {op: event, event: NodeAdd}
  - {op: fail, pod: A, unschedulable_plugins: [P]}
  - {op: pop}
"""


def test_v1_36_2_pops_backoffqs_head_when_activeq_is_empty_and_backoff_queue_go_adds_to_its_heap():
    m = MAPS["v1.36.2"]
    _, _, fail, pop = lit_of(BACKOFF, "v1.36.2")
    assert ("backoff_queue.go", "backoffQueue.add", m.anchors["bq.heap"].lines[0]) in where(m, fail)
    anchors = [x["anchor"] for x in fail]
    assert anchors.index("aup.unschedulable_count") < anchors.index("aup.timestamp") < anchors.index("aup.gate")
    assert anchors.index("rq.to_backoff") < anchors.index("bq.heap") < anchors.index("rq.backoff")
    assert [x["anchor"] for x in pop][:4] == ["pop.call", "pop.take", "pop.from_backoff", "pop.backoff_head"]
    assert where(m, pop)[3] == ("backoff_queue.go", "backoffQueue.popBackoff", m.anchors["pop.backoff_head"].lines[0])
    assert next(x for x in pop if x["anchor"] == "pop.take")["value"] == "activeQ is empty"


def change_scenarios() -> list[tuple[str, str, dict]]:
    """The one-change scenarios of the newer real queues (tests/data/real-queue-traces-new.jsonl.gz), each with
    the version that reproduces its real code."""
    from tests.model.test_real_queue_new import LINES, VERSION_OF, scenario_of
    found = []
    for _, _, raw in LINES:
        trace = json.loads(raw)
        if trace["id"].startswith("change/"):
            found.append((trace["id"], VERSION_OF[trace["variant"]], scenario_of(trace)))
    return found


@pytest.mark.parametrize("trace_id, version, scenario", change_scenarios(),
                         ids=[f"{i}@{v}" for i, v, _ in change_scenarios()])
def test_the_change_scenarios_light_anchors_inside_their_functions(trace_id, version, scenario):
    m = MAPS[version]
    run = replay(load_scenario(scenario), version, records=True)["steps"]
    lit = [lit_lines(version, s["record"], s["result"], s["state"]) for s in run]
    for x in (x for step in lit for x in step):
        f = m.functions[x["function"]]
        assert m.anchors[x["anchor"]].lines[0] == x["line"] and f.first < x["line"] < f.last, (trace_id, x)
    for step, lines in zip(run, lit, strict=True):
        if step["op"] == "pop_specific":
            assert [x["anchor"] for x in lines][:2] == ["ps.activate", "ps.get"], trace_id
            if step["result"]["popped"]:
                assert lines[-1] == {"function": "PopSpecificPod", "anchor": "ps.return",
                                     "line": m.anchors["ps.return"].lines[0], "value": step["result"]["popped"]}
