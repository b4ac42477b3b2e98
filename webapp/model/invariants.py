"""Invariants checked after every step; a violation is reported, never raised."""

from __future__ import annotations

DESCRIPTIONS = {
    "in_flight_boundary": "Every in-flight pod can still walk the list from its boundary: its own entry "
    "(v1.28.2) or the element after its previousEvent marker (v1.28.1). A detached marker's Next() is nil, "
    "so the pod cannot see the events listed as unseen.",
    "queue_membership": "A pod is in at most one of activeQ, backoffQ and unschedulablePods.",
    "events_preceded_by_pod": "v1.28.2: the list is empty or starts with a pod entry, so every retained "
    "event is preceded by a pod that was in flight when it arrived.",
    "pod_entries_in_flight": "v1.28.2: every pod entry in the list belongs to a pod still in flight. "
    "An orphaned entry (a second Pop of the same pod) is never removed and stops the front cleanup for ever.",
}


def queue_membership(queue, names) -> list[dict]:
    out = []
    for name in names:
        queues = [
            q
            for q, present in (
                ("activeQ", name in queue.active_q),
                ("backoffQ", name in queue.backoff_q),
                ("unschedulablePods", name in queue.unschedulable_pods),
            )
            if present
        ]
        if len(queues) > 1:
            out.append({"pod": name, "queues": queues})
    return out


def check(queue, touched=None) -> list[dict]:
    """All invariants; queue membership only for ``touched`` pod names (None: every declared pod)."""
    names = queue.pods if touched is None else touched
    checks = [
        ("in_flight_boundary", queue.tracker.boundary_violations()),
        ("queue_membership", queue_membership(queue, names)),
        *queue.tracker.structure_checks(),
    ]
    return [{"name": name, "ok": not violations, "violations": violations} for name, violations in checks]
