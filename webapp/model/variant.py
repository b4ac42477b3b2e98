"""One version's queue driven by scenario steps: ``apply(index, step) -> (result, record)``."""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Mapping
from typing import TypedDict

from . import invariants
from .config import NS, QueueConfig
from .inflight_v1_28_1 import ReceivedEvents
from .inflight_v1_28_2 import InFlightEvents
from .operations import OPERATIONS  # also imported from here by tests/scenario/test_validate.py and bench/
from .queue import PriorityQueue
from .record import Record, Result, Step, new_record
from .tracker import Tracker
from .versions import VERSIONS, Rules
from .views import Due, State, View

_APPLY = {name: op.apply for name, op in OPERATIONS.items()}  # dispatch: operation name -> how it drives the queue

# The pair shown by default: the lost marker (v1.28.1) beside its fix (v1.28.2). Any of VERSIONS can be run.
VARIANTS = ("v1.28.1", "v1.28.2")


class Overdue(TypedDict):
    now: float
    limit: float
    pods: list[Due]

class Model:
    """A queue of one variant. Steps must already be schema-valid; ``apply`` raises StepError
    (and leaves the model unusable) when a step cannot be applied to the current state."""

    def __init__(self, variant: str, config: QueueConfig, pods: Mapping[str, tuple[str, int]],
                 initial_active: Iterable[str] = (), rules: Rules | None = None):
        """``rules`` replaces the version's own (a what-if: one change switched on or off)."""
        self.variant = variant
        version = VERSIONS[variant]
        rules = rules or version.rules
        tracker: Tracker = InFlightEvents() if rules.pod_entries else ReceivedEvents()
        self.queue = PriorityQueue(config, rules, tracker, pods, version.twins_need_hint_map)
        scratch = new_record(-1, "add")
        for name in initial_active:
            self.queue.add(name, scratch)

    def apply(self, index: int, step: Step) -> tuple[Result, Record]:
        op = step["op"]
        rec = new_record(index, op)
        queue = self.queue
        result = _APPLY[op](queue, step, rec)
        rec["invariants"] = invariants.check(queue, rec["moves"])
        return result, rec

    def state(self) -> State:
        return self.queue.state()

    def view(self) -> View:
        return self.queue.view()

    def overdue(self) -> Overdue:
        """{now (s), limit: the longest wait in unschedulablePods (s), pods: the pods a flush would move now,
        [{pod, where, due (s)}]}."""
        queue = self.queue
        return {"now": queue.now / NS, "limit": queue.config.max_in_unschedulable / NS, "pods": queue.overdue()}

    def snapshot(self) -> bytes:
        """A compact copy (bytes hold no references the garbage collector has to walk)."""
        return pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL)

    @staticmethod
    def from_snapshot(snapshot: bytes) -> Model:
        model: Model = pickle.loads(snapshot)
        return model

    def clone(self) -> Model:
        return Model.from_snapshot(self.snapshot())
