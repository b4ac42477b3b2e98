"""kube-scheduler logs -> a scenario: ``inflight-scope import LOGFILE...`` (docs/import.md).

The importer reads klog text lines (``I1130 12:00:01.123456    1 schedule_one.go:80] "About to try and schedule
pod" pod="default/a"``) and the JSON log format (``{"ts":1701345601123.456,"caller":"scheduler/schedule_one.go:80",
"msg":"About to try and schedule pod","v":4,"pod":{"name":"a","namespace":"default"}}``), one line at a time, and
turns the scheduler's own messages into scenario steps. The messages, their keys and the verbosity each needs are
those of kube-scheduler v1.28 (vendored in kubernetes/autoscaler at cb95d464,
``cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/``):

===========================================================================  =====  ==============================  ====================================
message                                                                      -v     upstream file:line              becomes
===========================================================================  =====  ==============================  ====================================
About to try and schedule pod (pod)                                          4      schedule_one.go:80              ``pop`` (expect the pod)
Attempting to schedule pod (pod)                                             3      schedule_one.go:93              ``pop`` (once per attempt)
Unable to schedule pod; no fit; waiting (pod, err)                           2      schedule_one.go:967             ``fail`` with plugins from err
Unable to schedule pod; no nodes are registered to the cluster; waiting      2      schedule_one.go:964             ``fail``, no plugin
Unable to schedule pod, possibly due to node not found; waiting (pod, err)   2      schedule_one.go:969             ``fail``, no plugin
Error scheduling pod; retrying (pod, err)                                    error  schedule_one.go:983             ``fail``, no plugin
Successfully bound pod to node (pod, node)                                   2      schedule_one.go:286             ``done``
Pod moved to an internal scheduling queue (pod, event, queue, hint)          4      internal/queue/                 a cluster event (``event``), or a
                                                                                    scheduling_queue.go:1101        30 s flush (UnschedulableTimeout)
Pod moved ... event=PodAdd queue=Active                                      5      scheduling_queue.go:530         ``add``
Pod moved ... event=ScheduleAttemptFailure (queue)                           5 / 6  scheduling_queue.go:680, 684,   a note on the ``fail``; without
                                                                                    734                             schedulingCycle: ``gate: false``
Pod moved ... event=BackoffComplete queue=Active                             5      scheduling_queue.go:765         the 1 s flush (evidence of its phase)
Pod moved ... event=BackoffComplete queue=Active (by Update)                 5      scheduling_queue.go:948         ``update`` (_Builder.by_update)
Pod moved ... event=PodUpdate                                                5      scheduling_queue.go:942, 964    ``update``
Event is not making pod schedulable (pod, event)                             5      scheduling_queue.go:1095        a cluster event (``event``)
Add event for unscheduled pod (pod)                                          3      eventhandlers.go:126            ``add``
Delete event for unscheduled pod (pod)                                       3      eventhandlers.go:171            ``delete``
Add event for node (node)                                                    3      eventhandlers.go:76             ``event: NodeAdd``
Add event for scheduled pod (pod)                                            3      eventhandlers.go:197            ``assigned_pod_added``
Update event for scheduled pod (pod)                                         4      eventhandlers.go:218            ``event: AssignedPodUpdate``
Delete event for scheduled pod (pod)                                         3      eventhandlers.go:244            ``event: AssignedPodDelete``
===========================================================================  =====  ==============================  ====================================

Event labels, queue names (Active, Backoff, Unschedulable) and hint names are those of internal/queue/events.go
(l. 25-86), scheduling_queue.go l. 64-66 and framework/types.go l. 102-128. The plugins of a failure are read from
its err: the FitError message (framework/types.go l. 315) is a histogram of the plugins' reasons (PLUGIN_REASONS).

What a log cannot tell is filled with assumptions, each listed in the result (``Imported.assumptions``, the
scenario's ``assumptions`` and description, and comments in the YAML): which events arrived that moved no parked pod,
which events wake which plugin (1.28's EventsToRegister, the catalogue of webapp/model/plugins.py, with defaultQueueingHintFn's
QueueAfterBackoff, scheduler.go l. 366, as none of the 1.28 in-tree plugins has a QueueingHintFn), priorities
(0, but those that pop pods in the log's order: _Priorities), the backoff settings (the defaults) and the phase of
the periodic flushes; the SchedulerQueueingHints gate is read from the log where it shows it (_gate), and the
plugin catalogue's hints are never written out (explicit_hints). The scenario is then replayed on the versions the
import targets (``_Builder.variants``: VARIANTS, and v1.28.5 with the gate off): what stops it is
mended (_Mender) or is the log's, named by its line; what the log says of a queue move that the replay does not do
is a disagreement (``Imported.disagreements``, in the description and the YAML's comments, and counted), never an
assumption.

Lines are read one at a time (never the whole input), cut at MAX_LINE bytes; the steps are bounded by the scenario
limits. This module is the scenario layer: it may use the model (to check that the scenario runs) but no engine.
"""

from __future__ import annotations

import bisect
import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import BinaryIO, Callable, Iterable

from ..errors import TooLarge
from ..model.config import BACKOFF_PERIOD, LEFTOVER_PERIOD, NS, QueueConfig
from ..model.errors import StepError
from ..model.events import ACTIVE_Q, BACKOFF_Q, CATALOGUE, HINTS, UNSCHEDULABLE_PODS
from ..model.queue import IN_FLIGHT
from ..model.plugins import PLUGINS, event_labels, hint_for
from ..model.variant import VARIANTS
from .load import load_scenario
from .loglines import (FLUSH, GATE_OFF, GATE_OFF_VERSION, GATE_ON, GATE_ON_KEY, UPDATE, Counts, Line, LogError,
                       Truncated, counted, move_caller, object_ref, parse_line, read_lines)
from .validate import MAX_SECONDS, Limits

MAX_ASSUMPTIONS = 200
SOURCE = "kubernetes/autoscaler@cb95d464 cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/"


@dataclass(frozen=True)
class Message:
    kind: str
    verbosity: int  # klog -v needed to see it (0 for errors)
    source: str  # file:line under SOURCE


