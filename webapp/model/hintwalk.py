"""The hint walk shared by both variants' determineSchedulingHintForInFlightPod."""

from __future__ import annotations

from typing import Any

from .events import HINT_NAMES, QUEUE_IMMEDIATELY, QUEUE_SKIP
from .golist import Element
from .pod import QueuedPodInfo
from .record import Hint, WalkStep
from .tracker import Worth


def walk_events(pinfo: QueuedPodInfo, start: Element[Any] | None, worth: Worth, walk: list[WalkStep],
                event_type: type[Any], enough: int | None = None) -> int:
    """Max of isPodWorthRequeuing over the event entries (values of ``event_type``) from ``start`` to the back;
    stops at the first QueueImmediately (or at ``enough``). Each visited entry is appended to ``walk``."""
    result = QUEUE_SKIP
    e = start
    while e is not None:
        v = e.value
        if type(v) is not event_type:
            walk.append({"id": v.id, "pod": v.name, "why": "pod-entry-skipped"})
        else:
            hint, why, plugin = worth(pinfo, v.event)
            walk.append({"id": v.id, "event": v.event.label, "hint": HINT_NAMES[hint], "why": why, "plugin": plugin})
            if hint > result:
                result = hint
                if hint in (QUEUE_IMMEDIATELY, enough):
                    break
        e = e.next()
    return result


def decide(info: Hint, hint: int, reason: str) -> int:
    """Store the decision and its reason in the step record's hint section."""
    info["decision"] = HINT_NAMES[hint]
    info["reason"] = reason
    return hint
