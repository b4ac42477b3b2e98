"""One variant of a scenario as a seekable timeline: a live model at the cursor plus sparse checkpoints.

Position p means "after the first p steps" (0 = initial state). Checkpoints hold a model copy every
``interval`` positions together with the (result, record) of the step that led there, so seeking
restores the nearest checkpoint at or before the target and replays at most ``interval - 1`` steps.
"""

from __future__ import annotations

import pickle
from math import isqrt

from ..model.errors import StepError
from ..model.record import Record, Result
from ..model.variant import Model
from ..model.views import View
from ..scenario.scenario import Scenario
from .trace import step_error


def checkpoint_interval(total: int) -> int:
    return min(1024, max(32, isqrt(total)))


class Timeline:
    def __init__(self, scenario: Scenario, variant: str, interval: int | None = None):
        self.steps = scenario.steps
        self.variant = variant
        self.total = len(self.steps)
        self.interval = interval or checkpoint_interval(self.total)
        self.model = scenario.model(variant)
        self.position = 0
        self.last: tuple[Result, Record] | None = None  # (result, record) of step position-1
        self.before: View | None = None  # the model's view just before step position-1 (None at 0)
        self._checkpoints = {0: self._save()}  # position -> pickled (model, last): no live objects kept
        self.bytes = len(self._checkpoints[0])  # what the checkpoints hold
        self.largest = self.bytes  # the largest checkpoint: the model at its fullest so far (memory.LIVE_FACTOR)

    def apply_next(self) -> tuple[Result, Record]:
        """Apply the step at the cursor (the load pass uses this; raises ScenarioError)."""
        i = self.position
        self.before = None  # the load pass keeps no views: seek() makes the one at its target
        try:
            self.last = self.model.apply(i, self.steps[i])
        except StepError as err:
            raise step_error(i, self.steps[i], err, self.variant) from None
        self.position = i + 1
        if self.position % self.interval == 0 and self.position not in self._checkpoints:
            self._checkpoints[self.position] = self._save()
            size = len(self._checkpoints[self.position])
            self.bytes += size
            self.largest = max(self.largest, size)
        return self.last

    def seek(self, target: int) -> None:
        """Move to ``target``; the last step is always applied here (from the checkpoint before it when
        needed), so ``before`` is the view that step started from."""
        if not 0 <= target <= self.total:
            raise IndexError(f"position {target} outside 0..{self.total}")
        if target == self.position and (target == 0 or self.before is not None):
            return
        base = max(target - 1, 0) - max(target - 1, 0) % self.interval
        if not base <= self.position < max(target, 1):
            self.model, self.last = self._restore(base)
            self.position = base
        self.before = None
        while self.position < target:
            i = self.position
            if i == target - 1:
                self.before = self.model.view()
            self.last = self.model.apply(i, self.steps[i])
            self.position = i + 1

    def _save(self) -> bytes:
        return pickle.dumps((self.model, self.last), pickle.HIGHEST_PROTOCOL)

    def _restore(self, position: int) -> tuple[Model, tuple[Result, Record] | None]:
        restored: tuple[Model, tuple[Result, Record] | None] = pickle.loads(self._checkpoints[position])
        return restored

    @property
    def checkpoints(self) -> int:
        return len(self._checkpoints)
