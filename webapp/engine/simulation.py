"""Simulation: one scenario, one or two variants in lockstep, one cursor (SimPy-like API).

    sim = Simulation(scenario, ["v1.28.1", "v1.28.2"])
    sim.step(); sim.back(); sim.seek(n); sim.run(until=n)     # commands: move the cursor, return nothing
    sim.frame()                                               # the one query: what is true at the cursor
    sim.preview()                                             # what the next step would do (cursor unmoved)
    sim.frame_at(n)                                           # what is true at n (cursor unmoved, nothing kept)

Loading runs the whole scenario once (validating every step on every variant and laying
checkpoints), so a Simulation that exists is valid end to end. The frame at the cursor is part of the cursor:
built once when first asked for and dropped when the cursor moves (``frames_built`` counts the frames built).
Moving the cursor moves no model: the timelines follow it when a frame or a preview is asked for (a viewer sent a
message made earlier for the same view, web/message_cache.py, needs neither).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import Invalid, TooLarge
from ..model import invariants
from ..model.config import NS
from ..model.frame import Frame, Preview, Summary, VariantFrame
from ..model.queue import PriorityQueue
from ..model.variant import VARIANTS
from ..model.versions import VERSIONS
from ..phrases import shown
from ..scenario.scenario import Scenario
from ..scenario.validate import MAX_VERSIONS
from .memory import LIVE_FACTOR, deep_size
from .returns import ReturnTracker
from .rules import said
from .timeline import Timeline

MAX_PANES = MAX_VERSIONS  # the versions a page shows side by side: the transports' bound (the engine runs any)


class Simulation:
    def __init__(self, scenario: Scenario, variants: object = VARIANTS, interval: int | None = None,
                 max_bytes: int | None = None):
        variants = check_variants(variants, most=len(VERSIONS))
        self.scenario = scenario
        self.variants = variants
        self.timelines = {v: Timeline(scenario, v, interval) for v in self.variants}
        self.total = len(scenario.steps)
        self.divergence: int | None = None  # first position where the variants place a pod differently
        self.returns = {v: ReturnTracker() for v in self.variants}
        self.max_bytes = max_bytes  # None: no bound (the command line, benchmarks); sessions set one
        self._source_bytes: int | None = None
        self.frames_built = 0
        self._frame: Frame | None = None  # the frame at the cursor, once asked for
        self._load()
        self._position = 0  # the cursor; the timelines are moved to it by _at() when a frame is built

    @property
    def source_bytes(self) -> int:
        """What the scenario itself holds: its source and its parsed steps (measured once)."""
        if self._source_bytes is None:
            self._source_bytes = deep_size((self.scenario.raw, self.scenario.steps))
        return self._source_bytes

    @property
    def bytes(self) -> int:
        """The memory this simulation holds, as counted against ``max_bytes``: the scenario's source and steps,
        every checkpoint, and the live models with their frame (memory.py)."""
        return self.source_bytes + sum(x.bytes for x in self.timelines.values()) + self.live_bytes

    @property
    def live_bytes(self) -> int:
        """The live models with their frame, estimated from the largest checkpoints (memory.py)."""
        return LIVE_FACTOR * sum(x.largest for x in self.timelines.values())

    def _load(self) -> None:
        lines = list(self.timelines.values())
        self._check_bytes(0)  # a source too large on its own is refused before any step
        for _ in range(self.total):
            touched: set[str] = set()
            for line in lines:
                result, record = line.apply_next()
                self._check_bytes(line.position)
                self.returns[line.variant].observe(record, result, line.model.queue.now)
                touched.update(m["pod"] for m in record["moves"])
            if self.divergence is None and placed_differently([line.model.queue for line in lines], touched):
                self.divergence = lines[0].position

    def _check_bytes(self, position: int) -> None:
        if self.max_bytes is None or self.bytes <= self.max_bytes:
            return
        checkpoints, live = sum(x.bytes for x in self.timelines.values()), self.live_bytes
        raise TooLarge(f"this scenario is too large to step through here: by step {position} of {self.total} the "
                       f"memory it needs passes {self.max_bytes:,} bytes ({self.source_bytes:,} for its source and "
                       f"steps, {checkpoints:,} for checkpoints, about {live:,} for the live state; its in-flight "
                       "lists keep growing); replay it with `inflight-scope replay` instead")

    # --- commands: they move the cursor and return nothing ---------------------------------------
    @property
    def position(self) -> int:
        return self._position

    def seek(self, position: object) -> None:
        if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= self.total:
            raise Invalid(said("position", lo=0, hi=self.total, got=shown(position)))
        if position != self._position:
            self._frame = None
            self._position = position

    def _at(self, position: int) -> dict[str, Timeline]:
        """The timelines, moved to ``position`` (a timeline already there does nothing)."""
        for line in self.timelines.values():
            line.seek(position)
        return self.timelines

    def step(self) -> None:
        self.seek(min(self.position + 1, self.total))

    def back(self) -> None:
        self.seek(max(self.position - 1, 0))

    def run(self, until: int | None = None) -> None:
        self.seek(self.total if until is None else until)

    # --- queries ---------------------------------------------------------------------------------
    def peek(self) -> Mapping[str, Any] | None:
        """The step that ``step()`` would apply next, or None at the end."""
        return self._step_after(self.position)

    def _step_after(self, position: int) -> Mapping[str, Any] | None:
        """The step applied from ``position`` to the next, or None at the end."""
        return self.scenario.steps[position] if position < self.total else None

    def frame(self) -> Frame:
        """Everything true at the cursor, as plain data (built once per position of the cursor)."""
        if self._frame is None:
            self._frame = self.frame_at(self._position)
        return self._frame

    def frame_at(self, position: int) -> Frame:
        """Everything true at ``position``, built now and not kept (the cursor stays): a transport makes the next
        step's message with it while its viewer looks at this one."""
        if not 0 <= position <= self.total:
            raise Invalid(said("position", lo=0, hi=self.total, got=shown(position)))
        self.frames_built += 1
        variants: dict[str, VariantFrame] = {}
        for v, line in self._at(position).items():
            result, record = line.last if line.last is not None else (None, None)
            variants[v] = {
                "state": line.model.state(),
                "result": result,
                "record": record,
                "invariants": invariants.report(line.model.queue, record["invariants"] if record else []),
                "view": line.model.view(),
                "before": line.before,  # the view the step started from: what a hint walk saw
                "returns": self.returns[v].at(position),  # failed pods' way back so far
                "windows": self.scenario.config.feature("SchedulerPopFromBackoffQ", VERSIONS[v].rules),
            }
        frame: Frame = {"position": position, "total": self.total, "divergence": self.divergence,
                        "gate": self.scenario.config.gate,
                        "unschedulableLimit": self.scenario.config.max_in_unschedulable / NS,
                        "step": self.scenario.steps[position - 1] if position else None,
                        "next": self._step_after(position), "variants": variants}
        if self.scenario.config.pod_groups:
            frame["podGroups"] = dict(self.scenario.config.pod_groups)
        return frame

    def preview(self) -> dict[str, Preview] | None:
        """{variant: {result, record}} of the step ``step()`` would apply, worked out on copies of the models
        (the cursor and its frame stay where they are); None at the end."""
        step = self.peek()
        if step is None:
            return None
        position = self.position
        out: dict[str, Preview] = {}
        for v, line in self._at(position).items():
            result, record = line.model.clone().apply(position, step)
            out[v] = {"result": result, "record": record}
        return out

    def summary(self) -> Summary:
        """What the whole scenario is, for its summary message: no position in it."""
        sc = self.scenario
        return {"name": sc.name, "description": sc.description, "variants": list(self.variants), "total": self.total,
                "divergence": self.divergence, "gate": sc.config.gate, "pods": list(sc.pods), "steps": sc.steps,
                "source": sc.raw}


