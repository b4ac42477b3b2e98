"""How long each failed pod took to get back to activeQ, per variant (read from step records)."""

from __future__ import annotations

from ..model.config import NS


class ReturnTracker:
    def __init__(self):
        self.waiting: dict[str, dict] = {}  # pod -> the failure it has not yet recovered from
        self.returns: list[dict] = []
        self.paths: dict[tuple, list] = {}  # (pod, failed step) -> [(step, queue it went to)]: where it waited

    def observe(self, record: dict, now: int) -> None:
        for move in record["moves"]:
            pod, src, dst = move["pod"], move["from"], move["to"]
            if src == "inFlight" and record["op"] == "fail":
                self.waiting[pod] = {"pod": pod, "failed_step": record["step"], "failed_at": now / NS, "via": dst}
                self.paths[pod, record["step"]] = [(record["step"], dst)]
            elif pod in self.waiting and dst != "activeQ":  # on its way (unschedulablePods -> backoffQ, say)
                self.paths[pod, self.waiting[pod]["failed_step"]].append((record["step"], dst))
            if dst == "activeQ" and pod in self.waiting:
                entry = self.waiting.pop(pod)
                entry.update(back_step=record["step"], back_at=now / NS, seconds=(now / NS) - entry["failed_at"])
                self.returns.append(entry)

    def summary(self) -> dict:
        return self.at(None)

    def at(self, position: int | None) -> dict:
        """The summary as it stood after the first ``position`` steps (None: all of them): nothing from later steps
        (no spoilers). A pod still waiting says where it waits then (``where``) besides where it failed to (``via``)."""
        end = float("inf") if position is None else position
        returned = [r for r in self.returns if r["back_step"] < end]
        back_later = [r for r in self.returns if r["failed_step"] < end <= r["back_step"]]
        waiting = [{**{k: r[k] for k in ("pod", "failed_step", "failed_at", "via")},
                    "where": [queue for step, queue in self.paths[r["pod"], r["failed_step"]] if step < end][-1]}
                   for r in [*back_later, *self.waiting.values()] if r["failed_step"] < end]
        return {"returned": returned, "still_waiting": waiting}
