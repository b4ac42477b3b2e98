"""Let the tool find the bug: search generated scenarios for one where something goes wrong, shrink it to its
smallest form, and say what broke first and where.

Targets (what "goes wrong" means), each a function of one run of the scenario on the versions:

* ``divergence``: the versions place a pod differently after some step;
* ``invariant``: an invariant breaks on some version (the lost marker breaks ``in_flight_boundary``);
* ``wait``: a pod waits in unschedulablePods longer than ``WAIT_SECONDS`` on some version.

A divergence compares versions, so it needs two of them at least (``check_query``: the CLI and POST /api/find
refuse anything else before searching). Generated scenarios update pods only when the versions compared handle
Update differently (``PriorityQueue.UPDATE_RULES``): elsewhere an update adds nothing a pop, an add and a fail do not.

Everything is deterministic for a given seed: the scenarios drawn, the one found and its shrunk form. The time
budget only decides how many seeds' worth of scenarios are tried before giving up.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import Invalid
from ..model.errors import StepError
from ..model.operations import OPERATIONS, POD, PODS
from ..model.queue import PriorityQueue
from ..model.variant import VARIANTS
from ..model.versions import VERSIONS
from ..scenario.generate import generate
from ..scenario.scenario import from_valid_dict
from ..scenario.validate import validate
from .simulation import placed_differently

TARGETS = ("divergence", "invariant", "wait")
STEPS = (2, 200)  # the steps a generated scenario may be given at most: the least that can go wrong, the most
PODS_RANGE = (1, 26)  # its pods (named A..Z)
MAX_SEED = 2**53 - 1  # what a browser's number holds exactly
WAIT_SECONDS = 60  # the `wait` target: longer than this in unschedulablePods
QUEUED = "unschedulablePods"
Raw = dict[str, Any]  # a scenario object, as generated and shrunk


def check_query(target: object, versions: Iterable[str]) -> None:
    """What makes a search askable, stated once for the CLI, POST /api/find and Search: a known target, and two
    distinct versions at least for a divergence. Invalid (a user error) otherwise."""
    if not isinstance(target, str) or target not in TARGETS:
        raise Invalid(f"target must be one of {', '.join(TARGETS)}, not {repr(target)[:40]}")
    distinct = tuple(dict.fromkeys(versions))
    if target == "divergence" and len(distinct) < 2:
        raise Invalid(f"a divergence needs at least two versions to compare, not only {', '.join(distinct) or 'none'}")


def updates_differ(versions: Iterable[str]) -> bool:
    """Whether ``versions`` handle Update differently (so generated scenarios should update pods)."""
    return len({tuple(getattr(VERSIONS[v].rules, rule) for rule in PriorityQueue.UPDATE_RULES) for v in versions}) > 1


@dataclass(frozen=True)
class Finding:
    """What went wrong first: at ``step`` (its index), on ``variant``, ``what`` in words' raw material."""
    target: str
    step: int
    variant: str
    detail: Mapping[str, Any]


