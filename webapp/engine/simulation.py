"""Simulation: one scenario, one or two variants in lockstep, one cursor (SimPy-like API).

    sim = Simulation(scenario, ["v1.28.1", "v1.28.2"])
    sim.step(); sim.back(); sim.seek(n); sim.run(until=n); sim.peek(); sim.frame()

Loading runs the whole scenario once (validating every step on every variant and laying
checkpoints), so a Simulation that exists is valid end to end.
"""

from __future__ import annotations

from ..model import invariants
from ..model.variant import VARIANTS
from .returns import ReturnTracker
from .timeline import Timeline


class TooLarge(ValueError):
    """The checkpoints of a scenario outgrow the memory one simulation may hold (``max_bytes``)."""


class Simulation:
    def __init__(self, scenario, variants=VARIANTS, interval: int | None = None, max_bytes: int | None = None):
        unknown = [v for v in variants if v not in VARIANTS]
        if unknown or not variants:
            raise ValueError(f"variants must be a non-empty subset of {list(VARIANTS)}, got {list(variants)}")
        self.scenario = scenario
        self.variants = tuple(dict.fromkeys(variants))
        self.timelines = {v: Timeline(scenario, v, interval) for v in self.variants}
        self.total = len(scenario.steps)
        self.divergence: int | None = None  # first position where the variants place a pod differently
        self.returns = {v: ReturnTracker() for v in self.variants}
        self.max_bytes = max_bytes  # None: no bound (the command line, benchmarks); sessions set one
        self._load()
        self.seek(0)

    def _load(self) -> None:
        lines = list(self.timelines.values())
        for _ in range(self.total):
            touched = set()
            for line in lines:
                result, record = line.apply_next()
                if self.max_bytes is not None and sum(x.bytes for x in lines) > self.max_bytes:
                    raise TooLarge(f"this scenario is too large to step through here: by step {line.position} of "
                                   f"{self.total} its checkpoints pass {self.max_bytes:,} bytes (its in-flight "
                                   "lists keep growing); replay it with `inflight-scope replay` instead")
                self.returns[line.variant].observe(record, line.model.queue.now)
                touched.update(m["pod"] for m in record["moves"])
            if self.divergence is None and len(lines) > 1:
                first = lines[0].model.queue
                if any(first.where(p) != line.model.queue.where(p) for line in lines[1:] for p in touched):
                    self.divergence = lines[0].position

    # --- cursor --------------------------------------------------------------------------------
    @property
    def position(self) -> int:
        return next(iter(self.timelines.values())).position

    def seek(self, position: int) -> dict:
        if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= self.total:
            raise IndexError(f"position must be an integer in 0..{self.total}, got {position!r}")
        for line in self.timelines.values():
            line.seek(position)
        return self.frame()

    def step(self) -> dict:
        return self.seek(min(self.position + 1, self.total))

    def back(self) -> dict:
        return self.seek(max(self.position - 1, 0))

    def run(self, until: int | None = None) -> dict:
        return self.seek(self.total if until is None else until)

    def peek(self) -> dict | None:
        """The step that ``step()`` would apply next, or None at the end."""
        return self.scenario.steps[self.position] if self.position < self.total else None

    # --- views ---------------------------------------------------------------------------------
    def frame(self) -> dict:
        variants = {}
        for v, line in self.timelines.items():
            result, record = line.last if line.last is not None else (None, None)
            variants[v] = {
                "state": line.model.state(),
                "result": result,
                "record": record,
                "invariants": invariants.report(line.model.queue, record["invariants"] if record else []),
                "view": line.model.view(),
            }
        return {"position": self.position, "total": self.total, "divergence": self.divergence, "variants": variants}
