"""The kube-scheduler messages the importer uses, and what a failure's message says of its plugins and the hints
they give. The messages, their keys and the verbosity each needs are those of kube-scheduler v1.28 (vendored in
kubernetes/autoscaler at cb95d464, ``cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/``: SOURCE):

message (keys)
    -v, upstream file:line: what it becomes

About to try and schedule pod (pod)
    -v 4, schedule_one.go:80: ``pop`` (expect the pod)
Attempting to schedule pod (pod)
    -v 3, schedule_one.go:93: ``pop`` (once per attempt)
Unable to schedule pod; no fit; waiting (pod, err)
    -v 2, schedule_one.go:967: ``fail`` with plugins from err
Unable to schedule pod; no nodes are registered to the cluster; waiting
    -v 2, schedule_one.go:964: ``fail``, no plugin
Unable to schedule pod, possibly due to node not found; waiting (pod, err)
    -v 2, schedule_one.go:969: ``fail``, no plugin
Error scheduling pod; retrying (pod, err)
    error level, schedule_one.go:983: ``fail``, no plugin
Successfully bound pod to node (pod, node)
    -v 2, schedule_one.go:286: ``done``
Pod moved to an internal scheduling queue (pod, event, queue, hint)
    -v 4, internal/queue/scheduling_queue.go:1101: a cluster event (``event``), or a 30 s flush (UnschedulableTimeout)
Pod moved ... event=PodAdd queue=Active
    -v 5, scheduling_queue.go:530: ``add``
Pod moved ... event=ScheduleAttemptFailure (queue)
    -v 5 / 6, scheduling_queue.go:680, 684, 734: a note on the ``fail``; without schedulingCycle: ``gate: false``
Pod moved ... event=BackoffComplete queue=Active
    -v 5, scheduling_queue.go:765: the 1 s flush (evidence of its phase)
Pod moved ... event=BackoffComplete queue=Active (by Update)
    -v 5, scheduling_queue.go:948: ``update`` (Builder.by_update)
Pod moved ... event=PodUpdate
    -v 5, scheduling_queue.go:942, 964: ``update``
Event is not making pod schedulable (pod, event)
    -v 5, scheduling_queue.go:1095: a cluster event (``event``)
Add event for unscheduled pod (pod)
    -v 3, eventhandlers.go:126: ``add``
Delete event for unscheduled pod (pod)
    -v 3, eventhandlers.go:171: ``delete``
Add event for node (node)
    -v 3, eventhandlers.go:76: ``event: NodeAdd``
Add event for scheduled pod (pod)
    -v 3, eventhandlers.go:197: ``assigned_pod_added``
Update event for scheduled pod (pod)
    -v 4, eventhandlers.go:218: ``event: AssignedPodUpdate``
Delete event for scheduled pod (pod)
    -v 3, eventhandlers.go:244: ``event: AssignedPodDelete``

Event labels, queue names (Active, Backoff, Unschedulable) and hint names are those of internal/queue/events.go
(l. 25-86), scheduling_queue.go l. 64-66 and framework/types.go l. 102-128. The plugins of a failure are read from
its err: the FitError message (framework/types.go l. 315) is a histogram of the plugins' reasons (PLUGIN_REASONS).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...model.events import CATALOGUE, HINTS
from ...model.plugins import PLUGINS, event_labels, hint_for

SOURCE = "kubernetes/autoscaler@cb95d464 cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/"


@dataclass(frozen=True)
class Message:
    kind: str
    verbosity: int  # klog -v needed to see it (0 for errors)
    source: str  # file:line under SOURCE


MESSAGES = {
    "About to try and schedule pod": Message("attempt", 4, "schedule_one.go:80"),
    "Attempting to schedule pod": Message("attempt", 3, "schedule_one.go:93"),
    "Unable to schedule pod; no fit; waiting": Message("fail", 2, "schedule_one.go:967"),
    "Unable to schedule pod; no nodes are registered to the cluster; waiting": Message("fail", 2,
                                                                                       "schedule_one.go:964"),
    "Unable to schedule pod, possibly due to node not found; waiting": Message("fail", 2, "schedule_one.go:969"),
    "Error scheduling pod; retrying": Message("fail", 0, "schedule_one.go:983"),
    "Successfully bound pod to node": Message("bound", 2, "schedule_one.go:286"),
    "Pod moved to an internal scheduling queue": Message("moved", 4, "internal/queue/scheduling_queue.go:1101"),
    "Event is not making pod schedulable": Message("skipped", 5, "internal/queue/scheduling_queue.go:1095"),
    "Add event for unscheduled pod": Message("added", 3, "eventhandlers.go:126"),
    "Delete event for unscheduled pod": Message("deleted", 3, "eventhandlers.go:171"),
    "Add event for node": Message("node_added", 3, "eventhandlers.go:76"),
    "Add event for scheduled pod": Message("assigned_added", 3, "eventhandlers.go:197"),
    "Update event for scheduled pod": Message("assigned_updated", 4, "eventhandlers.go:218"),
    "Delete event for scheduled pod": Message("assigned_deleted", 3, "eventhandlers.go:244"),
}
# "Pod moved ..." by event: the verbosity and line of each call (scheduling_queue.go).
MOVED = {
    "PodAdd": (5, "internal/queue/scheduling_queue.go:530"),
    "ScheduleAttemptFailure": (5, "internal/queue/scheduling_queue.go:680, 684 (gate off); 734 at -v=6 (gate on)"),
    "BackoffComplete": (5, "internal/queue/scheduling_queue.go:765 (the 1 s flush); 948 (Update)"),
    "PodUpdate": (5, "internal/queue/scheduling_queue.go:942, 964"),
}
# Each message's line by release: the texts and keys are the same from v1.28.0 to 1.31, only their lines move
# (pkg/scheduler/ vendored in kubernetes/autoscaler at RELEASES' commits; None: not logged by that release).
RELEASES = {"v1.28.0": "cb95d464", "v1.28.4": "a91025aa", "1.29": "cluster-autoscaler-release-1.29 (v1.29.9)",
            "1.30": "cluster-autoscaler-release-1.30 (v1.30.14)", "1.31": "cluster-autoscaler-release-1.31 (v1.31.13)"}
RELEASE_LINES: dict[str, tuple[str, tuple[int | None, ...]]] = {
    "About to try and schedule pod": ("schedule_one.go", (80, 80, 85, 84, 83)),
    "Attempting to schedule pod": ("schedule_one.go", (93, 93, 98, 97, 96)),
    "Unable to schedule pod; no fit; waiting": ("schedule_one.go", (967, 973, 987, 1044, 1055)),
    "Unable to schedule pod; no nodes are registered to the cluster; waiting": ("schedule_one.go",
                                                                                (964, 970, 983, 1040, 1051)),
    "Unable to schedule pod, possibly due to node not found; waiting": ("schedule_one.go",
                                                                        (969, 975, 989, None, None)),
    "Error scheduling pod; retrying": ("schedule_one.go", (983, 989, 1003, 1046, 1057)),
    "Successfully bound pod to node": ("schedule_one.go", (286, 286, 302, 304, 314)),
    "Pod moved to an internal scheduling queue": ("internal/queue/scheduling_queue.go",
                                                  (1101, 1110, 1175, 1207, 1312)),
    "Event is not making pod schedulable": ("internal/queue/scheduling_queue.go", (1095, 1104, 1169, 1201, 1306)),
    "Add event for unscheduled pod": ("eventhandlers.go", (126, 126, 126, 128, 149)),
    "Delete event for unscheduled pod": ("eventhandlers.go", (171, 171, 171, 175, 201)),
    "Add event for node": ("eventhandlers.go", (76, 76, 76, 75, 80)),
    "Add event for scheduled pod": ("eventhandlers.go", (197, 197, 197, 202, 231)),
    "Update event for scheduled pod": ("eventhandlers.go", (218, 218, 218, 223, 268)),
    "Delete event for scheduled pod": ("eventhandlers.go", (244, 244, 244, 249, 313)),
}
QUEUES = {"Active": "activeQ", "Backoff": "backoffQ", "Unschedulable": "unschedulablePods"}
# A hint as the log writes it -> the model's: 1.28's names (framework/types.go:124-134 at cb95d464) or their
# numbers; 1.29 on name two, QueueSkip and Queue (types.go:110-124 at release-1.29, 168-182 at release-1.31), Queue
# moving a pod to backoffQ while it backs off and to activeQ after, as QueueAfterBackoff did.
HINT_NUMBERS = {"0": "QueueSkip", "1": "QueueAfterBackoff", "2": "QueueImmediately", "Queue": "QueueAfterBackoff"}

# A failure's plugins from its message: each in-tree plugin's reason text at v1.28 (framework/plugins/...).
PLUGIN_REASONS = (
    ("node(s) didn't find available persistent volumes to bind", "VolumeBinding", "volumebinding/binder.go:64"),
    ("node(s) had volume node affinity conflict", "VolumeBinding", "volumebinding/binder.go:66"),
    ("node(s) did not have enough free storage", "VolumeBinding", "volumebinding/binder.go:68"),
    ("node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)", "VolumeBinding",
     "volumebinding/binder.go:70"),
    ("pod has unbound immediate PersistentVolumeClaims", "VolumeBinding", "volumebinding/volume_binding.go:180"),
    ("Insufficient ", "NodeResourcesFit", "noderesources/fit.go:332, 341, 351, 379"),
    ("Too many pods", "NodeResourcesFit", "noderesources/fit.go:315"),
    ("node(s) didn't match Pod's node affinity/selector", "NodeAffinity", "nodeaffinity/node_affinity.go:59"),
    ("node(s) didn't match scheduler-enforced node affinity", "NodeAffinity", "nodeaffinity/node_affinity.go:62"),
    ("node(s) had untolerated taint", "TaintToleration", "tainttoleration/taint_toleration.go:72"),
    ("node(s) had taints that the pod didn't tolerate", "TaintToleration", "tainttoleration/taint_toleration.go:47"),
    ("node(s) were unschedulable", "NodeUnschedulable", "nodeunschedulable/node_unschedulable.go:44"),
    ("node(s) had unknown conditions", "NodeUnschedulable", "nodeunschedulable/node_unschedulable.go:42"),
    ("node(s) didn't have free ports for the requested pod ports", "NodePorts", "nodeports/node_ports.go:45"),
    ("node(s) didn't match the requested node name", "NodeName", "nodename/node_name.go:39"),
    ("node(s) didn't satisfy existing pods anti-affinity rules", "InterPodAffinity",
     "interpodaffinity/filtering.go:36"),
    ("node(s) didn't match pod affinity rules", "InterPodAffinity", "interpodaffinity/filtering.go:38"),
    ("node(s) didn't match pod anti-affinity rules", "InterPodAffinity", "interpodaffinity/filtering.go:40"),
    ("node(s) didn't match pod topology spread constraints", "PodTopologySpread", "podtopologyspread/plugin.go:37"),
    ("node(s) had no available volume zone", "VolumeZone", "volumezone/volume_zone.go:56"),
    ("node(s) had no available disk", "VolumeRestrictions", "volumerestrictions/volume_restrictions.go:54"),
    ("node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode",
     "VolumeRestrictions", "volumerestrictions/volume_restrictions.go:56"),
    ("node(s) exceed max volume count", "NodeVolumeLimits", "nodevolumelimits/non_csi.go:63"),
)
UNKNOWN_PLUGIN = "UnknownPlugin"

EVENT_LABELS = tuple(label for label, event in CATALOGUE.items() if not event.is_wildcard)  # a hint's events


def woken_by(plugin: str, gate: bool = True) -> dict[str, str]:
    """event label -> the hint ``plugin`` gives it with no explicit hint: a catalogue plugin's 1.28 registrations
    (webapp/model/plugins.py; with the gate off defaultQueueingHintFn's QueueAfterBackoff, scheduler.go:382); the
    unknown plugin, which stands for whichever plugin rejected the pod, QueueAfterBackoff for every event. The
    wildcard events (UnschedulableTimeout) move every pod without asking a plugin."""
    if plugin not in PLUGINS:
        return dict.fromkeys(EVENT_LABELS, "QueueAfterBackoff")
    found: dict[str, str] = {}
    for r in PLUGINS[plugin].registrations:
        for label in event_labels(r.resource, r.action):
            found[label] = max(found.get(label, "QueueSkip"), hint_for(r, gate), key=HINTS.__getitem__)
    return found


def explicit_hints(plugins: list[str], said: dict[tuple[str, tuple[str, ...], str], int],
                   gate: bool) -> tuple[list[dict[str, str]], list[str]]:
    """The scenario's ``hints`` for the failures' ``plugins``, given what the log ``said`` of hints ((event label,
    the pod's plugins, hint) -> line number), and the hints read from the log, in words. A plugin with an explicit
    hint uses only its explicit hints (scenario-format.md "Plugins by name"), so a catalogue plugin gets none,
    unless the log shows a hint its registrations would not give: then all of them, with the log's; the unknown
    plugin, outside the catalogue, always gets them all. An event the scenario does not have yet (a what-if edit)
    then wakes each plugin as it registered."""
    given = {p: woken_by(p, gate) for p in {*plugins, *(p for _, pod_plugins, _ in said for p in pod_plugins)}}
    logged: dict[str, dict[str, tuple[str, int]]] = {}  # plugin -> {label: (hint, line)} where the log differs
    for (label, pod_plugins, hint), number in said.items():
        if hint == "QueueSkip":  # every plugin of the pod skipped it
            for p in pod_plugins:
                if given[p].get(label, "QueueSkip") != "QueueSkip":
                    logged.setdefault(p, {}).setdefault(label, (hint, number))
        elif HINTS[hint] > max(HINTS[given[p].get(label, "QueueSkip")] for p in pod_plugins):
            logged.setdefault(pod_plugins[0], {}).setdefault(label, (hint, number))
    hints, from_log = [], []
    for p in plugins:
        if p in PLUGINS and p not in logged:
            continue
        own = {**given[p], **{label: hint for label, (hint, _) in logged.get(p, {}).items()}}
        hints += [{"event": label, "plugin": p, "hint": hint} for label, hint in sorted(own.items())]
        from_log += [f"{p} on {label}: {hint} (line {n})" for label, (hint, n) in logged.get(p, {}).items()]
    return hints, from_log


def plugins_of(err: str) -> tuple[list[str], list[str]]:
    """(plugins, unmatched reasons) of a failure message: the plugins whose reason texts it contains, in table
    order; the reasons of its histogram that no plugin's text matched."""
    found = [plugin for text, plugin, _ in PLUGIN_REASONS if text in err]
    unmatched = []
    for part in re.split(r"[.,] ", err):
        part = re.sub(r"^(preemption: )?0/\d+ nodes are available: ", "", part.strip()).rstrip(".")
        part = re.sub(r"^\d+ ", "", part)
        if part and "node" in part and not any(text in part for text, _, _ in PLUGIN_REASONS) \
                and "Preemption is not helpful" not in part and "No preemption victims" not in part:
            unmatched.append(part)
    return list(dict.fromkeys(found)), unmatched
