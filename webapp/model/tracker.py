"""What both in-flight trackers share: their invariant results, kept until the next change."""

from __future__ import annotations


class Tracker:
    structure_check_names: tuple = ()

    def __init__(self):
        # [{name, violations}] of the tracker's broken invariants (in_flight_boundary first, then the structure
        # checks) as check() found them; None after every change to the list or the in-flight map, until
        # invariants.check finds them again.
        self.broken: list[dict] | None = None

    def in_flight(self, uid: str) -> bool:
        return uid in self.in_flight_pods

    def check(self) -> list[dict]:
        raise NotImplementedError
