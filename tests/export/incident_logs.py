"""An incident written for the report's tests from kube-scheduler v1.28's own message formats, in klog text at
-v=4, what -v=2 keeps of it, and the JSON format. Each message is cited where upstream logs it (v1.28.0,
pkg/scheduler/ as vendored in kubernetes/autoscaler at cb95d464; docs/import.md's table):

api-0 is popped; while it is in flight an assigned pod is updated (e1); worker-1 is popped (its marker: e1); a node
is added (e2); api-0 is bound (Done removes e1: worker-1's marker is gone); worker-1 fails on cpu. The cluster
(v1.28.1) parks it: the 30 s flush moves it after five minutes, and it is bound on the new node."""

from __future__ import annotations

import json
from datetime import UTC, datetime

START = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
NO_CPU = ("0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption "
          "victims found for incoming pod.")
# (seconds after START, -v, caller file:line, message, keys)
LINES = [
    # eventhandlers.go:126 addPodToSchedulingQueue, klog.V(3)
    (0.0001, 3, "eventhandlers.go:126", "Add event for unscheduled pod", {"pod": "default/api-0"}),
    (0.0002, 3, "eventhandlers.go:126", "Add event for unscheduled pod", {"pod": "default/worker-1"}),
    # schedule_one.go:80 scheduleOne, klog.V(4)
    (0.001, 4, "schedule_one.go:80", "About to try and schedule pod", {"pod": "default/api-0"}),
    # eventhandlers.go:218 updatePodInCache, klog.V(4)
    (0.010, 4, "eventhandlers.go:218", "Update event for scheduled pod", {"pod": "kube-system/metrics-server-1"}),
    (0.020, 4, "schedule_one.go:80", "About to try and schedule pod", {"pod": "default/worker-1"}),
    # eventhandlers.go:76 addNodeToCache, klog.V(3)
    (0.030, 3, "eventhandlers.go:76", "Add event for node", {"node": "node-4"}),
    # schedule_one.go:286 bindingCycle, klog.V(2)
    (0.040, 2, "schedule_one.go:286", "Successfully bound pod to node", {"pod": "default/api-0", "node": "node-1"}),
    # schedule_one.go:967 handleSchedulingFailure, klog.V(2) (the FitError message, framework/types.go:315;
    # "Insufficient cpu": noderesources/fit.go:315-379)
    (0.050, 2, "schedule_one.go:967", "Unable to schedule pod; no fit; waiting",
     {"pod": "default/worker-1", "err": NO_CPU}),
    # scheduling_queue.go:1101 movePodsToActiveOrBackoffQueue, klog.V(4), called by flushUnschedulablePodsLeftover
    (310.0, 4, "scheduling_queue.go:1101", "Pod moved to an internal scheduling queue",
     {"pod": "default/worker-1", "event": "UnschedulableTimeout", "queue": "Active", "hint": "QueueAfterBackoff"}),
    (310.0002, 4, "schedule_one.go:80", "About to try and schedule pod", {"pod": "default/worker-1"}),
    (310.010, 2, "schedule_one.go:286", "Successfully bound pod to node",
     {"pod": "default/worker-1", "node": "node-4"}),
]


def _klog(at: float, caller: str, msg: str, keys: dict) -> str:
    t = START.timestamp() + at
    stamp = datetime.fromtimestamp(t, UTC).strftime("%m%d %H:%M:%S.%f")
    return f"I{stamp}       1 {caller}] " + " ".join([json.dumps(msg), *(f"{k}={json.dumps(v)}"
                                                                           for k, v in keys.items())])


def _json(at: float, v: int, caller: str, msg: str, keys: dict) -> str:
    obj = {"ts": round((START.timestamp() + at) * 1000, 4), "caller": f"scheduler/{caller}", "msg": msg, "v": v}
    for k, value in keys.items():
        if k in ("pod",):
            ns, name = value.split("/")
            value = {"name": name, "namespace": ns}
        obj[k] = value
    return json.dumps(obj)


def klog(verbosity: int = 4) -> bytes:
    return "".join(_klog(at, c, m, k) + "\n" for at, v, c, m, k in LINES if v <= verbosity).encode()


def json_log() -> bytes:
    return "".join(_json(at, v, c, m, k) + "\n" for at, v, c, m, k in LINES).encode()
