"""The log importer (webapp/scenario/logs/) reading what a log says beyond its messages: which hints
a scenario needs beside the plugin catalogue's, the year a klog header leaves out, which call logged a
BackoffComplete move, and whether SchedulerQueueingHints was on. The logs are built here, line by line."""

import io
import json

import pytest

from tests.upstream import holds
from webapp.engine.trace import replay
from webapp.model.variant import VARIANTS
from webapp.scenario.load import load_scenario
from webapp.scenario.logs import EVENT_LABELS, MOVE_CALLERS, UNKNOWN_PLUGIN, LogError, import_logs, parse_line, woken_by
from webapp.sources.maps import tags

MOVED = "Pod moved to an internal scheduling queue"
NO_FIT = "Unable to schedule pod; no fit; waiting"
CPU = 'err="0/3 nodes are available: 3 Insufficient cpu."'
TAINTED = ('err="0/2 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, '
           '1 node(s) were unschedulable."')


def klog(*lines, date: str = "1130") -> bytes:
    """klog text lines of (seconds after 12:00:00, the header's file:line, message, key=values)."""
    return b"".join(b'I%s 12:%02d:%09.6f       1 %s] "%s" %s\n' % (
        date.encode(), int(at // 60), at % 60, where.encode(), msg.encode(), kv.encode())
        for at, where, msg, kv in lines)


def imported(data: bytes, name: str = "my.log"):
    return import_logs([(name, io.BytesIO(data))])


def where_at(scenario: dict, variant: str, pod: str, step: int) -> str:
    """The queue ``pod`` is in after ``step`` on ``variant`` (the steps after it are not run)."""
    state = replay(load_scenario(dict(scenario, steps=scenario["steps"][:step + 1])), variant)["steps"][step]["state"]
    return next(q for q in ("activeQ", "backoffQ", "unschedulablePods") if pod in state[q])


def ops(scenario: dict) -> list:
    return [s["op"] for s in scenario["steps"] if s["op"] != "advance_clock"]


def failed(pod: str, at: float, err: str = CPU) -> list:
    """``pod`` added, attempted and failing ``err`` at ``at`` s."""
    return [(at - 0.002, "eventhandlers.go:126", "Add event for unscheduled pod", f'pod="default/{pod}"'),
            (at - 0.001, "schedule_one.go:80", "About to try and schedule pod", f'pod="default/{pod}"'),
            (at, "schedule_one.go:967", NO_FIT, f'pod="default/{pod}" {err}')]


def bound(pod: str, at: float) -> list:
    return [(at, "schedule_one.go:80", "About to try and schedule pod", f'pod="default/{pod}"'),
            (at + 0.01, "schedule_one.go:286", "Successfully bound pod to node", f'pod="default/{pod}" node="n1"')]


# --- 1. hints: the catalogue's are not written ---------------------------------------------------------------
WOKEN_BY_NODE_ADD = klog(
    *failed("a", 0.003, TAINTED),
    (10.0, "eventhandlers.go:76", "Add event for node", 'node="n3"'),
    (10.0001, "scheduling_queue.go:1101", MOVED, 'pod="default/a" event="NodeAdd" queue="Active" hint=1'),
    *bound("a", 10.0002))


def what_if(scenario: dict, label: str) -> dict:
    """The scenario with its first event step sending ``label`` instead (an edit in the editor)."""
    steps = [dict(s, event=label) if s["op"] == "event" else s for s in scenario["steps"]]
    return dict(scenario, steps=steps)


def test_catalogue_plugins_get_no_hints_so_an_event_added_later_wakes_them():
    """TaintToleration and NodeUnschedulable registered NodeAdd in the catalogue: the import wrote those two hints,
    which replaced each plugin's registrations, so a NodeTaintChange (TaintToleration registers Node
    Add|UpdateNodeTaint, taint_toleration.go:59) left the pod parked. Now no hint is written, and the log's
    NodeAdd still moves it as the log says."""
    result = imported(WOKEN_BY_NODE_ADD)
    sc = result.scenario
    assert sc["hints"] == []
    assert result.disagreements == []
    event = next(i for i, s in enumerate(sc["steps"]) if s["op"] == "event")
    for variant in VARIANTS:
        assert where_at(sc, variant, "a", event - 2) == "unschedulablePods"
        assert where_at(sc, variant, "a", event) != "unschedulablePods"  # the log's NodeAdd
        assert where_at(what_if(sc, "NodeTaintChange"), variant, "a", event) != "unschedulablePods"
        assert where_at(what_if(sc, "PvAdd"), variant, "a", event) == "unschedulablePods"  # registered by neither


def test_a_hint_the_catalogue_would_not_give_comes_with_all_the_plugins_registrations():
    """The log moves a NodeResourcesFit pod by PvAdd (which it does not register), and a NodeAffinity one by NodeAdd
    with QueueImmediately (registered with QueueAfterBackoff): those hints are written, each with every other
    registration of its plugin beside it, so an event it registered that is added later still wakes it. Before,
    only the log's events had hints: NodeResourcesFit had PvAdd alone."""
    affinity = 'err="0/3 nodes are available: 3 node(s) didn\'t match Pod\'s node affinity/selector."'
    log = klog(
        *failed("a", 0.003), *failed("b", 0.006, affinity),
        (5.0, "scheduling_queue.go:1101", MOVED, 'pod="default/a" event="PvAdd" queue="Active" hint=1'),
        (5.0001, "eventhandlers.go:76", "Add event for node", 'node="n3"'),
        (5.0002, "scheduling_queue.go:1101", MOVED,
         'pod="default/b" event="NodeAdd" queue="Active" hint="QueueImmediately"'),
        *bound("a", 5.001), *bound("b", 5.1))
    result = imported(log)
    hints = {(h["event"], h["plugin"]): h["hint"] for h in result.scenario["hints"]}
    expected = {**{(label, "NodeResourcesFit"): hint for label, hint in woken_by("NodeResourcesFit").items()},
                **{(label, "NodeAffinity"): hint for label, hint in woken_by("NodeAffinity").items()},
                ("PvAdd", "NodeResourcesFit"): "QueueAfterBackoff", ("NodeAdd", "NodeAffinity"): "QueueImmediately"}
    assert hints == expected
    assert hints[("AssignedPodDelete", "NodeResourcesFit")] == hints[("NodeLabelChange", "NodeAffinity")] == \
        "QueueAfterBackoff"
    said = next(a for a in result.assumptions if a.startswith("Hints read from the log"))
    assert "NodeResourcesFit on PvAdd: QueueAfterBackoff (line 7)" in said
    assert "NodeAffinity on NodeAdd: QueueImmediately (line 9)" in said
    assert result.disagreements == []


def test_the_unknown_plugin_is_woken_by_every_event_not_only_the_logs():
    log = klog((0.0, "schedule_one.go:80", "About to try and schedule pod", 'pod="default/x"'),
               (0.001, "schedule_one.go:967", NO_FIT,
                'pod="default/x" err="0/1 nodes are available: 1 node(s) had a reason nobody knows."'),
               (1.0, "eventhandlers.go:76", "Add event for node", 'node="n9"'))
    sc = imported(log).scenario
    assert sc["hints"] == [{"event": label, "plugin": UNKNOWN_PLUGIN, "hint": "QueueAfterBackoff"}
                           for label in sorted(EVENT_LABELS)]
    event = next(i for i, s in enumerate(sc["steps"]) if s["op"] == "event")
    assert where_at(what_if(sc, "PvcAdd"), "v1.28.1", "x", event) == "backoffQ"


def test_a_skip_the_log_shows_where_the_catalogue_registers_the_event_is_written():
    """"Event is not making pod schedulable" for a NodeResourcesFit pod on NodeAdd, which the catalogue registers:
    the log's QueueSkip is kept (with the plugin's other registrations); on PvAdd, which it does not register,
    the catalogue already skips: no hint."""
    log = klog(*failed("a", 0.003),
               (2.0, "eventhandlers.go:76", "Add event for node", 'node="n3"'),
               (2.0001, "scheduling_queue.go:1095", "Event is not making pod schedulable",
                'pod="default/a" event="NodeAdd"'))
    hints = {(h["event"], h["plugin"]): h["hint"] for h in imported(log).scenario["hints"]}
    assert hints[("NodeAdd", "NodeResourcesFit")] == "QueueSkip"
    assert hints[("NodeAllocatableChange", "NodeResourcesFit")] == "QueueAfterBackoff"
    pv = klog(*failed("a", 0.003), (2.0001, "scheduling_queue.go:1095", "Event is not making pod schedulable",
                                    'pod="default/a" event="PvAdd"'))
    assert imported(pv).scenario["hints"] == []


# --- 2. New Year ------------------------------------------------------------------------------------------------
NEW_YEAR = (
    b'I1231 23:59:58.000000       1 eventhandlers.go:126] "Add event for unscheduled pod" pod="default/x"\n'
    b'I1231 23:59:58.000100       1 schedule_one.go:80] "About to try and schedule pod" pod="default/x"\n'
    b'I1231 23:59:58.002000       1 schedule_one.go:967] "Unable to schedule pod; no fit; waiting" pod="default/x" '
    b'err="0/3 nodes are available: 3 Insufficient cpu."\n'
    b'I0101 00:05:00.500000       1 scheduling_queue.go:1101] "Pod moved to an internal scheduling queue" '
    b'pod="default/x" event="UnschedulableTimeout" queue="Active" hint="QueueAfterBackoff"\n'
    b'I0101 00:05:00.500100       1 schedule_one.go:80] "About to try and schedule pod" pod="default/x"\n'
    b'I0101 00:05:00.510000       1 schedule_one.go:286] "Successfully bound pod to node" pod="default/x" node="n1"\n')


def test_a_log_across_new_year_runs_on_into_the_next_year():
    """12-31 23:59:58, then 01-01 00:05:00.5: 302.5 s later, not a year earlier (the flush at t = -3.16e7 s)."""
    result = imported(NEW_YEAR)
    sc = result.scenario
    assert sum(s["seconds"] for s in sc["steps"] if s["op"] == "advance_clock") == pytest.approx(302.51)
    assert not any("earlier than one before it" in a for a in result.assumptions)
    assert any("line 4 (t = 302.5 s)" in a for a in result.assumptions)  # the 30 s flush fixes the phase
    assert result.disagreements == []  # x waited its five minutes, as the model's flush has it


def test_a_line_slightly_out_of_order_across_new_year_stays_slightly_out_of_order():
    lines = NEW_YEAR.splitlines(keepends=True)
    late = lines[1].replace(b"I1231 23:59:58.000100", b"I1231 23:59:58.000050")
    early = b'I0101 00:00:00.000000       1 eventhandlers.go:76] "Add event for node" node="n3"\n'
    result = imported(early + late + b"".join(lines[2:]))
    assert any("earlier than one before it is taken at the later time (2 lines)" in a for a in result.assumptions)
    assert sum(s["seconds"] for s in result.scenario["steps"] if s["op"] == "advance_clock") < 303


def test_a_klog_headers_year_is_the_one_nearest_the_line_before():
    dec = parse_line('I1231 23:59:59.000000       1 x.go:1] "m"')
    jan = parse_line('I0101 00:00:01.000000       1 x.go:1] "m"', near=dec.micros)
    assert jan.micros - dec.micros == 2_000_000
    back = parse_line('I1231 23:59:58.000000       1 x.go:1] "m"', near=jan.micros)
    assert back.micros - dec.micros == -1_000_000
    # a runtime's prefix has the year; a JSON line before gives its own
    cri = parse_line('2024-01-01T00:00:01.5Z stderr F I0101 00:00:01.000000       1 x.go:1] "m"')
    assert cri.micros == 1704067201_000000
    after_json = parse_line('I1130 12:00:00.000000       1 x.go:1] "m"', near=1701345599_000000)
    assert after_json.micros == 1701345600_000000
    # Feb 29 after New Year is a day like any other
    feb = parse_line('I0229 00:00:00.000000       1 x.go:1] "m"', near=jan.micros)
    assert feb is not None and feb.micros > jan.micros


def json_line(ts_ms: float, msg: str, pod: str, **more) -> bytes:
    return (json.dumps({"ts": ts_ms, "caller": "scheduler/x.go:1", "msg": msg, "v": 2,
                        "pod": {"name": pod, "namespace": "default"}, **more}) + "\n").encode()


MIXED = (  # klog first (no year), then JSON (2023-11-30 23:59:58.001 on)
    b'I1130 23:59:58.000000       1 eventhandlers.go:126] "Add event for unscheduled pod" pod="default/x"\n'
    + json_line(1701388798001.0, "Add event for unscheduled pod", "y")
    + b'I1130 23:59:58.002000       1 schedule_one.go:80] "About to try and schedule pod" pod="default/x"\n'
    + json_line(1701388798003.0, "Successfully bound pod to node", "x", node={"name": "n1"}))


def clock(scenario: dict) -> float:
    return sum(s["seconds"] for s in scenario["steps"] if s["op"] == "advance_clock")


@pytest.mark.parametrize("first", [
    MIXED.splitlines(keepends=True)[0],
    # a line the runtime stamped has the year too
    b'2023-11-30T23:59:58.000500Z stderr F I1130 23:59:58.000500       1 eventhandlers.go:126] "Add event for '
    b'unscheduled pod" pod="default/z"\n',
], ids=["json", "runtime prefix"])
def test_klog_lines_before_the_first_line_with_a_year_are_dated_by_it(first):
    """A klog line first got a guessed year (1999), the JSON line after it 2023: advance_clock 757382400.001. The
    lines before the first with a year are re-dated by it: milliseconds apart, as the log has them."""
    lines = MIXED.splitlines(keepends=True)
    result = imported(MIXED if first == lines[0] else lines[0] + first + b"".join(lines[1:]))
    assert clock(result.scenario) == pytest.approx(0.003)
    assert "11-30 23:59:58.000000 UTC" in result.assumptions[0] and result.warnings == []


def test_a_gap_of_days_between_lines_is_said_with_both_lines():
    """The clock advances across it as the timestamps say, but never silently: an assumption and a warning name
    both lines."""
    day = 86_400_000.0
    data = (json_line(1701345600000.0, "Add event for unscheduled pod", "x")
            + json_line(1701345600000.0 + 10 * day, "Attempting to schedule pod", "x"))
    result = imported(data)
    said = "my.log:2 is 10.0 days after my.log:1: the clock advances across the gap as the timestamps say."
    assert [w.split(" Were ")[0] for w in result.warnings] == [said]
    assert result.warnings[0] in result.assumptions and clock(result.scenario) == 864_000
    assert imported(data.splitlines(keepends=True)[0] * 2).warnings == []


# --- 3. BackoffComplete by Update -------------------------------------------------------------------------------
def backoff_complete(at: float, where: str) -> tuple:
    return (at, where, MOVED, 'pod="default/x" event="BackoffComplete" queue="Active"')


def test_an_update_move_named_by_its_header_is_an_update_not_the_flush():
    """v1.28.0's Update logs BackoffComplete from scheduling_queue.go:948 for a pod in unschedulablePods that is
    not backing off; the flush logs from l. 765. Read as the flush, x needed an assumed activate, the move was a
    disagreement, and the flush's phase was fixed at the update's time."""
    result = imported(klog(*failed("x", 0.002), backoff_complete(3.0, "scheduling_queue.go:948"), *bound("x", 3.0001)))
    sc = result.scenario
    assert ops(sc) == ["add", "pop", "fail", "update", "pop", "done"]
    update = next(s for s in sc["steps"] if s["op"] == "update")
    assert "by Update, not the 1 s flush: scheduling_queue.go:948 is Update's line in v1.28.0" in update["note"]
    assert result.disagreements == [] and result.counts.disagreeing == 0
    assert sc["config"]["flush_phase"] == 0
    assert not any(s["op"] == "activate" for s in sc["steps"])


def test_a_json_caller_names_update_too():
    lines = [
        '{"ts":1701345600000.0,"caller":"scheduler/schedule_one.go:80","msg":"About to try and schedule pod","v":4,'
        '"pod":{"name":"x","namespace":"default"}}',
        '{"ts":1701345600002.0,"caller":"scheduler/schedule_one.go:967","msg":"Unable to schedule pod; no fit; '
        'waiting","v":2,"pod":{"name":"x","namespace":"default"},"err":"0/3 nodes are available: 3 Insufficient cpu."}',
        '{"ts":1701345603000.0,"caller":"queue/scheduling_queue.go:957","msg":"Pod moved to an internal scheduling '
        'queue","v":5,"pod":{"name":"x","namespace":"default"},"event":"BackoffComplete","queue":"Active"}',
        '{"ts":1701345603000.1,"caller":"scheduler/schedule_one.go:80","msg":"About to try and schedule pod","v":4,'
        '"pod":{"name":"x","namespace":"default"}}']
    result = imported("\n".join(lines).encode() + b"\n")
    assert "update" in ops(result.scenario) and result.disagreements == []
    assert "v1.28.4" in next(s for s in result.scenario["steps"] if s["op"] == "update")["note"]


def test_a_pod_the_log_put_in_unschedulable_pods_is_updated_whatever_the_line():
    """A release whose lines are not known: the failure's queue (-v=6) says x was in unschedulablePods, where the
    flush never looks."""
    log = klog(*failed("x", 0.002),
               (0.0021, "scheduling_queue.go:1", MOVED,
                'pod="default/x" event="ScheduleAttemptFailure" queue="Unschedulable" schedulingCycle=1'),
               backoff_complete(2.0, "scheduling_queue.go:1"), *bound("x", 2.0001))
    result = imported(log)
    assert ops(result.scenario) == ["add", "pop", "fail", "update", "pop", "done"]
    assert "the log put default/x in unschedulablePods (line 4)" in result.scenario["steps"][-5]["note"]
    assert result.disagreements == []


def test_a_move_long_after_the_failure_is_an_update_whatever_the_line():
    """No pod is in backoffQ 20 s after its failure (10 s backoff at most, then the next 1 s flush)."""
    result = imported(klog(*failed("x", 0.002), backoff_complete(20.0, "x.go:1"), *bound("x", 20.0001)))
    assert "update" in ops(result.scenario) and result.disagreements == []
    assert any(a.startswith("A BackoffComplete move of a pod over 11.5 s after its failure")
               for a in result.assumptions)


@pytest.mark.parametrize("where, queue, at", [
    ("scheduling_queue.go:765", None, 20.0),  # the flush's line, whatever the time
    ("x.go:1", "Backoff", 20.0),  # the log put x in backoffQ, where the flush looks
    ("x.go:1", None, 1.5),  # nothing tells: soon after the failure, as before
], ids=["flush-line", "backoffQ", "soon"])
def test_the_backoff_flush_is_still_the_flush(where, queue, at):
    sent = [(0.0021, "x.go:1", MOVED, f'pod="default/x" event="ScheduleAttemptFailure" queue="{queue}"')]
    log = klog(*failed("x", 0.002), *(sent if queue else []), backoff_complete(at, where), *bound("x", at + 0.0001))
    result = imported(log)
    assert "update" not in ops(result.scenario)
    line = 5 if queue else 4
    assert any(f"the 1 s flush that moved a pod at line {line}" in a for a in result.assumptions)


# --- 4. SchedulerQueueingHints off ------------------------------------------------------------------------------
GATE_OFF = [
    (0.0, "eventhandlers.go:126", "Add event for unscheduled pod", 'pod="default/a"'),
    (0.00001, "scheduling_queue.go:530", MOVED, 'pod="default/a" event="PodAdd" queue="Active"'),
    (0.0001, "schedule_one.go:80", "About to try and schedule pod", 'pod="default/a"'),
    (0.001, "eventhandlers.go:197", "Add event for scheduled pod", 'pod="default/other"'),
    (0.002, "schedule_one.go:967", NO_FIT, f'pod="default/a" {CPU}'),
    (0.00201, "scheduling_queue.go:680", MOVED, 'pod="default/a" event="ScheduleAttemptFailure" queue="Backoff"'),
    (1.5, "scheduling_queue.go:765", MOVED, 'pod="default/a" event="BackoffComplete" queue="Active"'),
    *bound("a", 1.5001),
]


def test_the_gate_off_path_makes_a_gate_off_scenario():
    """ScheduleAttemptFailure from scheduling_queue.go:680 (addUnschedulableWithoutQueueingHint, gate off only): the
    AssignedPodAdd during a's attempt is a move request, so a backs off. With the gate assumed on, a was parked
    (NodeResourcesFit does not register Pod Add), the log's two moves were disagreements and an activate assumed."""
    result = imported(klog(*GATE_OFF))
    sc = result.scenario
    assert sc["gate"] is False and sc["versions"] == ["v1.28.1", "v1.28.2", "v1.28.5"]
    assert result.disagreements == [] and not any(s["op"] == "activate" for s in sc["steps"])
    assert result.counts.gate_off == 1
    assert "1 line showing the SchedulerQueueingHints gate off (the default from v1.28.5): `gate: false`, replay " \
           "on v1.28.5" in result.counts.summary()
    assert "**SchedulerQueueingHints off:** my.log:6 logs a failure's queue" in sc["description"]
    assert not any("gate is on" in a for a in result.assumptions)
    assert "gate: false\n" in result.yaml
    for variant in sc["versions"]:
        assert len(replay(load_scenario(sc), variant)["steps"]) == len(sc["steps"])


def test_the_gate_off_path_is_read_from_its_keys_where_the_line_is_unknown():
    """A release whose lines are not known: the gate-off path logs no schedulingCycle, the gate-on one does."""
    off = [line if line[1] != "scheduling_queue.go:680" else (line[0], "x.go:1", *line[2:]) for line in GATE_OFF]
    assert imported(klog(*off)).scenario["gate"] is False
    on = [(0.00201, "x.go:1", MOVED, 'pod="default/a" event="ScheduleAttemptFailure" queue="Unschedulable" '
                                     'schedulingCycle=1') if line[1] == "scheduling_queue.go:680" else line
          for line in GATE_OFF]
    result = imported(klog(*on))
    assert "gate" not in result.scenario and "versions" not in result.scenario
    assert "SchedulerQueueingHints on: my.log:6" in result.scenario["description"]


def test_a_log_showing_both_paths_is_refused_naming_both_lines():
    later = [(5.0, "scheduling_queue.go:734", MOVED,
              'pod="default/a" event="ScheduleAttemptFailure" queue="Unschedulable" schedulingCycle=2')]
    with pytest.raises(LogError) as err:
        imported(klog(*GATE_OFF, *failed("a", 4.999)[1:], *later))
    assert str(err.value).startswith("my.log:12: a failure's queue is logged by the gate on path of "
                                     "SchedulerQueueingHints, but my.log:6 by the gate off path")


# --- the upstream lines -----------------------------------------------------------------------------------------
# kubernetes/autoscaler commits: v1.28.0, v1.28.4, the heads of cluster-autoscaler-release-1.29, -1.30, -1.31, and
# the pull-request refs of v1.33.0-alpha.0 (1.32) and v1.36.2
REVISIONS = {"v1.28.0": "cb95d464", "v1.28.4": "a91025aa", "1.29": "4757ec679d486e3c1184264bd64782f0154aad8d",
             "1.30": "8984706c2b7fac4f1436deee1b9c93b647167617", "1.31": "2b0c0761f57d0c0938a36daa0224236953b952ba",
             "1.32": "ee4fafa60fb043ae031b39a12ef3b9309299e5ca", "1.36": "74a7d3b15e2f5c9e42901dd59e0b52abe6f8f40e"}
TAGS = {"v1.28.0": "v1.28.0", "v1.28.4": "v1.28.4", "1.29": "v1.29.9", "1.30": "v1.30.14", "1.31": "v1.31.13",
        "1.32": "v1.33.0-alpha.0", "1.36": "v1.36.2"}
QUEUE_DIR = {"1.32": "backend", "1.36": "backend"}  # the rest: internal
FUNCTION = {"the 1 s flush": "flushBackoffQCompleted", "Update": "Update",
            "gate off": "addUnschedulableWithoutQueueingHint", "gate on": "AddUnschedulableIfNotPresent"}
MOVE_LOG = '"Pod moved to an internal scheduling queue"'


def logged(release: str, call: str, queue: str) -> str:
    """The line that logs ``call``'s move in ``release``, as the tests expect it."""
    failure = ("framework." if release in ("1.31", "1.32", "1.36") else "") + "ScheduleAttemptFailure"
    if call == "gate on":
        level, tail = ("6", "") if release.startswith("v1.28") else (
            "3", ', "hint", schedulingHint, "unschedulable plugins", rejectorPlugins')
        return (f'logger.V({level}).Info({MOVE_LOG}, "pod", klog.KObj(pod), "event", {failure}, "queue", queue, '
                f'"schedulingCycle", podSchedulingCycle{tail})')
    pod, event = {"the 1 s flush": ("pod", "BackoffComplete"), "Update": ("pInfo.Pod", "BackoffComplete"),
                  "gate off": ("pod", failure)}[call]
    return f'logger.V(5).Info({MOVE_LOG}, "pod", klog.KObj({pod}), "event", {event}, "queue", {queue})'


@pytest.mark.parametrize("release", sorted(MOVE_CALLERS))
def test_each_callers_line_is_upstreams(release):
    path = f"cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/{QUEUE_DIR.get(release, 'internal')}/queue/" \
        "scheduling_queue.go"
    functions = tags()[TAGS[release]].functions
    gate_off = sorted(n for n, call in MOVE_CALLERS[release].items() if call == "gate off")
    for number, call in MOVE_CALLERS[release].items():
        queue = {"gate off": "backoffQ" if number == gate_off[0] else "unschedulablePods"}.get(call, "activeQ")
        if release == "1.36" and call == "gate off":  # backoffQ's move is backoff_queue.go's (release.py)
            queue = "unschedulableQ"
        assert holds(REVISIONS[release], path, number, logged(release, call, queue)), (release, number, call)
        f = functions[FUNCTION[call]]  # the line lies in its caller (webapp/sources/, checked against the file)
        assert f.first < number < f.last, (release, number, call)


# --- 5. the flushes' phase from the attempts of long-parked pods ----------------------------------------------------
def v2(*pods) -> bytes:
    """A -v=2 log: each (pod, failed at, bound at) as its failure and its bind (seconds after 12:00:00)."""
    return klog(*sorted(line for pod, failure, bind in pods for line in (
        (failure, "schedule_one.go:967", NO_FIT, f'pod="default/{pod}" {CPU}'),
        (bind, "schedule_one.go:286", "Successfully bound pod to node", f'pod="default/{pod}" node="n1"'))))


@pytest.mark.parametrize("pods", [
    [("x", 0.003, 300.51)],  # the tester's: bound 300.5 s after its failure
    [("x", 0.003, 315.0)],
    [("a", 0.0, 310.0), ("b", 5.0, 320.0)],  # one phase puts a tick in both windows
], ids=["300.5 s", "315 s", "two pods"])
def test_a_pod_bound_300_to_330_s_after_its_failure_was_moved_by_the_30_s_flush(pods):
    """At -v=2 (no "Pod moved" lines) the bind was explained by an assumed activate ("an event the log does not
    show"), the phase left at 0 (first tick past the limit at 330 s). The 30 s flush of pods parked over 300 s is
    what moved them: the phase puts its tick just before each bind, said among the assumptions."""
    result = imported(v2(*pods))
    sc = result.scenario
    assert "activate" not in ops(sc) and sc["config"]["flush_phase"] > 0
    [said] = [a for a in result.assumptions if a.startswith("The periodic flushes are placed (flush_phase)")]
    assert "the 30 s flush of pods parked over 300 s ticks just before each attempt" in said
    assert f"my.log:{len(pods) * 2} at t = {pods[-1][2] - 0.003 * (len(pods) == 1):g} s" in said
    for variant in VARIANTS:
        steps = replay(load_scenario(sc), variant)["steps"]
        flushed = [f for s in steps if s["op"] == "advance_clock" for f in s["result"]["flushes"]
                   if f["op"] == "flush_unschedulable_leftover"]
        assert sorted(pod for f in flushed for pod in f["result"]["moved"]) == sorted(p for p, _, _ in pods)


def test_when_no_phase_fits_every_parked_pod_the_flushes_stay_at_whole_seconds():
    """a's tick must fall 300-301 s after t = 0, b's 310-311 s: no 30 s ticker has both, so the phase stays 0 and
    both are activated, as before."""
    result = imported(v2(("a", 0.0, 301.0), ("b", 10.0, 311.0)))
    assert result.scenario["config"]["flush_phase"] == 0
    assert ops(result.scenario).count("activate") == 2
    assert any(a.startswith("The periodic flushes (backoffQ every 1 s, unschedulablePods every 30 s) are assumed "
                            "to tick at whole seconds") for a in result.assumptions)
