"""The in-tree plugins of kube-scheduler 1.28 and the cluster events each registers (``EventsToRegister``), stated
once: the table below. A scenario that names a plugin of this table in a ``fail`` step, without giving it explicit
``hints``, gets these registrations (see ``registrations``).

Read from kubernetes/autoscaler at commit cb95d464 (kube-scheduler v1.28.0 vendored); the plugins and
``buildQueueingHintMap`` are unchanged up to v1.28.4 (a91025aa), so the table holds for every 1.28 version the model
runs. Paths are under ``cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/``; lines are those of cb95d464.

How the scheduler uses them (``scheduler.go`` l. 370–393, ``buildQueueingHintMap``): every plugin of the profile
contributes each ``ClusterEventWithHint`` it returns to the QueueingHintMap, keyed by the registered ClusterEvent
(resource, action bits), with its ``QueueingHintFn``, or ``defaultQueueingHintFn`` (l. 366: always
QueueAfterBackoff) when the registration has none or the SchedulerQueueingHints gate is off (l. 382). A plugin
that does not implement EnqueueExtensions is registered for every resource with action All
(``framework/runtime/framework.go`` l. 548–573, ``framework/types.go`` l. 150–161 ``UnrollWildCardResource``).

A scenario describes no node, pod, volume or claim contents, so a hint function that reads them cannot be
evaluated: each registration states the value the model uses and why (``assumption``). In 1.28 only
DynamicResources sets QueueingHint functions, on ResourceClaim and PodSchedulingContext events, which no scenario
event label names; every other registration uses defaultQueueingHintFn.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any, NamedTuple

from .events import (
    ADD,
    ALL,
    CATALOGUE,
    DELETE,
    UPDATE,
    UPDATE_NODE_LABEL,
    UPDATE_NODE_TAINT,
    ClusterEvent,
    action_name,
    matches,
)

SOURCE_REPO = "kubernetes/autoscaler"
SOURCE_COMMIT = "cb95d464"
SOURCE_ROOT = "cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/"
PLUGINS_DIR = "framework/plugins/"

# framework/types.go l. 67-79 (GVK)
POD, NODE, PV, PVC = "Pod", "Node", "PersistentVolume", "PersistentVolumeClaim"
POD_SCHEDULING_CONTEXT, RESOURCE_CLAIM = "PodSchedulingContext", "ResourceClaim"
STORAGE_CLASS, CSI_NODE = "storage.k8s.io/StorageClass", "storage.k8s.io/CSINode"
CSI_DRIVER, CSI_STORAGE_CAPACITY = "storage.k8s.io/CSIDriver", "storage.k8s.io/CSIStorageCapacity"

DEFAULT_FN = "defaultQueueingHintFn"  # scheduler.go l. 364-368
DEFAULT_ASSUMPTION = "no QueueingHintFn: defaultQueueingHintFn (scheduler.go l. 366) returns QueueAfterBackoff"


class Registration(NamedTuple):
    resource: str
    action: int  # ActionType bits (framework/types.go l. 48-61)
    source: str  # file:line of the ClusterEventWithHint, under SOURCE_ROOT
    hint_fn: str = DEFAULT_FN  # the QueueingHintFn the registration sets in 1.28
    hint: str = "QueueAfterBackoff"  # the value the model uses with the gate on
    returns: str = "QueueAfterBackoff"  # what the function can return upstream
    assumption: str = DEFAULT_ASSUMPTION


class Plugin(NamedTuple):
    name: str
    source: str  # file:line of EventsToRegister (or of the default registration), under SOURCE_ROOT
    registrations: tuple[Registration, ...]
    note: str = ""  # feature gates and conditions the registrations assume
    later: str = ""  # how 1.29-1.31 changed the registrations (not modelled: the table is 1.28's)
    rejects: bool = True  # a real pod may carry it (it rejects at PreEnqueue, PreFilter or Filter)


def _reg(path: str, line: int, resource: str, action: int, **kw: str) -> Registration:
    return Registration(resource, action, f"{PLUGINS_DIR}{path}:{line}", **kw)


def _unrolled(name: str) -> Plugin:
    """A plugin that does not implement EnqueueExtensions: UnrollWildCardResource, each resource with All."""
    resources = (POD, NODE, CSI_NODE, CSI_DRIVER, CSI_STORAGE_CAPACITY, PV, PVC, STORAGE_CLASS, POD_SCHEDULING_CONTEXT)
    return Plugin(
        name, "framework/runtime/framework.go:554",
        tuple(Registration(r, ALL, f"framework/types.go:{152 + i}") for i, r in enumerate(resources)),
        note="does not implement EnqueueExtensions (never rejects a pod at PreEnqueue, PreFilter or Filter, so a "
             "real pod never carries it): registered for every resource with All",
        later="UnrollWildCardResource adds the DRA resources: 1.30 ResourceClaim, ResourceClass and their Parameters; "
              "1.31 ResourceClaim and DeviceClass",
        rejects=False,
    )


_CLAIM_ASSUMPTION = ("a scenario has no ResourceClaim or PodSchedulingContext event, so the function is never called "
                     "in a scenario; the model takes QueueImmediately, its answer when the event brings the pod's "
                     "own claim the change it waits for (QueueSkip otherwise)")

PLUGINS: dict[str, Plugin] = {p.name: p for p in (
    Plugin("NodeResourcesFit", "framework/plugins/noderesources/fit.go:239", (
        _reg("noderesources/fit.go", 247, POD, DELETE),
        _reg("noderesources/fit.go", 248, NODE, ADD | UPDATE),
    ), note="Pod Delete only: Pod Update is added when InPlacePodVerticalScaling is on (alpha, off in 1.28; l. 241)",
        later="1.30: both registrations get QueueingHint functions (isSchedulableAfterPodChange, "
              "isSchedulableAfterNodeChange)"),
    Plugin("NodeAffinity", "framework/plugins/nodeaffinity/node_affinity.go:84", (
        _reg("nodeaffinity/node_affinity.go", 86, NODE, ADD | UPDATE),
    ), later="1.30: isSchedulableAfterNodeChange"),
    Plugin("TaintToleration", "framework/plugins/tainttoleration/taint_toleration.go:57", (
        _reg("tainttoleration/taint_toleration.go", 59, NODE, ADD | UPDATE),
    ), later="1.31: isSchedulableAfterNodeChange, and Pod Update (with isSchedulableAfterPodChange) when "
             "SchedulerQueueingHints is on"),
    Plugin("NodeUnschedulable", "framework/plugins/nodeunschedulable/node_unschedulable.go:49", (
        _reg("nodeunschedulable/node_unschedulable.go", 51, NODE, ADD | UPDATE_NODE_TAINT),
    ), later="1.30: Node Add|Update with isSchedulableAfterNodeChange"),
    Plugin("NodePorts", "framework/plugins/nodeports/node_ports.go:112", (
        _reg("nodeports/node_ports.go", 115, POD, DELETE),
        _reg("nodeports/node_ports.go", 116, NODE, ADD | UPDATE),
    ), later="1.29: Pod Delete gets isSchedulableAfterPodDeleted"),
    Plugin("NodeName", "framework/plugins/nodename/node_name.go:44", (
        _reg("nodename/node_name.go", 46, NODE, ADD | UPDATE),
    ), later="unchanged in 1.29-1.31"),
    Plugin("VolumeBinding", "framework/plugins/volumebinding/volume_binding.go:90", (
        _reg("volumebinding/volume_binding.go", 95, STORAGE_CLASS, ADD | UPDATE),
        _reg("volumebinding/volume_binding.go", 97, PVC, ADD | UPDATE),
        _reg("volumebinding/volume_binding.go", 98, PV, ADD | UPDATE),
        _reg("volumebinding/volume_binding.go", 102, NODE, ADD | UPDATE_NODE_LABEL),
        _reg("volumebinding/volume_binding.go", 104, CSI_NODE, ADD | UPDATE),
        _reg("volumebinding/volume_binding.go", 107, CSI_DRIVER, ADD | UPDATE),
        _reg("volumebinding/volume_binding.go", 108, CSI_STORAGE_CAPACITY, ADD | UPDATE),
    ), later="1.30: Node adds UpdateNodeTaint; 1.31: StorageClass, PVC, CSINode and CSIStorageCapacity get "
             "QueueingHint functions"),
    Plugin("VolumeRestrictions", "framework/plugins/volumerestrictions/volume_restrictions.go:336", (
        _reg("volumerestrictions/volume_restrictions.go", 341, POD, DELETE),
        _reg("volumerestrictions/volume_restrictions.go", 343, NODE, ADD),
        _reg("volumerestrictions/volume_restrictions.go", 346, PVC, ADD | UPDATE),
    ), later="1.31: Pod Delete gets isSchedulableAfterPodDeleted, PVC Add only (with a hint function)"),
    Plugin("VolumeZone", "framework/plugins/volumezone/volume_zone.go:263", (
        _reg("volumezone/volume_zone.go", 267, STORAGE_CLASS, ADD),
        _reg("volumezone/volume_zone.go", 269, NODE, ADD | UPDATE_NODE_LABEL),
        _reg("volumezone/volume_zone.go", 272, PVC, ADD),
        _reg("volumezone/volume_zone.go", 274, PV, ADD | UPDATE),
    ), later="1.30: Node adds UpdateNodeTaint; 1.31: PVC Add|Update, and StorageClass, PVC, PV get QueueingHint "
             "functions"),
    Plugin("NodeVolumeLimits", "framework/plugins/nodevolumelimits/csi.go:77", (
        _reg("nodevolumelimits/csi.go", 79, CSI_NODE, ADD),
        _reg("nodevolumelimits/csi.go", 80, POD, DELETE),
    ), note="the CSI volume limits (CSILimits, named NodeVolumeLimits)",
        later="1.30: adds PVC Add; 1.31: Pod Delete gets isSchedulableAfterPodDeleted"),
    *(Plugin(name, "framework/plugins/nodevolumelimits/non_csi.go:205", (
        _reg("nodevolumelimits/non_csi.go", 207, NODE, ADD),
        _reg("nodevolumelimits/non_csi.go", 208, POD, DELETE),
    ), note="in-tree volume limits (nonCSILimits); not in the default profile", later="1.30: adds PVC Add")
      for name in ("EBSLimits", "GCEPDLimits", "AzureDiskLimits", "CinderLimits")),
    Plugin("InterPodAffinity", "framework/plugins/interpodaffinity/plugin.go:57", (
        _reg("interpodaffinity/plugin.go", 66, POD, ALL),
        _reg("interpodaffinity/plugin.go", 67, NODE, ADD | UPDATE_NODE_LABEL),
    ), later="1.30: Node adds UpdateNodeTaint; 1.31: Pod Add|UpdatePodLabel|Delete, both with QueueingHint "
             "functions"),
    Plugin("PodTopologySpread", "framework/plugins/podtopologyspread/plugin.go:134", (
        _reg("podtopologyspread/plugin.go", 143, POD, ALL),
        _reg("podtopologyspread/plugin.go", 146, NODE, ADD | DELETE | UPDATE_NODE_LABEL),
    ), later="1.30: both get QueueingHint functions, Node adds UpdateNodeTaint; 1.31: Pod Add|UpdatePodLabel|Delete"),
    Plugin("SchedulingGates", "framework/plugins/schedulinggates/scheduling_gates.go:58", (
        _reg("schedulinggates/scheduling_gates.go", 60, POD, UPDATE),
    ), note="a PreEnqueue plugin: a gated pod carries it",
        later="1.29 and 1.30: registers nothing (the queue handles its own update); 1.31: Pod Update with "
              "isSchedulableAfterPodChange"),
    Plugin("DynamicResources", "framework/plugins/dynamicresources/dynamicresources.go:255", (
        _reg("dynamicresources/dynamicresources.go", 261, RESOURCE_CLAIM, ADD | UPDATE,
             hint_fn="isSchedulableAfterClaimChange", hint="QueueImmediately",
             returns="QueueSkip | QueueAfterBackoff | QueueImmediately (l. 286-345)", assumption=_CLAIM_ASSUMPTION),
        _reg("dynamicresources/dynamicresources.go", 264, POD_SCHEDULING_CONTEXT, ADD | UPDATE,
             hint_fn="isSchedulableAfterPodSchedulingContextChange", hint="QueueImmediately",
             returns="QueueSkip | QueueAfterBackoff | QueueImmediately (l. 352-431)", assumption=_CLAIM_ASSUMPTION),
        _reg("dynamicresources/dynamicresources.go", 267, NODE, ADD | UPDATE_NODE_LABEL),
    ), note="only with the DynamicResourceAllocation gate (alpha, off in 1.28); without it EventsToRegister returns "
            "nil (l. 256) and the plugin is not in the default profile",
        later="1.29: adds ResourceClass Add|Update; 1.30: ResourceClaimParameters and ResourceClassParameters with "
              "hints, Node adds UpdateNodeTaint; 1.31: DeviceClass instead of ResourceClass"),
    *(_unrolled(name) for name in ("DefaultPreemption", "ImageLocality", "NodeResourcesBalancedAllocation",
                                    "SelectorSpread", "PrioritySort", "DefaultBinder")),
)}


def registered_event(resource: str, action: int) -> ClusterEvent:
    """The ClusterEvent a registration is keyed by in the QueueingHintMap (its label names it for people)."""
    return ClusterEvent(resource, action, f"{resource.rsplit('/', 1)[-1]}/{action_name(action)}")


def hint_for(reg: Registration, gate: bool) -> str:
    """The hint the model uses for a registration: its function's assumed value, or defaultQueueingHintFn's when
    SchedulerQueueingHints is off (scheduler.go l. 382)."""
    return reg.hint if gate else "QueueAfterBackoff"


HintFn = tuple[ClusterEvent, str, str]  # (registered event, plugin, hint name)


def registrations(hints: Collection[tuple[str, str, str]], plugins: Iterable[str], gate: bool = True
                  ) -> tuple[HintFn, ...]:
    """((registered ClusterEvent, plugin, hint name), ...): the scenario's explicit ``hints`` ((event, plugin,
    hint) with an event label of ``events.CATALOGUE``) first, then, for each name of
    ``plugins`` that is in PLUGINS and has no explicit hint, its 1.28 registrations in source order. A plugin with
    an explicit hint uses only its explicit hints; a name in neither registers nothing."""
    found = [(CATALOGUE[label], plugin, hint) for label, plugin, hint in hints]
    explicit = {plugin for _, plugin, _ in hints}
    seen = set()
    for name in plugins:
        if name in explicit or name in seen or name not in PLUGINS:
            continue
        seen.add(name)
        found.extend((registered_event(r.resource, r.action), name, hint_for(r, gate))
                     for r in PLUGINS[name].registrations)
    return tuple(found)


def wakes(event: ClusterEvent) -> list[str]:
    """The plugins of the catalogue that have a registration matching ``event`` (1.28: resource and action bits)
    and that a real pod may carry: one that never rejects (PrioritySort, DefaultBinder, a score plugin) is
    registered for every event, and woke nothing a user could ask about."""
    return [name for name, p in PLUGINS.items()
            if p.rejects and any(matches(registered_event(r.resource, r.action), event) for r in p.registrations)]


def event_labels(resource: str, action: int) -> list[str]:
    """The scenario event labels (events.CATALOGUE) a registration matches on 1.28: same resource, a common
    action bit. Wildcard events (WildCardEvent, UnschedulableTimeout) wake every pod without asking a plugin."""
    registered = registered_event(resource, action)
    return [label for label, event in CATALOGUE.items() if not event.is_wildcard and matches(registered, event)]


def catalogue() -> dict[str, Any]:
    """The table as plain data (GET /api/plugins, the docs table)."""
    return {
        "version": "1.28",
        "source": {"repo": SOURCE_REPO, "commit": SOURCE_COMMIT, "root": SOURCE_ROOT},
        "default_hint_fn": {"name": DEFAULT_FN, "returns": "QueueAfterBackoff", "source": "scheduler.go:366"},
        "build": {"function": "buildQueueingHintMap", "source": "scheduler.go:370",
                  "gate_off": "scheduler.go:382"},
        "plugins": [{
            "name": p.name, "source": p.source, "note": p.note, "later": p.later,
            "registrations": [{
                "resource": r.resource, "action": r.action, "action_name": action_name(r.action),
                "source": r.source, "hint_fn": r.hint_fn, "returns": r.returns, "hint": r.hint,
                "hint_gate_off": hint_for(r, False), "assumption": r.assumption,
                "events": event_labels(r.resource, r.action),
            } for r in p.registrations],
        } for p in PLUGINS.values()],
    }
