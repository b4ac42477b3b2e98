"""The importer names the kube-scheduler release whose log it reads, by where each message is logged (the klog
header's file:line, JSON's caller: webapp/scenario/logs/release.py), and replays a 1.32 log on v1.32.0 and a 1.33+
log on v1.36.2; the older logs still land on v1.28.1 and v1.28.2. The logs here are built from each release's
messages at their lines (release.LATER_LINES, checked against the trees at ee4fafa6 and 74a7d3b1 where the mirror of
kubernetes/autoscaler is)."""

import io
import json
import subprocess
from pathlib import Path

import pytest

from webapp.scenario.logs import import_logs
from webapp.scenario.logs.release import LATER_LINES, NOT_GATE, QUEUE, recognise

MIRROR = Path("/work/.mirror/kubernetes+autoscaler/repo")
TREES = {"1.32": "ee4fafa60fb043ae031b39a12ef3b9309299e5ca", "1.36": "74a7d3b15e2f5c9e42901dd59e0b52abe6f8f40e"}
SCHEDULER = "cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/"
LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"
CPU = "0/3 nodes are available: 3 Insufficient cpu."
NO_FIT = "Unable to schedule pod; no fit; waiting"


def at(msg: str, release: str, i: int = 0) -> str:
    return LATER_LINES[msg][release][i]


def incident(release: str, failure_queue: str = "Unschedulable") -> list[tuple[float, str, str, dict]]:
    """a: added, attempted, failing on cpu (its queue logged by the gate-on path); a node added moves it to activeQ;
    attempted again and bound. (seconds, file:line, message, keys), each at the line ``release`` logs it from."""
    gate_on = {"1.32": "scheduling_queue.go:794", "1.36": "scheduling_queue.go:958"}[release]
    node_move = {"1.32": "scheduling_queue.go:1130", "1.36": "active_queue.go:111"}[release]
    lines = [
        (0.001, at("Add event for unscheduled pod", release), "Add event for unscheduled pod", {"pod": "default/a"}),
        (0.002, at("About to try and schedule pod", release), "About to try and schedule pod", {"pod": "default/a"}),
        (0.003, at(NO_FIT, release), NO_FIT, {"pod": "default/a", "err": CPU}),
        (0.004, gate_on, QUEUE, {"pod": "default/a", "event": "ScheduleAttemptFailure", "queue": failure_queue,
                                 "schedulingCycle": 1}),
        (10.0, at("Add event for node", release), "Add event for node", {"node": "n3"}),
        (10.001, node_move, QUEUE, {"pod": "default/a", "event": "NodeAdd", "queue": "Active"}),
        (10.002, at("About to try and schedule pod", release), "About to try and schedule pod", {"pod": "default/a"}),
        (10.003, at("Successfully bound pod to node", release), "Successfully bound pod to node",
         {"pod": "default/a", "node": "n3"}),
    ]
    if failure_queue == "Backoff" and release == "1.36":  # backoffQ's own line, without schedulingCycle
        lines.insert(3, (0.0035, "backoff_queue.go:321", QUEUE,
                         {"pod": "default/a", "event": "ScheduleAttemptFailure", "queue": "Backoff"}))
    return lines


