"""The frame: everything true at one position of a simulation, as plain data. ``engine.Simulation`` builds it
(``frame()``, and ``preview()`` for the step ahead); the presenter turns it into a scene. Its type is here, in the
layer under both, because the presenter knows no engine (tests/test_layers.py); its parts are the model's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NotRequired, TypedDict

from .invariants import Invariant
from .record import Record, Result, Step
from .views import State, View


class Return(TypedDict):
    """A failure of a pod and, once it got back to activeQ (or was popped from where it waited), when (steps, and
    seconds on the clock)."""

    pod: str
    failed_step: int
    failed_at: float
    via: str  # the sub-queue the failure put it in
    back_step: NotRequired[int]
    back_at: NotRequired[float]
    seconds: NotRequired[float]
    popped_from: NotRequired[str]  # 1.33+: Pop took it straight from there (backoffQ), never back in activeQ


class Returned(TypedDict):
    """A pod that got back at least once: how many times, its first returns and the longest."""

    pod: str
    count: int
    listed: list[Return]
    longest: Return


class Waiting(TypedDict):
    """A pod not back yet: where it failed to (``via``) and where it waits now (``where``)."""

    pod: str
    failed_step: int
    failed_at: float
    via: str
    where: str | None  # None: deleted meanwhile


class Returns(TypedDict):
    returned: list[Returned]
    still_waiting: list[Waiting]


class VariantFrame(TypedDict):
    state: State
    result: Result | None  # of the step that led here (None at position 0)
    record: Record | None
    invariants: list[Invariant]
    view: View
    before: View | None  # the view the step started from: what a hint walk saw
    returns: NotRequired[Returns]  # failed pods' way back so far
    windows: NotRequired[bool]  # 1.33+ with SchedulerPopFromBackoffQ: backoff ends when its 1 s window has passed


class Frame(TypedDict):
    position: int
    total: int
    divergence: int | None  # the first position where the variants place a pod differently
    gate: bool
    unschedulableLimit: NotRequired[float]  # seconds a pod may wait in unschedulablePods
    podGroups: NotRequired[dict[str, str]]  # pod -> its pod group (1.36 with GenericWorkload reads them)
    step: Step | None  # the step that led here
    next: Step | None  # the step after, None at the end
    variants: dict[str, VariantFrame]


class Facts(TypedDict):
    """What a scenario is, as its summary and its scenario message both say it."""

    name: str
    description: str
    variants: list[str]
    total: int
    divergence: int | None
    gate: bool
    pods: list[str]


class Summary(Facts):
    """What a whole scenario is, with no position in it (``Simulation.summary()``)."""

    steps: Sequence[Step]
    source: dict[str, Any]  # the scenario object as given


class Preview(TypedDict):
    """What the next step would do on a variant."""

    result: Result
    record: Record
