"""Step record -> plain words, naming the upstream function. Reads records; decides nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..model.events import PENDING_SUFFIX
from ..model.operations import functions_of
from ..model.record import Evaluation, Flush, Record, Result, Step, Violated
from ..model.versions import VERSIONS
from .files import upstream_name, where
from .shapes import Narration
from .words import LIST_NAME

START_RULES = {
    "after-own-entry": "it walks the entries after its own pod entry [{pod}]",
    "front": "its marker is nil (no event was retained when it was popped), so it walks from the front",
    "marker-next": "it walks from its marker {marker}.Next()",
    "marker-detached": "its marker {marker} was removed from the list, and Go's Next() on a removed element is nil: "
    "the walk sees nothing",
    "not-in-flight": "it is not registered as in flight",
    "no-plugins-global": "it failed without unschedulable plugins, so only the list length matters",
}
REASONS = {
    "events": "the strongest hint among the events it saw",
    "no-event-worth-requeuing": "no event it saw makes it schedulable",
    "no-plugins-event-after-pod": "an event arrived after its own entry",
    "no-plugins-no-event": "no event arrived while it was in flight",
    "no-plugins-list-nonempty": "receivedEvents holds at least one event (any event counts, even an older one)",
    "no-plugins-list-empty": "receivedEvents is empty",
    "not-in-flight": "an unknown pod is retried after backoff",
    "not-in-flight-with-plugins": "an unknown pod with plugins is retried after backoff",
    "not-in-flight-events-retained": "the list holds events",
    "not-in-flight-no-events": "the list holds no events",
    # {variant}: the version whose rule decided
    "no-rejector-plugins": "no plugin rejected it (it has no unschedulable plugin, at most pending ones), and on "
    "{variant} such a pod always goes through backoff (1.29+, #119105)",
    "not-in-flight-error": "it is not in flight, and on {variant} a failing pod that is not in flight always goes "
    "through backoff (1.31+, #125930)",
}
# The gate-off rule that placed a failed pod (a result's ``rule``), said after "Gate off: moveRequestCycle m vs
# podSchedulingCycle c"; {variant} is the version whose rule acted.
GATE_OFF_RULES = {
    "moveRequestCycle>=podSchedulingCycle": "an event asked to move pods since its attempt began",
    "moveRequestCycle<podSchedulingCycle": "no event asked to move pods since its attempt began",
    "no-rejector-plugins": "no plugin rejected it, and on {variant} such a pod always goes through backoff (1.29+, "
    "#119105)",
}
IGNORED = ("{variant} ignores {event}: no registered hint matches it (1.30+, #122629), so it is not recorded, "
           "moveRequestCycle is not bumped and no pod is moved.")
# A version's rule said where it acts, {variant} the version whose rule it is.
POP_CLEARS = ("Pop clears {pod}'s plugins ({plugins}): on {variant} a later failure without new plugins is judged "
              "afresh (1.28.3+, #120334).")
POP_CLEARS_SETTING = "Pop clears {pod}'s plugins ({plugins}): the scenario sets pop_clears_unschedulable_plugins."
GATE_OFF_DEFAULT = "on {variant} SchedulerQueueingHints is off by default (1.28.5+, #122291)"
# An event passing a gated pod by (movePodsToActiveOrBackoffQueue's first check), by whether the version records
# the gating plugin's events (1.33+, #127180).
GATED_SKIP = {False: "{pod} is gated with SchedulingGates, so movePodsToActiveOrBackoffQueue skips it whatever the "
                     "event, before any hint is asked.",
              True: "{pod} is gated, and {event} is not among the events its gating plugin registered "
                    "(GatingPluginEvents), so movePodsToActiveOrBackoffQueue skips it before any hint is asked."}
DISCARDED = ("Pop() takes a record of {pod}, but {pod} is already in flight: on {variant} unlockedPop discards it "
             "and pops the next (1.32+, #127016).")
POP_FROM_BACKOFF = ("activeQ is empty: on {variant} Pop() takes {pod} from the head of backoffQ (popBackoff), "
                    "before its backoff has ended; its scheduling attempt is now in flight (1.33+, #130772, KEP-5142).")
FORCE_ACTIVATE = ("{pod} is in flight, in no queue: on {variant} Activate appends {event} ({id}) to inFlightEvents "
                  "(addEventsIfPodInFlight); when {pod} fails its walk meets it and {pod} is requeued. It counts for "
                  "{pod} only (1.32+, #128170).")
ERROR_HEAP = ("No plugin rejected {pod}: on {variant} it waits in backoffQ's error heap (podErrorBackoffQ), which "
              "Pop never takes from early (1.33+, #130214).")
UPDATE_BY_HINT = ("{pod} is in unschedulablePods: on {variant} its update is judged by its plugins' Pod/Update "
                  "hints (1.31+, #122234).")
UPDATE_IN_FLIGHT = ("{pod} is in flight: on {variant} its update is appended to inFlightEvents as {event} ({id}) "
                    "instead of queueing a copy (1.31+, #125578); its failure will judge it like an event.")
WHY = {
    "no-unschedulable-plugins": "no unschedulable plugins",
    "wildcard-event": "wildcard event",
    "wildcard-for-another-pod": "ForceActivate of another pod (1.32+, #128170)",
    "no-hint-map": "no hint map",
    "hint-fn": "hint of {plugin}",
    "hint-fn-skip": "{plugin} says skip",
    "no-registered-hint": "no plugin of the pod registered for it",
    "hint-fn-pending": "{plugin} was pending: Queue means at once (1.29+, #119517)",
    "hint-fn-wildcard": "hint of {plugin}, registered on every event: 1.30 matches it to this one (#123117)",
}


def narrate(variant: str, step: Step | None, result: Result | None, record: Record | None) -> Narration:
    """{title, lines, functions, note} for the step that led to the current position."""
    if record is None or step is None or result is None:
        return {"title": "Start", "lines": ["Nothing has happened yet: press → to apply the first step."],
                "functions": [], "where": "", "note": ""}
    lines = _OPS.get(record["op"], _generic)(variant, step, result, record)
    lines += _list_changes(variant, record)
    lines += [_violation(v) for v in record["invariants"]]
    functions = [upstream_name(variant, f) for f in record["calls"] or functions_of(record["op"])]
    return {"title": _title(step, result, record), "lines": [ln for ln in lines if ln], "functions": functions,
            "where": where(variant, functions, step, result, record), "note": step.get("note", "")}


def _title(step: Step, result: Result, record: Record) -> str:
    op = step["op"]
    if op == "pop":
        return f"Pop → {result['popped']}" + (" from backoffQ" if result.get("from") == "backoffQ" else "") + (
            f" ({', '.join(result['discarded'])} discarded)" if result.get("discarded") else "")
    if op == "pop_specific":
        activated = _activated_from(record)
        return f"PopSpecificPod({step['pod']}) → {result['popped'] or 'nil'}" + (
            f" from {activated}" if activated else "")
    if op == "fail":
        return f"{step['pod']} fails → {result.get('queue', 'error')}"
    if op in ("event", "assigned_pod_added"):
        return f"Event {result['event']} ({result['event_id']})" + (" ignored" if record.get("ignored") else "")
    if op == "advance_clock":  # with periodic flushes, what they moved (and when, if before the end): the point
        said = [_flush_titled(f, result["now"]) for f in result.get("flushes", ())]
        more = f"; {len(said) - TITLED_FLUSHES} more flushes" if len(said) > TITLED_FLUSHES else ""
        return f"Clock +{step['seconds']:g} s" + (f" · {'; '.join(said[:TITLED_FLUSHES])}{more}" if said else "")
    if op == "done":
        return f"Done({step['pod']})"
    target = step.get("pod") or ", ".join(step.get("pods", ()))
    return f"{op} {target}".strip()


def _moves(record: Record) -> str:
    parts = [f"{m['pod']} → {m['to'] or 'gone'}" for m in record["moves"]]
    return "Moves: " + ", ".join(parts) + "." if parts else ""


def _activated_from(record: Record) -> str:
    """The queue PopSpecificPod's activate moved its pod out of (unschedulablePods or backoffQ), or ""."""
    return next((m["from"] or "" for m in record["moves"] if m["to"] == "activeQ" and m["from"] != "activeQ"), "")


