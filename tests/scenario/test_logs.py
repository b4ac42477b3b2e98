"""The log importer (webapp/scenario/logs/) on the sample logs of tests/data/logs/ and on inputs that are not
(whole) scheduler logs."""

import codecs
import gzip
import io
from pathlib import Path

import pytest
import yaml

from webapp.engine.trace import replay
from webapp.errors import TooLarge
from webapp.scenario.load import load_scenario, parse_text
from webapp.scenario.logs import (
    MESSAGES,
    UNKNOWN_PLUGIN,
    LogError,
    Recoded,
    import_logs,
    parse_line,
    plugins_of,
    woken_by,
)
from webapp.scenario.validate import Limits

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"
TEXT = LOGS / "five-minute-incident.log"
JSON = LOGS / "five-minute-incident.json.log"
V2 = LOGS / "five-minute-incident-v2.log"


def imported(*data: bytes, **kw):
    return import_logs([(f"log{i}", io.BytesIO(d)) for i, d in enumerate(data)], **kw)


def of(path: Path):
    with path.open("rb") as f:
        return import_logs([(path.name, f)])


def final_queue(scenario_object: dict, variant: str, pod: str, at_step: int) -> str:
    trace = replay(load_scenario(scenario_object), variant)
    state = trace["steps"][at_step]["state"]
    return next(q for q in ("activeQ", "backoffQ", "unschedulablePods") if pod in state[q])


def steps_of(scenario: dict) -> list:
    """The steps without their notes (which name the log lines)."""
    return [{k: v for k, v in s.items() if k != "note"} for s in scenario["steps"]]


def acts(scenario: dict) -> list:
    """The steps but the clock's, without their notes."""
    return [s for s in steps_of(scenario) if s["op"] != "advance_clock"]


def fail_index(scenario: dict, pod: str, nth: int = 0) -> int:
    return [i for i, s in enumerate(scenario["steps"]) if s["op"] == "fail" and s["pod"] == pod][nth]


# --- the incident ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", [TEXT, JSON], ids=["klog", "json"])
def test_the_incident_becomes_the_lost_marker(path):
    result = of(path)
    sc = result.scenario
    ops = [(s["op"], s.get("expect") or s.get("pod") or s.get("event")) for s in sc["steps"]
           if s["op"] != "advance_clock"]
    assert ops[:12] == [
        ("add", "c"), ("pop", "c"), ("fail", "c"),
        ("add", "a"), ("add", "b"), ("pop", "a"), ("event", "AssignedPodUpdate"), ("pop", "b"), ("event", "PvAdd"),
        ("done", "a"), ("fail", "b"), ("pop", "c")]
    assert ops[-3] == ("pop", "b") and ops[-2] == ("done", "b")
    b_fail = sc["steps"][fail_index(sc, "b")]
    assert b_fail["unschedulable_plugins"] == ["VolumeBinding"]
    assert sc["hints"] == []  # VolumeBinding's PvAdd is the catalogue's
    assert sc["periodic_flushes"] is True
    # B parked on v1.28.1 (the lost marker), backing off on v1.28.2 (the fix).
    i = fail_index(sc, "b")
    assert final_queue(sc, "v1.28.1", "b", i) == "unschedulablePods"
    assert final_queue(sc, "v1.28.2", "b", i) == "backoffQ"


def test_the_waits_are_the_logs():
    """v1.28.1's B reaches activeQ at the 30 s flush the log shows (about 330 s after its failure); v1.28.2's
    after its 1 s backoff, at the next 1 s tick."""
    sc = of(TEXT).scenario
    moved = {}
    for variant in ("v1.28.1", "v1.28.2"):
        for step in replay(load_scenario(sc), variant)["steps"]:
            for flush in step["result"].get("flushes", ()):
                if "b" in flush["result"].get("moved", {}) or "b" in flush["result"].get("moved_to_activeQ", ()):
                    moved.setdefault(variant, flush["at"])
    fail_at = 5.0499
    assert 329 < moved["v1.28.1"] - fail_at < 331
    assert 1 <= moved["v1.28.2"] - fail_at <= 2


