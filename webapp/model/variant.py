"""One variant's queue driven by scenario steps: ``apply(index, step) -> (result, record)``."""

from __future__ import annotations

import pickle

from . import invariants
from .config import QueueConfig
from .events import ASSIGNED_POD_ADD, CATALOGUE
from .inflight_v1_28_1 import ReceivedEvents
from .inflight_v1_28_2 import InFlightEvents
from .queue import PriorityQueue
from .record import new_record

TRACKERS = {"v1.28.1": ReceivedEvents, "v1.28.2": InFlightEvents}
VARIANTS = tuple(TRACKERS)

# op -> how the scheduler (or the test harness) calls the queue for it.
OPERATIONS = {
    "add": lambda q, s, r: q.add(s["pod"], r),
    "pop": lambda q, s, r: q.pop(s.get("expect"), r),
    "event": lambda q, s, r: q.move_all_to_active_or_backoff_queue(
        CATALOGUE[s["event"]], frozenset(s.get("precheck_exclude", ())), r
    ),
    "assigned_pod_added": lambda q, s, r: q.assigned_pod_added(
        ASSIGNED_POD_ADD, frozenset(s["affinity_matching"]), r
    ),
    "fail": lambda q, s, r: q.add_unschedulable_if_not_present(
        s["pod"], s.get("unschedulable_plugins"), s.get("pod_info", "popped") == "fresh",
        s.get("pod_scheduling_cycle"), r,
    ),
    "done": lambda q, s, r: q.done(s["pod"], r),
    "activate": lambda q, s, r: q.activate(s["pods"], r),
    "update": lambda q, s, r: q.update(s["pod"], s.get("changed", True), r),
    "delete": lambda q, s, r: q.delete(s["pod"], r),
    "advance_clock": lambda q, s, r: q.advance_clock(s["seconds"], r),
    "flush_backoff": lambda q, s, r: q.flush_backoff_q_completed(r),
    "flush_unschedulable_leftover": lambda q, s, r: q.flush_unschedulable_pods_leftover(r),
    "active_add_raw": lambda q, s, r: q.active_add_raw(s["pod"], r),
    "backoff_pop_all_raw": lambda q, s, r: q.backoff_pop_all_raw(r),
    "bump_scheduling_cycle_raw": lambda q, s, r: q.bump_scheduling_cycle_raw(r),
}


class Model:
    """A queue of one variant. Steps must already be schema-valid; ``apply`` raises StepError
    (and leaves the model unusable) when a step cannot be applied to the current state."""

    def __init__(self, variant: str, config: QueueConfig, pods: dict, initial_active=()):
        self.variant = variant
        self.queue = PriorityQueue(config, TRACKERS[variant](), pods)
        scratch = new_record(-1, "add")
        for name in initial_active:
            self.queue.add(name, scratch)

    def apply(self, index: int, step: dict) -> tuple[dict, dict]:
        rec = new_record(index, step["op"])
        result = OPERATIONS[step["op"]](self.queue, step, rec)
        rec["invariants"] = invariants.check(self.queue, rec["moves"])
        return result, rec

    def state(self) -> dict:
        return self.queue.state()

    def view(self) -> dict:
        return self.queue.view()

    def snapshot(self) -> bytes:
        """A compact copy (bytes hold no references the garbage collector has to walk)."""
        return pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL)

    @staticmethod
    def from_snapshot(snapshot: bytes) -> "Model":
        return pickle.loads(snapshot)

    def clone(self) -> "Model":
        return Model.from_snapshot(self.snapshot())
