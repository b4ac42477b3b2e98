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
