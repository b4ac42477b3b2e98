"""The kube-scheduler versions the model reproduces, each composed from the one before it plus the changes that
release made to the queue. A change is one named rule (a field of ``Rules``), read at the one place in the queue
that it governs (queue.py, lanes.py, moves.py, the trackers); nothing else differs between versions.

Upstream files are ``pkg/scheduler/internal/queue/scheduling_queue.go`` of each release, as vendored in
kubernetes/autoscaler (``cluster-autoscaler/vendor/k8s.io/kubernetes/...``): commit cb95d464 (v1.28.0), a91025aa
(v1.28.4), and the heads of branches cluster-autoscaler-release-1.29 / -1.30 / -1.31 (v1.29.9, v1.30.14, v1.31.13).
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Rules:
    # v1.28.2 (#120445): one inFlightEvents list with an entry per in-flight pod; else receivedEvents + markers.
    pod_entries: bool = False
    # 1.28.3+ (#120334, #120535): Pop clears the record's UnschedulablePlugins (1.29+: and PendingPlugins).
    pop_clears_plugins: bool = False
    # 1.28.5+ (#122291): SchedulerQueueingHints is off by default. Only v1.28.5 is modelled with it off; later
    # entries exist to show their in-flight machinery and follow the scenario's `gate` like the releases before.
    gate_off: bool = False
    # 1.29 (#119517): hint functions return Queue/QueueSkip; a pod carries UnschedulablePlugins and
    # PendingPlugins; Queue from a pending plugin means immediately, from an unschedulable one after backoff.
    pending_plugins: bool = False
    # 1.29 (#119105): a failed pod with no rejector plugin goes through backoff, gate on and gate off.
    no_rejector_backoff: bool = False
    # 1.30 (#122629): an event no registered hint matches is ignored: not recorded, moveRequestCycle unchanged.
    events_of_interest: bool = False
    # 1.30 (#123117): ClusterEvent.Match: a hint registered on a wildcard event matches every event.
    wildcard_registration: bool = False
    # 1.31 (#125578): updating an in-flight pod appends an UnschedulablePodUpdate entry to inFlightEvents.
    in_flight_update_event: bool = False
    # 1.31 (#122234): updating a pod in unschedulablePods is decided by its plugins' Pod/Update hints.
    unschedulable_update_by_hint: bool = False
    # 1.31 (#125930): a failing pod that is not in flight always goes through backoff.
    not_in_flight_backoff: bool = False
    # 1.31 (#126222): Activate no longer returns early for a pod already in activeQ.
    activate_in_active_q: bool = False


@dataclass(frozen=True)
class Version:
    name: str  # the variant key: the release whose behaviour it reproduces
    releases: str  # the patch releases that share this behaviour
    summary: str  # what changed, in one sentence (the version picker, the versions page)
    upstream: str  # pull requests
    rules: Rules


def _versions(*versions: Version) -> dict[str, Version]:
    return {v.name: v for v in versions}


_V1_28_1 = Rules()
_V1_28_2 = replace(_V1_28_1, pod_entries=True)
_V1_28_4 = replace(_V1_28_2, pop_clears_plugins=True)
_V1_28_5 = replace(_V1_28_4, gate_off=True)
_V1_29 = replace(_V1_28_4, pending_plugins=True, no_rejector_backoff=True)
_V1_30 = replace(_V1_29, events_of_interest=True, wildcard_registration=True)
_V1_31 = replace(_V1_30, in_flight_update_event=True, unschedulable_update_by_hint=True,
                 not_in_flight_backoff=True, activate_in_active_q=True)

VERSIONS: dict[str, Version] = _versions(
    Version("v1.28.1", "v1.28.0, v1.28.1",
            "receivedEvents: each in-flight pod marks the newest event element, which Done may remove.",
            "#119328", _V1_28_1),
    Version("v1.28.2", "v1.28.2",
            "inFlightEvents: each in-flight pod has its own entry; Done drops events from the front.",
            "#120445", _V1_28_2),
    Version("v1.28.4", "v1.28.3, v1.28.4",
            "Pop clears the pod's unschedulable plugins, so a later failure without new plugins is judged afresh.",
            "#120334", _V1_28_4),
    Version("v1.28.5", "v1.28.5 and later 1.28 patches",
            "SchedulerQueueingHints off by default: no in-flight lists at all, the moveRequestCycle rule decides.",
            "#122291", _V1_28_5),
    Version("v1.29.9", "v1.29.0 to v1.29.9",
            "Hints are Queue or QueueSkip and pods carry pending plugins; no rejector plugin means backoff.",
            "#119105, #119517", _V1_29),
    Version("v1.30.14", "v1.30.0 to v1.30.14",
            "Events no registered hint matches are ignored: not recorded, no move request, no pod moved.",
            "#122629, #123117", _V1_30),
    Version("v1.31.13", "v1.31.0 to v1.31.13",
            "Updating an in-flight pod is recorded as an event instead of queueing a copy; updates of unschedulable "
            "pods are decided by hints.",
            "#125578, #122234, #125930, #126222", _V1_31),
)