def _pop(variant: str, step: Step, result: Result, record: Record) -> list[str]:
    pod = result["popped"]
    if pod is None:  # pop_specific (1.36)
        return [f"PopSpecificPod finds no record of {step['pod']} it can take (none queued, or its pod is already in "
                "flight): nothing is popped."]
    lines = [DISCARDED.format(pod=p, variant=variant) for p in result.get("discarded") or ()]
    if record["op"] == "pop_specific":
        activated = _activated_from(record)
        lines.append((f"PopSpecificPod activates {pod} out of {activated} and" if activated else "PopSpecificPod")
                     + f" takes {pod} from activeQ; its scheduling attempt is now in flight.")
    elif result.get("from") == "backoffQ":
        lines.append(POP_FROM_BACKOFF.format(pod=pod, variant=variant))
    else:
        lines.append(f"Pop() takes {pod} from the head of activeQ; its scheduling attempt is now in flight.")
    if VERSIONS[variant].rules.pod_entries and record["appended"]:
        lines.append(f"Its own pod entry [{pod}] is appended to inFlightEvents: on failure it will look only at "
                     "what comes after it.")
    if record.get("cleared"):
        said = POP_CLEARS if VERSIONS[variant].rules.pop_clears_plugins else POP_CLEARS_SETTING
        plugins = ", ".join(p.replace(PENDING_SUFFIX, " (pending)") for p in sorted(record["cleared"]))
        lines.append(said.format(pod=pod, plugins=plugins, variant=variant))
    marker = record.get("marker")
    if marker:
        at = marker["previousEvent"]
        lines.append(f"{pod}'s previousEvent marker points at {at}, the newest event in receivedEvents." if at else
                     f"receivedEvents is empty, so {pod}'s marker is nil (it will walk from the front).")
    if record.get("orphaned"):
        lines.append(f"{pod} was already in flight: the map now points at the new entry and the old entry "
                     f"{record['orphaned']['id']} can never be removed.")
    return lines