def test_both_formats_give_the_same_scenario():
    text, json_ = of(TEXT).scenario, of(JSON).scenario
    for key in ("hints", "pods", "steps", "config", "assumptions"):
        assert text[key] == json_[key], key


@pytest.mark.parametrize("path", [TEXT, JSON, V2], ids=["klog", "json", "v2"])
@pytest.mark.parametrize("variant", ["v1.28.1", "v1.28.2"])
def test_the_imported_scenario_validates_and_replays(path, variant):
    result = of(path)
    raw = yaml.safe_load(result.yaml)
    assert raw == result.scenario  # the YAML says exactly the scenario object
    trace = replay(load_scenario(parse_text(result.yaml.encode(), "yaml")), variant)
    assert len(trace["steps"]) == len(raw["steps"])


def test_the_assumptions_are_listed_everywhere():
    result = of(TEXT)
    assumptions = result.assumptions
    assert assumptions == result.scenario["assumptions"]
    assert any("priority 0" in a for a in assumptions)
    assert any("VolumeBinding" in a and "EventsToRegister" in a for a in assumptions)
    assert any("-v=4" in a for a in assumptions)
    assert any("flush" in a and "line 27" in a for a in assumptions)
    for a in assumptions:
        assert f"* {a}" in result.scenario["description"]
        assert f"#  - {a}" in result.yaml
    assert result.scenario["config"]["flush_phase"] == pytest.approx(24.999951)


def test_a_log_without_attempts_says_what_it_assumed():
    result = of(V2)
    text = " ".join(result.assumptions)
    assert "Attempts are not in the log" in text
    assert "pod additions not in the log" in text
    assert "flush_phase 0" in text
    # c was retried after a PvAdd the -v=2 log does not show: an activate stands for it, and says so.
    steps = result.scenario["steps"]
    activates = [s for s in steps if s["op"] == "activate"]
    assert [s["pods"] for s in activates] == [["c"]]
    assert activates[0]["note"].startswith("assumed:")
    assert any("an activate is inserted" in a for a in result.assumptions)


def test_an_attempt_with_no_logged_end_is_assumed_failed_with_its_previous_plugins():
    """Two attempts of x with no end logged between: the assumed failure had no plugins key at all, and the import
    ended in a KeyError (a 500 from the editor's import)."""
    sc = imported(klog((0, "Attempting to schedule pod", 'pod="shop/x"'),
                       (0.001, "Unable to schedule pod; no fit; waiting", 'pod="shop/x" err="0/1 nodes are available: '
                                                                          '1 Insufficient cpu."'),
                       (0.5, "Add event for node", 'node="n2"'),
                       (2, "Attempting to schedule pod", 'pod="shop/x"'),
                       (2.5, "Add event for node", 'node="n3"'),
                       (3, "Attempting to schedule pod", 'pod="shop/x"'))).scenario
    fails = [s for s in sc["steps"] if s["op"] == "fail"]
    assert [f["unschedulable_plugins"] for f in fails] == [["NodeResourcesFit"], ["NodeResourcesFit"]]
    assert fails[1]["note"].startswith("assumed: the previous attempt of shop/x failed")


# --- the log's order of attempts -----------------------------------------------------------------------------
OUT_OF_ORDER = LOGS / "attempted-out-of-order.log"


