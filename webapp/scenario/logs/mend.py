"""Replaying the built scenario on the versions the import targets, and mending what stops it (``Mender``): an
activate where a version has parked a pod the log attempts, pod priorities (``_Priorities``) where the log pops a
pod ahead of others waiting in activeQ; anything else that stops it is the log's, a LogError naming its line."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...model.errors import StepError
from ...model.events import ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_PODS
from ...model.record import Record, Result, Step
from ...model.variant import Model
from ...phrases import counted, listed
from ..load import load_scenario
from ..scenario import Scenario
from ..validate import Limits
from .builder import Builder
from .lines import LogError

Order = tuple[int, int, str]  # (gap: 1 if higher else 0, line, version)
MAX_MENDS = 50  # rounds of activates and priorities that may make one log replay


class _Stuck(Exception):
    """The first step a version cannot apply: its index, the version, the model's error."""

    def __init__(self, index: int, variant: str, error: StepError):
        super().__init__(error.message)
        self.index, self.variant, self.error = index, variant, error


def applied(model: Model, steps: Sequence[Step]) -> Iterable[tuple[Step, Result, Record]]:
    """(step, result, record) of each step applied to ``model`` in turn; _Stuck at the first it cannot apply."""
    for i, step in enumerate(steps):
        try:
            result, record = model.apply(i, step)
        except StepError as err:
            raise _Stuck(i, model.variant, err) from None
        yield step, result, record


def _named(step: dict[str, Any]) -> set[str]:
    """The pods a step names."""
    return {step[key] for key in ("pod", "expect") if key in step} | set(step.get("pods", ()))


class _Priorities:
    """Pod priorities that pop pods in the log's order. kube-scheduler's activeQ pops the highest priority first,
    then the pod queued first (PrioritySort), and the log says no pod's priority: ``require(a, b, ...)`` says the
    log pops ``a`` while ``b`` waits in activeQ, so a's priority must be at least b's, and higher if b was queued
    first. Each pod gets the lowest priority from 0 that keeps every such order; one that contradicts the others is
    a LogError naming the lines."""

    def __init__(self, b: Builder, pods: int):
        self.b, self.most = b, pods  # no chain of orders is longer than the pods
        self.over: dict[str, dict[str, Order]] = {}  # a -> {b: (gap: 1 if higher else 0, line, version)}
        self.under: dict[str, set[str]] = {}  # b -> the pods a that must not be below it
        self.level: dict[str, int] = {}

    def require(self, a: str, b: str, higher: bool, line: int, variant: str) -> None:
        gap = int(higher)
        if self.over.get(a, {}).get(b, (-1,))[0] >= gap:
            return
        self.over.setdefault(a, {})[b] = (gap, line, variant)
        self.under.setdefault(b, set()).add(a)
        work = [(a, self.level.get(b, 0) + gap)]
        while work:
            name, level = work.pop()
            if self.level.get(name, 0) >= level:
                continue
            if level > self.most:  # the orders go round a loop that asks for a higher priority
                self.contradiction(a, b, line, variant)
            self.level[name] = level
            work.extend((first, level + self.over[first][name][0]) for first in self.under.get(name, ()))

    def assumption(self) -> str:
        # (line, pod) -> the pods queued before it that it is popped ahead of
        ahead: dict[tuple[int, str], list[str]] = {}
        for a, over in self.over.items():
            for b, (higher, line, _) in over.items():
                if higher:
                    ahead.setdefault((line, a), []).append(b)
        orders = [f"{self.b.place(line)} attempts {a} ahead of {listed(others, 3)}"
                  for (line, a), others in sorted(ahead.items())]
        given = [f"{pod} {level}" for pod, level in sorted(self.level.items(), key=lambda p: (-p[1], p[0]))]
        more = f"; {counted(len(orders), 'attempt')} in all" if len(orders) > 4 else ""
        return (f"Priorities: the log attempts pods ahead of pods queued before them that wait in activeQ "
                f"({'; '.join(orders[:4])}{more}). kube-scheduler's activeQ pops the highest priority first, then "
                "the pod queued first (PrioritySort), and the log says no pod's priority: these pods are given the "
                f"lowest priorities that pop them in the log's order ({listed(given)}). (A pod queued before the "
                "log starts, its Add not in the log, is ahead by its earlier Timestamp in the cluster; here it is "
                "added just before its attempt, and its priority stands for that.) A priority changes nothing else "
                "the model does, where an activate or a re-add would stand for events the log does not show.")

    def contradiction(self, a: str, b: str, line: int, variant: str) -> None:
        path = self.path(b, a)
        said = "; ".join(f"{self.b.place(n)} attempts {x} while {y} waits, on {v}" for x, y, (_, n, v) in path)
        lines = sorted(n for _, _, (_, n, _) in path)
        raise LogError(
            f"{self.b.place(line)}: the log attempts {a} while {b} waits in activeQ (on {variant}), but other "
            f"attempts put {b} ahead of {a} ({said}): no pod priorities give all these orders, and the log shows "
            "nothing else that would (is a line missing?). Import a stretch of the log that does not hold them all: "
            f"one that ends before {self.b.place(max(lines[-1], line))}, or one that starts after "
            f"{self.b.place(min(lines[0], line))}")

    def path(self, first: str, last: str) -> list[tuple[str, str, Order]]:
        """The orders (a, b, (gap, line, version)) that keep ``first`` at or above ``last``, one of them higher."""
        paths: list[tuple[str, list[tuple[str, str, Order]], bool]] = [(first, [], False)]
        seen: set[Any] = set()
        while paths:
            at, path, higher = paths.pop()
            for b, order in self.over.get(at, {}).items():
                state = (b, higher or order[0] == 1)
                if b == last and state[1]:
                    return path + [(at, b, order)]
                if state not in seen:
                    seen.add(state)
                    paths.append((b, path + [(at, b, order)], state[1]))
        return []


