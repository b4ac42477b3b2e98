"""How long each failed pod took to get back to activeQ, per variant (read from step records)."""

from __future__ import annotations

from ..model.config import NS


class ReturnTracker:
    def __init__(self):
        self.waiting: dict[str, dict] = {}  # pod -> the failure it has not yet recovered from
        self.returns: list[dict] = []

    def observe(self, record: dict, now: int) -> None:
        for move in record["moves"]:
            pod, src, dst = move["pod"], move["from"], move["to"]
            if src == "inFlight" and record["op"] == "fail":
                self.waiting[pod] = {"pod": pod, "failed_step": record["step"], "failed_at": now / NS, "via": dst}
            if dst == "activeQ" and pod in self.waiting:
                entry = self.waiting.pop(pod)
                entry.update(back_step=record["step"], back_at=now / NS, seconds=(now / NS) - entry["failed_at"])
                self.returns.append(entry)

    def summary(self) -> dict:
        return {"returned": self.returns, "still_waiting": list(self.waiting.values())}

    def at(self, position: int) -> dict:
        """The summary as it stood after the first ``position`` steps: nothing from later steps (no spoilers)."""
        returned = [r for r in self.returns if r["back_step"] < position]
        back_later = [r for r in self.returns if r["failed_step"] < position <= r["back_step"]]
        waiting = [{k: r[k] for k in ("pod", "failed_step", "failed_at", "via")}
                   for r in [*back_later, *self.waiting.values()] if r["failed_step"] < position]
        return {"returned": returned, "still_waiting": waiting}
