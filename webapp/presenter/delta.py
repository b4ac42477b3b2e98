"""Changes between two messages, as a short list of operations a client applies to its copy.

    diff(old, new) -> ops         apply(doc, ops) -> doc (changed in place; also static/js/delta.js)

The ops' format (what each op does, how a path is written against the previous op's) is described once, in
docs/protocol.md ("The delta format"); ``diff`` writes it, ``apply`` here and static/js/delta.js read it. The ops of
a step mostly change neighbouring parts, so each path is written as what it adds to the one before it.

Lists are compared by their common front and back, so appending, dropping from the front or removing one
entry costs one small splice, and a list whose changed middle keeps its length is compared item by item.
Unchanged parts are skipped with Python's ``==`` (done in C), which takes 1, 1.0 and True for equal inside a
container: a message must not hold a boolean at a path where it holds a number at another time (the scene
does not; tests/presenter/test_delta.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

# A document is any JSON value (Any: its shape is the message's); an op is [[shared, *path], *rest] (docs/protocol.md).
Op = list[Any]
Path = list[Any]  # keys and indices


def diff(old: Any, new: Any) -> list[Op]:
    ops: list[Op] = []
    if not _same(old, new):
        _Diff(ops).walk(old, new, [])
    return ops


_ABSENT = object()


def _same(a: Any, b: Any) -> bool:
    return a is b or (type(a) is type(b) and a == b)


class _Diff:
    """Walks two documents that differ, appending ops; ``path`` is a stack (pushed and popped by ``walk``).
    ``shared``: how many keys at the bottom of the stack have stayed there since the previous op was made
    (the keys the next op's path shares with it: a parent's keys are distinct, so a key pushed again after a
    pop is another key)."""

    __slots__ = ("ops", "shared")

    def __init__(self, ops: list[Op]):
        self.ops = ops
        self.shared = 0

    def op(self, path: Path, *rest: Any) -> None:
        shared = self.shared
        self.ops.append([[shared, *path[shared:]], *rest])
        self.shared = len(path)

    def walk(self, old: Any, new: Any, path: Path) -> None:
        depth = len(path)
        if type(old) is dict and type(new) is dict:
            for key, value in new.items():
                was = old.get(key, _ABSENT)
                if was is value or (type(was) is type(value) and was == value):
                    continue
                path.append(key)
                if type(was) is type(value) and (type(value) is dict or type(value) is list):
                    self.walk(was, value, path)
                else:  # a value added, or another one at the same place: set (without a walk to find that)
                    self.op(path, value)
                path.pop()
                if depth < self.shared:
                    self.shared = depth
            for key in old:
                if key not in new:
                    path.append(key)
                    self.op(path)
                    path.pop()
                    self.shared = depth
        elif type(old) is list and type(new) is list:
            shortest = min(len(old), len(new))
            front = 0
            while front < shortest and _same(old[front], new[front]):
                front += 1
            back = 0
            while back < shortest - front and _same(old[-1 - back], new[-1 - back]):
                back += 1
            removed, added = old[front:len(old) - back], new[front:len(new) - back]
            if len(removed) == len(added):
                for i, (a, b) in enumerate(zip(removed, added)):
                    if not _same(a, b):
                        path.append(front + i)
                        if type(a) is type(b) and (type(b) is dict or type(b) is list):
                            self.walk(a, b, path)
                        else:
                            self.op(path, b)
                        path.pop()
                        if depth < self.shared:
                            self.shared = depth
            else:
                self.op(path, front, len(removed), added)
        else:
            self.op(path, new)


def apply(doc: Any, ops: list[Op]) -> Any:
    """``doc`` with ``ops`` applied (in place where it can be); the root itself can be replaced ([[0], value])."""
    for op, path in zip(ops, paths(ops)):
        if len(op) == 2 and not path:
            doc = op[1]
            continue
        parent = doc
        for key in path[:-1] if len(op) != 4 else path:
            parent = parent[key]
        if len(op) == 1:
            del parent[path[-1]]
        elif len(op) == 2:
            parent[path[-1]] = op[1]
        else:
            parent[op[1]:op[1] + op[2]] = op[3]
    return doc


def paths(ops: list[Op]) -> Iterator[Path]:
    """The whole path of each op, in order."""
    path: Path = []
    for op in ops:
        path = path[:op[0][0]] + op[0][1:]
        yield path