class Mender:
    """Makes the scenario replay on the versions the import targets (b.variants), each attempt where the log has it,
    by replaying it until every version runs every step:

    * a pod that a version has parked when the log attempts it (an event the log does not show moved it in the
      cluster) gets an ``activate`` just before the attempt;
    * a pod that the log attempts while pods queued before it wait in activeQ gets a higher priority than theirs
      (_Priorities): a priority changes nothing else the model does, where an activate, an update or a re-add of
      the others would stand for events the log does not show. What a version's queue does, given that each pop
      takes the pod the log names, does not depend on the priorities: the pods waiting in activeQ at a stuck pop
      keep their records until a step names them, so the orders among them that the log's later attempts need
      are all required at once.

    A step a version cannot run for any other reason is the log's: a LogError names its line (``file:line``) and
    what to do."""

    def __init__(self, scenario: dict[str, Any], limits: Limits, b: Builder):
        self.scenario, self.limits, self.b = scenario, limits, b
        self.activated: list[str] = []
        self.priorities = _Priorities(b, len(scenario["pods"]))

    def run(self) -> None:
        for mends in range(MAX_MENDS + 1):
            stuck = self.stuck()
            if stuck is None:
                return
            if mends == MAX_MENDS:
                raise LogError(f"{self.here(stuck[1])}: the log needs more than {MAX_MENDS} rounds of activates and "
                               "priorities to replay (the next one for this line): import a shorter stretch of it, "
                               "around what you want to see")
            self.mend(*stuck)

    def stuck(self) -> tuple[Scenario, _Stuck] | None:
        """(the scenario loaded, _Stuck) at the first step a version cannot run, or None when all run all."""
        loaded = load_scenario(self.scenario, self.limits)
        try:
            for variant in self.b.variants:
                for _ in applied(loaded.model(variant), loaded.steps):
                    pass
        except _Stuck as stuck:
            return loaded, stuck
        return None

    def here(self, stuck: _Stuck) -> str:
        return self.b.place(self.b.line_of(self.scenario["steps"][stuck.index]))

    def mend(self, loaded: Scenario, stuck: _Stuck) -> None:
        step = self.scenario["steps"][stuck.index]
        pod = step.get("expect") if step["op"] == "pop" else None
        model = loaded.model(stuck.variant)
        for _ in applied(model, loaded.steps[:stuck.index]):
            pass
        pods = model.view()["pods"]
        where = pods[pod]["where"] if pod is not None else None
        if pod is not None and where in (BACKOFF_Q, UNSCHEDULABLE_PODS):
            self.activate(stuck, pod)
        elif where == ACTIVE_Q:
            self.order(stuck, pods)
        else:
            raise LogError(f"{self.here(stuck)}: the log cannot be replayed from here: {stuck.error.message} (on "
                           f"{stuck.variant}); the lines before it do not lead there (is one missing, or out of "
                           "order?). Import the stretch of the log after this line, or before it")

    def activate(self, stuck: _Stuck, pod: str) -> None:
        steps = self.scenario["steps"]
        step = {"op": "activate", "pods": [pod], "note": (
            f"assumed: {pod} was back in activeQ in the cluster (it was attempted next), but here on {stuck.variant} "
            "it was not: an event the log does not show moved it")}
        self.b.origin[id(step)] = self.b.line_of(steps[stuck.index])
        steps.insert(stuck.index, step)
        self.activated.append(pod)

    def order(self, stuck: _Stuck, pods: dict[str, Any]) -> None:
        """The orders among the pods waiting in activeQ that the log's attempts from the stuck one on need."""
        waiting = {name: p["timestamp"] for name, p in pods.items() if p["where"] == ACTIVE_Q}
        orders = []
        for step in self.scenario["steps"][stuck.index:]:
            if not waiting:
                break
            popped = step.get("expect") if step["op"] == "pop" else None
            if popped in waiting:
                queued = waiting.pop(popped)
                orders += [(popped, other, since < queued, self.b.line_of(step)) for other, since in waiting.items()]
            for name in _named(step):
                waiting.pop(name, None)
        for popped, other, higher, line in reversed(orders):  # the last first: each pod is raised once
            self.priorities.require(popped, other, higher, line, stuck.variant)
        for entry in self.scenario["pods"]:
            if self.priorities.level.get(entry["name"]):
                entry["priority"] = self.priorities.level[entry["name"]]
