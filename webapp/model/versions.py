"""The kube-scheduler versions the model reproduces, each composed from the one before it plus the changes that
release made to the queue. A change is one named rule (a field of ``Rules``), read at the one place in the queue
that it governs (queue.py, lanes.py, moves.py, the trackers); nothing else differs between versions.

Upstream files are ``pkg/scheduler/internal/queue/scheduling_queue.go`` of each release, as vendored in
kubernetes/autoscaler (``cluster-autoscaler/vendor/k8s.io/kubernetes/...``): commit cb95d464 (v1.28.0), a91025aa
(v1.28.4), and the heads of branches cluster-autoscaler-release-1.29 / -1.30 / -1.31 (v1.29.9, v1.30.14, v1.31.13).
From 1.32 the queue is ``pkg/scheduler/backend/queue`` (``active_queue.go``, ``scheduling_queue.go``, from 1.33
``backoff_queue.go``), read at commit ee4fafa6 (v1.33.0-alpha.0, the 1.32 branch point) and 74a7d3b1 (v1.36.2);
``file:line`` below are of those trees. Nothing between them is verified here: a change seen only in v1.36.2 is
dated by the feature-gate table of that tree or by its pull request (``†``: merge date, not checked against tags).
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
    # 1.32 (#127016): Pop discards a popped record whose pod is already in flight and pops the next; when nothing
    # else is poppable Pop waits, so the step is refused (active_queue.go unlockedPop, ee4fafa6 l. 213-219).
    pop_discards_in_flight: bool = False
    # 1.32 (#128170): Activate of a pod it cannot move appends ForceActivate:<pod> to inFlightEvents when that pod
    # is in flight (a wildcard event for that pod only) and sets moveRequestCycle = schedulingCycle, gate on or
    # off (scheduling_queue.go Activate, ee4fafa6 l. 613-635).
    activate_force_event: bool = False
    # 1.32 (#126029†): calculateBackoffDuration is 0 for a record never attempted (Attempts == 0)
    # (scheduling_queue.go ee4fafa6 l. 1309-1313).
    never_attempted_no_backoff: bool = False
    # 1.32: Update brings the events PodSchedulingPropertiesChange returns (an `ungate` is
    # UpdatePodSchedulingGatesEliminated, which the SchedulingGates plugin's hint answers) and records them for an
    # in-flight pod (scheduling_queue.go Update, ee4fafa6 l. 904-988). Scheduling gates run on these versions.
    pod_update_events: bool = False
    # 1.33 (#127180†): a gated record carries its GatingPlugin, and an event skips it unless it matches that
    # plugin's registered events (before: skipped while Gated with SchedulingGates).
    gating_plugin: bool = False
    # 1.33 (#130772, KEP-5142): the SchedulerPopFromBackoffQ gate exists, on by default (scenario feature_gates):
    # Pop takes podBackoffQ's head when activeQ is empty, podBackoffQ is ordered by 1 s window then priority,
    # expiries are truncated to the window and the 1 s flush ticks at whole seconds (backoff_queue.go 74a7d3b1).
    pop_from_backoff_q: bool = False
    # 1.33 (#130214†): a failure with no rejector plugin backs off in podErrorBackoffQ, which Pop never takes from.
    error_backoff_q: bool = False
    # 1.33 (KEP-5142): isPodBackingoff is !expiry.Before(now): a pod is still backing off at its expiry instant.
    backing_off_at_expiry: bool = False
    # 1.34 (#128748†): backoff counts failures: UnschedulableCount (failures with plugins) or, while errors repeat,
    # ConsecutiveErrorsCount; the expiry is cached in BackoffExpiration, cleared at every failure.
    backoff_counts_failures: bool = False
    # 1.34 (#131965†): max_backoff 0 disables backoff.
    zero_max_backoff: bool = False
    # 1.34 (gate table: SchedulerQueueingHints GA, locked on): a scenario with `gate: false` is refused.
    hints_locked_on: bool = False
    # 1.35-1.36 (#135126†): Pop keeps the rejector plugins; the failure handler clears them (ClearRejectorPlugins).
    plugins_cleared_at_failure: bool = False
    # 1.35-1.36 (#137768†): with the GenericWorkload gate (scenario feature_gates, off by default) a failed member
    # of a pod group always gets queueAfterBackoff.
    pod_groups: bool = False
    # 1.36 (#136618†): PopSpecificPod activates the pod and pops exactly it (scenario op pop_specific).
    pop_specific: bool = False


@dataclass(frozen=True)
class Version:
    name: str  # the variant key: the release whose behaviour it reproduces
    releases: str  # the patch releases that share this behaviour (from 1.32: the release whose tree was run)
    summary: str  # what changed, in one sentence (the version picker, the versions page)
    upstream: str  # pull requests
    rules: Rules
    # What the version was checked against: the traces of which real code (REAL-QUEUE.md, REAL-QUEUE-NEW.md).
    verified: str = ""
    # How the 1.28 vocabulary is mapped on it (not an upstream change): until 1.31 a failure's pending twins
    # "P#pending" need the scenario's hint map, as the traces of REAL-QUEUE.md were made; from 1.32 they do not
    # (REAL-QUEUE-NEW.md's harness gives them whatever the hint map).
    twins_need_hint_map: bool = True


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
_V1_32 = replace(_V1_31, pop_discards_in_flight=True, activate_force_event=True, never_attempted_no_backoff=True,
                 pod_update_events=True)
_V1_36 = replace(_V1_32, gating_plugin=True, pop_from_backoff_q=True, error_backoff_q=True,
                 backing_off_at_expiry=True, backoff_counts_failures=True, zero_max_backoff=True, hints_locked_on=True,
                 pop_clears_plugins=False, plugins_cleared_at_failure=True, pod_groups=True, pop_specific=True)

VERSIONS: dict[str, Version] = _versions(
    Version("v1.28.1", "v1.28.0, v1.28.1",
            "receivedEvents: each in-flight pod marks the newest event element, which Done may remove.",
            "#119328", _V1_28_1, "verified on v1.28.0 (v1.28.1's queue is unchanged)"),
    Version("v1.28.2", "v1.28.2",
            "inFlightEvents: each in-flight pod has its own entry; Done drops events from the front.",
            "#120445", _V1_28_2, "verified on v1.28.4 without #120334's Pop line"),
    Version("v1.28.4", "v1.28.3, v1.28.4",
            "Pop clears the pod's unschedulable plugins, so a later failure without new plugins is judged afresh.",
            "#120334", _V1_28_4, "verified on v1.28.4"),
    Version("v1.28.5", "v1.28.5 and later 1.28 patches",
            "SchedulerQueueingHints off by default: no in-flight lists at all, the moveRequestCycle rule decides.",
            "#122291", _V1_28_5, "verified as v1.28.4 with the gate off (the scenarios with gate: false)"),
    Version("v1.29.9", "v1.29.0 to v1.29.9",
            "Hints are Queue or QueueSkip and pods carry pending plugins; no rejector plugin means backoff.",
            "#119105, #119517", _V1_29, "verified on v1.29.9"),
    Version("v1.30.14", "v1.30.0 to v1.30.14",
            "Events no registered hint matches are ignored: not recorded, no move request, no pod moved.",
            "#122629, #123117", _V1_30, "verified on v1.30.14"),
    Version("v1.31.13", "v1.31.0 to v1.31.13",
            "Updating an in-flight pod is recorded as an event instead of queueing a copy; updates of unschedulable "
            "pods are decided by hints.",
            "#125578, #122234, #125930, #126222", _V1_31, "verified on v1.31.13"),
    Version("v1.32.0", "v1.32.0",
            "Pop discards a record whose pod is already in flight; Activate records ForceActivate for an in-flight "
            "pod; a record never attempted does not back off.",
            "#127016, #128170, #126029", _V1_32, "verified on v1.33.0-alpha.0's tree (the 1.32 branch point)", False),
    Version("v1.36.2", "v1.36.2",
            "Pop takes from backoffQ when activeQ is empty; backoff runs in 1 s windows and counts failures; "
            "errors back off in their own heap; queueing hints are locked on; pod groups and PopSpecificPod.",
            "#130772, #130214, #127180, #128748, #131965, #135126, #137768, #136618", _V1_36, "verified on v1.36.2",
            False),
)
