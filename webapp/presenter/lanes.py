"""A pane's lanes: each sub-queue's chips in the order the queue takes them, with the timers a parked or backing-off
pod carries (and, by the clock's rules, when a flush moves it, or would have)."""

from __future__ import annotations

import math
from collections.abc import Mapping

from ..model.record import Result
from ..model.views import PodView, State, View
from .shapes import Chip, ChipMark, Lane, Timer
from .words import CHIP_MARKS, CHIP_PLUGINS, GATE_PLUGIN, LANES, TIMER, UNFLUSHED, seconds


def lanes(state: State, view: View, limit: float, windows: bool = False) -> list[Lane]:
    """Each lane's chips: activeQ and backoffQ in the order pops and the backoff flush take them (a trace's state
    lists them by name: the lane drew the head anywhere), activeQ's heads marked. With ``windows`` (1.33+) a
    backoff ends when the one-second window of its expiry has passed: its chip counts down to that."""
    members = {"activeQ": view["order"]["activeQ"], "backoffQ": view["order"]["backoffQ"],
               "unschedulablePods": state["unschedulablePods"], "inFlight": in_flight_pods(state, view)}
    heads = set(view["heads"])
    return [{"queue": queue, "label": label, "icon": icon, "help": help_,
             "chips": [chip(pod, queue, windowed(view["pods"].get(pod), windows and queue == "backoffQ"),
                            view["now"], limit, queue == "activeQ" and pod in heads)
                       for pod in members[queue]]}
            for queue, (label, icon, help_) in LANES.items()]


def windowed(info: PodView | None, windows: bool) -> PodView | None:
    """``info`` with its backoff ending where the window of its expiry ends (isPodBackingoff, 1.33+)."""
    if not windows or info is None or "backoffExpiry" not in info:
        return info
    return {**info, "backoffExpiry": float(math.floor(info["backoffExpiry"]) + 1)}


def in_flight_pods(state: State, view: View) -> list[str]:
    """Popped pods whose attempt runs, and pods the tracker holds as in flight although a copy of them was
    queued again (an update while in flight): those are drawn in both lanes."""
    popped = [name for name, pod in view["pods"].items() if pod["where"] == "inFlight"]
    return list(dict.fromkeys(popped + list(state.get("inFlightPods") or ())))


CHIP_DETAIL = {"backoffQ": "until {}", "unschedulablePods": "since {}"}  # with its backoff's end, its wait's start


def chip(pod: str, queue: str, info: PodView | None, now: float = 0.0, limit: float = 300.0, head: bool = False
         ) -> Chip:
    detail = ""
    if info and queue in CHIP_DETAIL:
        at = info["backoffExpiry"] if queue == "backoffQ" else info["timestamp"]
        detail = CHIP_DETAIL[queue].format(seconds(at))
    elif info and queue == "inFlight" and "attempts" in info:
        detail = f"attempt {info['attempts']}"
    plugins, pending = (info.get("plugins"), info.get("pending")) if info else (None, None)  # pending: 1.29+
    said = [CHIP_PLUGINS[key].format(", ".join(names))
            for key, names in (("plugins", plugins), ("pending", pending)) if names]
    shown: Chip = {"pod": pod, "detail": detail, "title": " · ".join(said) or pod,
                   "timer": timer(queue, info, now, limit)}
    if head:
        shown["head"] = True
    return shown


def timer(queue: str, info: PodView | None, now: float, limit: float) -> Timer | None:
    """How long a parked pod has waited against the flush limit, or how much of its backoff is left, and with
    periodic flushes when the tick that moves it comes (``next``). ``parts``: the phrases of ``text``, each kept
    on one line where the chip is narrow."""
    shown = _timer(queue, info, now, limit)
    if shown is not None and info is not None and "nextFlush" in info:
        parts = [shown["text"], TIMER["flush"].format(at=seconds(info["nextFlush"]))]
        shown["next"], shown["parts"], shown["text"] = info["nextFlush"], parts, " · ".join(parts)
    elif shown is not None and info is not None and "missedFlush" in info:
        shown["missed"] = info["missedFlush"]  # the chip is marked; its pane says what would have happened
    return shown


def unflushed(lanes_: list[Lane]) -> list[str]:
    """Without periodic flushes: a sentence per queued pod the scheduler's flush would have moved by now."""
    return [UNFLUSHED.format(pod=c["pod"], queue=lane["queue"], at=seconds(c['timer']['missed']))
            for lane in lanes_ for c in lane["chips"] if c["timer"] and "missed" in c["timer"]]


