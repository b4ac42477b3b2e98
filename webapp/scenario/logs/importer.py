"""``import_logs``: the input's lines, read one at a time, through the builder into a scenario, which is then
finished: its pods' short names, the SchedulerQueueingHints gate the log shows, the flushes' phase (phase.py), the
plugins' explicit hints, mended to replay, compared with the model's replay, described, checked and written as YAML.
The klog lines before the first line with a year (JSON's, a runtime prefix's) are re-dated by it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from ...model.variant import VARIANTS
from ...model.versions import VERSIONS
from ...phrases import joined
from ..load import load_scenario
from ..validate import Limits
from . import compare, words
from .builder import Builder
from .compare import Evidence
from .lines import (
    GATE_OFF,
    GATE_OFF_VERSION,
    GATE_ON,
    Interleaved,
    LogError,
    Truncated,
    parse_line,
    redated,
)
from .mend import Mender
from .messages import explicit_hints
from .phase import flush_phase
from .reading import Counts, read_lines
from .release import NOT_RECOGNISED, Recognised, recognise
from .replicas import Replicas
from .yamltext import to_yaml


@dataclass
class Imported:
    scenario: dict[str, Any]  # the scenario object (it validates and runs on v1.28.1 and v1.28.2)
    assumptions: list[str]
    counts: Counts
    yaml: str = ""
    disagreements: list[str] = field(default_factory=list)  # the log's queue moves the model's replay does not make
    warnings: list[str] = field(default_factory=list)  # what the log's timestamps make doubtful (also in assumptions)
    evidence: list[Evidence] = field(default_factory=list)  # each queue move and attempt the log states, against
    # the replays
    release: Recognised = NOT_RECOGNISED  # the kube-scheduler release the log's lines are where it logs them


def import_logs(streams: Iterable[tuple[str, BinaryIO]], limits: Limits = Limits(),
                progress: Callable[[str, int], None] | None = None, name: str | None = None) -> Imported:
    """Read kube-scheduler logs (``(label, binary stream)`` pairs, in order, as one log) into a scenario that
    validates and runs on v1.28.1 and v1.28.2. ``progress(label, bytes read of that input)`` as it reads. Raises
    LogError when the input is no scheduler log (empty, binary, no log line, no scheduler message), TooLarge past
    the scenario limits."""
    counts = Counts()
    labels: list[str] = []
    builder: Builder | None = None
    log_lines = number = 0
    previous: int | None = None  # the time of the last log line: a klog header's year is the one nearest it
    dated = False  # whether a line with a year was read (before it, klog headers' years are guessed)
    name = name and _readable(name)
    replicas = Replicas(counts)
    for label, stream in streams:
        label = _readable(label)
        labels.append(label)
        counts.files += 1
        builder = builder or Builder(label, limits, counts)
        builder.files.append((number, label))
        each = (lambda n, label=label, before=counts.bytes: progress(label, n - before)) if progress else None
        for text, complete in read_lines(stream, counts, each, label):
            number += 1  # lines count on through the files, in the order given
            if not text.strip():
                continue
            try:
                line = parse_line(text, number, previous)
            except Truncated:
                counts.truncated += 1
                continue
            except Interleaved:
                counts.interleaved += 1
                continue
            if line is None:
                if complete:
                    counts.unknown += 1
                else:  # the input's last line, cut short (or a stray unfinished line)
                    counts.truncated += 1
                continue
            if line.dated and not dated and previous is not None:
                shift = redated(previous, line.micros) - previous
                builder.redate(shift)
                replicas.redate(shift)
            dated = dated or line.dated
            log_lines += 1
            previous = line.micros
            for used in replicas.take(line):
                builder.take(used)
    for used in replicas.finish():
        assert builder is not None  # lines were read
        builder.take(used)
    if builder is not None:
        for first, held in replicas.standbys:
            builder.assume(words.standby(builder.place(first), held))
        if len(replicas.leaders) > 1:
            builder.assume(words.leaders([builder.place(first) for first in replicas.leaders]))
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


def _readable(text: str) -> str:
    """A file name or a name given as text: a non-UTF-8 file name's bytes (sys.argv's lone surrogates) as U+FFFD, so
    that no text made of it fails to encode."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace") if not text.isascii() else text


def _none_of(n: int, noun: str) -> str:
    """The subject of "... is a <noun> the importer takes" said of all ``n`` lines, one or more."""
    return f"its one {noun} is not" if n == 1 else f"none of its {n:,} {noun}s is"


def _file_name(label: str) -> str:
    """What the scenario's name calls an input: its file name without the directories (a label that names no
    file, "<stdin>" or "the log", as it is)."""
    return os.path.basename(label) or label


def _finish(b: Builder, source: str, counts: Counts, limits: Limits, name: str) -> Imported:
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
    release = recognise(b.callers)
    locked = release.version is not None and VERSIONS[release.version].rules.hints_locked_on  # cannot be off
    gate = _gate(b) or locked
    if release.version:
        b.variants = (release.version,)
    elif not gate:
        b.variants = VARIANTS + (GATE_OFF_VERSION,)
    if release.release:
        b.assume(f"The log is {release.said}: replayed on {joined(b.variants)}.")
    hints, from_log = explicit_hints(plugins, b.said, gate)
    phase, phased = flush_phase(b)
    scenario = {
        "schema": 1,
        "name": name[:200],
        "description": "",
        "periodic_flushes": True,
        **({} if gate else {"gate": False}),
        **({"versions": list(b.variants)} if b.variants != VARIANTS else {}),
        "hints": hints,
        "config": {"flush_phase": phase},
        "pods": [{"name": names[p]} for p in b.pods],
        "steps": b.steps,
    }
    mended = Mender(scenario, limits, b)
    mended.run()
    evidence: list[Evidence] = []
    disagreements, counts.disagreeing, counts.agreeing = compare.disagreements(scenario, limits, b, names, evidence)
    assumptions = words.assumptions(b, plugins, from_log, mended, phased)
    scenario["description"] = words.description(source, counts, b, scenario, assumptions, disagreements)
    scenario["assumptions"] = assumptions
    load_scenario(scenario, limits)  # what it produced validates (else a bug: let it raise)
    return Imported(scenario, assumptions, counts, to_yaml(scenario, assumptions, disagreements), disagreements,
                    words.gaps(b), evidence, release)


def _gate(b: Builder) -> bool:
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


def _short_names(pods: Mapping[str, object]) -> dict[str, str]:
    """Pod names without their namespace when every pod is in the same one (the log's ns/name otherwise)."""
    spaces = {name.split("/", 1)[0] for name in pods if "/" in name}
    if len(spaces) <= 1:
        short = {name: name.split("/", 1)[-1] for name in pods}
        if len(set(short.values())) == len(short):
            return short
    return {name: name for name in pods}

