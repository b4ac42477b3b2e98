"""A challenge's verdict (engine/challenges.py) in words: why it counts, or what is still missing. Plain data in
(the verdict's ``why`` and the scenario's steps), one sentence or two out; decides nothing."""

from __future__ import annotations

from .narration import REASONS, START_RULES
from .words import entries, named, seconds, step_label, step_number


def _at(steps, index) -> str:
    if index is None or not 0 <= index < len(steps):
        return "at the end"
    return f"at step {step_number(index)} ({step_label(steps[index])})"


def _s(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _lost(w, steps) -> str:
    unseen = named(w["unseen"]) or "none yet"
    return (f"{_at(steps, w['step'])} on {w['version']}, {w['pod']}'s marker {w['marker']} was removed from "
            f"receivedEvents while {w['pod']} was in flight: its Next() is nil, so {w['pod']} can no longer see "
            f"the events after it (unseen: {unseen}). The invariant {w['invariant']} breaks, with "
            f"{_s(w['pods'], 'pod')} declared.")


def _too_many(w, steps) -> str:
    return (f"{w['pod']}'s marker is lost {_at(steps, w['step'])}, but the scenario declares "
            f"{_s(w['pods'], 'pod')}: the challenge allows at most {w['most']}.")


def _no_marker_lost(w, steps) -> str:
    return (f"Every in-flight pod kept its marker on {w['version']} through all {_s(w['steps'], 'step')}: "
            f"no Done removed an element a pod still in flight points at. Hint: two pods in flight at once, an "
            f"event between their Pops, and the first one finishing.")


def _their_stays(w) -> str:
    if not w["theirs"]:
        return f"on v1.28.2 the same step put {w['pod']} in {w['elsewhere'] or 'no queue'} and it was never parked"
    said = "; ".join(
        f"parked at step {step_number(s['began'])} (t = {seconds(s['since'])}) "
        + ("and still there at the end" if s["ended"] is None else
           f"and out at step {step_number(s['ended'])} (t = {seconds(s['until'])}, "
           f"{seconds(s['until'] - s['since'])} later)")
        for s in w["theirs"])
    return f"on v1.28.2 {w['pod']} was {said}"


def _parked_long(w, steps) -> str:
    left = ("and was still there at the end" if w["left_step"] is None
            else f"and left at step {step_number(w['left_step'])}")
    return (f"On v1.28.1 {w['pod']} was parked in unschedulablePods {_at(steps, w['step'])}, t = "
            f"{seconds(w['parked_at'])}, was still parked after step {step_number(w['seen_step'])} (t = "
            f"{seconds(w['seen_at'])}: {seconds(w['waited'])} ≥ {w['threshold']} s) {left}; "
            f"{_their_stays(w)}.")


def _parked_both(w, steps) -> str:
    return (_parked_long(w, steps).rstrip(".")
            + f" — not shown to be shorter than {w['threshold']} s there, so it does not count.")


def _not_long(w, steps) -> str:
    return (f"The longest stay in unschedulablePods on v1.28.1 is {w['pod']}'s, parked {_at(steps, w['step'])}: "
            f"{seconds(w['seconds'])} by the model's clock, short of {w['threshold']} s. Advance the clock "
            f"(advance_clock) while it is parked.")


def _never_parked(w, steps) -> str:
    return "No pod was ever parked in unschedulablePods on v1.28.1."


def _orphan(w, steps) -> str:
    behind = named(w["behind"])
    return (f"{_at(steps, w['step'])} {w['pod']} was popped again while its first attempt was in flight: its "
            f"first entry {w['entry']} became an orphan that no Done removes (the invariant {w['invariant']} "
            f"breaks). At the end {_s(len(w['behind']), 'event')} sit behind it ({behind}), in a list of "
            f"{entries(w['length'])}; the front cleanup stops at {w['entry']} "
            f"for ever, so every event recorded while any pod is in flight stays: the list grows without bound.")


def _little_growth(w, steps) -> str:
    return (f"{w['pod']}'s orphaned entry {w['entry']} (made {_at(steps, w['step'])}) is the cause, but only "
            f"{_s(len(w['behind']), 'event')} sit behind it at the end; show the growth: at least {w['growth']}.")


def _no_orphan(w, steps) -> str:
    return (f"v1.28.2's list ends with {entries(w['length'])} and no orphaned "
            f"pod entry, so the front cleanup can still drop every event. Hint: a pod must be popped a second time "
            f"while its first attempt is in flight (an update of an in-flight pod queues a copy).")


def _hint(version, h, pod) -> str:
    if h["reason"] is None:
        return f"{version} decided by its gate-off rule ({h['rule']})"
    start = START_RULES.get(h["start"], h["start"] or "").split(",")[0].format(pod=pod, marker=h.get("marker"))
    return f"{version}: {start}; {REASONS.get(h['reason'], h['reason']).format(variant=version)} → {h['decision']}"


def _sooner(w, steps) -> str:
    plugins = ", ".join(w["plugins"]) or "no unschedulable plugins"
    retained = ", ".join(w["retained"]) or "none"
    old, new = w["hints"]["v1.28.1"], w["hints"]["v1.28.2"]
    return (f"{_at(steps, w['step'])} {w['pod']} fails ({plugins}): v1.28.1 puts it in {w['where']['v1.28.1']}, "
            f"v1.28.2 parks it in {w['where']['v1.28.2']}. {_hint('v1.28.1', old, w['pod'])}; {_hint('v1.28.2', new, w['pod'])}. "
            f"(receivedEvents on v1.28.1 still held: {retained}.)")


def _no_failure(w, steps) -> str:
    return (f"No failure put its pod in activeQ or backoffQ on v1.28.1 while v1.28.2 parked it "
            f"({_s(w['failures'], 'failure')} looked at). Hint: a failure without plugins while an event from an "
            f"earlier attempt is still retained.")


WHY = {
    "marker-lost": _lost,
    "too-many-pods": _too_many,
    "no-marker-lost": _no_marker_lost,
    "parked-long-on-old-only": _parked_long,
    "parked-long-on-both": _parked_both,
    "not-long-enough": _not_long,
    "never-parked": _never_parked,
    "orphan-holds-events": _orphan,
    "too-little-growth": _little_growth,
    "no-orphan": _no_orphan,
    "old-retries-new-parks": _sooner,
    "no-such-failure": _no_failure,
}


def explain(verdict: dict, steps) -> str:
    """``verdict``: {solved, why: {reason, step, pod, ...}}; ``steps``: the scenario's steps."""
    text = WHY[verdict["why"]["reason"]](verdict["why"], list(steps))
    return text if text.startswith("v1.") else text[:1].upper() + text[1:]
