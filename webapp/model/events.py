"""The 1.28 queue-defined cluster events, action-type bits, and QueueingHint values."""

from __future__ import annotations

from typing import NamedTuple

# ActionType bits (framework/types.go).
ADD, DELETE = 1, 2
UPDATE_NODE_ALLOCATABLE, UPDATE_NODE_LABEL, UPDATE_NODE_TAINT, UPDATE_NODE_CONDITION = 4, 8, 16, 32
# 1.32+: the Pod action bit of an update that removes every scheduling gate (outside the scenario vocabulary's
# Update and All: only `ungate` brings it, and only SchedulingGates registers it).
UPDATE_POD_SCHEDULING_GATES_ELIMINATED = 64
UPDATE = 60
ALL = 63
WILDCARD_RESOURCE = "*"
ACTION_BITS = (("Add", ADD), ("Delete", DELETE), ("UpdateNodeAllocatable", UPDATE_NODE_ALLOCATABLE),
               ("UpdateNodeLabel", UPDATE_NODE_LABEL), ("UpdateNodeTaint", UPDATE_NODE_TAINT),
               ("UpdateNodeCondition", UPDATE_NODE_CONDITION))


def action_name(action: int) -> str:
    """Action bits as upstream writes them: All, Update (all four update bits), else the names joined by |."""
    if action == ALL:
        return "All"
    names = [name for name, bit in ACTION_BITS[:2] if action & bit]
    if action & UPDATE == UPDATE:
        names.append("Update")
    else:
        names.extend(name for name, bit in ACTION_BITS[2:] if action & bit)
    return "|".join(names)


class ClusterEvent(NamedTuple):
    resource: str
    action: int
    label: str
    target: str | None = None  # 1.32+ ForceActivate: the uid of the only pod the wildcard event is for

    @property
    def is_wildcard(self) -> bool:
        return self.resource == WILDCARD_RESOURCE and self.action == ALL


def _events(resource: str, **labels: int) -> dict[str, ClusterEvent]:
    return {label: ClusterEvent(resource, action, label) for label, action in labels.items()}


CATALOGUE: dict[str, ClusterEvent] = {
    **_events("Pod", AssignedPodAdd=ADD, AssignedPodUpdate=UPDATE, AssignedPodDelete=DELETE),
    **_events(
        "Node",
        NodeAdd=ADD,
        NodeAllocatableChange=UPDATE_NODE_ALLOCATABLE,
        NodeLabelChange=UPDATE_NODE_LABEL,
        NodeTaintChange=UPDATE_NODE_TAINT,
        NodeConditionChange=UPDATE_NODE_CONDITION,
        NodeSpecUnschedulableChange=UPDATE_NODE_TAINT,
    ),
    **_events("PersistentVolume", PvAdd=ADD, PvUpdate=UPDATE),
    **_events("PersistentVolumeClaim", PvcAdd=ADD, PvcUpdate=UPDATE),
    **_events("storage.k8s.io/StorageClass", StorageClassAdd=ADD, StorageClassUpdate=UPDATE),
    **_events("storage.k8s.io/CSINode", CSINodeAdd=ADD, CSINodeUpdate=UPDATE),
    **_events("storage.k8s.io/CSIDriver", CSIDriverAdd=ADD, CSIDriverUpdate=UPDATE),
    **_events(
        "storage.k8s.io/CSIStorageCapacity", CSIStorageCapacityAdd=ADD, CSIStorageCapacityUpdate=UPDATE
    ),
    **_events(WILDCARD_RESOURCE, WildCardEvent=ALL, UnschedulableTimeout=ALL),
}

UNSCHEDULABLE_TIMEOUT = CATALOGUE["UnschedulableTimeout"]
# Events the queue makes itself, not a scenario's to send (1.31, framework/events.go). An update of an unscheduled
# pod with no label or resource change is assignedPodOtherUpdate (its own action bit, part of Update: any Update
# bit stands for it here); an update of an in-flight pod is recorded as UnschedulablePodUpdate (Pod, Update).
POD_OTHER_UPDATE = ClusterEvent("Pod", UPDATE_NODE_ALLOCATABLE, "AssignedPodUpdate")
UNSCHEDULED_POD_UPDATE = ClusterEvent("Pod", UPDATE, "UnschedulablePodUpdate")
ASSIGNED_POD_ADD = CATALOGUE["AssignedPodAdd"]
# 1.32+: PodSchedulingPropertiesChange of an update that removes the pod's scheduling gates.
GATES_ELIMINATED = ClusterEvent("Pod", UPDATE_POD_SCHEDULING_GATES_ELIMINATED, "UpdatePodSchedulingGatesEliminated")
SCHEDULING_GATES = "SchedulingGates"  # the PreEnqueue plugin that gates a pod with scheduling gates


def force_activate(name: str, uid: str) -> ClusterEvent:
    """1.32+ EventForceActivate recorded for in-flight pod ``name``: a wildcard event whose newObj is that pod, so it
    requeues only that pod (isPodWorthRequeuing, scheduling_queue.go ee4fafa6 l. 415-432)."""
    return ClusterEvent(WILDCARD_RESOURCE, ALL, f"ForceActivate:{name}", uid)


def matches(registered: ClusterEvent, incoming: ClusterEvent, wildcard_registration: bool = False) -> bool:
    """A hint registered for ``registered`` applies to ``incoming``. 1.28 and 1.29 compare resource and action
    bits; 1.30+ (``ClusterEvent.Match``, #123117) also let a registration on the wildcard event, or on resource
    '*', match every event."""
    if wildcard_registration:
        if registered.is_wildcard:
            return True
        if registered.resource == WILDCARD_RESOURCE:
            return registered.action & incoming.action != 0
    return registered.resource == incoming.resource and registered.action & incoming.action != 0


# QueueingHint (1.28), ordered: a larger value is a stronger wish to requeue. From 1.29 the same three values are
# the queue's unexported queueingStrategy (queueSkip, queueAfterBackoff, queueImmediately); traces and step
# records keep these names on every version.
QUEUE_SKIP, QUEUE_AFTER_BACKOFF, QUEUE_IMMEDIATELY = 0, 1, 2
HINT_NAMES = ("QueueSkip", "QueueAfterBackoff", "QueueImmediately")
# A scenario's hint values: the 1.28 vocabulary, and 1.29's `Queue` (a plugin's QueueingHintFn returns Queue).
# On 1.28 versions Queue is QueueAfterBackoff; on 1.29+ QueueImmediately stands for Queue from a pending plugin
# (the mapping of REAL-QUEUE.md, see config.QueueConfig.hint_fns_for).
QUEUE = "Queue"
HINTS = {**{name: value for value, name in enumerate(HINT_NAMES)}, QUEUE: QUEUE_AFTER_BACKOFF}
# 1.29+: the pending twin of plugin P, which a QueueImmediately hint of P registers (REAL-QUEUE.md).
PENDING_SUFFIX = "#pending"

# Sub-queue names as they appear in traces.
ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_PODS = "activeQ", "backoffQ", "unschedulablePods"
