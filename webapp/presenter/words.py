"""Every name, title and short text a view shows, stated once. Drawing code (the page, the SVG export, the
command line's text) takes them from the scene and never spells them itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..model.operations import OPERATIONS, PLUGINS, SECONDS, Param, arguments
from ..model.record import Step
from ..model.versions import VERSIONS
from ..phrases import listed

# version -> what its pane's tag line says after the releases it stands for (the picker shows its summary)
TAG_LINES = {
    "v1.28.1": "marker into a shared event list",
    "v1.28.2": "every in-flight pod has its own entry",
    "v1.28.4": "Pop clears unschedulable plugins",
    "v1.28.5": "hints off by default: no in-flight list",
    "v1.29.9": "Queue / QueueSkip, pending plugins",
    "v1.30.14": "ignores events no hint matches",
    "v1.31.13": "in-flight updates become entries",
    "v1.32.0": "Pop drops in-flight duplicates; ForceActivate",
    "v1.36.2": "Pop from backoffQ; 1 s backoff windows",
}
# variant -> (title, tag line, tone): the tone colours the pane (bug: markers, the lost marker can happen;
# fix: pod entries, it cannot)
PANES = {name: (name, f"{v.releases} · {TAG_LINES.get(name, v.summary)}", "fix" if v.rules.pod_entries else "bug")
         for name, v in VERSIONS.items()}
LIST_NAME = {name: "inFlightEvents" if v.rules.pod_entries else "receivedEvents" for name, v in VERSIONS.items()}

# queue -> (label, icon, what waiting there means), in the order the lanes are drawn
LANES = {
    "activeQ": ("activeQ", "●", "waiting to be popped"),
    "backoffQ": ("backoffQ", "◔", "backing off"),
    "unschedulablePods": ("unschedulablePods", "■", "parked until an event or the 5-min flush"),
    "inFlight": ("in flight", "▲", "popped; attempt running"),
}
PREDICT_CHOICES = ("activeQ", "backoffQ", "unschedulablePods")  # where a failed pod can go

FRONT_NOTE = "nil → walks from the front"
BEFORE_FIRST = "Before the first step."  # the presenter's "now" before any step
AT_END = "End of the scenario."  # the presenter's "next" after the last step
GHOST_NOTE = "Next() = nil"
EMPTY_LIST = "(empty)"  # an in-flight list that holds nothing

# What took an entry off the list in this step (a record's removal reason); {pod} is the pod whose Done ran.
GONE = {
    "done": "removed by Done({pod})",
    "cleanup_front": "dropped from the front by Done({pod})",
    "exhausted": "counted down to 0 by Done({pod})",
}
GONE_OTHER = "removed by Done({pod})"
JUST_REMOVED = " (+{count} just removed, drawn faint)"  # after a list's count when this step removed entries

MARK = {"live": "↑", "detached": "⇡"}  # the glyph of a v1.28.1 marker tag above the element it names

# The visual language, in the order a legend lists it: key -> (label, what it means). The page, the SVG
# export and the offline file draw each key with one shape and one colour.
LEGEND = {
    "event": ("e1 NodeAdd", "event entry: a cluster event recorded while pods were in flight"),
    "pod-entry": ("[B]", "pod entry: v1.28.2 gives every in-flight pod its own entry"),
    "marker": ("B", "pointer: where an in-flight pod's walk starts (v1.28.1: its previousEvent)"),
    "detached": ("B", "detached pointer: its element was removed; Next() is nil, the walk sees nothing"),
    "tag": ("B " + MARK["live"], "v1.28.1: the element a pod's previousEvent names (" + MARK["detached"]
            + ": removed, detached)"),
    "front": ("nil", "a nil previousEvent: the pod's walk starts at the front of the list"),
    "reach": ("will visit", "the entries an in-flight pod's walk would visit if it failed now"),
    "walk": ("walked", "entries the failing pod's walk visited, each tagged with the hint it read there"),
    "unseen": ("unseen", "an event the pod can no longer see"),
    "ghost": ("removed", "an entry this step removed, kept faint so the step can be read"),
    "head": ("A", "the head of activeQ: the next pop takes it (each lane lists its pods in the order they leave)"),
    "wait": ("◴ 30 s / 300 s", "time in unschedulablePods against the 5-minute flush"),
    "backoff": ("◔ 1 s left", "backoff still to run before backoffQ releases the pod"),
}
UNSEEN_BY = "unseen by {pods}"
# The outcomes line: each failed pod's way back to activeQ so far (nothing from steps not yet applied).
OUTCOMES = {
    "label": "After failing, so far",
    "returned": "back in activeQ after {seconds} via {via}",
    "popped": "popped from {source} after {seconds}",  # 1.33+: Pop took it before it was back in activeQ
    "many": "back {count} times, longest {seconds} via {via}",
    "waiting": "waiting in {where} since t = {since}",
    "moved": "waiting in {where} since t = {since}, via {via}",  # it has moved on from where it failed to
}
NEXT_POP = "waiting for the scheduler's next Pop, as in the log"  # an imported pod the model had ready long before
CHIP_PLUGINS = {"plugins": "plugins: {}", "pending": "pending plugins: {}"}  # a chip's title (pending: 1.29+)
TIMER = {"wait": "{value} / {limit}", "backoff": "{value} left", "backoff-over": "backoff over",
         "flush": "flush at {at}"}  # with periodic flushes: when the tick that moves it comes, after the timer
# A chip's marks (1.32+): kind -> (its text, its title); {pod}, {pods}, {end}, {start}, {plugin}, {group} filled in.
# ("window" is a rule over the first chip of each of backoffQ's one-second windows.)
CHIP_MARKS = {
    "early": ("from backoffQ", "{pod} was popped from backoffQ before its backoff ended at {end} (activeQ was "
                               "empty)"),
    "error": ("error heap", "{pod} failed with no rejecting plugin: it waits in podErrorBackoffQ, which Pop never "
                            "takes from early"),
    "window": ("window {start}–{end}", "the backoff of {pods} ends in the one-second window from {start} to "
                                       "{end}: backoffQ orders by window, then by priority, and releases them when "
                                       "the window has passed"),
    "gated": ("gated: {plugin}", "{pod} waits for its scheduling gates to be removed; {plugin} keeps it out of "
                                 "activeQ and only an event {plugin} registered can release it"),
    "group": ("group {group}", "{pod} is a member of pod group {group}: when it fails it always backs off"),
    "discarded": ("discarded", "Pop took this record of {pod}, but {pod} was already in flight: it was dropped"),
}
GATE_PLUGIN = "SchedulingGates"  # the PreEnqueue plugin that holds a pod with scheduling gates (before 1.33 unnamed)
# 1.32+: the tag over a ForceActivate entry, naming the only pod whose failure it requeues
FOR_POD = ("for {pod}", "Activate({pod}) while {pod} was in flight: when {pod} fails its walk meets this entry and "
                        "{pod} is requeued; for any other pod it is not an event that helps")
UNFLUSHED = "No flush ran: the scheduler would have moved {pod} at {at}, out of {queue}."
UNFLUSHED_WHY = ("periodic_flushes is off: time passes and only flush steps move a pod. The scheduler runs "
                 "flushBackoffQCompleted every 1 s and flushUnschedulablePodsLeftover every 30 s.")
CAPTION_SAW = {  # how a failing pod's walk went, for the caption line under a pane's diagram
    "saw": "saw {events}",
    "nothing": "saw no event",
    "detached": "its marker {marker} was removed: saw nothing",
    # decided before any walk (the hint's reason)
    "no-rejector-plugins": "no rejector plugin: backoff",
    "not-in-flight-error": "not in flight: backoff",
}


def seconds(value: float) -> str:
    return f"{int(value) if float(value).is_integer() else f'{value:.2f}'} s"


NAMED = 8  # names a view lists in one place (pods that cannot see an event, events a pod cannot see)


def named(names: Sequence[str]) -> str:
    """At most NAMED names, then how many more: a message stays bounded however many pods are in flight."""
    return listed(names, NAMED)


def entries(count: int) -> str:
    return f"{count} entr{'y' if count == 1 else 'ies'}"


def step_number(index: int) -> int:
    """A step as people count it: the page's caption "6. fail B", the CLI's table; ``index`` is its place in
    ``steps[]`` (from 0, as traces and error messages give it)."""
    return index + 1


def step_label(step: Step) -> str:
    """A step in plain words from its declared parameters: the required ones bare, the optional ones named
    after a dash ("fail B — plugin P", "pop — expect A", "advance_clock 30 s")."""
    given = dict(arguments(step))
    params = {p.name: p for p in OPERATIONS[step["op"]].params}
    # an empty list is named even when required: "assigned_pod_added — affinity matching none", not "... none"
    shown_bare = {name for name, value in given.items() if params[name].required and value != [] and value != ()}
    bare = [_value(params[name], value) for name, value in given.items() if name in shown_bare]
    named = [_named(params[name], value) for name, value in given.items() if name not in shown_bare]
    return " ".join([step["op"], *bare]) + (f" — {', '.join(named)}" if named else "")


def _value(param: Param, value: Any) -> str:  # a value as validated: of its parameter's type
    if param.type == SECONDS:
        return seconds(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value)) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _named(param: Param, value: Any) -> str:
    if param.type == PLUGINS:  # "plugin P" (the rejecting ones), "pending plugin NodeAffinity"
        kind = "" if param.name == "unschedulable_plugins" else param.name.removesuffix("_plugins") + " "
        return f"{kind}plugin{'s' if len(value) != 1 else ''} {_value(param, value)}" if value else f"no {kind}plugins"
    return f"{param.name.replace('_', ' ')} {_value(param, value)}"


# The scheduler's jargon, explained where it appears (a definition on hover/focus, and in the course).
GLOSSARY = {
    "scheduling cycle": "One attempt to place one pod: Pop() starts it (schedulingCycle counts them); the pod is "
                        "in flight until its binding ends or it fails.",
    "moveRequestCycle": "The scheduling cycle when an event last asked to move pods. With the gate off, a failing "
                        "pod goes to backoffQ if moveRequestCycle ≥ the cycle its failure is reported with; the "
                        "scheduler reports the current one, so: if an event came since the latest Pop.",
    "inFlightPodsNum": "v1.28.1: how many in-flight pods still need this event (n=). Done counts it down; at 0 "
                       "the event is removed from receivedEvents.",
    "previousEvent": "v1.28.1: the newest event in receivedEvents when the pod was popped, its marker. On failure "
                     "the pod looks at the events after it, via previousEvent.Next().",
    "QueueImmediately": "A plugin's queueing hint: this event may make the pod schedulable, retry it now "
                        "(activeQ).",
    "QueueAfterBackoff": "A plugin's queueing hint: this event may make the pod schedulable, retry it after its "
                         "backoff (backoffQ).",
    "QueueSkip": "A plugin's queueing hint: this event does not help the pod; it stays in unschedulablePods.",
    "backoff": "A failed pod waits 1 s, doubling per attempt up to 10 s, in backoffQ before it returns to "
               "activeQ.",
    "activeQ": "Pods waiting to be popped and tried, highest priority first.",
    "backoffQ": "Pods waiting out their backoff; flushed to activeQ every second once it has run out.",
    "unschedulablePods": "Pods that failed and wait for an event that may help them; after 5 minutes the "
                         "leftover flush moves them anyway.",
    "in flight": "Popped: the pod's scheduling, permit or binding is still running. Events that arrive now are "
                 "recorded so a failure can be judged against them.",
    "Done": "Called when an attempt ends (bound or failed): the pod stops being in flight and events no remaining "
            "attempt needs are dropped.",
}
