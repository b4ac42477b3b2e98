"""Go ``container/list`` semantics, exactly as far as the scheduling queue relies on them.

The rule that makes the v1.28.1 bug possible lives here: ``remove`` detaches an element
(its ``next``/``prev``/``list`` become None), so ``Element.next()`` on a removed element
returns None, just like Go's ``(*Element).Next``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Generic, TypeVar, cast

T = TypeVar("T")


class Element(Generic[T]):
    __slots__ = ("value", "_next", "_prev", "list")

    def __init__(self, value: T, owner: GoList[T] | None = None):
        self.value = value
        self._next: Element[T] | None = None
        self._prev: Element[T] | None = None
        self.list: GoList[T] | None = owner

    def next(self) -> Element[T] | None:
        """Go's ``e.Next()``: the next element, or None at the back *or when e was removed*."""
        nxt = self._next
        if self.list is not None and nxt is not self.list._root:
            return nxt
        return None

    @property
    def in_list(self) -> bool:
        return self.list is not None


class GoList(Generic[T]):
    """A doubly linked list with a sentinel root, like Go's ``list.List``. Every element's ``_next`` and ``_prev``
    are set while it is in the list (the root's always)."""

    __slots__ = ("_root", "_len")

    def __init__(self) -> None:
        root = Element(cast(T, None))  # the sentinel: its value is never read
        root._next = root
        root._prev = root
        self._root = root
        self._len = 0

    def __len__(self) -> int:
        return self._len

    def front(self) -> Element[T] | None:
        return self._root._next if self._len else None

    def back(self) -> Element[T] | None:
        return self._root._prev if self._len else None

    def push_back(self, value: T) -> Element[T]:
        root = self._root
        last = cast("Element[T]", root._prev)
        e = Element(value, self)
        e._prev = last
        e._next = root
        last._next = e
        root._prev = e
        self._len += 1
        return e

    def extend(self, values: Iterable[T]) -> list[Element[T]]:
        """push_back each value, linked in one pass (checkpoints restore whole lists); their elements."""
        root = self._root
        last = cast("Element[T]", root._prev)
        elements = []
        for value in values:
            e = Element(value, self)
            e._prev = last
            last._next = e
            last = e
            elements.append(e)
        last._next = root
        root._prev = last
        self._len += len(elements)
        return elements

    def remove(self, e: Element[T]) -> T:
        """Go's ``l.Remove(e)``: a no-op unless e is in this list; afterwards e is detached."""
        if e.list is not self:
            return e.value
        prev, nxt = cast("Element[T]", e._prev), cast("Element[T]", e._next)
        prev._next = nxt
        nxt._prev = prev
        e._next = e._prev = e.list = None
        self._len -= 1
        return e.value

    def __iter__(self) -> Iterator[Element[T]]:
        root = self._root
        e = root._next
        while e is not root and e is not None:  # None: the element just visited was removed (Go's Next())
            yield e
            e = e._next

    def values(self) -> list[T]:
        return [e.value for e in self]