class Search:
    def __init__(self, target: str = "divergence", versions: Iterable[str] = VARIANTS, max_steps: int = 12,
                 pods: int = 2, invariant: str | None = None):
        """``invariant``: with the invariant target, only that one counts (None: any)."""
        check_query(target, versions)
        self.target, self.versions, self.max_steps, self.pods = target, tuple(versions), max_steps, pods
        self.invariant = invariant

    # --- one run -------------------------------------------------------------------------------------------
    def first_finding(self, raw: Raw, since: int = 0) -> Finding | None:
        """Run ``raw`` on the versions; the first thing that goes wrong, or None (also when it cannot run). A
        divergence counts from step ``since`` on (a room's vote asks which next step parts the versions soonest)."""
        if validate(raw):
            return None
        scenario = from_valid_dict(raw)
        models = [scenario.model(v) for v in self.versions]
        parked: list[dict[str, int]] = [{} for _ in models]  # per version: pod -> time it was parked
        for i, step in enumerate(scenario.steps):
            touched: set[str] = set()
            for k, model in enumerate(models):
                try:
                    _, record = model.apply(i, step)
                except StepError:
                    return None
                if self.target == "invariant":
                    broken = [b for b in record["invariants"] if self.invariant in (None, b["name"])]
                    if broken:
                        return Finding("invariant", i, self.versions[k], broken[0])
                touched.update(m["pod"] for m in record["moves"])
                if self.target == "wait":
                    found = self._waited(model.queue, parked[k], i, self.versions[k])
                    if found:
                        return found
            if self.target == "divergence" and i >= since:
                pods = placed_differently([m.queue for m in models], sorted(touched))
                if pods:
                    where = {v: m.queue.where(pods[0]) for v, m in zip(self.versions, models)}
                    return Finding("divergence", i, self.versions[0], {"pod": pods[0], "where": where})
        return None

    def _waited(self, queue: PriorityQueue, parked: dict[str, int], step: int, variant: str) -> Finding | None:
        for name in list(parked):
            if name not in queue.unschedulable_pods:
                del parked[name]
        for name, record in queue.unschedulable_pods.items():
            since = parked.setdefault(name, record.timestamp)
            if queue.now - since > WAIT_SECONDS * 1_000_000_000:
                return Finding("wait", step, variant, {"pod": name, "seconds": (queue.now - since) / 1e9,
                                                       "threshold": WAIT_SECONDS})
        return None

    # --- search --------------------------------------------------------------------------------------------
    def candidate(self, rng: random.Random) -> Raw:
        steps = rng.randint(STEPS[0], self.max_steps)
        raw = generate(rng.choice, steps, pods=self.pods, variants=self.versions,
                       updates=updates_differ(self.versions),
                       settings={"periodic_flushes": self.target == "wait"})
        raw["name"] = "found"
        return raw

    def search(self, seed: int, budget_seconds: float, clock: Callable[[], float] = time.monotonic
               ) -> tuple[Raw, Finding, int] | None:
        """(scenario, finding, tries) of the first generated scenario that goes wrong, within the budget."""
        rng, deadline, tries = random.Random(seed), clock() + budget_seconds, 0
        while clock() < deadline:
            tries += 1
            raw = self.candidate(rng)
            found = self.first_finding(raw)
            if found is not None:
                return raw, found, tries
        return None

    # --- shrinking -----------------------------------------------------------------------------------------
    def holds(self, raw: Raw) -> bool:
        return self.first_finding(raw) is not None

    def shrink(self, raw: Raw) -> Raw:
        """The smallest variant of ``raw`` that still goes wrong: fewest steps, pods and hints, simplest values
        (deterministic: candidates are tried in a fixed order until none helps).

        Twice to a fixpoint: first with pops unnamed, so that a removal or a simpler value may change which pod a
        pop takes; then with every pop naming the pod it took (``_tidy``), so that a value the first pass had to
        keep because it decided the pop order (a pod's priority: pods tied on priority and timestamp are all heads
        a named pop may take) is simplified too, and whatever that lets go goes."""
        found = self.first_finding(raw)
        if found is None:
            raise ValueError("only a scenario that goes wrong can be shrunk")
        raw = _cut_after(raw, found.step)
        raw = _tidy(self._fixpoint(raw), self)
        return _tidy(self._fixpoint(raw), self)

    def _fixpoint(self, raw: Raw) -> Raw:
        """``raw`` simplified, in rounds, by each simplifier's first candidate that still goes wrong, until a round
        changes nothing. Each candidate is smaller in one measure and larger in none, so this ends."""
        changed = True
        while changed:
            changed = False
            for simpler in SIMPLIFIERS:
                candidate = next((c for c in simpler(raw) if self.holds(c)), None)
                if candidate is not None:
                    raw, changed = candidate, True
        return raw


def _cut_after(raw: Raw, step: int) -> Raw:
    return {**raw, "steps": raw["steps"][: step + 1]}


