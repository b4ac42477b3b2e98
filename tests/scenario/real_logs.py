"""kube-scheduler logs as they come out of clusters, written for the tests from the upstream message formats of
each release (pkg/scheduler/ and client-go as vendored in kubernetes/autoscaler: v1.28.0 at cb95d464, v1.28.4 at
a91025aa, the heads of cluster-autoscaler-release-1.29, -1.30 and -1.31). Every message is written at its
release's file:line (CALLERS, checked against the upstream text by test_logs_real.py), in klog's text format
(klog/v2 header ``Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg key="value"``) or component-base's JSON format
(component-base/logs/json/json.go:67-73, l. 94 for ``v``, vendored at a91025aa and the release branches: ``ts``
epoch milliseconds, ``caller`` short, ``msg``, ``v``, the keys; klog.KObj as {"name", "namespace"}), as
``kubectl logs`` gives them with ``--timestamps`` (an RFC3339Nano time and a space) and ``--prefix``
(``[pod/NAME/CONTAINER] ``).

The incidents:
* BUG (a 1.28.0/1.28.1 cluster): api-0 is popped; an assigned pod is updated while it is in flight; worker-1 is
  popped; a node is added; api-0 is bound, its Done removes the update worker-1 was marked by; worker-1 fails on
  cpu and is parked until the 30 s flush moves it after five minutes; it is bound on the new node.
* FIXED (a cluster with #120445: v1.28.2 on, every 1.29-1.31): the same, but worker-1, which saw the node added
  while in flight, backs off and is attempted again 2 s in.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

START = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
RELEASES = ("v1.28.0", "v1.28.4", "1.29", "1.30", "1.31")
SCHED = "k8s.io/kubernetes/pkg/scheduler/"
LEASE = "k8s.io/client-go/tools/leaderelection/leaderelection.go"
MOVED = "Pod moved to an internal scheduling queue"
MOVED_ON_FAILURE, MOVED_BY_FLUSH = f"{MOVED} (on failure, gate on)", f"{MOVED} (the 1 s flush)"
# message -> (file under cluster-autoscaler/vendor/, the line per release in RELEASES' order, -v (per release))
CALLERS = {
    "Add event for unscheduled pod": (SCHED + "eventhandlers.go", (126, 126, 126, 128, 149), 3),
    "About to try and schedule pod": (SCHED + "schedule_one.go", (80, 80, 85, 84, 83), 4),
    "Attempting to schedule pod": (SCHED + "schedule_one.go", (93, 93, 98, 97, 96), 3),
    "Update event for scheduled pod": (SCHED + "eventhandlers.go", (218, 218, 218, 223, 268), 4),
    "Add event for node": (SCHED + "eventhandlers.go", (76, 76, 76, 75, 80), 3),
    "Successfully bound pod to node": (SCHED + "schedule_one.go", (286, 286, 302, 304, 314), 2),
    "Unable to schedule pod; no fit; waiting": (SCHED + "schedule_one.go", (967, 973, 987, 1044, 1055), 2),
    "Pod moved to an internal scheduling queue": (SCHED + "internal/queue/scheduling_queue.go",
                                                  (1101, 1110, 1175, 1207, 1312), 4),
    "Delete event for unscheduled pod": (SCHED + "eventhandlers.go", (171, 171, 171, 175, 201), 3),
    "Add event for scheduled pod": (SCHED + "eventhandlers.go", (197, 197, 197, 202, 231), 3),
    # the same message from other calls: a failure's queue with SchedulerQueueingHints on
    # (AddUnschedulableIfNotPresent: -v=6 in 1.28, -v=3 from 1.29), the 1 s flush of backoffQ (-v=5,
    # flushBackoffQCompleted; 1.31: moveToActiveQ)
    MOVED_ON_FAILURE: (SCHED + "internal/queue/scheduling_queue.go", (734, 753, 798, 819, 880), (6, 6, 3, 3, 3)),
    MOVED_BY_FLUSH: (SCHED + "internal/queue/scheduling_queue.go", (765, 784, 829, 850, 635), 5),
    # klog.Infof, unstructured: the text follows the header as it is
    "attempting to acquire leader lease": (LEASE, (250, 250, 250, 250, 254), 0),
    "successfully acquired lease": (LEASE, (260, 260, 260, 260, 268), 0),
}
NO_CPU = ("0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption "
          "victims found for incoming pod.")  # the FitError message, framework/types.go:315; noderesources/fit.go
LEASE_NAME = "kube-system/kube-scheduler"

HINT = object()  # the hint as each release writes it (hint_of)
BUG = [  # (seconds after START, message, keys)
    (0.0001, "Add event for unscheduled pod", {"pod": "default/api-0"}),
    (0.0002, "Add event for unscheduled pod", {"pod": "default/worker-1"}),
    (0.001, "About to try and schedule pod", {"pod": "default/api-0"}),
    (0.010, "Update event for scheduled pod", {"pod": "kube-system/metrics-server-1"}),
    (0.020, "About to try and schedule pod", {"pod": "default/worker-1"}),
    (0.030, "Add event for node", {"node": "node-4"}),
    (0.040, "Successfully bound pod to node", {"pod": "default/api-0", "node": "node-1"}),
    (0.050, "Unable to schedule pod; no fit; waiting", {"pod": "default/worker-1", "err": NO_CPU}),
    (310.0, "Pod moved to an internal scheduling queue",
     {"pod": "default/worker-1", "event": "UnschedulableTimeout", "queue": "Active", "hint": HINT}),
    (310.0002, "About to try and schedule pod", {"pod": "default/worker-1"}),
    (310.010, "Successfully bound pod to node", {"pod": "default/worker-1", "node": "node-4"}),
]
FIXED = [*BUG[:8],
         (0.0501, MOVED_ON_FAILURE, {"pod": "default/worker-1", "event": "ScheduleAttemptFailure", "queue": "Backoff",
                                     "schedulingCycle": 2}),
         (2.0001, MOVED_BY_FLUSH, {"pod": "default/worker-1", "event": "BackoffComplete", "queue": "Active"}),
         (2.0002, "About to try and schedule pod", {"pod": "default/worker-1"}),
         (2.010, "Successfully bound pod to node", {"pod": "default/worker-1", "node": "node-4"})]
# What a standby replica logs of the same minutes: its informers' events (eventhandlers.go), no scheduling.
STANDBY = [(0.0001, "Add event for unscheduled pod", {"pod": "default/api-0"}),
           (0.0002, "Add event for unscheduled pod", {"pod": "default/worker-1"}),
           (0.030, "Add event for node", {"node": "node-4"})]


def election(leads: bool) -> list:
    """What a replica logs when it starts its leader election, some seconds before the incident."""
    said = [(-20.0, "attempting to acquire leader lease", {})]
    return said + [(-19.9, "successfully acquired lease", {})] if leads else said


def hint_of(release: str) -> str:
    """The hint's name as the release's QueueingHint.String gives it: "QueueAfterBackoff" in 1.28
    (framework/types.go:124-134 at cb95d464), "Queue" from 1.29 (types.go:116-124 at release-1.29)."""
    return "QueueAfterBackoff" if release.startswith("v1.28") else "Queue"


def verbosity(msg: str, release: str) -> int:
    v = CALLERS[msg][2]
    return v if isinstance(v, int) else v[RELEASES.index(release)]


def _caller(msg: str, release: str) -> tuple[str, int]:
    path, numbers, _ = CALLERS[msg]
    return path.rsplit("/", 1)[-1], numbers[RELEASES.index(release)]


def klog_line(at: float, msg: str, keys: dict, release: str) -> str:
    file, number = _caller(msg, release)
    msg = msg.split(" (")[0]
    keys = {k: hint_of(release) if v is HINT else v for k, v in keys.items()}
    stamp = datetime.fromtimestamp(START.timestamp() + at, UTC).strftime("%m%d %H:%M:%S.%f")
    if msg.startswith(("attempting", "successfully")):
        return f"I{stamp}       1 {file}:{number}] {msg} {LEASE_NAME}" + ("..." if msg[0] == "a" else "")
    return f"I{stamp}       1 {file}:{number}] " + " ".join([json.dumps(msg), *(f"{k}={json.dumps(v)}"
                                                                                   for k, v in keys.items())])


def json_line(at: float, msg: str, keys: dict, release: str) -> str:
    file, number = _caller(msg, release)
    keys = {k: hint_of(release) if v is HINT else v for k, v in keys.items()}
    folder = "leaderelection" if msg.startswith(("attempting", "successfully")) else "scheduler"
    if folder == "leaderelection":
        msg = f"{msg} {LEASE_NAME}" + ("..." if msg[0] == "a" else "")
    obj = {"ts": round((START.timestamp() + at) * 1000, 4), "caller": f"{folder}/{file}:{number}",
           "msg": msg.split(" (")[0], "v": verbosity(msg.split(" kube-system")[0], release)}
    for k, value in keys.items():
        if k == "pod":
            ns, name = value.split("/")
            value = {"name": name, "namespace": ns}
        obj[k] = value
    return json.dumps(obj, separators=(",", ":"))


def write(lines: list, release: str = "v1.28.0", most: int = 4, form: str = "klog", timestamps: bool = False,
          prefix: str | None = None) -> bytes:
    """The log of ``lines`` (seconds, message, keys) as ``release`` logs them at -v=``most`` in ``form`` (klog,
    json), as ``kubectl logs`` gives it (``--timestamps``; ``--prefix`` with the pod ``prefix``)."""
    out = []
    for at, msg, keys in lines:
        if verbosity(msg, release) > most:
            continue
        text = (klog_line if form == "klog" else json_line)(at, msg, keys, release)
        if timestamps:  # kubectl logs --timestamps: RFC3339Nano, the kubelet's time of the write
            moment = datetime.fromtimestamp(START.timestamp() + at, UTC)
            text = moment.strftime("%Y-%m-%dT%H:%M:%S.%f") + "123Z " + text
        if prefix:
            text = f"[pod/{prefix}/kube-scheduler] {text}"
        out.append(text + "\n")
    return "".join(out).encode()
