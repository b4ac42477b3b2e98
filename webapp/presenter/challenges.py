"""A challenge's verdict (engine/challenges.py) in words: why it counts, or what is still missing. Plain data in
(the verdict's ``why`` and the scenario's steps), one sentence or two out; decides nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..model.queue import BACKOFF_Q
from ..model.record import Step
from ..phrases import counted
from .narration import REASONS, START_RULES
from .words import entries, named, seconds, step_label, step_number

Why = Mapping[str, Any]  # a verdict's evidence, as the engine's challenge gives it (plain data)


def _at(steps: Sequence[Step], index: int | None) -> str:
    if index is None or not 0 <= index < len(steps):
        return "at the end"
    return f"at step {step_number(index)} ({step_label(steps[index])})"


def _lost(w: Why, steps: Sequence[Step]) -> str:
    unseen = named(w["unseen"]) or "none yet"
    return (f"{_at(steps, w['step'])} on {w['version']}, {w['pod']}'s marker {w['marker']} was removed from "
            f"receivedEvents while {w['pod']} was in flight: its Next() is nil, so {w['pod']} can no longer see "
            f"the events after it (unseen: {unseen}). The invariant {w['invariant']} breaks, with "
            f"{counted(w['pods'], 'pod')} declared.")


def _too_many(w: Why, steps: Sequence[Step]) -> str:
    return (f"{w['pod']}'s marker is lost {_at(steps, w['step'])}, but the scenario declares "
            f"{counted(w['pods'], 'pod')}: the challenge allows at most {w['most']}.")


def _no_marker_lost(w: Why, steps: Sequence[Step]) -> str:
    return (f"Every in-flight pod kept its marker on {w['version']} through all {counted(w['steps'], 'step')}: "
            f"no Done removed an element a pod still in flight points at. Hint: two pods in flight at once, an "
            f"event between their Pops, and the first one finishing.")


def _wait(w: Why, steps: Sequence[Step] = ()) -> str:
    """One wait (engine/challenges.py, Wait.evidence): where, from when, until when and where to."""
    begun = _at(steps, w["began"]) if steps else f"at step {step_number(w['began'])}"
    said = f"waited in {' then '.join(w['queues'])} from t = {seconds(w['since'])}, {begun}, "
    if w["ended"] is None:
        return said + f"and was still waiting at the end, {seconds(w['waited'])} later"
    return (said + f"until step {step_number(w['ended'])} moved it to {w['to'] or 'no queue'} at t = "
            f"{seconds(w['until'])}, {seconds(w['waited'])} later")


def _their_waits(w: Why) -> str:
    if not w["theirs"]:
        return f"on v1.28.2 the same step put {w['pod']} in {w['elsewhere'] or 'no queue'} and it never waited"
    return f"on v1.28.2 {w['pod']} " + "; then ".join(_wait(s) for s in w["theirs"])


def _waited_long(w: Why, steps: Sequence[Step]) -> str:
    return (f"On v1.28.1 {w['pod']} {_wait(w, steps)}: {seconds(w['waited'])} ≥ {w['threshold']} s without a retry "
            f"(the {w['threshold']} s were up by step {step_number(w['seen_step'])}, t = {seconds(w['seen_at'])}); "
            f"{_their_waits(w)}")


RETRY = ("A retry is the pod reaching activeQ, from where Pop takes it again: a pod waiting in backoffQ is no nearer "
         "one than a parked pod while nothing moves it")


def _waited_old_only(w: Why, steps: Sequence[Step]) -> str:
    return f"{_waited_long(w, steps)}. {RETRY}, so only v1.28.1 made {w['pod']} wait five minutes."


def _waited_both(w: Why, steps: Sequence[Step]) -> str:
    stuck = "" if w["periodic_flushes"] or not any(BACKOFF_Q in s["queues"] for s in w["theirs"]) else (
        " (without periodic_flushes only a flush_backoff step takes a pod out of backoffQ)")
    return (f"{_waited_long(w, steps)} — not shown to be shorter than {w['threshold']} s there{stuck}, so it does "
            f"not count. {RETRY}.")


def _not_long(w: Why, steps: Sequence[Step]) -> str:
    return (f"The longest wait for a retry on v1.28.1 is {w['pod']}'s, in {' then '.join(w['queues'])}, begun "
            f"{_at(steps, w['step'])}: {seconds(w['seconds'])} by the model's clock, short of {w['threshold']} s. "
            f"Advance the clock (advance_clock) while it waits.")


def _never_waited(w: Why, steps: Sequence[Step]) -> str:
    return "No pod ever waited for a retry (in backoffQ or unschedulablePods) on v1.28.1."


def _orphan(w: Why, steps: Sequence[Step]) -> str:
    behind = named(w["behind"])
    return (f"{_at(steps, w['step'])} {w['pod']} was popped again while its first attempt was in flight: its "
            f"first entry {w['entry']} became an orphan that no Done removes (the invariant {w['invariant']} "
            f"breaks). At the end {counted(len(w['behind']), 'event')} sit behind it ({behind}), in a list of "
            f"{entries(w['length'])}; the front cleanup stops at {w['entry']} "
            f"for ever, so every event recorded while any pod is in flight stays: the list grows without bound.")


def _little_growth(w: Why, steps: Sequence[Step]) -> str:
    return (f"{w['pod']}'s orphaned entry {w['entry']} (made {_at(steps, w['step'])}) is the cause, but only "
            f"{counted(len(w['behind']), 'event')} sit behind it at the end; show the growth: at least {w['growth']}.")


def _no_orphan(w: Why, steps: Sequence[Step]) -> str:
    return (f"v1.28.2's list ends with {entries(w['length'])} and no orphaned "
            f"pod entry, so the front cleanup can still drop every event. Hint: a pod must be popped a second time "
            f"while its first attempt is in flight (an update of an in-flight pod queues a copy).")


def _hint(version: str, h: Why, pod: str) -> str:
    if h["reason"] is None:
        return f"{version} decided by its gate-off rule ({h['rule']})"
    named_rule: str = h["start"] or ""
    rule = START_RULES.get(named_rule, named_rule)
    reason: str = REASONS[h["reason"]] if h["reason"] in REASONS else h["reason"]
    start = rule.split(",")[0].format(pod=pod, marker=h.get("marker"))
    return f"{version}: {start}; {reason.format(variant=version)} → {h['decision']}"


def _sooner(w: Why, steps: Sequence[Step]) -> str:
    plugins = ", ".join(w["plugins"]) or "no unschedulable plugins"
    retained = ", ".join(w["retained"]) or "none"
    old, new = w["hints"]["v1.28.1"], w["hints"]["v1.28.2"]
    return (f"{_at(steps, w['step'])} {w['pod']} fails ({plugins}): v1.28.1 puts it in {w['where']['v1.28.1']}, "
            f"v1.28.2 parks it in {w['where']['v1.28.2']}. "
            f"{_hint('v1.28.1', old, w['pod'])}; {_hint('v1.28.2', new, w['pod'])}. "
            f"(receivedEvents on v1.28.1 still held: {retained}.)")


def _no_failure(w: Why, steps: Sequence[Step]) -> str:
    return (f"No failure put its pod in activeQ or backoffQ on v1.28.1 while v1.28.2 parked it "
            f"({counted(w['failures'], 'failure')} looked at). Hint: a failure without plugins while an event from an "
            f"earlier attempt is still retained.")


WHY: dict[str, Callable[[Why, Sequence[Step]], str]] = {
    "marker-lost": _lost,
    "too-many-pods": _too_many,
    "no-marker-lost": _no_marker_lost,
    "waited-long-on-old-only": _waited_old_only,
    "waited-long-on-both": _waited_both,
    "not-long-enough": _not_long,
    "never-waited": _never_waited,
    "orphan-holds-events": _orphan,
    "too-little-growth": _little_growth,
    "no-orphan": _no_orphan,
    "old-retries-new-parks": _sooner,
    "no-such-failure": _no_failure,
}


def explain(verdict: Mapping[str, Any], steps: Iterable[Step]) -> str:
    """``verdict``: {solved, why: {reason, step, pod, ...}}; ``steps``: the scenario's steps."""
    text = WHY[verdict["why"]["reason"]](verdict["why"], list(steps))
    return text if text.startswith("v1.") else text[:1].upper() + text[1:]
