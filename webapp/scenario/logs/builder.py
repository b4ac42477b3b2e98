"""The scheduler's lines, in the log's order, into scenario steps (``Builder``), keeping what the assumptions,
the mending and the comparison with the model's replay need: the queue moves the log states (``Claim``), the
hints it shows, the SchedulerQueueingHints gate it shows, the flush move or the attempts of long-parked pods
(``Parked``) that give the flushes' phase (phase.py), the gaps of over a day between lines (LONG_GAP)."""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass
from typing import Any

from ...errors import TooLarge
from ...model.config import BACKOFF_PERIOD, LEFTOVER_PERIOD, NS, QueueConfig
from ...model.events import CATALOGUE, HINTS, UNSCHEDULABLE_PODS
from ...model.variant import VARIANTS
from ..validate import MAX_SECONDS, Limits
from .lines import (
    FLUSH,
    GATE_OFF,
    GATE_ON,
    GATE_ON_KEY,
    KUBERNETES_NAMES,
    POD_NAME_RULE,
    UPDATE,
    Line,
    LogError,
    kubernetes_name,
    move_caller,
    object_ref,
    pod_name,
    shown_name,
)
from .messages import EVENT_LABELS, HINT_NUMBERS, MESSAGES, MOVED, QUEUES, UNKNOWN_PLUGIN, plugins_of
from .reading import Counts
from .release import LABELS, NOT_GATE

MAX_ASSUMPTIONS = 200

