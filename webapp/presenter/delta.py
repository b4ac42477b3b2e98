"""Changes between two messages, as a short list of operations a client applies to its copy.

    diff(old, new) -> ops         apply(doc, ops) -> doc (changed in place; also static/js/delta.js)

An operation is a JSON array whose length says what it does:
    [path]                          delete the key at path (a dict key)
    [path, value]                   set the value at path (a dict key or a list index)
    [path, start, count, items]     splice the list at path: remove ``count`` items at ``start``, insert ``items``
``path`` is a list of keys and indices from the root. Lists are compared by their common front and back,
so appending, dropping from the front or removing one entry costs one small splice, and a list whose
changed middle keeps its length is compared item by item.

Unchanged parts are skipped with Python's ``==`` (done in C), which takes 1, 1.0 and True for equal inside a
container: a message must not hold a boolean at a path where it holds a number at another time (the scene
does not; tests/presenter/test_delta.py).
"""

from __future__ import annotations


def diff(old, new, path: tuple = ()) -> list:
    ops: list = []
    if not _same(old, new):
        _diff(old, new, list(path), ops)
    return ops


def _same(a, b) -> bool:
    return a is b or (a == b and type(a) is type(b))


def _diff(old, new, path: list, ops: list) -> None:
    """``old`` and ``new`` differ; ``path`` is a stack (pushed and popped here, copied into an op)."""
    if type(old) is dict and type(new) is dict:
        for key, value in new.items():
            if key not in old:
                ops.append([[*path, key], value])
            elif not _same(old[key], value):
                path.append(key)
                _diff(old[key], value, path, ops)
                path.pop()
        ops.extend([[*path, key]] for key in old if key not in new)
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
                    _diff(a, b, path, ops)
                    path.pop()
        else:
            ops.append([list(path), front, len(removed), added])
    else:
        ops.append([list(path), new])


def apply(doc, ops: list):
    """``doc`` with ``ops`` applied (in place where it can be); the root itself can be replaced ([[], value])."""
    for op in ops:
        path = op[0]
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
