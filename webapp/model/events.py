"""The 1.28 queue-defined cluster events, action-type bits, and QueueingHint values."""

from __future__ import annotations

from typing import NamedTuple

# ActionType bits (framework/types.go).
ADD, DELETE = 1, 2
UPDATE_NODE_ALLOCATABLE, UPDATE_NODE_LABEL, UPDATE_NODE_TAINT, UPDATE_NODE_CONDITION = 4, 8, 16, 32
UPDATE = 60
ALL = 63
WILDCARD_RESOURCE = "*"


class ClusterEvent(NamedTuple):
    resource: str
    action: int
    label: str

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
ASSIGNED_POD_ADD = CATALOGUE["AssignedPodAdd"]


def matches(registered: ClusterEvent, incoming: ClusterEvent) -> bool:
    """A hint registered for ``registered`` applies to ``incoming`` (1.28: no '*' expansion)."""
    return registered.resource == incoming.resource and registered.action & incoming.action != 0


# QueueingHint (1.28), ordered: a larger value is a stronger wish to requeue.
QUEUE_SKIP, QUEUE_AFTER_BACKOFF, QUEUE_IMMEDIATELY = 0, 1, 2
HINT_NAMES = ("QueueSkip", "QueueAfterBackoff", "QueueImmediately")
HINTS = {name: value for value, name in enumerate(HINT_NAMES)}

# Sub-queue names as they appear in traces.
ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_PODS = "activeQ", "backoffQ", "unschedulablePods"