def check_variants(variants: object, most: int = MAX_PANES) -> tuple[str, ...]:
    """One to ``most`` distinct versions of VERSIONS, in the order given (repeats dropped)."""
    if not isinstance(variants, (list, tuple)) or not all(isinstance(v, str) for v in variants):
        raise Invalid(f"variants must be a list of version names, e.g. {list(VARIANTS)}")
    unknown = [v for v in variants if v not in VERSIONS]
    chosen = tuple(dict.fromkeys(variants))
    if unknown or not chosen or len(chosen) > most:
        named = ", ".join(repr(v[:40]) for v in unknown[:3])
        raise Invalid(f"variants must be 1 to {most} of {', '.join(VERSIONS)}"
                      + (f"; unknown version: {named}" if unknown else ""))
    return chosen


VERSIONS_TEXT_MOST = 20 * len(VERSIONS)  # longer than every version's name and a comma each


def versions_in(text: str, most: int = MAX_PANES) -> tuple[str, ...]:
    """Versions as people write them in a link or on a command line: names separated by commas, or ``both``
    (the default pair); checked as ``check_variants`` checks a list."""
    if len(text) > VERSIONS_TEXT_MOST:  # never split it
        raise Invalid(f"versions must be 1 to {most} of {', '.join(VERSIONS)}, separated by commas")
    if text.strip() == "both":
        return VARIANTS
    return check_variants([name.strip() for name in text.split(",")], most)


def placed_differently(queues: Sequence[PriorityQueue], pods: Iterable[str]) -> list[str]:
    """The ``pods`` the queues (one per variant, same position) place in different sub-queues."""
    first, others = queues[0], queues[1:]
    return [p for p in pods if any(first.where(p) != q.where(p) for q in others)]