def klog(lines) -> bytes:
    def kv(keys):
        return " ".join(f"{k}={json.dumps(v)}" for k, v in keys.items())
    return b"".join(b'I1130 12:%02d:%09.6f       1 %s] "%s" %s\n' % (
        int(t // 60), t % 60, where.encode(), msg.encode(), kv(keys).encode()) for t, where, msg, keys in lines)


def json_log(lines) -> bytes:
    def obj(t, where, msg, keys):
        keys = {k: ({"name": v.split("/")[1], "namespace": v.split("/")[0]} if k == "pod" else v)
                for k, v in keys.items()}
        return {"ts": 1701345600000 + t * 1000, "caller": f"scheduler/{where}", "msg": msg, "v": 3, **keys}
    return b"".join(json.dumps(obj(*line)).encode() + b"\n" for line in lines)


def imported(data: bytes):
    return import_logs([("my.log", io.BytesIO(data))])


@pytest.mark.parametrize("form", [klog, json_log])
@pytest.mark.parametrize("release, version", [("1.32", "v1.32.0"), ("1.36", "v1.36.2")])
def test_a_later_releases_log_is_named_and_replayed_on_its_version(release, version, form):
    result = imported(form(incident(release)))
    assert (result.release.release, result.release.version) == (release, version)
    assert result.scenario["versions"] == [version] and "gate" not in result.scenario
    said = next(a for a in result.assumptions if a.startswith("The log is kube-scheduler"))
    assert f"kube-scheduler {release}'s (7 of its 7 lines" in said and said.endswith(f"replayed on {version}.")
    assert said in result.scenario["description"] and said in result.yaml
    assert result.disagreements == [] and result.counts.disagreeing == 0  # its replay moves a as the log does


def test_a_1_36_failure_logged_by_backoffq_and_by_the_gate_on_path_is_one_gate():
    """backoff_queue.go logs the move without schedulingCycle: not the gate-off path (which 1.36 cannot take)."""
    result = imported(klog(incident("1.36", "Backoff")))
    assert result.scenario["versions"] == ["v1.36.2"] and "gate" not in result.scenario
    fail = next(s for s in result.scenario["steps"] if s["op"] == "fail")
    assert fail["note"].endswith("the log: to backoffQ")


def test_a_log_only_1_33_on_writes_lands_on_v1_36_2_and_says_its_lines_are_not_known():
    """A 1.34 log: its lines are neither tree's, but backoffQ's own file logs a move only from 1.33 on."""
    lines = [(0.002, "schedule_one.go:101", "About to try and schedule pod", {"pod": "default/a"}),
             (0.003, "schedule_one.go:1230", NO_FIT, {"pod": "default/a", "err": CPU}),
             (0.004, "backoff_queue.go:299", QUEUE, {"pod": "default/a", "event": "ScheduleAttemptFailure",
                                                    "queue": "Backoff"}),
             (5.0, "schedule_one.go:101", "About to try and schedule pod", {"pod": "default/a"}),
             (5.001, "schedule_one.go:470", "Successfully bound pod to node", {"pod": "default/a", "node": "n1"})]
    result = imported(klog(lines))
    assert (result.release.release, result.release.version) == ("1.33+", "v1.36.2")
    assert "backoff_queue.go:299 logs a queue move only from 1.33" in result.release.said
    assert result.scenario["versions"] == ["v1.36.2"] and "gate" not in result.scenario


@pytest.mark.parametrize("name, release", [("five-minute-incident.log", "v1.28.0"),
                                           ("five-minute-incident.json.log", "v1.28.0"),
                                           ("attempted-out-of-order.log", "v1.28.4")])
def test_the_older_logs_still_land_on_v1_28_1_and_v1_28_2(name, release):
    result = import_logs([(name, io.BytesIO((LOGS / name).read_bytes()))])
    assert result.release.release == release and result.release.version is None
    assert "versions" not in result.scenario  # the scenario's own: v1.28.1 and v1.28.2
    assert any(a.endswith("replayed on v1.28.1 and v1.28.2.") for a in result.assumptions)


def test_the_release_logging_the_most_lines_where_they_are_is_named():
    """schedule_one.go:83 is where 1.31 and 1.32 both log an attempt: the other lines decide (1.31)."""
    seen = {("About to try and schedule pod", "schedule_one.go:83"): 1, (NO_FIT, "schedule_one.go:1055"): 2,
            ("Successfully bound pod to node", "schedule_one.go:314"): 3, ("Add event for node", "nowhere.go:1"): 4}
    found = recognise(seen)
    assert (found.release, found.version, found.lines) == ("1.31", None, 3)
    assert recognise({("Add event for node", "nowhere.go:1"): 1}).release is None


def upstream_line(release: str, caller: str) -> str:
    file, number = caller.split(":")
    folder = "backend/queue/" if file.endswith("queue.go") else ""
    text = subprocess.run(["git", "-C", str(MIRROR), "show", f"{TREES[release]}:{SCHEDULER}{folder}{file}"],
                          check=True, capture_output=True, text=True).stdout
    return text.split("\n")[int(number) - 1]


@pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason="no mirror of kubernetes/autoscaler on this machine")
@pytest.mark.parametrize("release", sorted(TREES))
def test_each_later_line_logs_its_message_there(release):
    for msg, by_release in LATER_LINES.items():
        for caller in by_release.get(release, ()):
            assert f'"{msg}", ' in upstream_line(release, caller), (release, caller, msg)
    for caller in NOT_GATE & set(LATER_LINES[QUEUE][release]):  # a move of any event: no schedulingCycle
        assert '"schedulingCycle"' not in upstream_line(release, caller), (release, caller)