def _event(variant: str, step: Step, result: Result, record: Record) -> list[str]:
    if record.get("ignored"):
        return [IGNORED.format(variant=variant, event=record["ignored"]["event"])]
    lines = [f"Cluster event {result['event']} ({result['event_id']}): movePodsToActiveOrBackoffQueue asks "
             "isPodWorthRequeuing for each candidate in unschedulablePods."]
    gating = VERSIONS[variant].rules.gating_plugin
    lines += [GATED_SKIP[gating].format(pod=s["pod"], event=result["event"]) for s in record["skipped"]]
    lines += [_evaluation(e) for e in record["evaluations"]]
    lines.append(_moves(record))
    if result["recorded_in_flight"]:
        lines.append(f"Pods are in flight, so it is appended to {LIST_NAME[variant]}.")
    else:
        lines.append("No pod is in flight, so nothing records it.")
    return lines


def _evaluation(e: Evaluation) -> str:
    return f"{e['pod']}: {e['hint']} ({WHY.get(e['why'], e['why']).format(plugin=e['plugin'])})."


def _fail(variant: str, step: Step, result: Result, record: Record) -> list[str]:
    failed = record.get("failed", {})
    plugins = ", ".join(failed.get("plugins", [])) or "none"
    lines = [f"{step['pod']}'s attempt failed (unschedulable plugins: {plugins}): AddUnschedulableIfNotPresent."]
    if "error" in result:
        return lines + [f"Rejected: {result['error']}. The deferred Done still runs."]
    if "rule" in result:
        r = record["gate_off_rule"]
        why = GATE_OFF_RULES.get(result["rule"], result["rule"]).format(variant=variant)
        gate = f"Gate off ({GATE_OFF_DEFAULT.format(variant=variant)})" if VERSIONS[variant].rules.gate_off else \
            "Gate off"
        return lines + [f"{gate}: moveRequestCycle {r['moveRequestCycle']} vs podSchedulingCycle "
                        f"{r['podSchedulingCycle']}: {why} → {result['queue']}."]
    hint = record["hint"]
    start = START_RULES.get(hint["start"]["rule"], hint["start"]["rule"])
    lines.append("determineSchedulingHintForInFlightPod: " + start.format(
        pod=step["pod"], marker=hint["start"].get("marker")) + ".")
    for w in hint["walk"]:
        if "event" in w and "hint" in w:
            because = WHY.get(w["why"], w["why"]).format(plugin=w["plugin"])
            lines.append(f"  {w['id']} {w['event']}: {w['hint']} ({because}).")
    unseen = hint["start"].get("unseen")
    if unseen:
        lines.append(f"Events it can no longer see: {', '.join(unseen)}.")
    reason = REASONS.get(hint["reason"], hint["reason"]).format(variant=variant)
    lines.append(f"Decision {hint['decision']}: {reason}; "
                 f"{upstream_name(variant, 'requeuePodViaQueueingHint')} puts it in {result['queue']}. "
                 "Then the deferred Done runs.")
    if (result["queue"] == "backoffQ" and VERSIONS[variant].rules.error_backoff_q
            and not failed.get("plugins") and not failed.get("pending")):
        lines.append(ERROR_HEAP.format(pod=step["pod"], variant=variant))
    return lines


