"""Random valid scenarios, for property tests and benchmarks.

Generation is guided by running the variants while choosing: a ``pop`` is only offered when
Pop would not block on any variant, ``fail``/``done`` only for pods in flight on every variant.
``pick(options)`` makes every choice, so a seeded ``random.Random().choice`` and a hypothesis
``data.draw(sampled_from(...))`` drive the same generator.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..model.events import CATALOGUE, HINT_NAMES
from ..model.variant import VARIANTS, Model
from .scenario import from_valid_dict

Pick = Callable[[Sequence[Any]], Any]  # random.Random.choice, or a test's own choice

EVENTS = sorted(CATALOGUE)
PLUGINS = ("P", "Q", "R")
SECONDS = (0.5, 1, 2, 5, 10, 30, 301)


def base_scenario(pods: int, hints: list[dict[str, str]], gate: bool = True) -> dict[str, Any]:
    names = [f"p{i}" for i in range(pods)]
    return {
        "schema": 1,
        "name": "generated",
        "gate": gate,
        "hints": hints,
        "pods": [{"name": n, "priority": i % 3} for i, n in enumerate(names)],
        "initial_active": names,
        "steps": [],
    }


def generate(pick: Pick, steps: int, pods: int = 8, hints: list[dict[str, str]] | None = None,
             plugins_always: bool = False, updates: bool = True, gate: bool = True,
             variants: Iterable[str] = VARIANTS, settings: Mapping[str, object] | None = None) -> dict[str, Any]:
    """A raw scenario object with ``steps`` steps, valid on every one of ``variants``. With ``updates`` False
    no pod is re-added while in flight (no ``update``, no ``add`` of an in-flight pod), so no
    pod is popped twice in one attempt."""
    if hints is None:
        hints = [{"event": e, "plugin": p, "hint": pick(HINT_NAMES)} for e in ("NodeAdd", "PvAdd") for p in PLUGINS]
    raw = {**base_scenario(pods, hints, gate), **(settings or {})}  # settings: e.g. periodic_flushes, config
    scenario = from_valid_dict(raw)
    models = [scenario.model(v) for v in variants]
    names = list(scenario.pods)
    plugin_sets = [[p] for p in PLUGINS] + [list(PLUGINS[:2])] + ([] if plugins_always else [[]])
    for i in range(steps):
        step = _choose(pick, models, names, plugin_sets, updates)
        for m in models:
            m.apply(i, step)
        raw["steps"].append(step)
    return raw


def _choose(pick: Pick, models: list[Model], names: list[str], plugin_sets: list[list[str]], updates: bool
            ) -> dict[str, Any]:
    in_flight = sorted(set.intersection(*(set(m.queue.attempting) for m in models)))
    busy = set.union(*(set(m.queue.attempting) for m in models))
    addable = names if updates else [n for n in names if n not in busy]
    kinds = ["event", "advance_clock", "flush_backoff", "flush_unschedulable_leftover"] + (["add"] if addable else [])
    if all(m.queue.next_pop() is not None for m in models):
        kinds += ["pop"] * 4
    if in_flight:
        kinds += ["fail"] * 4 + ["done"]
    if updates:
        kinds.append("update")
    kind = pick(kinds)
    if kind == "pop":
        return {"op": "pop"}
    if kind == "fail":
        return {"op": "fail", "pod": pick(in_flight), "unschedulable_plugins": list(pick(plugin_sets))}
    if kind == "done":
        return {"op": "done", "pod": pick(in_flight)}
    if kind == "event":
        return {"op": "event", "event": pick(EVENTS)}
    if kind == "advance_clock":
        return {"op": "advance_clock", "seconds": pick(SECONDS)}
    if kind == "add":
        return {"op": kind, "pod": pick(addable)}
    if kind == "update":
        return {"op": kind, "pod": pick(names)}
    return {"op": kind}
