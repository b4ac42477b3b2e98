"""activeQ and podBackoffQ as keyed heaps (lazy deletion), unschedulablePods as a dict.

Keys are pod names (the queue key namespace/name). A heap entry is valid only while
``index[name]`` still holds that very entry; replaced or deleted entries are skipped on pop.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from typing import Any

from .pod import QueuedPodInfo

# An entry: (sort key..., name, record); the key's parts are whatever the order gives (ints).
Entry = tuple[Any, ...]
Order = Callable[[QueuedPodInfo], tuple[int, ...]]


class KeyedHeap:
    __slots__ = ("_heap", "index", "_order")

    def __init__(self, order: Order):
        self._heap: list[Entry] = []
        self.index: dict[str, Entry] = {}  # name -> (sort key..., name, record)
        self._order = order  # record -> sort key tuple

    def __contains__(self, name: str) -> bool:
        return name in self.index

    def __len__(self) -> int:
        return len(self.index)

    def get(self, name: str) -> QueuedPodInfo | None:
        entry = self.index.get(name)
        record: QueuedPodInfo | None = entry[-1] if entry is not None else None
        return record

    def add(self, record: QueuedPodInfo) -> None:
        """Add, or replace the record under the same key (Go heap.Add updates in place)."""
        entry = (*self._order(record), record.name, record)
        self.index[record.name] = entry
        heapq.heappush(self._heap, entry)

    def delete(self, name: str) -> QueuedPodInfo | None:
        entry = self.index.pop(name, None)
        record: QueuedPodInfo | None = entry[-1] if entry is not None else None
        return record

    def peek(self) -> QueuedPodInfo | None:
        """The first record; replaced or deleted entries met on the way are dropped from the heap."""
        heap, index = self._heap, self.index
        while heap:
            top = heap[0]
            if index.get(top[-2]) is top:
                record: QueuedPodInfo = top[-1]
                return record
            heapq.heappop(heap)
        return None

    def pop(self) -> QueuedPodInfo | None:
        """Take the first record (replaced or deleted entries met on the way are dropped, as in peek)."""
        heap, index = self._heap, self.index
        while heap:
            top = heapq.heappop(heap)
            if index.get(top[-2]) is top:
                del index[top[-2]]
                record: QueuedPodInfo = top[-1]
                return record
        return None

    def heads(self, tie_key: Order) -> list[QueuedPodInfo]:
        """Records tied with the top under ``tie_key`` (a prefix of the order), best first."""
        top = self.peek()
        if top is None:
            return []
        want = tie_key(top)
        tied = sorted((e for e in self.index.values() if tie_key(e[-1]) == want), key=lambda e: e[:-1])
        records: list[QueuedPodInfo] = [e[-1] for e in tied]
        return records

    def records(self) -> Iterator[QueuedPodInfo]:
        records: Iterator[QueuedPodInfo] = (e[-1] for e in self.index.values())
        return records

    def names_in_order(self) -> list[str]:
        """The keys in the order pops would take them."""
        names: list[str] = [e[-2] for e in sorted(self.index.values(), key=lambda e: e[:-1])]
        return names


class BackoffQueue:
    """podBackoffQ and, from 1.33 (``split``), podErrorBackoffQ beside it: a record with no rejector plugin backs off
    in the error heap, which Pop never takes from (backoff_queue.go 74a7d3b1 l. 295-322). Both share one order;
    ``peek``, ``pop`` and ``heads`` are podBackoffQ's."""

    __slots__ = ("main", "errors", "split")

    def __init__(self, order: Order, split: bool):
        self.main = KeyedHeap(order)
        self.errors = KeyedHeap(order)
        self.split = split

    def __contains__(self, name: object) -> bool:
        return name in self.main.index or name in self.errors.index

    def __len__(self) -> int:
        return len(self.main) + len(self.errors)

    def get(self, name: str) -> QueuedPodInfo | None:
        return self.main.get(name) or self.errors.get(name)

    def in_errors(self, name: str) -> bool:
        return name in self.errors.index

    def add(self, record: QueuedPodInfo) -> None:
        """backoffQueue.add: into the error heap when the record has no rejector plugin, out of the other one."""
        if self.split and not record.rejectors():
            self.errors.add(record)
            self.main.delete(record.name)
        else:
            self.main.add(record)
            self.errors.delete(record.name)

    def delete(self, name: str) -> QueuedPodInfo | None:
        return self.main.delete(name) or self.errors.delete(name)

    def peek(self) -> QueuedPodInfo | None:
        return self.main.peek()

    def pop(self) -> QueuedPodInfo | None:
        return self.main.pop()

    def heads(self, tie_key: Order) -> list[QueuedPodInfo]:
        return self.main.heads(tie_key)

    def heaps(self) -> tuple[KeyedHeap, KeyedHeap]:
        return self.main, self.errors

    def names(self) -> list[str]:
        return [*self.main.index, *self.errors.index]

    def records(self) -> Iterator[QueuedPodInfo]:
        yield from self.main.records()
        yield from self.errors.records()

    def names_in_order(self) -> list[str]:
        """podBackoffQ's keys in the order pops and flushes take them, then the error heap's."""
        return [*self.main.names_in_order(), *self.errors.names_in_order()]