def _without_steps(raw: Raw) -> Iterator[Raw]:
    steps = raw["steps"]
    # Halves and quarters first, then any run of three, two or one steps (ddmin-like; runs, because a pop and
    # the fail that ends its attempt often only go together).
    for size in sorted({len(steps) // 2, len(steps) // 4, 3, 2, 1} - {0}, reverse=True):
        step = size if size > 3 else 1
        for start in range(0, len(steps) - size + 1, step):
            yield {**raw, "steps": steps[:start] + steps[start + size:]}
    for i in range(len(raw.get("initial_active", ()))):
        yield {**raw, "initial_active": raw["initial_active"][:i] + raw["initial_active"][i + 1:]}


def _pod_params(step: Raw) -> list[tuple[str, bool]]:
    """(name, is a list) of the parameters of ``step`` that name pods, from the operation registry."""
    return [(p.name, p.type == PODS) for p in OPERATIONS[step["op"]].params if p.type in (POD, PODS) and p.name in step]


def _pods_of(step: Raw) -> list[str]:
    return [n for name, many in _pod_params(step) for n in (step[name] if many else [step[name]])]


def _mentions(step: Raw, pod: str) -> bool:
    return pod in _pods_of(step)


def _without_pods(raw: Raw) -> Iterator[Raw]:
    for pod in [p["name"] for p in raw["pods"]]:
        yield {**raw, "pods": [p for p in raw["pods"] if p["name"] != pod],
               "initial_active": [n for n in raw.get("initial_active", ()) if n != pod],
               "steps": [s for s in raw["steps"] if not _mentions(s, pod)]}


def _without_hints(raw: Raw) -> Iterator[Raw]:
    hints = raw.get("hints", [])
    for i in range(len(hints)):
        yield {**raw, "hints": hints[:i] + hints[i + 1:]}


def _simpler_values(raw: Raw) -> Iterator[Raw]:
    steps = raw["steps"]
    for i, step in enumerate(steps):
        plugins = step.get("unschedulable_plugins")
        if plugins:  # down to [], a failure no plugin rejected
            for j in range(len(plugins)):
                yield _with_step(raw, i, {**step, "unschedulable_plugins": plugins[:j] + plugins[j + 1:]})
        if step["op"] == "advance_clock":
            for seconds in (1, 10, 30, 60, 300, 301):
                if seconds < step["seconds"]:
                    yield _with_step(raw, i, {**step, "seconds": seconds})
        if step["op"] == "event" and step["event"] not in ("NodeAdd", "PvAdd"):
            for event in ("NodeAdd", "PvAdd"):
                yield _with_step(raw, i, {**step, "event": event})
    for k, pod in enumerate(raw["pods"]):
        if pod.get("priority"):
            yield {**raw, "pods": raw["pods"][:k] + [{**pod, "priority": 0}] + raw["pods"][k + 1:]}


SIMPLIFIERS = (_without_steps, _without_pods, _without_hints, _simpler_values)  # in the order tried


def _with_step(raw: Raw, i: int, step: Raw) -> Raw:
    return {**raw, "steps": raw["steps"][:i] + [step] + raw["steps"][i + 1:]}


def _tidy(raw: Raw, search: Search) -> Raw:
    """Readable names (A, B, … in order of appearance) and every pop naming the pod it takes; each kept only
    where the finding survives."""
    order = [*raw.get("initial_active", ()), *(n for s in raw["steps"] for n in _pods_of(s)),
             *(p["name"] for p in raw["pods"])]
    names = {old: chr(ord("A") + i) for i, old in enumerate(dict.fromkeys(order))}
    renamed = _renamed(raw, names)
    if search.holds(renamed):
        raw = renamed
    named = _pops_named(raw, search.versions[0])
    return named if search.holds(named) else raw


def _step_renamed(step: Raw, names: Raw) -> Raw:
    return {**step, **{name: [names[n] for n in step[name]] if many else names[step[name]]
                       for name, many in _pod_params(step)}}


def _renamed(raw: Raw, names: Raw) -> Raw:
    pods = sorted(({**p, "name": names[p["name"]]} for p in raw["pods"]), key=lambda p: p["name"])
    return {**raw, "pods": [{k: v for k, v in p.items() if k != "priority" or v} for p in pods],
            "initial_active": [names[n] for n in raw.get("initial_active", ())],
            "steps": [_step_renamed(s, names) for s in raw["steps"]]}


def _pops_named(raw: Raw, variant: str) -> Raw:
    model = from_valid_dict(raw).model(variant)
    steps = []
    for i, step in enumerate(raw["steps"]):
        result, _ = model.apply(i, step)
        steps.append({**step, "expect": result["popped"]} if step["op"] == "pop" else step)
    return {**raw, "steps": steps}


def size(raw: Raw) -> Raw:
    """steps, pods, events and hints of a scenario (the shrinker's measure)."""
    return {"steps": len(raw["steps"]), "pods": len(raw["pods"]),
            "events": sum(s["op"] in ("event", "assigned_pod_added") for s in raw["steps"]),
            "hints": len(raw.get("hints", ()))}