MESSAGES = {
    "About to try and schedule pod": Message("attempt", 4, "schedule_one.go:80"),
    "Attempting to schedule pod": Message("attempt", 3, "schedule_one.go:93"),
    "Unable to schedule pod; no fit; waiting": Message("fail", 2, "schedule_one.go:967"),
    "Unable to schedule pod; no nodes are registered to the cluster; waiting": Message("fail", 2,
                                                                                       "schedule_one.go:964"),
    "Unable to schedule pod, possibly due to node not found; waiting": Message("fail", 2, "schedule_one.go:969"),
    "Error scheduling pod; retrying": Message("fail", 0, "schedule_one.go:983"),
    "Successfully bound pod to node": Message("bound", 2, "schedule_one.go:286"),
    "Pod moved to an internal scheduling queue": Message("moved", 4, "internal/queue/scheduling_queue.go:1101"),
    "Event is not making pod schedulable": Message("skipped", 5, "internal/queue/scheduling_queue.go:1095"),
    "Add event for unscheduled pod": Message("added", 3, "eventhandlers.go:126"),
    "Delete event for unscheduled pod": Message("deleted", 3, "eventhandlers.go:171"),
    "Add event for node": Message("node_added", 3, "eventhandlers.go:76"),
    "Add event for scheduled pod": Message("assigned_added", 3, "eventhandlers.go:197"),
    "Update event for scheduled pod": Message("assigned_updated", 4, "eventhandlers.go:218"),
    "Delete event for scheduled pod": Message("assigned_deleted", 3, "eventhandlers.go:244"),
}
# "Pod moved ..." by event: the verbosity and line of each call (scheduling_queue.go).
MOVED = {
    "PodAdd": (5, "internal/queue/scheduling_queue.go:530"),
    "ScheduleAttemptFailure": (5, "internal/queue/scheduling_queue.go:680, 684 (gate off); 734 at -v=6 (gate on)"),
    "BackoffComplete": (5, "internal/queue/scheduling_queue.go:765 (the 1 s flush); 948 (Update)"),
    "PodUpdate": (5, "internal/queue/scheduling_queue.go:942, 964"),
}
QUEUES = {"Active": "activeQ", "Backoff": "backoffQ", "Unschedulable": "unschedulablePods"}
# The longest a pod stays in backoffQ after its failure: it enters only while backing off (at its failure, or by
# an event or Update that check isPodBackingoff: v1.28.0 l. 1057, 937), at most max_backoff (the default 10 s,
# assumed) after its failure, and the 1 s flush takes it at its first tick after that.
MAX_BACKOFF = QueueConfig().max_backoff
LONGEST_IN_BACKOFF = (MAX_BACKOFF + BACKOFF_PERIOD + NS // 2) // 1000  # µs, with half a second to spare
HINT_NUMBERS = {"0": "QueueSkip", "1": "QueueAfterBackoff", "2": "QueueImmediately"}

# A failure's plugins from its message: each in-tree plugin's reason text at v1.28 (framework/plugins/...).
PLUGIN_REASONS = (
    ("node(s) didn't find available persistent volumes to bind", "VolumeBinding", "volumebinding/binder.go:64"),
    ("node(s) had volume node affinity conflict", "VolumeBinding", "volumebinding/binder.go:66"),
    ("node(s) did not have enough free storage", "VolumeBinding", "volumebinding/binder.go:68"),
    ("node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)", "VolumeBinding",
     "volumebinding/binder.go:70"),
    ("pod has unbound immediate PersistentVolumeClaims", "VolumeBinding", "volumebinding/volume_binding.go:180"),
    ("Insufficient ", "NodeResourcesFit", "noderesources/fit.go:332, 341, 351, 379"),
    ("Too many pods", "NodeResourcesFit", "noderesources/fit.go:315"),
    ("node(s) didn't match Pod's node affinity/selector", "NodeAffinity", "nodeaffinity/node_affinity.go:59"),
    ("node(s) didn't match scheduler-enforced node affinity", "NodeAffinity", "nodeaffinity/node_affinity.go:62"),
    ("node(s) had untolerated taint", "TaintToleration", "tainttoleration/taint_toleration.go:72"),
    ("node(s) had taints that the pod didn't tolerate", "TaintToleration", "tainttoleration/taint_toleration.go:47"),
    ("node(s) were unschedulable", "NodeUnschedulable", "nodeunschedulable/node_unschedulable.go:44"),
    ("node(s) had unknown conditions", "NodeUnschedulable", "nodeunschedulable/node_unschedulable.go:42"),
    ("node(s) didn't have free ports for the requested pod ports", "NodePorts", "nodeports/node_ports.go:45"),
    ("node(s) didn't match the requested node name", "NodeName", "nodename/node_name.go:39"),
    ("node(s) didn't satisfy existing pods anti-affinity rules", "InterPodAffinity", "interpodaffinity/filtering.go:36"),
    ("node(s) didn't match pod affinity rules", "InterPodAffinity", "interpodaffinity/filtering.go:38"),
    ("node(s) didn't match pod anti-affinity rules", "InterPodAffinity", "interpodaffinity/filtering.go:40"),
    ("node(s) didn't match pod topology spread constraints", "PodTopologySpread", "podtopologyspread/plugin.go:37"),
    ("node(s) had no available volume zone", "VolumeZone", "volumezone/volume_zone.go:56"),
    ("node(s) had no available disk", "VolumeRestrictions", "volumerestrictions/volume_restrictions.go:54"),
    ("node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode",
     "VolumeRestrictions", "volumerestrictions/volume_restrictions.go:56"),
    ("node(s) exceed max volume count", "NodeVolumeLimits", "nodevolumelimits/non_csi.go:63"),
)
UNKNOWN_PLUGIN = "UnknownPlugin"

EVENT_LABELS = tuple(label for label, event in CATALOGUE.items() if not event.is_wildcard)  # a hint's events


def woken_by(plugin: str, gate: bool = True) -> dict[str, str]:
    """event label -> the hint ``plugin`` gives it with no explicit hint: a catalogue plugin's 1.28 registrations
    (webapp/model/plugins.py; with the gate off defaultQueueingHintFn's QueueAfterBackoff, scheduler.go:382); the
    unknown plugin, which stands for whichever plugin rejected the pod, QueueAfterBackoff for every event. The
    wildcard events (UnschedulableTimeout) move every pod without asking a plugin."""
    if plugin not in PLUGINS:
        return dict.fromkeys(EVENT_LABELS, "QueueAfterBackoff")
    found: dict[str, str] = {}
    for r in PLUGINS[plugin].registrations:
        for label in event_labels(r.resource, r.action):
            found[label] = max(found.get(label, "QueueSkip"), hint_for(r, gate), key=HINTS.__getitem__)
    return found


def explicit_hints(plugins: list, said: dict, gate: bool) -> tuple[list[dict], list[str]]:
    """The scenario's ``hints`` for the failures' ``plugins``, given what the log ``said`` of hints ((event label,
    the pod's plugins, hint) -> line number), and the hints read from the log, in words. A plugin with an explicit
    hint uses only its explicit hints (scenario-format.md "Plugins by name"), so a catalogue plugin gets none,
    unless the log shows a hint its registrations would not give: then all of them, with the log's; the unknown
    plugin, outside the catalogue, always gets them all. An event the scenario does not have yet (a what-if edit)
    then wakes each plugin as it registered."""
    given = {p: woken_by(p, gate) for p in {*plugins, *(p for _, pod_plugins, _ in said for p in pod_plugins)}}
    logged: dict[str, dict[str, tuple]] = {}  # plugin -> {label: (hint, line)} where the log differs
    for (label, pod_plugins, hint), number in said.items():
        if hint == "QueueSkip":  # every plugin of the pod skipped it
            for p in pod_plugins:
                if given[p].get(label, "QueueSkip") != "QueueSkip":
                    logged.setdefault(p, {}).setdefault(label, (hint, number))
        elif HINTS[hint] > max(HINTS[given[p].get(label, "QueueSkip")] for p in pod_plugins):
            logged.setdefault(pod_plugins[0], {}).setdefault(label, (hint, number))
    hints, from_log = [], []
    for p in plugins:
        if p in PLUGINS and p not in logged:
            continue
        own = {**given[p], **{label: hint for label, (hint, _) in logged.get(p, {}).items()}}
        hints += [{"event": label, "plugin": p, "hint": hint} for label, hint in sorted(own.items())]
        from_log += [f"{p} on {label}: {hint} (line {n})" for label, (hint, n) in logged.get(p, {}).items()]
    return hints, from_log


def plugins_of(err: str) -> tuple[list[str], list[str]]:
    """(plugins, unmatched reasons) of a failure message: the plugins whose reason texts it contains, in table
    order; the reasons of its histogram that no plugin's text matched."""
    found = [plugin for text, plugin, _ in PLUGIN_REASONS if text in err]
    unmatched = []
    for part in re.split(r"[.,] ", err):
        part = re.sub(r"^(preemption: )?0/\d+ nodes are available: ", "", part.strip()).rstrip(".")
        part = re.sub(r"^\d+ ", "", part)
        if part and "node" in part and not any(text in part for text, _, _ in PLUGIN_REASONS) \
                and "Preemption is not helpful" not in part and "No preemption victims" not in part:
            unmatched.append(part)
    return list(dict.fromkeys(found)), unmatched


# --- one line ------------------------------------------------------------------------------------------------
EVENT_WINDOW = 100_000  # micros: move lines of one event label this close, with no step between, are one event
# The periodic flushes, by the event label of the moves they log: (the model's flush, period s, what it moves).
FLUSHES = {
    "BackoffComplete": ("flush_backoff", BACKOFF_PERIOD // NS, "the 1 s flush of pods done backing off"),
    "UnschedulableTimeout": ("flush_unschedulable_leftover", LEFTOVER_PERIOD // NS,
                             "the 30 s flush of pods parked over 5 minutes"),
}


@dataclass
class Imported:
    scenario: dict  # the scenario object (it validates and runs on v1.28.1 and v1.28.2)
    assumptions: list
    counts: Counts
    yaml: str = ""
    disagreements: list = field(default_factory=list)  # the log's queue moves the model's replay does not make


@dataclass(frozen=True)
class _Claim:
    """A queue move a log line states: the pod, the event label and the queue, at scenario micros; what made it, in
    words, when its label does not say."""
    line: int
    pod: str
    event: str
    queue: str
    at: int
    by: str = ""


@dataclass
class _Pod:
    name: str
    state: str = "new"  # new | queued | in_flight | bound | gone
    plugins: tuple = ()
    queue: tuple | None = None  # (queue, line number): where the log last said it went while queued
    failed_at: int | None = None  # scenario micros of its last failure


class _Builder:
    """Turns the used lines into steps, in the log's order; keeps what the assumptions need to say."""

    def __init__(self, source: str, limits: Limits, counts: Counts):
        self.source, self.limits, self.counts = source, limits, counts
        self.steps: list[dict] = []
        self.pods: dict[str, _Pod] = {}
        self.start: int | None = None  # epoch micros of t = 0: the first used line
        self.clock = 0  # scenario micros the steps have reached
        self.last = 0  # scenario micros of the latest used line
        self.seen: dict[str, int] = {}  # message (or "Pod moved ... event=E") -> lines
        self.max_v = 0
        self.open_event: dict | None = None
        self.said: dict = {}  # (event label, the pod's plugins, hint) -> the first line the log shows it
        self.gate_lines: dict[bool, int] = {}  # SchedulerQueueingHints -> the first line that shows it so
        self.variants = VARIANTS  # the versions the import replays (and v1.28.5 with the gate off: _finish)
        self.flush: tuple | None = None  # (scenario micros, period seconds, line number) of a logged flush move
        self.inferred_pops = self.inferred_adds = self.unplaced = self.backwards = 0
        self.unknown_events: dict[str, int] = {}
        self.unmatched: dict[str, int] = {}
        self.unknown_plugin_pods: list[str] = []
        self.last_attempt: str | None = None
        self.last_fail: dict | None = None
        self.notes: list[str] = []
        self.files: list[tuple[int, str]] = []  # (lines before it, label) of each input, in order
        self.claims: list[_Claim] = []  # the queue moves the log states, to compare with the model's
        self.origin: dict[int, int] = {}  # id(step) -> the number of the line it came from (steps live to the end)

    def assume(self, text: str) -> None:
        if text not in self.notes and len(self.notes) < MAX_ASSUMPTIONS:
            self.notes.append(text)

    def at(self, line: Line) -> int:
        return max(line.micros - self.start, self.clock)

    def place(self, number: int) -> str:
        """Line ``number`` (the notes count on through the files) as ``file:line``."""
        before, label = self.files[bisect.bisect_left(self.files, number, key=lambda f: f[0]) - 1]
        return f"{label}:{number - before}"

    def line_of(self, step: dict) -> int:
        """The number of the log line a step (not the clock's) came from."""
        return self.origin[id(step)]

    def emit(self, step: dict, line: Line) -> dict:
        if len(self.steps) + 2 > self.limits.max_steps:
            raise TooLarge(f"{self.source}: the log makes more than {self.limits.max_steps:,} steps; "
                           "import a shorter stretch of it")
        self.advance(self.at(line), {}, line.number)
        step.setdefault("note", f"line {line.number}: {line.msg}")
        self.steps.append(step)
        self.origin[id(step)] = line.number
        self.open_event = None
        if step["op"] == "pop":
            self.last_attempt = step["expect"]
        elif step["op"] != "fail":
            self.last_attempt = None
        return step

    def pod(self, name: str) -> _Pod:
        if name not in self.pods:
            if len(self.pods) >= self.limits.max_pods:
                raise TooLarge(f"{self.source}: the log names more than {self.limits.max_pods:,} pods; "
                               "import a shorter stretch of it")
            self.pods[name] = _Pod(name)
        return self.pods[name]

    def add(self, pod: _Pod, line: Line, note: str | None = None) -> None:
        step = {"op": "add", "pod": pod.name}
        if note:
            step["note"] = note
        self.emit(step, line)
        pod.state = "queued"

    def pop(self, pod: _Pod, line: Line, note: str | None = None) -> None:
        if pod.state not in ("queued",):
            self.inferred_adds += 1
            self.add(pod, line, f"assumed: {pod.name} was added by now (its Add is not in the log; line {line.number})")
        step = {"op": "pop", "expect": pod.name}
        if note:
            step["note"] = note
        self.emit(step, line)
        pod.state, pod.queue = "in_flight", None

    def in_flight(self, pod: _Pod, line: Line) -> None:
        if pod.state != "in_flight":
            self.inferred_pops += 1
            self.pop(pod, line, f"assumed: {pod.name} was popped just before (its attempt is not in the log; "
                                f"line {line.number})")

    def event(self, label: str, line: Line, pod: str | None = None, moved: bool = True) -> None:
        """A cluster event: a handler's line starts one; a move line (``pod``) joins the event just emitted when
        it has the same label, came within EVENT_WINDOW and did not already name that pod, else starts one."""
        if label not in CATALOGUE:
            self.unknown_events[label] = self.unknown_events.get(label, 0) + 1
            return
        at = self.at(line)
        open_ = self.open_event
        if pod is not None and open_ is not None and open_["_label"] == label and pod not in open_["_pods"] \
                and line.micros - self.start - open_["_at"] <= EVENT_WINDOW:
            open_["_pods"].append(pod)
            (open_["_moved"] if moved else open_["_skipped"]).append(pod)
            return
        if label == "AssignedPodAdd":
            step = {"op": "assigned_pod_added", "affinity_matching": []}
        else:
            step = {"op": "event", "event": label}
        step["note"] = f"line {line.number}: {label}" + ("" if pod else f" ({line.msg})")
        self.emit(step, line)
        step.update(_label=label, _at=at, _pods=[], _moved=[], _skipped=[])
        if pod is not None:
            step["_pods"].append(pod)
            (step["_moved"] if moved else step["_skipped"]).append(pod)
        self.open_event = step

    def take(self, line: Line) -> None:
        message = MESSAGES.get(line.msg)
        if message is None:
            self.counts.other += 1
            return
        if self.start is None:
            self.start = line.micros
        if line.micros - self.start < self.clock:
            self.backwards += 1
        self.last = max(self.last, line.micros - self.start)
        self.max_v = max(self.max_v, line.verbosity or 0, message.verbosity)
        kind = message.kind
        key = line.msg
        if kind == "moved" and isinstance(line.values.get("event"), str):
            key = f"{line.msg} (event {line.values['event']})"
            self.max_v = max(self.max_v, MOVED.get(line.values["event"], (4,))[0])
        self.seen[key] = self.seen.get(key, 0) + 1
        if kind in ("node_added", "assigned_added", "assigned_updated", "assigned_deleted"):
            self.counts.used += 1
            self.event({"node_added": "NodeAdd", "assigned_added": "AssignedPodAdd",
                        "assigned_updated": "AssignedPodUpdate", "assigned_deleted": "AssignedPodDelete"}[kind], line)
            return
        name = object_ref(line.values.get("pod"))
        if name is None:
            self.counts.ignored += 1
            return
        self.counts.used += 1
        getattr(self, f"_{kind}")(name, line)

    def _added(self, name: str, line: Line) -> None:
        pod = self.pod(name)
        if pod.state in ("new", "bound", "gone"):
            self.add(pod, line)

    def _deleted(self, name: str, line: Line) -> None:
        pod = self.pod(name)
        if pod.state == "in_flight":
            self.emit({"op": "done", "pod": name,
                       "note": f"assumed: the attempt of {name} ended as it was deleted (line {line.number})"}, line)
            pod.state = "queued"
        if pod.state == "queued":
            self.emit({"op": "delete", "pod": name}, line)
        pod.state = "gone"

    def _attempt(self, name: str, line: Line) -> None:
        pod = self.pod(name)
        if pod.state == "in_flight" and self.last_attempt == name:
            return  # the same attempt's other line (-v=4 logs both)
        if pod.state == "in_flight":
            self.assume(f"{name}: an attempt began while the previous one had no logged end; that one is assumed "
                        "to have failed with its previous plugins")
            self.emit({"op": "fail", "pod": name, "unschedulable_plugins": list(pod.plugins),
                       "note": f"assumed: the previous attempt of {name} failed (line {line.number})"}, line)
            pod.state = "queued"
        self.pop(pod, line)

    def _fail(self, name: str, line: Line) -> None:
        pod = self.pod(name)
        self.in_flight(pod, line)
        err = line.values.get("err")
        err = err if isinstance(err, str) else "" if err is None else json.dumps(err)
        plugins: list[str] = []
        if line.msg == "Unable to schedule pod; no fit; waiting":
            plugins, unmatched = plugins_of(err)
            for reason in unmatched:
                self.unmatched[reason] = self.unmatched.get(reason, 0) + 1
            if not plugins:
                plugins = [UNKNOWN_PLUGIN]
                self.unknown_plugin_pods.append(name)
        pod.plugins = tuple(plugins)
        note = f"line {line.number}: {line.msg}" + (f" ({err})" if err else "")
        self.last_fail = self.emit({"op": "fail", "pod": name, "unschedulable_plugins": plugins,
                                    "note": note[:1000]}, line)
        pod.state, pod.failed_at = "queued", self.clock

    def _bound(self, name: str, line: Line) -> None:
        pod = self.pod(name)
        self.in_flight(pod, line)
        node = line.values.get("node")
        node = object_ref(node)
        self.emit({"op": "done", "pod": name,
                   "note": f"line {line.number}: {name} bound" + (f" to {node}" if node else "")}, line)
        pod.state = "bound"

    def _skipped(self, name: str, line: Line) -> None:
        label = line.values.get("event")
        pod = self.pods.get(name)
        if not isinstance(label, str) or pod is None or pod.state != "queued":
            self.unplaced += 1
            return
        self.event(label, line, name, moved=False)
        pod.queue = (UNSCHEDULABLE_PODS, line.number)  # movePodsToActiveOrBackoffQueue left it there
        self.hinted(label, pod, "QueueSkip", line.number)

    def _moved(self, name: str, line: Line) -> None:
        label, queue = line.values.get("event"), QUEUES.get(line.values.get("queue"))
        if not isinstance(label, str):
            self.counts.used -= 1
            self.counts.ignored += 1
            return
        by = self._move(name, label, line)
        if by is not None and queue is not None and (label in CATALOGUE or label in MOVED):
            if len(self.claims) >= self.limits.max_steps:
                raise TooLarge(f"{self.source}: the log states more than {self.limits.max_steps:,} queue moves; "
                               "import a shorter stretch of it")
            self.claims.append(_Claim(line.number, name, label, queue, self.at(line), by))
        if name in self.pods and queue is not None:
            self.pods[name].queue = (queue, line.number)

    def _move(self, name: str, label: str, line: Line) -> str | None:
        """What a queue move line becomes. When the model has the pod there, to compare where it puts it: what made
        the move, in words where its label does not say ("" where it does); else None."""
        if label == "PodAdd":
            self._added(name, line)
            return ""
        pod = self.pods.get(name)
        if label == "ScheduleAttemptFailure":
            call = move_caller(line, (GATE_OFF, GATE_ON))
            gate = call[0] == GATE_ON if call else GATE_ON_KEY in line.values
            self.gate_lines.setdefault(gate, line.number)
            self.counts.gate_off += not gate
            self.max_v = max(self.max_v, 6 if gate else 5)
            if self.last_fail is None or self.last_fail["pod"] != name:
                return None
            queue = line.values.get("queue")
            self.last_fail["note"] += f"; the log: to {QUEUES.get(queue, queue)}"
            return ""
        update = self.by_update(pod, line) if label == "BackoffComplete" else None
        if update is not None:
            self.emit({"op": "update", "pod": name, "note": f"line {line.number}: {line.msg} ({label}) by Update, "
                                                            f"not the 1 s flush: {update}"}, line)
            return "Update of a pod in unschedulablePods that is not backing off"
        if label in FLUSHES:  # the periodic flushes: they run as the clock advances
            period = FLUSHES[label][1]
            if self.flush is None or period > self.flush[1]:
                self.flush = (line.micros - self.start, period, line.number)
            return None if pod is None else FLUSHES[label][2]
        if pod is None or pod.state != "queued":
            self.unplaced += 1  # queued before the log starts (or a line out of order): cannot be placed
            return None
        if label == "PodUpdate":
            self.emit({"op": "update", "pod": name}, line)
            return ""
        self.event(label, line, name)
        hint = line.values.get("hint")
        self.hinted(label, pod, HINT_NUMBERS.get(str(hint), hint), line.number)
        return ""

    def hinted(self, label: str, pod: _Pod, hint, number: int) -> None:
        """The log shows ``hint`` for ``label`` of a pod (that its plugins gave it: the queue asks them); kept for
        explicit_hints when a plugin's hint can name the event."""
        if pod.plugins and label in EVENT_LABELS and isinstance(hint, str) and hint in HINTS:
            self.said.setdefault((label, pod.plugins, hint), number)

    def by_update(self, pod: _Pod | None, line: Line) -> str | None:
        """Why a BackoffComplete move of queued ``pod`` is Update's (scheduling_queue.go:948 at v1.28.0: the pod was
        in unschedulablePods, not backing off) and not the 1 s flush's (l. 765, which only takes pods from
        backoffQ), in words; None when the log points to the flush or says nothing either way. The evidence, first
        that speaks: the queue the log last put the pod in; the line that logged it (MOVE_CALLERS);
        the time since its failure, past which no pod is still in backoffQ (LONGEST_IN_BACKOFF)."""
        if pod is None or pod.state != "queued":
            return None
        if pod.queue is not None:
            queue, number = pod.queue
            return None if queue != UNSCHEDULABLE_PODS else (
                f"the log put {pod.name} in unschedulablePods (line {number}), where the 1 s flush never looks")
        call = move_caller(line, (FLUSH, UPDATE))
        if call is not None:
            return f"{line.caller} is {UPDATE}'s line in {call[1]}" if call[0] == UPDATE else None
        waited = self.at(line) - pod.failed_at if pod.failed_at is not None else 0
        if waited > LONGEST_IN_BACKOFF:
            self.assume(f"A BackoffComplete move of a pod over {LONGEST_IN_BACKOFF / 1e6:g} s after its failure, "
                        "with no queue logged for it since, is taken as Update's (scheduling_queue.go:948 at v1.28.0), "
                        f"not the 1 s flush's: with the default backoff (at most {MAX_BACKOFF // NS} s) no pod is "
                        "still in backoffQ then.")
            return (f"{waited / 1e6:g} s after its failure, when no pod is still in backoffQ (it enters only while "
                    f"backing off, at most {MAX_BACKOFF // NS} s, and the 1 s flush takes it then)")
        return None

    def finish_clock(self) -> None:
        self.advance(self.last, {"note": "to the time of the log's last used line"}, None)

    def advance(self, at: int, extra: dict, number: int | None) -> None:
        """An advance_clock step to ``at`` (µs since the start), if it is later; one longer than a scenario's clock
        may move in a step (validate.MAX_SECONDS) is the log's fault, named by its line."""
        if at <= self.clock:
            return
        seconds = (at - self.clock) / 1e6
        if seconds > MAX_SECONDS:
            where = f"line {number}" if number is not None else "its last used line"
            raise LogError(f"{self.source}: {where} is {seconds:,.0f} s after the line before it; a scenario's clock "
                           f"moves at most {MAX_SECONDS:,.0f} s (about 31 years) in a step: are its timestamps right?")
        self.steps.append({"op": "advance_clock", "seconds": seconds, **extra})
        self.clock = at


def import_logs(streams: Iterable[tuple[str, BinaryIO]], limits: Limits = Limits(),
                progress: Callable[[str, int], None] | None = None, name: str | None = None) -> Imported:
    """Read kube-scheduler logs (``(label, binary stream)`` pairs, in order, as one log) into a scenario that
    validates and runs on v1.28.1 and v1.28.2. Raises LogError when the input is no scheduler log (empty, binary,
    no log line, no scheduler message), TooLarge past the scenario limits."""
    counts = Counts()
    labels: list[str] = []
    builder: _Builder | None = None
    log_lines = number = 0
    previous: int | None = None  # the time of the last log line: a klog header's year is the one nearest it
    for label, stream in streams:
        labels.append(label)
        counts.files += 1
        builder = builder or _Builder(label, limits, counts)
        builder.files.append((number, label))
        each = (lambda n, label=label: progress(label, n)) if progress else None
        for text, complete in read_lines(stream, counts, each, label):
            number += 1  # lines count on through the files, in the order given
            if not text.strip():
                continue
            try:
                line = parse_line(text, number, previous)
            except Truncated:
                counts.truncated += 1
                continue
            if line is None:
                if complete:
                    counts.unknown += 1
                else:  # the input's last line, cut short (or a stray unfinished line)
                    counts.truncated += 1
                continue
            log_lines += 1
            previous = line.micros
            builder.take(line)
    source = ", ".join(labels) or "<no input>"
    if counts.bytes == 0 or counts.lines == 0:
        raise LogError(f"{source}: empty input, not a log")
    if log_lines == 0:
        raise LogError(f"{source}: not a kube-scheduler log: {_none_of(counts.lines, 'line')} a klog or JSON log "
                       "line")
    if builder is None or builder.start is None:
        raise LogError(f"{source}: a log, but {_none_of(log_lines, 'log line')} a kube-scheduler message the "
                       "importer knows (docs/import.md lists them)")
    if not builder.steps and builder.last == 0:
        raise LogError(f"{source}: its kube-scheduler lines name no pod the importer could place")
    return _finish(builder, source, counts, limits, name or f"Imported from {', '.join(map(_file_name, labels))}")


def _none_of(n: int, noun: str) -> str:
    """The subject of "... is a <noun> the importer takes" said of all ``n`` lines, one or more."""
    return f"its one {noun} is not" if n == 1 else f"none of its {n:,} {noun}s is"


def _file_name(label: str) -> str:
    """What the scenario's name calls an input: its file name without the directories (a label that names no
    file, "<stdin>" or "the log", as it is)."""
    return os.path.basename(label) or label


def _finish(b: _Builder, source: str, counts: Counts, limits: Limits, name: str) -> Imported:
    b.finish_clock()
    counts.used -= b.unplaced
    counts.ignored += b.unplaced
    for step in b.steps:  # the grouping keys go; the note says what the log moved
        if "_label" not in step:
            continue
        moved, skipped = step["_moved"], step["_skipped"]
        for key in ("_label", "_at", "_pods", "_moved", "_skipped"):
            del step[key]
        if step["op"] == "assigned_pod_added":
            step["affinity_matching"] = list(moved)
        if moved:
            step["note"] += f"; the log moved {', '.join(moved)}"
        if skipped:
            step["note"] += f"; the log: not making {', '.join(skipped)} schedulable"
    names = _short_names(b.pods)
    for step in b.steps:
        for key in ("pod", "expect"):
            if key in step:
                step[key] = names[step[key]]
        if "affinity_matching" in step:
            step["affinity_matching"] = [names[n] for n in step["affinity_matching"]]
    plugins = list(dict.fromkeys(p for s in b.steps if s["op"] == "fail" for p in s["unschedulable_plugins"]))
    gate = _gate(b)
    if not gate:
        b.variants = VARIANTS + (GATE_OFF_VERSION,)
    hints, from_log = explicit_hints(plugins, b.said, gate)
    scenario = {
        "schema": 1,
        "name": name[:200],
        "description": "",
        "periodic_flushes": True,
        **({} if gate else {"gate": False, "versions": list(b.variants)}),
        "hints": hints,
        "config": {"flush_phase": _flush_phase(b)},
        "pods": [{"name": names[p]} for p in b.pods],
        "steps": b.steps,
    }
    mended = _Mender(scenario, limits, b)
    mended.run()
    disagreements, counts.disagreeing = _disagreements(scenario, limits, b, names)
    assumptions = _assumptions(b, plugins, from_log, mended)
    scenario["description"] = _description(source, counts, b, scenario, assumptions, disagreements)
    scenario["assumptions"] = assumptions
    load_scenario(scenario, limits)  # what it produced validates (else a bug: let it raise)
    return Imported(scenario, assumptions, counts, to_yaml(scenario, assumptions, disagreements), disagreements)


def _gate(b: _Builder) -> bool:
    """SchedulerQueueingHints as the log shows it (MOVE_CALLERS): off when a failure's queue is logged by the
    gate-off path, else on (1.28.0-1.28.4's default; the assumptions say so when the log shows neither). A log that
    shows both is refused."""
    on, off = b.gate_lines.get(True), b.gate_lines.get(False)
    if on is not None and off is not None:
        first, later = sorted((on, off))
        raise LogError(
            f"{b.place(later)}: a failure's queue is logged by the {GATE_ON if later == on else GATE_OFF} path of "
            f"SchedulerQueueingHints, but {b.place(first)} by the {GATE_ON if first == on else GATE_OFF} path: did "
            f"the scheduler restart with the other setting? Import a stretch of the log that ends before "
            f"{b.place(later)}, or one that starts after {b.place(first)}")
    return off is None


def _gate_said(b: _Builder) -> str:
    """What the log shows of SchedulerQueueingHints, in a paragraph ("" when nothing)."""
    on, off = b.gate_lines.get(True), b.gate_lines.get(False)
    if off is not None:
        return (f"**SchedulerQueueingHints off:** {b.place(off)} logs a failure's queue as only "
                "addUnschedulableWithoutQueueingHint does (scheduling_queue.go:680, 684 at v1.28.0, -v=5, without "
                f"{GATE_ON_KEY}): the gate-off path, kube-scheduler's default from {GATE_OFF_VERSION}. The scenario "
                f"says `gate: false` (on {_and(VARIANTS)} the queue runs as 1.28.0-1.28.4's with the gate turned "
                f"off) and opens on {GATE_OFF_VERSION} too, which runs with it off whatever `gate` says: replay it "
                f"there (`inflight-scope replay --variant {GATE_OFF_VERSION}`).")
    if on is not None:
        return (f"SchedulerQueueingHints on: {b.place(on)} logs a failure's queue as AddUnschedulableIfNotPresent "
                f"does with the gate on (scheduling_queue.go:734 at v1.28.0, -v=6, with {GATE_ON_KEY}).")
    return ""


def _short_names(pods: dict) -> dict:
    """Pod names without their namespace when every pod is in the same one (the log's ns/name otherwise)."""
    spaces = {name.split("/", 1)[0] for name in pods if "/" in name}
    if len(spaces) <= 1:
        short = {name: name.split("/", 1)[-1] for name in pods}
        if len(set(short.values())) == len(short):
            return short
    return {name: name for name in pods}


def _flush_phase(b: _Builder) -> float:
    """flush_phase so that a logged flush move falls on a tick (1 µs before its line); 0 without one."""
    if b.flush is None:
        return 0
    at, period, _ = b.flush
    return ((1 - at) % (period * 1_000_000)) / 1e6


# --- replaying it ----------------------------------------------------------------------------------------------
MAX_MENDS = 50  # rounds of activates and priorities that may make one log replay


class _Stuck(Exception):
    """The first step a version cannot apply: its index, the version, the model's error."""

    def __init__(self, index: int, variant: str, error: StepError):
        super().__init__(error.message)
        self.index, self.variant, self.error = index, variant, error


def _applied(model, steps) -> Iterable[tuple[dict, dict, dict]]:
    """(step, result, record) of each step applied to ``model`` in turn; _Stuck at the first it cannot apply."""
    for i, step in enumerate(steps):
        try:
            result, record = model.apply(i, step)
        except StepError as err:
            raise _Stuck(i, model.variant, err) from None
        yield step, result, record


def _named(step: dict) -> set:
    """The pods a step names."""
    return {step[key] for key in ("pod", "expect") if key in step} | set(step.get("pods", ()))


class _Priorities:
    """Pod priorities that pop pods in the log's order. kube-scheduler's activeQ pops the highest priority first,
    then the pod queued first (PrioritySort), and the log says no pod's priority: ``require(a, b, ...)`` says the
    log pops ``a`` while ``b`` waits in activeQ, so a's priority must be at least b's, and higher if b was queued
    first. Each pod gets the lowest priority from 0 that keeps every such order; one that contradicts the others is
    a LogError naming the lines."""

    def __init__(self, b: _Builder, pods: int):
        self.b, self.most = b, pods  # no chain of orders is longer than the pods
        self.over: dict[str, dict[str, tuple]] = {}  # a -> {b: (gap: 1 if higher else 0, line, version)}
        self.under: dict[str, set[str]] = {}  # b -> the pods a that must not be below it
        self.level: dict[str, int] = {}

    def require(self, a: str, b: str, higher: bool, line: int, variant: str) -> None:
        gap = int(higher)
        if self.over.get(a, {}).get(b, (-1,))[0] >= gap:
            return
        self.over.setdefault(a, {})[b] = (gap, line, variant)
        self.under.setdefault(b, set()).add(a)
        work = [(a, self.level.get(b, 0) + gap)]
        while work:
            name, level = work.pop()
            if self.level.get(name, 0) >= level:
                continue
            if level > self.most:  # the orders go round a loop that asks for a higher priority
                self.contradiction(a, b, line, variant)
            self.level[name] = level
            work.extend((first, level + self.over[first][name][0]) for first in self.under.get(name, ()))

    def assumption(self) -> str:
        ahead: dict[tuple, list] = {}  # (line, pod) -> the pods queued before it that it is popped ahead of
        for a, over in self.over.items():
            for b, (higher, line, _) in over.items():
                if higher:
                    ahead.setdefault((line, a), []).append(b)
        orders = [f"{self.b.place(line)} attempts {a} ahead of {_listed(others, 3)}"
                  for (line, a), others in sorted(ahead.items())]
        given = [f"{pod} {level}" for pod, level in sorted(self.level.items(), key=lambda p: (-p[1], p[0]))]
        more = f"; {counted(len(orders), 'attempt')} in all" if len(orders) > 4 else ""
        return (f"Priorities: the log attempts pods ahead of pods queued before them that wait in activeQ "
                f"({'; '.join(orders[:4])}{more}). kube-scheduler's activeQ pops the highest priority first, then "
                "the pod queued first (PrioritySort), and the log says no pod's priority: these pods are given the "
                f"lowest priorities that pop them in the log's order ({_listed(given)}). (A pod queued before the "
                "log starts, its Add not in the log, is ahead by its earlier Timestamp in the cluster; here it is "
                "added just before its attempt, and its priority stands for that.) A priority changes nothing else "
                "the model does, where an activate or a re-add would stand for events the log does not show.")

    def contradiction(self, a: str, b: str, line: int, variant: str) -> None:
        path = self.path(b, a)
        said = "; ".join(f"{self.b.place(n)} attempts {x} while {y} waits, on {v}" for x, y, (_, n, v) in path)
        lines = sorted(n for _, _, (_, n, _) in path)
        raise LogError(
            f"{self.b.place(line)}: the log attempts {a} while {b} waits in activeQ (on {variant}), but other "
            f"attempts put {b} ahead of {a} ({said}): no pod priorities give all these orders, and the log shows "
            "nothing else that would (is a line missing?). Import a stretch of the log that does not hold them all: "
            f"one that ends before {self.b.place(max(lines[-1], line))}, or one that starts after "
            f"{self.b.place(min(lines[0], line))}")

    def path(self, first: str, last: str) -> list[tuple[str, str, tuple]]:
        """The orders (a, b, (gap, line, version)) that keep ``first`` at or above ``last``, one of them higher."""
        paths = [(first, [], False)]
        seen = set()
        while paths:
            at, path, higher = paths.pop()
            for b, order in self.over.get(at, {}).items():
                state = (b, higher or order[0] == 1)
                if b == last and state[1]:
                    return path + [(at, b, order)]
                if state not in seen:
                    seen.add(state)
                    paths.append((b, path + [(at, b, order)], state[1]))
        return []


class _Mender:
    """Makes the scenario replay on the versions the import targets (b.variants), each attempt where the log has it,
    by replaying it until every version runs every step:

    * a pod that a version has parked when the log attempts it (an event the log does not show moved it in the
      cluster) gets an ``activate`` just before the attempt;
    * a pod that the log attempts while pods queued before it wait in activeQ gets a higher priority than theirs
      (_Priorities): a priority changes nothing else the model does, where an activate, an update or a re-add of
      the others would stand for events the log does not show. What a version's queue does, given that each pop
      takes the pod the log names, does not depend on the priorities: the pods waiting in activeQ at a stuck pop
      keep their records until a step names them, so the orders among them that the log's later attempts need
      are all required at once.

    A step a version cannot run for any other reason is the log's: a LogError names its line (``file:line``) and
    what to do."""

    def __init__(self, scenario: dict, limits: Limits, b: _Builder):
        self.scenario, self.limits, self.b = scenario, limits, b
        self.activated: list[str] = []
        self.priorities = _Priorities(b, len(scenario["pods"]))

    def run(self) -> None:
        for mends in range(MAX_MENDS + 1):
            stuck = self.stuck()
            if stuck is None:
                return
            if mends == MAX_MENDS:
                raise LogError(f"{self.here(stuck[1])}: the log needs more than {MAX_MENDS} rounds of activates and "
                               "priorities to replay (the next one for this line): import a shorter stretch of it, "
                               "around what you want to see")
            self.mend(*stuck)

    def stuck(self) -> tuple | None:
        """(the scenario loaded, _Stuck) at the first step a version cannot run, or None when all run all."""
        loaded = load_scenario(self.scenario, self.limits)
        try:
            for variant in self.b.variants:
                for _ in _applied(loaded.model(variant), loaded.steps):
                    pass
        except _Stuck as stuck:
            return loaded, stuck
        return None

    def here(self, stuck: _Stuck) -> str:
        return self.b.place(self.b.line_of(self.scenario["steps"][stuck.index]))

    def mend(self, loaded, stuck: _Stuck) -> None:
        step = self.scenario["steps"][stuck.index]
        pod = step.get("expect") if step["op"] == "pop" else None
        model = loaded.model(stuck.variant)
        for _ in _applied(model, loaded.steps[:stuck.index]):
            pass
        pods = model.view()["pods"]
        where = pods[pod]["where"] if pod is not None else None
        if where in (BACKOFF_Q, UNSCHEDULABLE_PODS):
            self.activate(stuck, pod)
        elif where == ACTIVE_Q:
            self.order(stuck, pods)
        else:
            raise LogError(f"{self.here(stuck)}: the log cannot be replayed from here: {stuck.error.message} (on "
                           f"{stuck.variant}); the lines before it do not lead there (is one missing, or out of "
                           "order?). Import the stretch of the log after this line, or before it")

    def activate(self, stuck: _Stuck, pod: str) -> None:
        steps = self.scenario["steps"]
        step = {"op": "activate", "pods": [pod], "note": (
            f"assumed: {pod} was back in activeQ in the cluster (it was attempted next), but here on {stuck.variant} "
            "it was not: an event the log does not show moved it")}
        self.b.origin[id(step)] = self.b.line_of(steps[stuck.index])
        steps.insert(stuck.index, step)
        self.activated.append(pod)

    def order(self, stuck: _Stuck, pods: dict) -> None:
        """The orders among the pods waiting in activeQ that the log's attempts from the stuck one on need."""
        waiting = {name: p["timestamp"] for name, p in pods.items() if p["where"] == ACTIVE_Q}
        orders = []
        for step in self.scenario["steps"][stuck.index:]:
            if not waiting:
                break
            popped = step.get("expect") if step["op"] == "pop" else None
            if popped in waiting:
                queued = waiting.pop(popped)
                orders += [(popped, other, since < queued, self.b.line_of(step)) for other, since in waiting.items()]
            for name in _named(step):
                waiting.pop(name, None)
        for popped, other, higher, line in reversed(orders):  # the last first: each pod is raised once
            self.priorities.require(popped, other, higher, line, stuck.variant)
        for entry in self.scenario["pods"]:
            if self.priorities.level.get(entry["name"]):
                entry["priority"] = self.priorities.level[entry["name"]]


def _and(names) -> str:
    """"a", "a and b", "a, b and c"."""
    names = list(names)
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _listed(names: list, most: int = 8) -> str:
    """At most ``most`` names, then how many more."""
    more = len(names) - most
    return ", ".join(names[:most]) + (f" and {more} more" if more > 0 else "")


# --- what the log says that the model does not ---------------------------------------------------------------
MOVE_SLACK = 0.5  # s: a move the log states and one of the model's are the same this close (half the 1 s flush)
MAX_DISAGREEMENTS = 50  # listed; the counts say how many lines disagree
# The event label of the model's moves, by the step that made them (an event step's is its own; a flush's, FLUSHES).
CAUSES = {"add": "PodAdd", "fail": "ScheduleAttemptFailure", "update": "PodUpdate",
          "assigned_pod_added": "AssignedPodAdd", **{op: label for label, (op, _, _) in FLUSHES.items()}}


def _update_label(move: dict) -> str:
    """The event label upstream logs for a move an Update makes: BackoffComplete from unschedulablePods to activeQ
    (v1.28.0 scheduling_queue.go:948), PodUpdate otherwise (l. 942, 964)."""
    return "BackoffComplete" if (move["from"], move["to"]) == (UNSCHEDULABLE_PODS, ACTIVE_Q) else "PodUpdate"


@dataclass(frozen=True)
class _Move:
    """A move the model made: when (s), where to (a queue, IN_FLIGHT or None), by what, from which log line."""
    at: float
    to: str | None
    cause: str
    line: int | None


def _model_moves(loaded, variant: str, scenario: dict, b: _Builder) -> dict[str, list[_Move]]:
    """pod -> its moves on ``variant``, in time order (a periodic flush's at its tick)."""
    moves: dict[str, list[_Move]] = {}
    now = 0.0
    for original, (step, result, record) in zip(scenario["steps"], _applied(loaded.model(variant), loaded.steps)):
        if step["op"] == "advance_clock":
            for flush in result["flushes"]:
                moved = flush["result"].get("moved") or dict.fromkeys(flush["result"].get("moved_to_activeQ", ()),
                                                                       ACTIVE_Q)
                for pod, queue in moved.items():
                    moves.setdefault(pod, []).append(_Move(flush["at"], queue, CAUSES[flush["op"]], None))
            now = result["now"]
            continue
        cause = step.get("event") or CAUSES.get(step["op"], step["op"])
        for move in record["moves"]:
            label = _update_label(move) if step["op"] == "update" else cause
            moves.setdefault(move["pod"], []).append(_Move(now, move["to"], label, b.line_of(original)))
    return moves


def _disagreements(scenario: dict, limits: Limits, b: _Builder, names: dict) -> tuple[list[str], int]:
    """The queue moves the log states (``Pod moved to an internal scheduling queue``: the event and the queue) that
    the model's replay on the versions the import targets does not make about then, each with what the model did;
    and how many lines disagree."""
    loaded = load_scenario(scenario, limits)
    replays = {variant: _model_moves(loaded, variant, scenario, b) for variant in b.variants}
    said, lines = [], 0
    for claim in b.claims:
        pod = names[claim.pod]
        versions: dict[str, list[str]] = {}  # what the model did -> the versions that did it
        for variant, moves in replays.items():
            history = moves.get(pod, [])
            if not _makes(history, claim):
                versions.setdefault(_did(history, claim, pod, b), []).append(variant)
        lines += bool(versions)
        gloss = f" ({claim.by})" if claim.by else ""
        said += [f"{b.place(claim.line)} (t = {claim.at / 1e6:g} s): the log moves {pod} to {claim.queue} by "
                 f"{claim.event}{gloss}; on {_and(v)} the model: {did}." for did, v in versions.items()]
    if len(said) > MAX_DISAGREEMENTS:
        said[MAX_DISAGREEMENTS:] = [f"... and {len(said) - MAX_DISAGREEMENTS:,} more."]
    return said, lines


def _makes(history: list[_Move], claim: _Claim) -> bool:
    """Whether the model makes the claimed move (the pod, its queue and event) within MOVE_SLACK of it."""
    at = claim.at / 1e6
    first = bisect.bisect_left(history, at - MOVE_SLACK, key=lambda m: m.at)
    return any(m.to == claim.queue and m.cause == claim.event
               for m in history[first:bisect.bisect_right(history, at + MOVE_SLACK, key=lambda m: m.at)])


def _did(history: list[_Move], claim: _Claim, pod: str, b: _Builder) -> str:
    """What the model did with the pod by the time of the claimed move, since its last attempt, and next."""
    end = bisect.bisect_right(history, claim.at / 1e6, key=lambda m: m.at)
    recent = history[max(end - 3, 0):end]
    attempts = [i for i, m in enumerate(recent) if m.to == IN_FLIGHT]
    done = [_moved_words(m, b) for m in recent[attempts[-1] if attempts else 0:]]
    did = ", then ".join(done) if done else f"{pod} not queued yet"
    return did + (f"; next: {_moved_words(history[end], b)}" if end < len(history) else "")


def _moved_words(move: _Move, b: _Builder) -> str:
    where = {IN_FLIGHT: "popped", None: move.cause}.get(move.to, f"to {move.to} by {move.cause}")
    return f"{where} at t = {move.at:g} s" + (f" ({b.place(move.line)})" if move.line is not None else "")


def _since(b: _Builder, micros: int) -> str:
    moment = datetime.fromtimestamp((b.start + micros) / 1e6, timezone.utc)
    return moment.strftime("%m-%d %H:%M:%S.%f")


def _assumptions(b: _Builder, plugins: list, from_log: list, mended: _Mender) -> list[str]:
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
    if b.flush is None:
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
                                    "shows no failure's queue, which -v=5 logs with the gate off and -v=6 with it on)")
    out.append(f"Every pod has priority 0{' unless given one below' if given else ''}, the default backoff (1 s "
               f"initial, 10 s max) and 300 s maximum in unschedulablePods{gate}. The log says none of these.")
    if given:
        out.append(mended.priorities.assumption())
    if mended.activated:
        out.append(f"{counted(len(mended.activated), 'attempt')} of a pod that the model had parked on some version "
                   f"({_listed(list(dict.fromkeys(mended.activated)))}): an activate is inserted before each, "
                   "standing for an event the log does not show.")
    if b.unplaced:
        out.append(f"Queue moves of pods queued before the log starts are ignored ({counted(b.unplaced, 'line')}).")
    for label, n in sorted(b.unknown_events.items())[:10]:
        out.append(f"Event {label[:60]!r} ({counted(n, 'line')}) is not a 1.28 queue event the model knows: "
                   "ignored.")
    if b.backwards:
        out.append(f"A line earlier than one before it is taken at the later time ({counted(b.backwards, 'line')}).")
    out.extend(b.notes)
    return out[:MAX_ASSUMPTIONS]


def _description(source: str, counts: Counts, b: _Builder, scenario: dict, assumptions: list,
                 disagreements: list) -> str:
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


def _compared(b: _Builder, disagreements: list) -> str:
    """What comparing the log's queue moves with the model's replay found, in a sentence."""
    versions = _and(b.variants)
    if disagreements:
        return (f"**Disagreements** (queue moves the log states that the model's replay on {versions} does not make "
                "about then, with what the model did; also in the counts):")
    if b.claims:
        return (f"The model's replay on {versions} makes each queue move the log states "
                f"({counted(len(b.claims), 'line')}).")
    return "The log states no queue move (-v=4 logs them) to compare with the model's replay."


# --- YAML ---------------------------------------------------------------------------------------------------
def _scalar(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        text = f"{v:.6f}".rstrip("0")
        return text + "0" if text.endswith(".") else text
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a YAML double-quoted scalar
    if isinstance(v, list):
        return "[" + ", ".join(_scalar(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_scalar(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def to_yaml(scenario: dict, assumptions: list, disagreements: list) -> str:
    """The scenario as YAML, laid out like the built-ins, with the assumptions and the disagreements also as
    comments at the top."""
    out = ["# Imported from a kube-scheduler log by `inflight-scope import`.",
           "# ASSUMPTIONS (what the log cannot tell; also in `assumptions:` and the description):"]
    out += ["#  - " + a.replace("\n", " ") for a in assumptions]
    if disagreements:
        out.append("# DISAGREEMENTS (queue moves the log states that the model's replay does not make; also in the "
                   "description):")
        out += ["#  - " + d.replace("\n", " ") for d in disagreements]
    out += ["schema: 1", f"name: {_scalar(scenario['name'])}", "description: |"]
    out += ["  " + line if line else "" for line in scenario["description"].splitlines()]
    out.append("assumptions:")
    out += [f"  - {_scalar(a)}" for a in assumptions]
    out.append(f"periodic_flushes: {_scalar(scenario['periodic_flushes'])}")
    out += [f"{key}: {_scalar(scenario[key])}" for key in ("gate", "versions") if key in scenario]
    out.append("hints:" + ("" if scenario["hints"] else " []"))
    out += [f"  - {_scalar(h)}" for h in scenario["hints"]]
    out.append(f"config: {_scalar(scenario['config'])}")
    out.append("pods:")
    out += [f"  - {_scalar(p)}" for p in scenario["pods"]]
    out.append("steps:")
    out += [f"  - {_scalar(s)}" for s in scenario["steps"]]
    return "\n".join(out) + "\n"
