"""engine/memory.py: deep_size counts what an object graph holds; release_memory gives freed memory back."""

import subprocess
import sys

import pytest

from webapp.engine.memory import deep_size


def test_deep_size_counts_each_object_once_and_needs_no_recursion():
    step = {"op": "event", "event": "PvAdd"}
    shared = [step] * 1000
    copies = [dict(step) for _ in range(1000)]
    assert deep_size(copies) > deep_size(shared) + 999 * sys.getsizeof(step)
    nested = []
    for _ in range(100_000):  # far deeper than the interpreter's recursion limit
        nested = [nested]
    assert deep_size(nested) == 100_000 * sys.getsizeof([[]]) + sys.getsizeof([])


RELEASE = """
import gc
from pathlib import Path
from webapp.engine.memory import release_memory

def rss():
    line = next(l for l in Path("/proc/self/status").read_text().splitlines() if l.startswith("VmRSS:"))
    return int(line.split()[1]) // 1024

base = rss()
held = [bytes(2000) + bytes([i % 256]) for i in range(100_000)]  # ~200 MB in malloc's heap, not mmap
keep = held[::1000]  # a few survivors scattered through it: the heap cannot just shrink from its top
del held
gc.collect()
freed = rss()
trimmed = release_memory()
print(base, freed, rss(), trimmed)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RSS from /proc, malloc_trim from glibc")
def test_release_memory_gives_freed_heap_back_to_the_system():
    base, freed, after, trimmed = map(eval, subprocess.run(
        [sys.executable, "-c", RELEASE], capture_output=True, text=True, check=True, timeout=60).stdout.split())
    if not trimmed:
        pytest.skip("no glibc malloc_trim here")
    assert freed - base > 150  # MiB still held after the objects were freed
    assert after - base < 30


def test_what_a_long_scenario_keeps_for_its_session_is_not_walked_by_the_collector():
    """Every full garbage collection walks every container that is tracked; a loaded scenario's steps (and its
    source's) and each failure's path back stay for the session's lifetime, thousands of them in a long scenario
    (20 sessions of 8,000 steps: full collections of 50-90 ms on the event loop). Holding only strings, numbers
    and tuples of them, they are untracked once collections have seen them (a tuple in a tuple: two)."""
    import gc
    import random

    from webapp.engine.simulation import Simulation
    from webapp.scenario.generate import generate
    from webapp.scenario.resolve import resolve

    scenario, _ = resolve(generate(random.Random(2).choice, 2000, pods=8))
    sim = Simulation(scenario)
    gc.collect()
    gc.collect()
    fails = [s for s in scenario.steps if s["op"] == "fail"]
    assert fails and all(type(s["unschedulable_plugins"]) is tuple for s in fails)
    assert not any(gc.is_tracked(s) for s in (*scenario.steps, *scenario.raw["steps"]))
    paths = [path for tracker in sim.returns.values() for path in tracker.paths.values()]
    assert len(paths) > 100 and not any(gc.is_tracked(path) for path in paths)
    assert scenario.raw["steps"] == list(scenario.steps)  # the source holds the same steps
