"""What both in-flight trackers share: their invariant results, kept until the next change."""

from __future__ import annotations


class Tracker:
    structure_check_names: tuple = ()

    def __init__(self):
        # [{name, violations}] of the tracker's broken invariants (in_flight_boundary first, then the structure
        # checks) as check() found them; None after a change to the list or the in-flight map, until
        # invariants.check finds them again. The Pop of a pod not in flight keeps them: its entry (v1.28.2) or marker
        # (v1.28.1) is in the list, the list's front is unchanged or that entry, and pod entries grow with in-flight
        # pods, so no check's result changes.
        self.broken: list[dict] | None = None

    def in_flight(self, uid: str) -> bool:
        return uid in self.in_flight_pods

    def check(self) -> list[dict]:
        raise NotImplementedError
