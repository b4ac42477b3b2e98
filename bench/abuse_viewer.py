"""What every abuse bench shares: the honest viewer that steps all along a phase (``Viewer``) and the sum of the
attackers' reports (``summed``). bench/abuse.py and bench/abuse_conns.py both import it; neither imports the
other."""

from __future__ import annotations

import threading
import time

from round_trip import Client


class Viewer(threading.Thread):
    """Steps ``pace`` times a second (seeking back to 0 at the end); records (send time, round-trip ms)."""

    def __init__(self, url: str, pace: float):
        super().__init__(daemon=True)
        self.client = Client(url)
        self.client.call("load", {"scenario": "three-pod-cascade"})
        self.total = self.client.last[1]["total"]
        self.interval = 1 / pace
        self.samples: list[tuple[float, float]] = []
        self.failures = 0
        self.stopped = threading.Event()

    def run(self):
        next_at = time.perf_counter()
        position = 0  # counted here: a delta carries the position only among its ops
        while not self.stopped.is_set():
            try:
                if position == self.total:
                    self.client.call("seek", {"position": 0})
                    position = 0
                sent = time.perf_counter()
                self.samples.append((sent, self.client.call("step")))
                position += 1
            except TimeoutError:  # no answer within 10 s: counted as a step that took that long
                self.failures += 1
                self.samples.append((sent, (time.perf_counter() - sent) * 1000))
            next_at = max(next_at + self.interval, time.perf_counter())
            time.sleep(max(0.0, next_at - time.perf_counter()))

    def between(self, start: float, end: float) -> list[float]:
        return [ms for sent, ms in self.samples if start <= sent < end]


def summed(reports: list) -> dict:
    total: dict = {}
    for report in reports:
        for key, value in report.items():
            if isinstance(value, dict):
                inner = total.setdefault(key, {})
                for k, v in value.items():
                    inner[k] = inner.get(k, 0) + v if isinstance(v, int) else v
            elif isinstance(value, int) and key.endswith("sent") or key == "connections":
                total[key] = total.get(key, 0) + value
            else:
                total[key] = value
    return total
