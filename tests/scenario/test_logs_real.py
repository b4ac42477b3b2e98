"""kube-scheduler 1.28-1.31 logs as they come out of clusters (tests/scenario/real_logs.py writes them from each
release's message formats, at the file:line CALLERS cites, checked here against the upstream text): klog text at
-v=2, -v=4 and -v=5 and the JSON format, as ``kubectl logs`` gives them with and without ``--timestamps`` and
``--prefix``; several replicas' logs, in files or concatenated, of which only the leader's lines are used; lines
cut short or merged, skipped and counted. Each import's incident report: the verdict, the time each pod lost, the
fix and its releases."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest

from webapp.export.incident import imported_report
from webapp.export.report_md import markdown
from webapp.scenario.logs import import_logs
from webapp.scenario.logs.messages import MESSAGES, RELEASE_LINES
from webapp.scenario.logs.replicas import ACQUIRED, ELECTING, LEASE_LINES, LEASE_SOURCE

from .real_logs import BUG, CALLERS, FIXED, HINT, RELEASES, SCHED, STANDBY, election, write

UPSTREAM = Path(__file__).resolve().parents[1] / "data" / "logs" / "upstream-lines.json"
MIRROR = Path("/work/.mirror/kubernetes+autoscaler/repo")
COMMITS = {"v1.28.0": "cb95d464a5e35ed3edeb71982cf567809a64c150", "v1.28.4": "a91025aa1f408b57f14e8352b7089fd5987ad424",
           "1.29": "4757ec679d486e3c1184264bd64782f0154aad8d", "1.30": "8984706c2b7fac4f1436deee1b9c93b647167617",
           "1.31": "2b0c0761f57d0c0938a36daa0224236953b952ba"}  # the heads of cluster-autoscaler-release-1.29..1.31
BUG_VERDICT = "v1.28.1 behaves as the cluster did: its replay makes every queue move the log states."
FIXED_VERDICT = "v1.28.2 behaves as the cluster did: its replay makes every queue move the log states."
UNTOLD = "The log does not tell the versions apart: every replay agrees with the same lines."
RELEASES_TEXT = ("Carried by v1.28.2, v1.28.3, v1.28.4, v1.28.5 and later 1.28 patches, v1.29.0 to v1.29.9, "
                 "v1.30.0 to v1.30.14, v1.31.0 to v1.31.13, v1.32.0 and v1.36.2.")


def upstream() -> dict[str, dict[str, str]]:
    """commit -> {file:line -> its text}: each line a message of real_logs.py or messages.RELEASE_LINES is
    logged from (taken from the mirror by hand; test_the_copy_is_the_mirrors checks it where the mirror is)."""
    return json.loads(UPSTREAM.read_text())


def report(*logs: bytes, names=None):
    names = names or [f"log{i}" for i in range(len(logs))]
    result = import_logs([(n, io.BytesIO(d)) for n, d in zip(names, logs, strict=True)])
    return result, imported_report(result)[1]


# --- the formats are upstream's ---------------------------------------------------------------------------------
@pytest.mark.parametrize("release", RELEASES)
def test_each_message_is_written_where_its_release_logs_it(release):
    """Every message real_logs.py writes is logged, in that release, at the file:line it is written with, at the
    -v it is filtered by (klog.Infof's at every -v)."""
    source = upstream()[COMMITS[release]]
    for key, (path, numbers, v) in CALLERS.items():
        text = source[f"{path}:{numbers[RELEASES.index(release)]}"]
        msg = key.split(" (")[0]
        if path.endswith("leaderelection.go"):
            assert text.startswith(f'klog.Infof("{msg}'), (key, text)
            continue
        level = v if isinstance(v, int) else v[RELEASES.index(release)]
        assert f'V({level}).Info("{msg}", "pod"' in text or f'V({level}).Info("{msg}", "node"' in text, (key, text)


@pytest.mark.parametrize("release", RELEASES)
def test_the_importers_table_of_lines_is_upstreams(release):
    """messages.RELEASE_LINES (docs/import.md's table) and replicas.LEASE_LINES: each message at its line."""
    source, i = upstream()[COMMITS[release]], RELEASES.index(release)
    for msg, (path, numbers) in RELEASE_LINES.items():
        assert msg in MESSAGES
        if numbers[i] is not None:
            assert f'"{msg}"' in source[f"{SCHED}{path}:{numbers[i]}"], (msg, release)
    for msg, numbers in LEASE_LINES.items():
        assert source[f"{LEASE_SOURCE}:{numbers[i]}"].startswith(f'klog.Infof("{msg}')
    assert tuple(LEASE_LINES) == (ELECTING, ACQUIRED)


@pytest.mark.skipif(not MIRROR.exists(), reason="no mirror of kubernetes/autoscaler on this machine")
def test_the_copy_is_the_mirrors():
    for commit, lines in upstream().items():
        for where, text in lines.items():
            path, _, number = where.rpartition(":")
            shown = subprocess.run(["git", "-C", str(MIRROR), "show", f"{commit}:cluster-autoscaler/vendor/{path}"],
                                   capture_output=True, text=True, check=True).stdout.splitlines()
            assert shown[int(number) - 1].strip() == text, where


# --- the verdict, the time lost, the fix, whatever form the log comes in ----------------------------------------
FORMS = {  # name -> write()'s form arguments
    "klog -v=4": {"most": 4},
    "klog -v=4 --timestamps": {"most": 4, "timestamps": True},
    "klog -v=4 --prefix": {"most": 4, "prefix": "kube-scheduler-cp-1"},
    "klog -v=4 --timestamps --prefix": {"most": 4, "timestamps": True, "prefix": "kube-scheduler-cp-1"},
    "JSON": {"most": 4, "form": "json"},
    "JSON --timestamps --prefix": {"most": 4, "form": "json", "timestamps": True, "prefix": "kube-scheduler-cp-1"},
}


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("form", FORMS)
def test_the_bug_at_v4_and_in_json_names_v1_28_1_and_the_time_lost(release, form):
    """The BUG incident, with its leader election, in each release's lines and each form ``kubectl logs`` gives:
    v1.28.1 behaves as the cluster did, worker-1 lost 308 s on it against v1.28.2, the fix is #120445 in v1.28.2."""
    result, facts = report(write(election(True) + BUG, release, **FORMS[form]))
    assert facts["verdict"] == BUG_VERDICT
    assert [p["text"] for p in facts["pods"]] == ["worker-1 lost 308.00 s on v1.28.1 against v1.28.2"]
    assert (facts["fix"]["version"], facts["fix"]["upstream"]) == ("v1.28.2", "#120445")
    assert facts["fix"]["text"].endswith(RELEASES_TEXT)
    assert facts["incident"] == 15
    c = result.counts
    assert (c.lines, c.used, c.other, c.unknown, c.truncated, c.interleaved, c.standby) == (13, 11, 2, 0, 0, 0, 0)


@pytest.mark.parametrize("release", RELEASES)
def test_at_v2_the_log_cannot_tell_the_versions_apart(release):
    """-v=2 keeps the failures and the binds: every replay agrees, no time lost is measured; the fix is named."""
    _, facts = report(write(election(True) + BUG, release, most=2, timestamps=True))
    assert facts["verdict"] == f"{UNTOLD} The versions do not part in this scenario: no pod lost time against v1.28.2."
    assert facts["pods"] == [] and facts["incident"] is None
    assert facts["fix"]["version"] == "v1.28.2" and facts["fix"]["text"].endswith(RELEASES_TEXT)


@pytest.mark.parametrize("release, most, form", [
    ("v1.28.4", 6, "klog"), ("1.29", 4, "klog"), ("1.30", 4, "json"), ("1.31", 5, "klog"), ("1.31", 5, "json")])
def test_a_fixed_cluster_with_the_gate_on_is_v1_28_2(release, most, form):
    """The FIXED incident: worker-1's failure is logged to backoffQ by the gate-on path (-v=6 in 1.28, -v=3 from
    1.29): v1.28.2 behaves as the cluster did; on v1.28.1 the pod would have been parked (an activate stands for
    what moved it, so it loses no time)."""
    result, facts = report(write(election(True) + FIXED, release, most=most, form=form))
    assert facts["verdict"] == FIXED_VERDICT
    assert facts["pods"] == []  # an activate stands for what moved it: no time lost at the stated precision
    assert facts["fix"]["version"] == "v1.28.2"
    assert "gate" not in result.scenario  # the gate-on path: as 1.28.0-1.28.4's default


def test_a_fixed_cluster_at_v4_of_1_28_cannot_be_told_apart():
    """1.28 logs a failure's queue with the gate on only at -v=6: at -v=4 both replays agree."""
    _, facts = report(write(election(True) + FIXED, "v1.28.4", most=4))
    assert facts["verdict"].startswith(UNTOLD)


@pytest.mark.parametrize("release, form", [("v1.28.4", "klog"), ("1.29", "klog"), ("1.31", "json")])
def test_each_releases_hint_is_read(release, form):
    """A move's hint as each release writes it (real_logs.hint_of: 1.28's QueueAfterBackoff, 1.29 on "Queue"): a
    PvAdd, which NodeResourcesFit does not register, moving worker-1 is a hint read from the log, as
    QueueAfterBackoff."""
    moved = (1.0, "Pod moved to an internal scheduling queue",
             {"pod": "default/worker-1", "event": "PvAdd", "queue": "Active", "hint": HINT})
    result, _ = report(write(election(True) + [*BUG[:8], moved], release, form=form), names=["hint.log"])
    said = next(a for a in result.assumptions if a.startswith("Hints read from the log's queue moves"))
    assert "NodeResourcesFit on PvAdd: QueueAfterBackoff (line 11)" in said


# --- several replicas: only the leader's lines ------------------------------------------------------------------
def leader(release="1.30", **form):
    return write(election(True) + BUG, release, **form)


def standby(release="1.30", **form):
    return write(election(False) + STANDBY, release, **form)


def steps_of(result):
    return [{k: v for k, v in s.items() if k != "note"} for s in result.scenario["steps"]]


ALONE = None


def alone():
    global ALONE
    ALONE = ALONE or import_logs([("leader.log", io.BytesIO(leader()))])
    return ALONE


@pytest.mark.parametrize("logs", [
    pytest.param(lambda: [standby(), leader()], id="two files, the standby first"),
    pytest.param(lambda: [leader(), standby()], id="two files, the leader first"),
    pytest.param(lambda: [standby() + leader() + standby()], id="concatenated"),
    pytest.param(lambda: [standby(prefix="kube-scheduler-cp-2") + leader(prefix="kube-scheduler-cp-1")
                          + standby(prefix="kube-scheduler-cp-3")], id="kubectl logs --prefix, one after another"),
    pytest.param(lambda: [b"".join(sorted(
        (standby(prefix="kube-scheduler-cp-2", timestamps=True) + leader(prefix="kube-scheduler-cp-1", timestamps=True)
         ).splitlines(keepends=True), key=lambda line: line.split(b"] ", 1)[1]))], id="--prefix, merged by time"),
    pytest.param(lambda: [standby(form="json") + leader(form="json")], id="JSON, concatenated"),
])
def test_only_the_leaders_lines_are_used(logs):
    """A standby's informers log the same pods' Add events (eventhandlers.go) without scheduling; its lines are
    left out, counted and said, and the scenario is the leader's alone."""
    data = logs()
    result, facts = report(*data)
    assert steps_of(result) == steps_of(alone())
    standbys = sum(d.count(b"attempting to acquire") for d in data) - 1
    assert result.counts.standby == 3 * standbys  # each logs two pods' Add and the node's
    assert facts["verdict"] == BUG_VERDICT
    assert [p["text"] for p in facts["pods"]] == ["worker-1 lost 308.00 s on v1.28.1 against v1.28.2"]
    said = [a for a in result.assumptions if "standby" in a]
    assert said and all("never schedules" in a and "only the leader schedules" in a for a in said)
    assert "of a standby replica (not the leader) left out" in result.counts.summary()


def test_a_log_without_an_election_is_used_as_it_is():
    """A stretch of a leader's log cut after its election (no lease lines): used, as before."""
    result, _ = report(write(BUG, "1.31"))
    assert steps_of(result) == steps_of(alone()) and result.counts.standby == 0


def test_a_leader_change_uses_both_leaders_lines_and_says_so():
    """cp-1 leads until it stops after worker-1's failure; cp-2, a standby until then, acquires the lease and
    schedules: both stretches lead, their lines are used in order, and the assumptions name both."""
    first = write(election(True) + BUG[:8], "1.31", prefix="kube-scheduler-cp-1")
    second = write([(200.0, "attempting to acquire leader lease", {}), (200.1, "successfully acquired lease", {}),
                    *BUG[8:]], "1.31", prefix="kube-scheduler-cp-2")
    result, facts = report(first + second, names=["failover.log"])
    assert result.counts.standby == 0
    [said] = [a for a in result.assumptions if "led in turn" in a]
    assert said.startswith("2 replicas led in turn, each after its own leader election (their logs start at "
                           "failover.log:1 and failover.log:11): a leader change.")
    assert [p["text"] for p in facts["pods"]] == ["worker-1 lost 308.00 s on v1.28.1 against v1.28.2"]


# --- lines cut short or merged ----------------------------------------------------------------------------------
def test_cut_and_merged_lines_are_skipped_and_counted():
    """A line cut short (a full disk, a killed container) and two writes merged into one line (two goroutines
    writing at once): each skipped and counted; the rest imported."""
    lines = leader().splitlines(keepends=True)
    cut = lines[4][:60] + b"\n"  # "About to try and schedule pod" for api-0, cut in its message
    merged = lines[5].rstrip(b"\n") + lines[6]  # the Update event, then worker-1's attempt on the same line
    result = import_logs([("cut.log", io.BytesIO(b"".join([*lines[:4], cut, merged, *lines[7:]])))])
    assert (result.counts.truncated, result.counts.interleaved) == (1, 1)
    assert "1 interleaved (two lines in one)" in result.counts.summary()
    assert result.counts.lines == len(lines) - 1


def test_a_json_line_run_into_the_next_is_interleaved():
    lines = leader(form="json").splitlines(keepends=True)
    merged = lines[5][:40] + lines[6]
    result = import_logs([("j.log", io.BytesIO(b"".join([*lines[:5], merged, *lines[7:]])))])
    assert result.counts.interleaved == 1


# --- the Markdown report of one real log, in full ---------------------------------------------------------------
MARKDOWN = """\
# Incident report: Imported from kube-scheduler.log

**Verdict:** v1.28.1 behaves as the cluster did: its replay makes every queue move the log states.

## How sure

- 4 of the log's lines were checked against each replay (its queue moves and attempts).
- v1.28.1: agrees with 4, disagrees with 0.
- v1.28.2: agrees with 2, disagrees with 2 (kube-scheduler.log:15, kube-scheduler.log:16).
- The verdict names the versions whose replay agrees with every line of the log that tells the versions apart: \
a line some replays agree with and others do not. A line no replay agrees with tells them nothing; it is listed \
with the lines that disagree.

## Time lost against v1.28.2

- **worker-1 lost 308.00 s on v1.28.1 against v1.28.2** (its failure at step 15; the versions part at step 15)
  - worker-1 fails → unschedulablePods: its marker e1 was removed: saw nothing; v1.28.1: back in activeQ after \
309.95 s via unschedulablePods
  - worker-1 fails → backoffQ: saw NodeAdd (QueueAfterBackoff); v1.28.2: back in activeQ after 1.95 s via backoffQ

## The fix

v1.28.2 (#120445): inFlightEvents: each in-flight pod has its own entry; Done drops events from the front. \
Carried by v1.28.2, v1.28.3, v1.28.4, v1.28.5 and later 1.28 patches, v1.29.0 to v1.29.9, v1.30.0 to v1.30.14, \
v1.31.0 to v1.31.13, v1.32.0 and v1.36.2.

## Before and after

![Before step 15 (fail worker-1 — plugin NodeResourcesFit)](pm.position-14.svg)
![After step 15 (fail worker-1 — plugin NodeResourcesFit): where the versions part](pm.position-15.svg)

## Log lines that disagree

- `kube-scheduler.log:15`: the log moves worker-1 to activeQ by UnschedulableTimeout (the 30 s flush of pods \
parked over 5 minutes); on v1.28.2 the model: popped at t = 0.0199 s (kube-scheduler.log:11), then to backoffQ \
by ScheduleAttemptFailure at t = 0.0499 s (kube-scheduler.log:14), then to activeQ by BackoffComplete at t = \
1.9999 s; next: popped at t = 310 s (kube-scheduler.log:16)
- `kube-scheduler.log:16`: the log attempts worker-1; on v1.28.2 the model: worker-1 in activeQ from t = 1.9999 \
s (BackoffComplete), no Pop until the log's at t = 310 s

## Log lines that agree

- `kube-scheduler.log:15`: the log moves worker-1 to activeQ by UnschedulableTimeout (the 30 s flush of pods \
parked over 5 minutes) (v1.28.1)
- `kube-scheduler.log:9`: the log attempts api-0 (v1.28.1, v1.28.2)
- `kube-scheduler.log:11`: the log attempts worker-1 (v1.28.1, v1.28.2)
- `kube-scheduler.log:16`: the log attempts worker-1 (v1.28.1)

## What the importer assumed

- t = 0 s is the time of the first scheduler line (11-30 12:00:00.000100 UTC); the clock advances to each \
line's time.
- Verbosity: the messages seen need -v=4. Cluster events are logged only by their handlers (node add at -v=3, \
assigned pod add/delete at -v=3, update at -v=4) and by the parked pods they move (-v=4) or leave (-v=5): \
events of other kinds (PV, PVC, StorageClass, CSI, node updates) that moved no parked pod are missing, so pods \
in flight may have seen more events than modelled.
- Plugins are read from each failure's reasons (the FitError message), and each plugin is woken by the events \
it registers in 1.28 (EventsToRegister) with QueueAfterBackoff (1.28's in-tree plugins have no QueueingHint \
function), as the model's catalogue gives them (no \\`hints\\` are written for them, so an event added to the \
scenario wakes them as it would): NodeResourcesFit (framework/plugins/noderesources/fit.go:239).
- The periodic flushes are placed so that the 30 s flush that moved a pod at line 15 (t = 310 s) ticks at its \
time (flush_phase); the other flush is assumed to share that phase (both start with the queue).
- Every pod has priority 0, the default backoff (1 s initial, 10 s max) and 300 s maximum in unschedulablePods; \
the SchedulerQueueingHints gate is on (1.28.0 to 1.28.4's default; the log shows no failure's queue, which -v=5 \
logs with the gate off and -v=6 with it on, 1.29 on -v=3). The log says none of these.
- The replica whose log starts at kube-scheduler.log:1 starts a leader election ("attempting to acquire leader \
lease") and never schedules: a standby, whose informers log the cluster's events without scheduling. Its 3 \
scheduler lines are left out; only the leader schedules.
- The log is kube-scheduler 1.30's (7 of its 7 lines with a known file:line are where 1.30 logs them: \
kubernetes/autoscaler cluster-autoscaler-release-1.30 (v1.30.14)): replayed on v1.28.1 and v1.28.2.
"""


def test_the_markdown_report_of_replicas_concatenated_in_full():
    """kubectl logs -l component=kube-scheduler --prefix --timestamps of a 1.30 cluster: a standby, then the
    leader, at -v=4."""
    data = standby(prefix="kube-scheduler-cp-2", timestamps=True) + leader(prefix="kube-scheduler-cp-1",
                                                                             timestamps=True)
    _, facts = report(data, names=["kube-scheduler.log"])
    assert markdown(facts, ["pm.position-14.svg", "pm.position-15.svg"]) == MARKDOWN
