"""How long each failed pod took to get back to activeQ (or to be popped from where it waited), per variant (read
from step records)."""

from __future__ import annotations

from bisect import bisect_left

from ..model.config import NS
from ..model.frame import Return, Returned, Returns, Waiting
from ..model.record import Record, Result

LISTED = 2  # a pod's returns listed one by one up to this many; more are summed up (count and longest)


def _back_step(entry: Return) -> int:
    return entry["back_step"]


def move_times(record: Record, result: Result | None, now: float) -> list[float]:
    """When each of a step's moves happened (s). An advance of the clock with periodic flushes makes its moves at
    its flushes' ticks, in order (each flush's result names the pods it moved, one move each): a pod backed off
    for 1 s is back at 1 s, not at the end of a 300 s advance. Any other step moves pods at ``now``."""
    moves = record["moves"]
    flushes = (result or {}).get("flushes") or []
    times = [f["at"] for f in flushes for _ in range(len(f["result"].get("moved_to_activeQ", ()))
                                                     + len(f["result"].get("moved", ())))]
    return times if len(times) == len(moves) else [now] * len(moves)


class ReturnTracker:
    """Kept per pod, so that the outcomes at any position cost as much as the pods, not the whole history: a
    frame asks for them at every position, and a long scenario has thousands of returns."""

    def __init__(self) -> None:
        self.waiting: dict[str, Return] = {}  # pod -> the failure it has not yet recovered from
        self.returns: dict[str, list[Return]] = {}  # pod -> its returns, in order (pods in the order of their first)
        self.longest: dict[str, list[int]] = {}  # pod -> for each return, the index of the longest up to it
        # (pod, failed step) -> ((step, queue it went to), ...): where it waited. Tuples of atoms, like the entries'
        # dicts of atoms: the garbage collector stops walking them (a long scenario keeps thousands for its session).
        self.paths: dict[tuple[str, int], tuple[tuple[int, str | None], ...]] = {}

    def observe(self, record: Record, result: Result | None, now: int) -> None:
        """``record`` and ``result`` of a step, whose queue's clock then read ``now`` (ns)."""
        for move, at in zip(record["moves"], move_times(record, result, now / NS)):
            pod, src, dst = move["pod"], move["from"], move["to"]
            if src == "inFlight" and dst is not None and record["op"] == "fail":
                self.waiting[pod] = {"pod": pod, "failed_step": record["step"], "failed_at": at, "via": dst}
                self.paths[pod, record["step"]] = ((record["step"], dst),)
            elif pod in self.waiting and dst not in ("activeQ", "inFlight"):  # on its way (to backoffQ, say)
                self.paths[pod, self.waiting[pod]["failed_step"]] += ((record["step"], dst),)
            # back: in activeQ, or popped from where it waited (1.33+: Pop takes backoffQ's head)
            if pod in self.waiting and (dst == "activeQ" or (dst == "inFlight" and src not in (None, "activeQ"))):
                entry = self.waiting.pop(pod)
                entry["back_step"], entry["back_at"] = record["step"], at
                entry["seconds"] = at - entry["failed_at"]
                if dst == "inFlight" and src is not None:
                    entry["popped_from"] = src
                self._returned(pod, entry)

    def _returned(self, pod: str, entry: Return) -> None:
        returns = self.returns.setdefault(pod, [])
        longest = self.longest.setdefault(pod, [])
        best = longest[-1] if longest and returns[longest[-1]]["seconds"] >= entry["seconds"] else len(returns)
        returns.append(entry)
        longest.append(best)

    def at(self, position: int | None) -> Returns:
        """The outcomes as they stood after the first ``position`` steps (None: all of them): nothing from later
        steps (no spoilers).

            {returned: [{pod, count, listed, longest}], still_waiting: [{pod, failed_step, failed_at, via, where}]}

        ``returned``: per pod that got back at least once, how many times, its first returns (up to LISTED) and
        the longest (the first of equals), each {pod, failed_step, failed_at, via, back_step, back_at, seconds}.
        A pod still waiting says where it waits then (``where``) besides where it failed to (``via``)."""
        end = float("inf") if position is None else position
        returned: list[Returned] = []
        back_later: list[Return] = []
        for pod, returns in self.returns.items():
            count = bisect_left(returns, end, key=_back_step)  # returns with back_step < end
            if count:
                returned.append({"pod": pod, "count": count, "listed": returns[:min(count, LISTED)],
                                 "longest": returns[self.longest[pod][count - 1]]})
            if count < len(returns) and returns[count]["failed_step"] < end:
                back_later.append(returns[count])  # failed by then, back only later
        back_later.sort(key=lambda r: r["back_step"])
        waiting: list[Waiting] = [
            {"pod": r["pod"], "failed_step": r["failed_step"], "failed_at": r["failed_at"], "via": r["via"],
             "where": [queue for step, queue in self.paths[r["pod"], r["failed_step"]] if step < end][-1]}
            for r in [*back_later, *self.waiting.values()] if r["failed_step"] < end]
        return {"returned": returned, "still_waiting": waiting}
