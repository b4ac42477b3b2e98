"""The imported scenario's words: its assumptions (what the log cannot tell) and its description (the counts,
the assumptions, the SchedulerQueueingHints gate the log shows, the disagreements with the model's replay)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ...model.plugins import PLUGINS
from ...model.variant import VARIANTS
from ...phrases import counted, joined, listed
from .builder import MAX_ASSUMPTIONS, MAX_IN_UNSCHEDULABLE, Builder, Parked
from .lines import GATE_OFF_VERSION, GATE_ON_KEY
from .mend import Mender
from .messages import UNKNOWN_PLUGIN
from .reading import Counts

# The result's two lists: key -> (title, what it holds); the YAML's comments and the editor say them so.
LISTS = {
    "disagreements": ("Disagreements", "queue moves the log states that the model's replay does not make"),
    "assumptions": ("Assumptions", "what the log cannot tell"),
}


def _since(b: Builder, micros: int) -> str:
    moment = datetime.fromtimestamp(b.epoch(micros) / 1e6, UTC)
    return moment.strftime("%m-%d %H:%M:%S.%f")


def assumptions(b: Builder, plugins: list[str], from_log: list[str], mended: Mender,
                phased: list[Parked]) -> list[str]:
    """What the log cannot tell, in sentences; ``phased``: the attempts the flushes' phase was chosen for."""
    out = [f"t = 0 s is the time of the first scheduler line ({_since(b, 0)} UTC); the clock advances to each "
           "line's time."]
    v = b.max_v
    out.append(f"Verbosity: the messages seen need -v={v}. Cluster events are logged only by their handlers "
               "(node add at -v=3, assigned pod add/delete at -v=3, update at -v=4) and by the parked pods they "
               "move (-v=4) or leave (-v=5): events of other kinds (PV, PVC, StorageClass, CSI, node updates) that "
               "moved no parked pod are missing, so pods in flight may have seen more events than modelled.")
    if not any(m in b.seen for m in ("About to try and schedule pod", "Attempting to schedule pod")):
        out.append("Attempts are not in the log (they need -v=3): each pod is assumed popped just before its "
                   "failure or bind, so no two attempts overlap and a lost marker cannot show.")
    elif b.inferred_pops:
        out.append(f"{counted(b.inferred_pops, 'attempt')} not in the log: the pod is assumed popped just before "
                   "its failure or bind.")
    if b.inferred_adds:
        out.append(f"{counted(b.inferred_adds, 'pod addition')} not in the log (-v=3 logs them): each pod is "
                   "assumed added just before its first attempt.")
    if plugins:
        known = [p for p in plugins if p in PLUGINS]
        if known:
            out.append("Plugins are read from each failure's reasons (the FitError message), and each plugin is "
                       "woken by the events it registers in 1.28 (EventsToRegister) with QueueAfterBackoff (1.28's "
                       "in-tree plugins have no QueueingHint function), as the model's catalogue gives them (no "
                       "`hints` are written for them, so an event added to the scenario wakes them as it would): "
                       + "; ".join(f"{p} ({PLUGINS[p].source})" for p in known) + ".")
        if UNKNOWN_PLUGIN in plugins:
            out.append(f"{UNKNOWN_PLUGIN}: the failure of {', '.join(dict.fromkeys(b.unknown_plugin_pods))} names "
                       "no reason the importer knows; it stands for the plugin(s) that rejected it and is assumed "
                       "woken by every event.")
    for reason, n in sorted(b.unmatched.items())[:10]:
        out.append(f"An unknown failure reason ({n}x) is ignored: {reason[:200]!r}.")
    if from_log:
        out.append("Hints read from the log's queue moves (where the 1.28 registrations would not give them): "
                   + "; ".join(from_log) + ". An explicit hint replaces all of its plugin's registrations, so that "
                   "plugin's other hints are written out too, as registered.")
    if phased:
        out.append(_phased(b, phased))
    elif b.flush is None:
        out.append("The periodic flushes (backoffQ every 1 s, unschedulablePods every 30 s) are assumed to tick at "
                   "whole seconds from t = 0 (flush_phase 0): the log shows no flush move (-v=4 shows the 30 s one "
                   "when it moves a pod, -v=5 the 1 s one).")
    else:
        at, period, number = b.flush
        out.append(f"The periodic flushes are placed so that the {period} s flush that moved a pod at line "
                   f"{number} (t = {at / 1e6:g} s) ticks at its time (flush_phase); the other flush is assumed to "
                   "share that phase (both start with the queue).")
    given = mended.priorities.level
    gate = "" if b.gate_lines else ("; the SchedulerQueueingHints gate is on (1.28.0 to 1.28.4's default; the log "
                                    "shows no failure's queue, which -v=5 logs with the gate off and -v=6 with it "
                                    "on, 1.29 on -v=3)")
    out.append(f"Every pod has priority 0{' unless given one below' if given else ''}, the default backoff (1 s "
               f"initial, 10 s max) and 300 s maximum in unschedulablePods{gate}. The log says none of these.")
    if given:
        out.append(mended.priorities.assumption())
    if mended.activated:
        out.append(f"{counted(len(mended.activated), 'attempt')} of a pod that the model had parked on some version "
                   f"({listed(list(dict.fromkeys(mended.activated)))}): an activate is inserted before each, "
                   "standing for an event the log does not show.")
    if b.unplaced:
        out.append(f"Queue moves of pods queued before the log starts are ignored ({counted(b.unplaced, 'line')}).")
    for label, n in sorted(b.unknown_events.items())[:10]:
        out.append(f"Event {label[:60]!r} ({counted(n, 'line')}) is not a 1.28 queue event the model knows: "
                   "ignored.")
    out.extend(gaps(b))
    if b.backwards:
        out.append(f"A line earlier than one before it is taken at the later time ({counted(b.backwards, 'line')}).")
    out.extend(b.notes)
    return out[:MAX_ASSUMPTIONS]