def klog(*lines) -> bytes:
    """klog lines of (seconds after 12:00:00, message, key=values), one a millisecond apart at most."""
    return b"".join(b'I1130 12:%02d:%09.6f       1 x.go:1] "%s" %s\n' % (int(at // 60), at % 60, msg.encode(),
                                                                       kv.encode()) for at, msg, kv in lines)


def attempts(*names, at: float = 10.0) -> list:
    """Each pod attempted and bound, in this order."""
    return [line for i, n in enumerate(names) for line in (
        (at + i * 0.01, "Attempting to schedule pod", f'pod="shop/{n}"'),
        (at + i * 0.01 + 0.005, "Successfully bound pod to node", f'pod="shop/{n}" node="n1"'))]


def adds(*names) -> list:
    return [(i * 0.001, "Add event for unscheduled pod", f'pod="shop/{n}"') for i, n in enumerate(names)]


def popped(scenario: dict) -> list:
    return [s["expect"] for s in scenario["steps"] if s["op"] == "pop"]


def test_a_pod_added_later_and_attempted_first_is_given_a_higher_priority():
    """db-0 is added, then web-7f9c, and web-7f9c is attempted first: the import failed ("step 4 (pop): expected
    'web-7f9c' at the head of activeQ, but the head is 'db-0' (on v1.28.1)"). activeQ pops the highest priority
    first, so web-7f9c gets priority 1, said as an assumption with the line that needs it."""
    result = of(OUT_OF_ORDER)
    sc = result.scenario
    assert sc["pods"] == [{"name": "db-0"}, {"name": "web-7f9c", "priority": 1}]
    assert popped(sc) == ["web-7f9c", "db-0"]  # the log's order
    for variant in ("v1.28.1", "v1.28.2"):
        assert len(replay(load_scenario(sc), variant)["steps"]) == len(sc["steps"])
    said = next(a for a in result.assumptions if a.startswith("Priorities"))
    assert "attempted-out-of-order.log:3 attempts web-7f9c ahead of db-0" in said
    assert "PrioritySort" in said and "(web-7f9c 1)" in said
    assert any("priority 0 unless given one below" in a for a in result.assumptions)
    assert not any(s["op"] == "activate" for s in sc["steps"])  # no event the log does not show


def test_a_pod_queued_before_the_log_starts_is_put_ahead_too():
    """The log starts mid-way: old-0's Add is not in it, and it is attempted while new-1 (added in the log)
    waits."""
    sc = imported(klog(*adds("new-1"), *attempts("old-0", "new-1"))).scenario
    assert popped(sc) == ["old-0", "new-1"]
    assert {"name": "old-0", "priority": 1} in sc["pods"]


def test_many_attempts_out_of_order_are_ordered_at_once():
    """120 pods added in order and attempted in another: the orders among the pods waiting in activeQ are all
    read at the first attempt out of order (one replay each), not one attempt per replay; the priorities are the
    lowest that give them."""
    names = [f"p{i}" for i in range(120)]
    order = names[1::2][::-1] + names[::2]  # the odd ones last first, then the even ones in order
    sc = imported(klog(*adds(*names), *attempts(*order))).scenario
    assert popped(sc) == order
    priority = {p["name"]: p.get("priority", 0) for p in sc["pods"]}
    assert [priority[n] for n in order] == list(range(60, 0, -1)) + [0] * 60
    for variant in ("v1.28.1", "v1.28.2"):
        replay(load_scenario(sc), variant)


CONTRARY = [  # b is attempted ahead of a; then, b waiting in activeQ again, a ahead of b
    (0.0, "Add event for unscheduled pod", 'pod="shop/a"'),
    (0.0001, "Add event for unscheduled pod", 'pod="shop/b"'),
    (0.0002, "Attempting to schedule pod", 'pod="shop/b"'),
    (0.0005, "Add event for node", 'node="n9"'),  # while b is in flight: b backs off, then goes back to activeQ
    (0.001, "Error scheduling pod; retrying", 'pod="shop/b" err="boom"'),
    (3.0, "Attempting to schedule pod", 'pod="shop/a"'),
    (3.001, "Successfully bound pod to node", 'pod="shop/a" node="n1"'),
]


def test_orders_no_priorities_give_are_refused_naming_the_lines():
    """No priorities put b ahead of a and then a ahead of b: the error names both lines as file:line (not a step
    index) and what to do."""
    with pytest.raises(LogError) as err:
        import_logs([("my.log", io.BytesIO(klog(*CONTRARY)))])
    message = str(err.value)
    assert message.startswith("my.log:6: the log attempts a while b waits in activeQ (on v1.28.1), but other "
                              "attempts put b ahead of a (my.log:3 attempts b while a waits, on v1.28.1)")
    assert "one that ends before my.log:6, or one that starts after my.log:3" in message
    assert "step" not in message
    data = klog(*CONTRARY).splitlines(keepends=True)
    with pytest.raises(LogError, match=r"^two\.log:2: the log attempts a .* \(one\.log:3 attempts b"):
        import_logs([("one.log", io.BytesIO(b"".join(data[:4]))), ("two.log", io.BytesIO(b"".join(data[4:])))])


# --- where the log and the model disagree -------------------------------------------------------------------
TIMEOUT = LOGS / "unschedulable-timeout.log"


def test_a_move_the_model_does_not_make_is_listed_with_what_it_did():
    """The log moves x by UnschedulableTimeout at t = 300.5 s (it waited five minutes in unschedulablePods), while
    the model, woken by the NodeAdd at 0.5 s, put it in backoffQ and moved it at 1.5 s: nothing said so."""
    result = of(TIMEOUT)
    assert result.disagreements == [
        "unschedulable-timeout.log:5 (t = 300.5 s): the log moves x to activeQ by UnschedulableTimeout (the 30 s "
        "flush of pods parked over 5 minutes); on v1.28.1 and v1.28.2 the model: to unschedulablePods by "
        "ScheduleAttemptFailure at t = 0.002 s (unschedulable-timeout.log:3), then to backoffQ by NodeAdd at "
        "t = 0.5 s (unschedulable-timeout.log:4), then to activeQ by BackoffComplete at t = 1.5 s; next: popped at "
        "t = 300.5 s (unschedulable-timeout.log:6)."]
    assert result.counts.disagreeing == 1
    assert "0 truncated, 1 disagreeing with the model's replay" in result.counts.summary()
    said = result.disagreements[0]
    assert f"* {said}" in result.scenario["description"] and "**Disagreements**" in result.scenario["description"]
    assert f"#  - {said}" in result.yaml.split("schema: 1")[0]
    assert said not in result.assumptions  # the log contradicts the model: no assumption


def test_the_incident_disagrees_with_v1_28_2_only():
    """A 1.28.1 scheduler wrote it: b's five-minute wait is v1.28.1's; v1.28.2 backs b off for a second. c's move
    by the PvAdd (line 15) is what both versions do."""
    result = of(TEXT)
    [said] = result.disagreements
    assert said.startswith("five-minute-incident.log:27 (t = 335 s): the log moves b to activeQ by "
                           "UnschedulableTimeout (the 30 s flush of pods parked over 5 minutes); on v1.28.2 "
                           "the model: ")
    assert ("then to backoffQ by ScheduleAttemptFailure at t = 5.0499 s (five-minute-incident.log:17), then to "
            "activeQ by BackoffComplete at t = 7.00005 s") in said
    assert result.counts.disagreeing == 1
    # the finding, said as one: which version behaves as the cluster did (docs/import.md promised it)
    assert said.endswith("; next: popped at t = 335 s (five-minute-incident.log:28). On v1.28.1 the model makes "
                         "it, as the cluster did.")
    verdict = "v1.28.1 behaves as the cluster did: its replay makes every queue move the log states"
    assert result.counts.agreeing == ["v1.28.1"]
    assert f"1 disagreeing with the model's replay ({verdict})" in result.counts.summary()
    assert f"**{verdict}**, where that on v1.28.2 does not." in result.scenario["description"]


def test_a_move_no_version_makes_names_no_version_as_the_clusters():
    result = of(TIMEOUT)
    assert result.counts.agreeing == [] and "as the cluster did" not in result.scenario["description"]


def test_a_failure_sent_where_the_model_does_not_send_it():
    """-v=6 logs where a failure sends the pod (ScheduleAttemptFailure): b to unschedulablePods, where v1.28.2 sends
    it to backoffQ."""
    lines = TEXT.read_bytes().splitlines(keepends=True)
    moved = (b'I1130 12:00:05.050050       1 scheduling_queue.go:734] "Pod moved to an internal scheduling queue" '
             b'pod="default/b" event="ScheduleAttemptFailure" queue="Unschedulable"\n')
    result = import_logs([("my.log", io.BytesIO(b"".join(lines[:17] + [moved] + lines[17:])))])
    assert result.disagreements[0].startswith(
        "my.log:18 (t = 5.04995 s): the log moves b to unschedulablePods by ScheduleAttemptFailure; on v1.28.2 the "
        "model: popped at t = 5.0199 s (my.log:13), then to backoffQ by ScheduleAttemptFailure at t = 5.0499 s "
        "(my.log:17); next: to activeQ by BackoffComplete")
    assert result.counts.disagreeing == 2  # and line 28's timeout


def test_when_nothing_disagrees_the_description_says_so():
    agreeing = imported(b"".join(TEXT.read_bytes().splitlines(keepends=True)[:26]))
    assert agreeing.disagreements == [] and agreeing.counts.disagreeing == 0
    assert "The model's replay on v1.28.1 and v1.28.2 makes each queue move the log states (1 line)." in \
        agreeing.scenario["description"]
    assert "# DISAGREEMENTS" not in agreeing.yaml
    assert "The log states no queue move" in of(V2).scenario["description"]


# --- what is not a (whole) scheduler log ----------------------------------------------------------------------
def test_a_truncated_last_line_is_counted_and_the_rest_imported():
    data = TEXT.read_bytes()
    lines = data.splitlines(keepends=True)
    in_header = imported(b"".join(lines[:-1]) + lines[-1][:20])  # the last line cut in its klog header
    assert in_header.counts.truncated == 1
    assert acts(in_header.scenario) == acts(of(TEXT).scenario)[:-1]  # its assigned_pod_added is gone
    in_value = imported(data[:data.rindex(b'pod="default/b" node=') + 12])  # cut in the last bind's pod value
    assert in_value.counts.truncated == 1
    ops = [s["op"] for s in in_value.scenario["steps"] if s["op"] != "advance_clock"]
    assert ops[-1] == "pop"  # b's bind was the cut line: b is still in flight
    json_lines = JSON.read_bytes().splitlines(keepends=True)
    cut_json = imported(b"".join(json_lines[:-1]) + json_lines[-1][:-20])
    assert cut_json.counts.truncated == 1
    assert acts(cut_json.scenario) == acts(of(TEXT).scenario)[:-1]


def test_unknown_lines_are_counted_and_ignored():
    noise = b"this is not a log line\n\n  \nGET /healthz 200\n{\"level\":\"info\"}\n\xff\xfe garbage\n"
    data = noise + TEXT.read_bytes() + noise
    result = imported(data)
    assert result.counts.unknown == 8
    assert steps_of(result.scenario) == steps_of(of(TEXT).scenario)


def test_several_files_are_one_log():
    lines = TEXT.read_bytes().splitlines(keepends=True)
    result = imported(b"".join(lines[:15]), b"".join(lines[15:]))
    assert steps_of(result.scenario) == steps_of(of(TEXT).scenario)
    assert result.counts.files == 2
    assert result.scenario["steps"] == of(TEXT).scenario["steps"]  # lines count on through the files


@pytest.mark.parametrize("encode", [
    lambda text: codecs.BOM_UTF16_LE + text.encode("utf-16-le"),  # PowerShell's `>`
    lambda text: text.encode("utf-16"),
    lambda text: text.encode("utf-16-be"),
    lambda text: text.encode("utf-16-le"),
    lambda text: codecs.BOM_UTF8 + text.encode(),
], ids=["utf-16-le-bom", "utf-16", "utf-16-be", "utf-16-le", "utf-8-bom"])
def test_a_log_in_utf_16_or_with_a_byte_order_mark_imports_as_its_utf_8(encode, monkeypatch):
    """A log saved by PowerShell (UTF-16LE with a byte order mark) was refused as "binary data"; it is read as
    the same text, in chunks whatever their size (here 7 bytes, so characters and lines straddle them)."""
    monkeypatch.setattr(Recoded, "CHUNK", 7)
    text = TEXT.read_text(encoding="utf-8")
    assert imported(encode(text)).scenario == imported(text.encode()).scenario


@pytest.mark.parametrize("data, says", [
    (b"", "empty input"),
    (b"\x7fELF\x02\x01\x01\x00\x00\x00\x00" + bytes(range(256)), "binary data"),
    (b"schema: 1\nname: Lost marker\npods:\n  - {name: A}\nsteps:\n  - {op: pop}\n", "not a kube-scheduler log"),
    (b'{"schema": 1, "name": "x", "pods": [], "steps": []}\n', "not a kube-scheduler log"),
    (b'I1130 12:00:00.000100       1 kubelet.go:2200] "SyncLoop ADD" source="api" pods=["default/a"]\n',
     "a log, but its one log line is not a kube-scheduler message"),
    (b'I1130 12:00:00.000100       1 kubelet.go:2200] "SyncLoop ADD" source="api" pods=["default/a"]\n' * 2,
     "a log, but none of its 2 log lines is a kube-scheduler message"),
    (b"hello\n", "not a kube-scheduler log: its one line is not a klog or JSON log line"),
    (gzip.compress(TEXT.read_bytes()),  # it said "binary data, not a log (a NUL byte in its first line)"
     r"^log0:1: gzip-compressed \(a rotated log\?\), not read: decompress it first \(zcat log0 \| "
     r"inflight-scope import -\)$"),
])
def test_what_is_not_a_scheduler_log_is_refused(data, says):
    with pytest.raises(LogError, match=says):
        imported(data)


ONE_POD = (b'I1130 12:00:00.000100       1 eventhandlers.go:126] "Add event for unscheduled pod" pod="default/a"\n'
           b'I1130 12:00:00.000200       1 leaderelection.go:260] successfully acquired lease\n'
           b'I1130 12:00:00.000300       1 eventhandlers.go:171] "Delete event for unscheduled pod"\n'
           b'I1130 12:00:00.000400       1 schedule_one.go:93] "Attempting to schedule pod" pod="default/a"\n'
           b'I1130 12:00:00.002000       1 schedule_one.go:286] "Successfully bound pod to node" pod="default/a" '
           b'node="n1"\n'
           b'I1130 12:00:00.003000       1 schedule_one.go:286] "Successfully bound pod to node" pod="default/b" '
           b'node="n1"\n')


def test_counts_agree_with_their_nouns():
    """"1 lines read", "1 other log lines", "1 attempt(s) not in the log", "1 pods, 1 steps": each count says its
    noun in the singular or the plural as it needs."""
    result = imported(ONE_POD[:ONE_POD.index(b"\n") + 1])
    assert result.counts.summary().startswith("1 line read: 1 used, 0 scheduler lines ignored, 0 other log lines")
    assert "1 pod, 1 step (0 failures) over 0 s" in result.scenario["description"]
    result = imported(ONE_POD)
    assert result.counts.summary().startswith("6 lines read: 4 used, 1 scheduler line ignored, 1 other log line,")
    assert "2 pods, 9 steps (0 failures)" in result.scenario["description"]
    said = " ".join(result.assumptions)
    assert "1 attempt not in the log: the pod is assumed popped" in said
    assert "1 pod addition not in the log" in said
    assert not any("(s)" in a.replace("plugin(s)", "") for a in result.assumptions)


def test_the_scenario_is_named_after_the_files():
    """A path's directories are not part of the name (the CLI named it "Imported from /home/me/logs/my2.log"); a
    label that names no file is kept, and --name wins."""
    data = TEXT.read_bytes()
    assert import_logs([("/home/me/logs/my2.log", io.BytesIO(data))]).scenario["name"] == "Imported from my2.log"
    lines = data.splitlines(keepends=True)
    two = import_logs([("logs/a.log", io.BytesIO(b"".join(lines[:15]))), ("b.log", io.BytesIO(b"".join(lines[15:])))])
    assert two.scenario["name"] == "Imported from a.log, b.log"
    assert import_logs([("<stdin>", io.BytesIO(data))]).scenario["name"] == "Imported from <stdin>"
    assert import_logs([("x/my2.log", io.BytesIO(data))], name="Mine").scenario["name"] == "Mine"


def test_the_limits_hold():
    lines = b"".join(b'I1130 12:00:%02d.000000       1 eventhandlers.go:126] "Add event for unscheduled pod" '
                     b'pod="default/p%d"\n' % (i % 60, i) for i in range(30))
    with pytest.raises(TooLarge, match="more than 10 pods"):
        imported(lines, limits=Limits(max_pods=10))
    flushes = klog((0, "Add event for unscheduled pod", 'pod="shop/x"'), *(
        (i, "Pod moved to an internal scheduling queue", 'pod="shop/x" event="BackoffComplete" queue="Active"')
        for i in range(1, 30)))  # kept to compare with the model: as many as the steps may be
    with pytest.raises(TooLarge, match="more than 20 queue moves"):
        imported(flushes, limits=Limits(max_steps=20))


# --- the pieces -----------------------------------------------------------------------------------------------
def test_klog_and_json_lines_parse_alike():
    text = parse_line('I1130 12:00:05.030000       1 scheduling_queue.go:1101] "Pod moved to an internal scheduling '
                      'queue" pod="default/c" event="PvAdd" queue="Active" hint="QueueAfterBackoff"')
    json_ = parse_line('{"ts":1701345605030.0,"caller":"queue/scheduling_queue.go:1101","msg":"Pod moved to an '
                       'internal scheduling queue","v":4,"pod":{"name":"c","namespace":"default"},"event":"PvAdd",'
                       '"queue":"Active","hint":"QueueAfterBackoff"}')
    assert text.msg == json_.msg == "Pod moved to an internal scheduling queue"
    assert text.values == {"pod": "default/c", "event": "PvAdd", "queue": "Active", "hint": "QueueAfterBackoff"}
    assert json_.verbosity == 4 and json_.values["event"] == "PvAdd"
    # a container runtime's prefix is dropped
    cri = parse_line('2023-11-30T12:00:05.030000000Z stderr F I1130 12:00:05.030000       1 schedule_one.go:80] '
                     '"About to try and schedule pod" pod="default/c"')
    assert cri.values == {"pod": "default/c"}
    assert parse_line("not a log") is None


@pytest.mark.parametrize("prefix", [b"[pod/kube-scheduler-x/kube-scheduler] ",
                                    b"[pod/kube-scheduler-x/kube-scheduler] 2023-11-30T12:00:00.000100000Z "],
                         ids=["--prefix", "--prefix --timestamps"])
def test_kubectl_logs_prefix_is_dropped(prefix):
    """``kubectl logs --prefix`` output was refused as not a kube-scheduler log."""
    lines = TEXT.read_bytes().splitlines(keepends=True)
    assert imported(b"".join(prefix + line for line in lines)).scenario == imported(b"".join(lines)).scenario


def test_every_message_says_its_verbosity_and_source():
    for msg, m in MESSAGES.items():
        assert m.verbosity in (0, 2, 3, 4, 5), msg
        assert ".go:" in m.source, msg


def test_plugins_from_failure_reasons():
    err = ("0/5 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint {dedicated: gpu}, "
           "2 node(s) didn't match Pod's node affinity/selector. preemption: 0/5 nodes are available: "
           "5 Preemption is not helpful for scheduling..")
    assert plugins_of(err)[0] == ["NodeResourcesFit", "NodeAffinity", "TaintToleration"]
    plugins, unmatched = plugins_of("0/2 nodes are available: 2 node(s) had a reason nobody knows.")
    assert plugins == [] and unmatched == ["node(s) had a reason nobody knows"]
    assert "PvAdd" in woken_by("VolumeBinding") and "PvAdd" not in woken_by("NodeResourcesFit")
    assert woken_by("NodeResourcesFit")["NodeAdd"] == woken_by(UNKNOWN_PLUGIN)["PvAdd"] == "QueueAfterBackoff"


def test_an_unknown_reason_is_an_unknown_plugin_woken_by_every_event():
    log = (b'I1130 12:00:00.000000       1 schedule_one.go:80] "About to try and schedule pod" pod="default/x"\n'
           b'I1130 12:00:00.001000       1 schedule_one.go:967] "Unable to schedule pod; no fit; waiting" '
           b'pod="default/x" err="0/1 nodes are available: 1 node(s) had a reason nobody knows."\n'
           b'I1130 12:00:01.000000       1 eventhandlers.go:76] "Add event for node" node="node-9"\n')
    result = imported(log)
    sc = result.scenario
    assert sc["steps"][fail_index(sc, "x")]["unschedulable_plugins"] == [UNKNOWN_PLUGIN]
    assert {"event": "NodeAdd", "plugin": UNKNOWN_PLUGIN, "hint": "QueueAfterBackoff"} in sc["hints"]
    assert any(UNKNOWN_PLUGIN in a for a in result.assumptions)
    assert any("a reason nobody knows" in a for a in result.assumptions)
    assert final_queue(sc, "v1.28.1", "x", len(sc["steps"]) - 1) == "backoffQ"  # NodeAdd woke it
