"""What both in-flight trackers share: invariant results cached per tracker version."""

from __future__ import annotations


class Tracker:
    structure_check_names: tuple = ()

    def __init__(self):
        self.version = 0  # bumped by every change to the list or the in-flight map
        self.checked = -1  # the version ``broken`` was found at
        self.broken: list[dict] = []

    def in_flight(self, uid: str) -> bool:
        return uid in self.in_flight_pods

    def violations(self) -> list[dict]:
        """[{name, violations}] of the tracker's broken invariants (in_flight_boundary first, then the structure
        checks), found again only after a change."""
        if self.checked != self.version:
            self.checked, self.broken = self.version, self.check()
        return self.broken

    def check(self) -> list[dict]:
        raise NotImplementedError
