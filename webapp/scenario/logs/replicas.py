"""Which replica's lines to use: several kube-scheduler replicas' logs (files, a concatenation, or ``kubectl logs
--prefix``'s lines) hold one leader's, the only one that schedules, and standbys', whose informers log the same
pods' and nodes' events (eventhandlers.go) without scheduling them.

A replica's log is a stretch of lines: those of one ``--prefix`` pod, cut where the time runs back over
BACK_JUMP (the next replica's log starts, concatenated after the last) or where a second leader election starts
("attempting to acquire leader lease", client-go tools/leaderelection/leaderelection.go:250; 1.31: 254, logged
once per process by klog.Infof, so at every -v). A stretch leads from its first scheduling line (an attempt, a
failure, a bind: MESSAGES) or "successfully acquired lease" (leaderelection.go:260; 1.31: 268). Its scheduler lines
are held until it is known: those of a stretch that leads, or that shows no election at all (a log cut after
its start), are used in the log's order; those of a stretch that starts an election and never leads, a standby,
are left out and counted (``Counts.standby``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .lines import Line
from .messages import MESSAGES
from .reading import Counts

ELECTING = "attempting to acquire leader lease"
ACQUIRED = "successfully acquired lease"
# Their lines in client-go (vendored beside the scheduler: messages.RELEASES), by release.
LEASE_SOURCE = "k8s.io/client-go/tools/leaderelection/leaderelection.go"
LEASE_LINES = {ELECTING: (250, 250, 250, 250, 254), ACQUIRED: (260, 260, 260, 260, 268)}
SCHEDULES = ("attempt", "fail", "bound")  # MESSAGES' kinds only the leader logs
BACK_JUMP = 1_000_000  # µs: a line this much before the one before it starts another replica's log
# Scheduler lines held while a stretch's role is unknown, past which they are used: the scenario's step limit (more
# could not all become steps).
MAX_HELD = 200_000


@dataclass
class _Stretch:
    first: int  # its first line's number
    last_micros: int
    electing: bool = False
    leads: bool = False
    held: list[Line] = field(default_factory=list)


@dataclass
class Replicas:
    counts: Counts
    stretches: dict[str | None, _Stretch] = field(default_factory=dict)  # --prefix pod (or None) -> its stretch
    standbys: list[tuple[int, int]] = field(default_factory=list)  # (first line, scheduler lines left out)
    leaders: list[int] = field(default_factory=list)  # the first line of each stretch that leads and elects

    def take(self, line: Line) -> list[Line]:
        """The lines to use now, in order: ``line``'s, or none while its stretch's role is unknown, or the held
        ones with it when the stretch is known to lead (or a stretch that ends is not a standby)."""
        out: list[Line] = []
        s = self.stretches.get(line.replica)
        electing = line.msg.startswith(ELECTING)
        if s is None or line.micros < s.last_micros - BACK_JUMP or (electing and (s.electing or s.leads)):
            if s is not None:
                out += self._end(s)
            s = self.stretches[line.replica] = _Stretch(line.number, line.micros)
        s.last_micros = max(s.last_micros, line.micros)
        s.electing = s.electing or electing
        message = MESSAGES.get(line.msg)
        if not s.leads and (line.msg.startswith(ACQUIRED) or (message is not None and message.kind in SCHEDULES)):
            s.leads = True
            if s.electing:
                self.leaders.append(s.first)
            out += s.held
            s.held = []
        if s.leads or message is None:
            return [*out, line]  # a line no step needs is counted by the builder as it comes
        s.held.append(line)
        if len(s.held) > MAX_HELD:
            out += s.held
            s.held = []
        return out

    def finish(self) -> list[Line]:
        """The held lines still to use at the end of the input (the standbys' are left out)."""
        out: list[Line] = []
        for s in self.stretches.values():
            out += self._end(s)
        self.stretches.clear()
        return sorted(out, key=lambda line: line.number)

    def redate(self, shift: int) -> None:
        """The held lines' klog years were guessed: they are ``shift`` µs later (lines.redated)."""
        for s in self.stretches.values():
            s.last_micros += shift
            for line in s.held:
                line.micros += shift

    def _end(self, s: _Stretch) -> list[Line]:
        held, s.held = s.held, []
        if s.electing and not s.leads:
            if held:
                self.standbys.append((s.first, len(held)))
                self.counts.standby += len(held)
            return []
        return held