def _phased(b: Builder, phased: list[Parked]) -> str:
    limit = MAX_IN_UNSCHEDULABLE / 1e6
    attempts = [f"{b.place(p.line)} at t = {p.attempt / 1e6:g} s, {(p.attempt - p.failed) / 1e6:g} s after the "
                "pod's failure" for p in phased]
    more = f"; {counted(len(attempts), 'attempt')} in all" if len(attempts) > 4 else ""
    return (f"The periodic flushes are placed (flush_phase) so that the 30 s flush of pods parked over {limit:g} s "
            f"ticks just before each attempt of a pod parked {limit:g} to {limit + 30:g} s ({'; '.join(attempts[:4])}"
            f"{more}): the log shows no flush move, and that flush is what moves such a pod in the cluster when no "
            "event does. It is chosen over an activate standing for an event the log does not show; the other flush "
            "is assumed to share that phase (both start with the queue).")


def gaps(b: Builder) -> list[str]:
    """Each gap of over a day between two lines (builder.LONG_GAP), in a sentence: the clock runs across it."""
    return [f"{b.place(n) if n is not None else 'The last used line'} is {seconds / 86_400:,.1f} days after "
            f"{b.place(before)}: the clock advances across the gap as the timestamps say. Were files joined with a "
            "stretch missing, or did the clock jump? Check them, or import the stretch on either side of it."
            for n, before, seconds in b.gaps]


def description(source: str, counts: Counts, b: Builder, scenario: dict[str, Any], assumptions: list[str],
                 disagreements: list[str]) -> str:
    steps = scenario["steps"]
    fails = sum(1 for s in steps if s["op"] == "fail")
    lines = [
        f"Imported by `inflight-scope import` from {source}: {counts.summary()}.",
        f"{counted(len(scenario['pods']), 'pod')}, {counted(len(steps), 'step')} ({counted(fails, 'failure')}) "
        f"over {b.clock / 1e6:g} s, with the scheduler's periodic flushes running as the clock advances. Each "
        "step's note names its log line.",
        "",
        "**Assumptions** (what the log cannot tell):",
        "",
        *(f"* {a}" for a in assumptions),
        "",
        *(f"{said}\n" for said in [_gate_said(b)] if said),
        _compared(b, disagreements),
    ]
    if disagreements:
        lines += ["", *(f"* {d}" for d in disagreements)]
    return "\n".join(lines) + "\n"


def _compared(b: Builder, disagreements: list[str]) -> str:
    """What comparing the log's queue moves with the model's replay found, in a sentence."""
    versions = joined(b.variants)
    if disagreements:
        others = [v for v in b.variants if v not in b.counts.agreeing]
        verdict = f"**{b.counts.verdict()}**, where that on {joined(others)} does not.\n\n" if b.counts.agreeing else ""
        return (f"{verdict}**Disagreements** (queue moves the log states that the model's replay on {versions} "
                "does not make about then, with what the model did; also in the counts):")
    if b.claims:
        return (f"The model's replay on {versions} makes each queue move the log states "
                f"({counted(len(b.claims), 'line')}).")
    return "The log states no queue move (-v=4 logs them) to compare with the model's replay."


def _gate_said(b: Builder) -> str:
    """What the log shows of SchedulerQueueingHints, in a paragraph ("" when nothing)."""
    on, off = b.gate_lines.get(True), b.gate_lines.get(False)
    if off is not None:
        return (f"**SchedulerQueueingHints off:** {b.place(off)} logs a failure's queue as only "
                "addUnschedulableWithoutQueueingHint does (scheduling_queue.go:680, 684 at v1.28.0, -v=5, without "
                f"{GATE_ON_KEY}): the gate-off path, kube-scheduler's default from {GATE_OFF_VERSION}. The scenario "
                f"says `gate: false` (on {joined(VARIANTS)} the queue runs as 1.28.0-1.28.4's with the gate turned "
                f"off) and opens on {GATE_OFF_VERSION} too, which runs with it off whatever `gate` says: replay it "
                f"there (`inflight-scope replay --variant {GATE_OFF_VERSION}`).")
    if on is not None:
        return (f"SchedulerQueueingHints on: {b.place(on)} logs a failure's queue as AddUnschedulableIfNotPresent "
                f"does with the gate on (scheduling_queue.go:734 at v1.28.0, -v=6, with {GATE_ON_KEY}).")
    return ""


def standby(place: str, held: int) -> str:
    """The assumption that a replica's log from ``place`` on is a standby's (logs/replicas.py)."""
    return (f"The replica whose log starts at {place} starts a leader election (\"attempting to acquire leader "
            f"lease\") and never schedules: a standby, whose informers log the cluster's events without scheduling. "
            f"Its {counted(held, 'scheduler line')} are left out; only the leader schedules.")


def leaders(places: list[str]) -> str:
    """The assumption that several replicas led in turn (a leader change: logs/replicas.py)."""
    return (f"{counted(len(places), 'replica')} led in turn, each after its own leader election (their logs start "
            f"at {joined(places)}): a leader change. All of their lines are used, in the log's order, as one "
            "scheduler's; the new leader's queue starts with what its informers had added while it waited.")
