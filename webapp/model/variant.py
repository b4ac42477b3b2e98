"""One variant's queue driven by scenario steps: ``apply(index, step) -> (result, record)``."""

from __future__ import annotations

import pickle

from . import invariants
from .config import QueueConfig
from .inflight_v1_28_1 import ReceivedEvents
from .inflight_v1_28_2 import InFlightEvents
from .operations import OPERATIONS  # also imported from here by tests/scenario/test_validate.py and bench/
from .queue import PriorityQueue
from .record import new_record

TRACKERS = {"v1.28.1": ReceivedEvents, "v1.28.2": InFlightEvents}
VARIANTS = tuple(TRACKERS)

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
        result = OPERATIONS[step["op"]].apply(self.queue, step, rec)
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