# The longest a pod stays in backoffQ after its failure: it enters only while backing off (at its failure, or by
# an event or Update that check isPodBackingoff: v1.28.0 l. 1057, 937), at most max_backoff (the default 10 s,
# assumed) after its failure, and the 1 s flush takes it at its first tick after that.
MAX_BACKOFF = QueueConfig().max_backoff
LONGEST_IN_BACKOFF = (MAX_BACKOFF + BACKOFF_PERIOD + NS // 2) // 1000  # µs, with half a second to spare

# The longest a pod stays in unschedulablePods unless an event moves it: the 30 s flush takes it at its first tick
# past max_in_unschedulable (the default 300 s, assumed) after its failure.
MAX_IN_UNSCHEDULABLE = QueueConfig().max_in_unschedulable // 1000  # µs
# A gap between two lines longer than this is said (with both lines) rather than taken silently: a scheduler's
# queue changes nothing after its flushes' 5.5 minutes, so such a gap is most likely files joined with a stretch
# missing, or a clock that jumped.
LONG_GAP = 86_400_000_000  # µs: a day

EVENT_WINDOW = 100_000  # micros: move lines of one event label this close, with no step between, are one event
# The periodic flushes, by the event label of the moves they log: (the model's flush, period s, what it moves).
FLUSHES = {
    "BackoffComplete": ("flush_backoff", BACKOFF_PERIOD // NS, "the 1 s flush of pods done backing off"),
    "UnschedulableTimeout": ("flush_unschedulable_leftover", LEFTOVER_PERIOD // NS,
                             "the 30 s flush of pods parked over 5 minutes"),
}


@dataclass(frozen=True)
class Claim:
    """A queue move a log line states: the pod, the event label and the queue, at scenario micros; what made it, in
    words, when its label does not say."""
    line: int
    pod: str
    event: str
    queue: str
    at: int
    by: str = ""


@dataclass(frozen=True)
class Parked:
    """An attempt of a pod over MAX_IN_UNSCHEDULABLE after its failure, the log stating no move of it to another
    queue since: the 30 s flush of pods parked that long may be what moved it (phase.py). Scenario micros."""
    failed: int
    attempt: int
    line: int


Step = dict[str, Any]  # a scenario step as the builder writes it (with its grouping keys until the end)


@dataclass
class _Pod:
    name: str
    state: str = "new"  # new | queued | in_flight | bound | gone
    plugins: tuple[str, ...] = ()
    queue: tuple[str, int] | None = None  # (queue, line number): where the log last said it went while queued
    failed_at: int | None = None  # scenario micros of its last failure


class Builder:
    """Turns the used lines into steps, in the log's order; keeps what the assumptions need to say."""

    def __init__(self, source: str, limits: Limits, counts: Counts):
        self.source, self.limits, self.counts = source, limits, counts
        self.steps: list[Step] = []
        self.pods: dict[str, _Pod] = {}
        self.start: int | None = None  # epoch micros of t = 0: the first used line
        self.clock = 0  # scenario micros the steps have reached
        self.last = 0  # scenario micros of the latest used line
        self.seen: dict[str, int] = {}  # message (or "Pod moved ... event=E") -> lines
        self.callers: dict[tuple[str, str], int] = {}  # (message, its file:line) -> the first line (release.py)
        self.max_v = 0
        self.open_event: Step | None = None
        # (event label, the pod's plugins, hint) -> the first line the log shows it
        self.said: dict[tuple[str, tuple[str, ...], str], int] = {}
        self.gate_lines: dict[bool, int] = {}  # SchedulerQueueingHints -> the first line that shows it so
        # the versions the import replays (and v1.28.5 with the gate off: importer.py)
        self.variants: tuple[str, ...] = VARIANTS
        # (scenario micros, period seconds, line number) of a logged flush move
        self.flush: tuple[int, int, int] | None = None
        self.parked: list[Parked] = []  # attempts of pods parked over MAX_IN_UNSCHEDULABLE, in the log's order
        self.clock_line: int | None = None  # the number of the line whose time the clock is at
        # (line number or None: the last used line, the line before, seconds) > LONG_GAP
        self.gaps: list[tuple[int | None, int, float]] = []
        self.inferred_pops = self.inferred_adds = self.unplaced = self.backwards = 0
        self.unknown_events: dict[str, int] = {}
        self.unmatched: dict[str, int] = {}
        self.unknown_plugin_pods: list[str] = []
        self.last_attempt: str | None = None
        self.last_fail: Step | None = None
        self.notes: list[str] = []
        self.edited = False  # a pod's name is no Kubernetes name: said once, as an assumption
        self.files: list[tuple[int, str]] = []  # (lines before it, label) of each input, in order
        self.claims: list[Claim] = []  # the queue moves the log states, to compare with the model's
        self.origin: dict[int, int] = {}  # id(step) -> the number of the line it came from (steps live to the end)

    def assume(self, text: str) -> None:
        if text not in self.notes and len(self.notes) < MAX_ASSUMPTIONS:
            self.notes.append(text)

    def at(self, line: Line) -> int:
        return max(self.since(line.micros), self.clock)

    def since(self, micros: int) -> int:
        """``micros`` (since the epoch) as scenario micros: from the first used line."""
        assert self.start is not None  # a line was taken
        return micros - self.start

    def epoch(self, micros: int) -> int:
        """Scenario ``micros`` as micros since the epoch."""
        assert self.start is not None  # a line was taken
        return self.start + micros

    def redate(self, shift: int) -> None:
        """The lines taken so far, their klog years guessed, are ``shift`` µs later: a line with a year showed when
        they were (lines.redated). Their times from t = 0 stay."""
        if self.start is not None:
            self.start += shift

    def place(self, number: int) -> str:
        """Line ``number`` (the notes count on through the files) as ``file:line``."""
        before, label = self.files[bisect.bisect_left(self.files, number, key=lambda f: f[0]) - 1]
        return f"{label}:{number - before}"

    def line_of(self, step: Step) -> int:
        """The number of the log line a step (not the clock's) came from."""
        return self.origin[id(step)]

    def emit(self, step: Step, line: Line) -> Step:
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
        at = self.at(line)
        if pod.failed_at is not None and at - pod.failed_at > MAX_IN_UNSCHEDULABLE and (
                pod.queue is None or pod.queue[0] == UNSCHEDULABLE_PODS):
            self.parked.append(Parked(pod.failed_at, at, line.number))
        self.emit(step, line)
        pod.state, pod.queue, pod.failed_at = "in_flight", None, None

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
                and self.since(line.micros) - open_["_at"] <= EVENT_WINDOW:
            open_["_pods"].append(pod)
            (open_["_moved"] if moved else open_["_skipped"]).append(pod)
            return
        step: Step
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
            self.start, self.clock_line = line.micros, line.number
        if self.since(line.micros) < self.clock:
            self.backwards += 1
        self.last = max(self.last, self.since(line.micros))
        self.max_v = max(self.max_v, line.verbosity or 0, message.verbosity)
        kind = message.kind
        key = line.msg
        if kind == "moved" and isinstance(line.values.get("event"), str):
            key = f"{line.msg} (event {line.values['event']})"
            self.max_v = max(self.max_v, MOVED.get(line.values["event"], (4,))[0])
        self.seen[key] = self.seen.get(key, 0) + 1
        if line.caller:  # where the message is logged tells its release (release.py)
            self.callers.setdefault((line.msg, line.caller), line.number)
        if kind in ("node_added", "assigned_added", "assigned_updated", "assigned_deleted"):
            self.counts.used += 1
            self.event({"node_added": "NodeAdd", "assigned_added": "AssignedPodAdd",
                        "assigned_updated": "AssignedPodUpdate", "assigned_deleted": "AssignedPodDelete"}[kind], line)
            return
        if "pod" not in line.values:
            self.counts.ignored += 1
            return
        name, problem = pod_name(line.values["pod"])
        if name is None:
            raise LogError(f"{self.place(line.number)}: pod: {problem}; expected {POD_NAME_RULE}, as kube-scheduler "
                           "logs it. Is the log edited or cut? Import a stretch of it without that line")
        if not self.edited and not kubernetes_name(name):
            self.edited = True
            self.assume(f"The log was edited: its pod names are not all valid Kubernetes names (the first, "
                        f"{shown_name(name)} at {self.place(line.number)}; {KUBERNETES_NAMES}). They are kept as "
                        "written.")
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
        label, queue = line.values.get("event"), QUEUES.get(str(line.values.get("queue")))
        label = LABELS.get(label, label) if isinstance(label, str) else label
        if not isinstance(label, str):
            self.counts.used -= 1
            self.counts.ignored += 1
            return
        by = self._move(name, label, line)
        if by is not None and queue is not None and (label in CATALOGUE or label in MOVED):
            if len(self.claims) >= self.limits.max_steps:
                raise TooLarge(f"{self.source}: the log states more than {self.limits.max_steps:,} queue moves; "
                               "import a shorter stretch of it")
            self.claims.append(Claim(line.number, name, label, queue, self.at(line), by))
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
            if line.caller not in NOT_GATE:  # 1.32+: a move logged by another call than the failure's
                self.gate_lines.setdefault(gate, line.number)
                self.counts.gate_off += not gate
                self.max_v = max(self.max_v, 6 if gate else 5)
            if self.last_fail is None or self.last_fail["pod"] != name:
                return None
            queue = line.values.get("queue")
            self.last_fail["note"] += f"; the log: to {QUEUES.get(str(queue), queue)}"
            return ""
        update = self.by_update(pod, line) if label == "BackoffComplete" else None
        if update is not None:
            self.emit({"op": "update", "pod": name, "note": f"line {line.number}: {line.msg} ({label}) by Update, "
                                                            f"not the 1 s flush: {update}"}, line)
            return "Update of a pod in unschedulablePods that is not backing off"
        if label in FLUSHES:  # the periodic flushes: they run as the clock advances
            period = FLUSHES[label][1]
            if self.flush is None or period > self.flush[1]:
                self.flush = (self.since(line.micros), period, line.number)
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

    def hinted(self, label: str, pod: _Pod, hint: object, number: int) -> None:
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

    def advance(self, at: int, extra: Step, number: int | None) -> None:
        """An advance_clock step to ``at`` (µs since the start), if it is later; one longer than a scenario's clock
        may move in a step (validate.MAX_SECONDS) is the log's fault, named by its line."""
        if at <= self.clock:
            return
        seconds = (at - self.clock) / 1e6
        if seconds > MAX_SECONDS:
            where = f"line {number}" if number is not None else "its last used line"
            raise LogError(f"{self.source}: {where} is {seconds:,.0f} s after the line before it; a scenario's clock "
                           f"moves at most {MAX_SECONDS:,.0f} s (about 31 years) in a step: are its timestamps right?")
        if at - self.clock > LONG_GAP and len(self.gaps) < MAX_ASSUMPTIONS:
            assert self.clock_line is not None  # set with the first line
            self.gaps.append((number, self.clock_line, seconds))
        self.steps.append({"op": "advance_clock", "seconds": seconds, **extra})
        self.clock, self.clock_line = at, number