def _done(variant: str, step: Step, result: Result, record: Record) -> list[str]:
    start = record.get("done_start")
    lines = [f"Done({step['pod']}): the attempt has finished."]
    if start:
        where = {"marker-next": "after its marker", "front": "from the front (nil marker)",
                 "front-marker-removed": "from the front (its marker was already removed)"}[start["rule"]]
        lines.append(f"It decrements inFlightPodsNum of every event {where}.")
    return lines


# The periodic flushes an advancing clock runs (queue.advance_clock: only the ticks that move a pod): op -> how a
# title names it, how a line says it.
FLUSHES = {
    "flush_backoff": ("backoff flush", "the 1 s backoff flush (flushBackoffQCompleted)"),
    "flush_unschedulable_leftover": ("leftover flush", "the 30 s leftover flush (flushUnschedulablePodsLeftover)"),
}


def _clock(variant: str, step: Step, result: Result, record: Record) -> list[str]:
    lines = [f"The fake clock moves forward {step['seconds']:g} s to t = {result['now']:g} s."]
    for flush in result.get("flushes", ()):
        lines.append(f"At t = {flush['at']:g} s {_flush_said(flush['op'], flush['result'])}.")
    return lines


def _flush_said(op: str, result: Result) -> str:
    """"the 1 s backoff flush (flushBackoffQCompleted) moves B → activeQ": a flush and what it moved."""
    return f"{FLUSHES[op][1]} moves {_flushed(result)}"


TITLED_FLUSHES = 2  # flushes a clock step's title names; the narration says every one


def _flush_titled(flush: Flush, now: float) -> str:
    """"backoff flush: B → activeQ", with "at t = 2 s" when it ran before the clock stopped (a long advance: the
    pod moved long before the time the pane shows)."""
    when = "" if flush["at"] == now else f" at t = {flush['at']:g} s"
    return f"{FLUSHES[flush['op']][0]}{when}: {_moves_said(flush['result'])}"


def _moves_said(result: Result) -> str:
    moved = {pod: "activeQ" for pod in result["moved_to_activeQ"]} if "moved_to_activeQ" in result else result["moved"]
    return ", ".join(f"{pod} → {queue}" for pod, queue in moved.items()) or "no pod"


def _flushed(result: Result) -> str:
    said = _moves_said(result)
    return said + (f" (event UnschedulableTimeout, {result['event_id']})" if result.get("event_id") else "")


