"""What both in-flight trackers share: invariant results cached per tracker version."""

from __future__ import annotations


class Tracker:
    structure_check_names: tuple = ()

    def __init__(self):
        self.version = 0  # bumped by every change to the list or the in-flight map
        self._checked = (-1, [])

    def in_flight(self, uid: str) -> bool:
        return uid in self.in_flight_pods

    def violations(self) -> list[dict]:
        """[{name, violations}] of the tracker's broken invariants, recomputed only after a change."""
        version, broken = self._checked
        if version != self.version:
            broken = self.structure_violations()
            boundary = self.boundary_violations()
            if boundary:
                broken.insert(0, {"name": "in_flight_boundary", "violations": boundary})
            self._checked = (self.version, broken)
        return broken

    def boundary_violations(self) -> list[dict]:
        raise NotImplementedError

    def structure_violations(self) -> list[dict]:
        """A new list (violations() adds to it)."""
        return []
