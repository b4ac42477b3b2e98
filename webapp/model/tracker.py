"""What both in-flight trackers share: their invariant results, kept while no change can alter them."""

from __future__ import annotations


class Tracker:
    structure_check_names: tuple = ()

    def __init__(self):
        # [{name, violations}] of the tracker's broken invariants (in_flight_boundary first, then the structure
        # checks) as check() found them, or None until invariants.check finds them again. Each change to the list
        # or the in-flight map says what it can do to them: one that can break an invariant sets None; one that
        # cannot break an invariant that holds sets None only when some invariant is broken (their violations may
        # change), so "none broken" stays; one that changes no check's result leaves them.
        self.broken: list[dict] | None = None

    def in_flight(self, uid: str) -> bool:
        return uid in self.in_flight_pods

    def check(self) -> list[dict]:
        raise NotImplementedError