# An explicit flush step, said as a flush the clock runs is (_flush_said): what it moved; the leftover
# flush's event with how each parked pod was judged.
def _flush(variant: str, step: Step, result: Result, record: Record) -> list[str]:
    said = _flush_said(step["op"], result)
    lines = [f"{said[:1].upper()}{said[1:]}."]
    return lines + _event(variant, step, result, record)[1:] if result.get("moved") else lines


def _generic(variant: str, step: Step, result: Result, record: Record) -> list[str]:
    lines = [FORCE_ACTIVATE.format(variant=variant, pod=forced, event=entry["event"], id=entry["id"])
             for entry in record["appended"] if (forced := forced_pod(entry.get("event", "")))]
    if record["op"] == "update":
        lines += [UPDATE_IN_FLIGHT.format(variant=variant, **entry) for entry in record["appended"]
                  if entry["kind"] == "event" and "pod" in entry]
    if record["op"] == "update" and record["evaluations"]:
        lines.append(UPDATE_BY_HINT.format(pod=step["pod"], variant=variant))
    lines += [_evaluation(e) for e in record["evaluations"]]  # 1.31: an update judged by the pod's hints
    lines.append(_moves(record))
    lines += [f"{s['pod']}: {s['why']}." for s in record["skipped"]]
    return lines


FORCE_PREFIX = "ForceActivate:"  # the entry Activate appends for an in-flight pod (1.32+), named for its pod


def forced_pod(event: str) -> str:
    """The pod a ForceActivate entry targets ("" for any other event)."""
    return event.removeprefix(FORCE_PREFIX) if event.startswith(FORCE_PREFIX) else ""


def _list_changes(variant: str, record: Record) -> list[str]:
    lines = []
    cleaned = [r["id"] for r in record["removed"] if r["reason"] == "cleanup_front"]
    exhausted = [r["id"] for r in record["removed"] if r["reason"] == "exhausted"]
    own = [r["id"] for r in record["removed"] if r["reason"] == "done"]
    if own:
        lines.append(f"Done removes the pod entry {', '.join(own)} from inFlightEvents.")
    if cleaned:
        lines.append(f"Front cleanup drops {', '.join(cleaned)}: no remaining attempt was in flight when they arrived.")
    if record["counters"]:
        lines.append("Counters: " + ", ".join(f"{c['id']}→{c['inFlightPodsNum']}" for c in record["counters"]) + ".")
    if exhausted:
        lines.append(f"{', '.join(exhausted)} reached 0 and left receivedEvents.")
    for d in record["detached"]:
        unseen = ", ".join(d["unseen"]) or "none yet"
        lines.append(f"{d['pod']}'s marker {d['marker']} was just removed: {d['marker']}.Next() is now nil, so "
                     f"{d['pod']} cannot see events after it (unseen: {unseen}).")
    return lines


_VIOLATION = {
    "in_flight_boundary": lambda v: f"{v['pod']} has lost its boundary (marker {v.get('marker', v.get('id'))} is "
    f"detached; unseen: {', '.join(v['unseen']) or 'none yet'})",
    "queue_membership": lambda v: f"{v['pod']} is in {' and '.join(v['queues'])}",
    "events_preceded_by_pod": lambda v: f"event {v['id']} is at the front of the list",
    "pod_entries_in_flight": lambda v: f"{v['orphaned_pod_entries']} orphaned pod entr"
    f"{'y' if v['orphaned_pod_entries'] == 1 else 'ies'} can never be removed",
}


def describe_violation(name: str, violation: Mapping[str, Any]) -> str:
    return _VIOLATION[name](violation)


def _violation(broken: Violated) -> str:
    said = "; ".join(describe_violation(broken["name"], v) for v in broken["violations"])
    return f"Invariant broken ({broken['name']}): {said}."


_OPS = {"pop": _pop, "pop_specific": _pop, "event": _event, "assigned_pod_added": _event, "fail": _fail, "done": _done,
        "advance_clock": _clock, "flush_backoff": _flush, "flush_unschedulable_leftover": _flush}