def _timer(queue: str, info: PodView | None, now: float, limit: float) -> Timer | None:
    if not info or "timestamp" not in info:
        return None
    if queue == "unschedulablePods":
        waited = max(now - info["timestamp"], 0.0)
        return {"kind": "wait", "value": waited, "limit": limit, "fraction": min(waited / limit, 1.0) if limit else 1.0,
                "text": TIMER["wait"].format(value=seconds(waited), limit=seconds(limit))}
    if queue == "backoffQ":
        span = max(info["backoffExpiry"] - info["timestamp"], 0.0)
        left = max(info["backoffExpiry"] - now, 0.0)
        return {"kind": "backoff", "value": left, "limit": span, "fraction": left / span if span else 0.0,
                "text": TIMER["backoff"].format(value=seconds(left)) if left else TIMER["backoff-over"]}
    return None


def mark(lanes_: list[Lane], state: State, view: View, result: Result | None, windows: bool = False,
         groups: Mapping[str, str] | None = None, before: View | None = None) -> list[Lane]:
    """The chips with what 1.32+ adds to a pod's place (``marks``): the pod this step's Pop took from backoffQ,
    early (when its backoff would have ended: from ``before``, the view the step started from); the backoffQ pods
    in the error heap (1.33+) and, with ``windows`` (1.33+: SchedulerPopFromBackoffQ), the one-second windows
    their backoffs end in (window_rules); a gated pod's gate; the members of a pod group (``groups``); and, at a
    Pop that dropped a duplicate record (1.32+), that record drawn faint at the front of activeQ, where Pop took
    it."""
    early = result.get("popped") if result and result.get("from") == "backoffQ" else None
    errors = set(state.get("backoffQ_error") or ())
    for lane in lanes_:
        queue = lane["queue"]
        for c in lane["chips"]:
            pod = c["pod"]
            info: PodView = view["pods"].get(pod) or {"where": None}
            said = []
            if queue == "inFlight" and pod == early:
                was = windowed(before["pods"].get(pod) if before else None, windows) or {"where": None}
                said.append(chip_mark("early", pod=pod, end=seconds(was["backoffExpiry"]) if "backoffExpiry" in was
                                      else "its end"))
            if queue == "backoffQ" and pod in errors:
                said.append(chip_mark("error", pod=pod))
            if queue != "inFlight" and info.get("gated"):
                said.append(chip_mark("gated", pod=pod, plugin=info.get("gatingPlugin") or GATE_PLUGIN))
            if groups and pod in groups:
                said.append(chip_mark("group", pod=pod, group=groups[pod]))
            if said:
                c["marks"] = said
    if windows:
        for lane in (lane for lane in lanes_ if lane["queue"] == "backoffQ"):
            window_rules(lane["chips"], view)
    discarded = (result.get("discarded") or []) if result else []
    for lane in (lane for lane in lanes_ if lane["queue"] == "activeQ" and discarded):
        lane["chips"][:0] = [{"pod": pod, "detail": "", "title": CHIP_MARKS["discarded"][1].format(pod=pod),
                              "timer": None, "ghost": True, "marks": [chip_mark("discarded", pod=pod)]}
                             for pod in discarded]
    return lanes_


def window_rules(chips: list[Chip], view: View) -> None:
    """backoffQ's one-second windows (1.33+): the first chip of each run of chips whose backoff ends in the same
    window carries the window's rule (``window``), which the views draw above it."""
    runs: list[tuple[int, list[Chip]]] = []
    for c in chips:
        info = view["pods"].get(c["pod"])
        if info is None or "backoffExpiry" not in info:
            continue
        expiry = info["backoffExpiry"]
        start = math.floor(expiry)
        if runs and runs[-1][0] == start:
            runs[-1][1].append(c)
        else:
            runs.append((start, [c]))
    for start, run in runs:
        run[0]["window"] = chip_mark("window", pods=", ".join(c["pod"] for c in run),
                                     start=seconds(start).removesuffix(" s"), end=seconds(start + 1))


def chip_mark(kind: str, **fields: str) -> ChipMark:
    text, title = CHIP_MARKS[kind]
    return {"kind": kind, "text": text.format(**fields), "title": title.format(**fields)}
