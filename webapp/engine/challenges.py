"""Challenges: graded exercises of the course, checked by running the model, never by reading the scenario's text.

Each challenge is stated once, in CHALLENGES: its id, title, goal, the versions it runs on, a built-in to start
from, and a check. A check runs a loaded Scenario on those versions in lockstep and returns a verdict:

    {"solved": bool, "why": {"reason": <code>, "step": index or None, "pod": name or None, ...evidence}}

``why`` is plain data (what happened, where, on which version); presenter/challenges.py says it in words. A step
that some version cannot run raises the located ScenarioError, as loading the scenario would.

The criteria, precisely (times are the model's clock, ``now`` after each step):

* ``lose-marker``: on v1.28.1 the invariant in_flight_boundary breaks after some step (an in-flight pod's marker
  element was removed from receivedEvents), with at most MAX_PODS_LOSE pods declared.
* ``five-minutes``: some pod P waits for a retry on v1.28.1 for at least WAIT seconds: it is in backoffQ or
  unschedulablePods (either: a pod backing off is no nearer a retry than a parked one while nothing moves it) from
  the step that put it there (t0, that step's clock) and does not reach activeQ (from where Pop retries it) before
  t0 + WAIT; the wait ends at the clock of the step that moved it, or of the periodic flush inside an advance_clock
  step that did. On v1.28.2 no wait of P lasts WAIT seconds, and every wait of P begun by the step at which
  v1.28.1's reached WAIT is over by the end (a wait still open at the end is not shown to be short). Periodic
  flushes may run; without them nothing takes a pod out of backoffQ but a flush_backoff step.
* ``unbounded-list``: at the end on v1.28.2 the list holds an orphaned pod entry (a pod popped again while its
  first attempt was in flight: pod_entries_in_flight breaks) and at least GROWTH event entries behind the first
  orphan. Done removes only the entry its pod's map points at and the front cleanup stops at the first pod
  entry, so nothing behind an orphan can ever be removed, and every event recorded while any pod is in flight
  lands behind it: that is "without bound", observed as its cause plus growth.
* ``sooner-retry``: a failure puts the pod in activeQ or backoffQ on v1.28.1 while the same failure (same step)
  parks it in unschedulablePods on v1.28.2.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import NotFound
from ..model.errors import StepError
from ..model.queue import ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_PODS
from ..model.record import Record, Result, Step
from ..model.variant import Model
from ..scenario.scenario import Scenario
from .returns import move_times
from .trace import step_error

# A verdict, {solved, why: {reason, step, pod, ...evidence}}, and its evidence: plain data the presenter words.
Verdict = dict[str, Any]
Evidence = dict[str, Any]
Applied = tuple[Result, Record]

NS = 1_000_000_000
MAX_PODS_LOSE = 2  # lose-marker: pods declared at most
WAIT = 300  # five-minutes: seconds without a retry
GROWTH = 5  # unbounded-list: event entries behind the orphan at the end


def lockstep(scenario: Scenario, versions: Sequence[str]
             ) -> Iterator[tuple[int, Step, list[Applied], list[Model]]]:
    """(index, step, [(result, record)], models) after each step, every version having applied it."""
    models = [scenario.model(v) for v in versions]
    for i, step in enumerate(scenario.steps):
        applied: list[Applied] = []
        for version, model in zip(versions, models):
            try:
                applied.append(model.apply(i, step))
            except StepError as err:
                raise step_error(i, step, err, version) from None
        yield i, step, applied, models


def verdict(solved: bool, reason: str, step: int | None = None, pod: str | None = None, **evidence: Any
            ) -> Verdict:
    return {"solved": solved, "why": {"reason": reason, "step": step, "pod": pod, **evidence}}


# --- 1. lose B's marker with two pods ------------------------------------------------------------------------
def check_lose_marker(scenario: Scenario) -> Verdict:
    pods = len(scenario.pods)
    for i, _step, [(_result, record)], _models in lockstep(scenario, ("v1.28.1",)):
        broken = next((b for b in record["invariants"] if b["name"] == "in_flight_boundary"), None)
        if broken:
            lost = broken["violations"][0]
            evidence = dict(invariant="in_flight_boundary", marker=lost["marker"], unseen=lost["unseen"],
                            pods=pods, most=MAX_PODS_LOSE, version="v1.28.1")
            if pods > MAX_PODS_LOSE:
                return verdict(False, "too-many-pods", i, lost["pod"], **evidence)
            return verdict(True, "marker-lost", i, lost["pod"], **evidence)
    return verdict(False, "no-marker-lost", steps=len(scenario.steps), pods=pods, most=MAX_PODS_LOSE,
                   version="v1.28.1")


# --- 2. five minutes on v1.28.1, not on v1.28.2 --------------------------------------------------------------
WAITING = (BACKOFF_Q, UNSCHEDULABLE_PODS)  # five-minutes: where a pod waits for a retry (activeQ, then a Pop)


@dataclass
class Wait:
    """A pod's wait for a retry on one version: in ``queues`` (of WAITING, in the order it was in them) from
    ``since`` (ns), the clock of step ``began`` that put it there, until ``until`` (ns), when step ``ended`` took
    it to ``to`` (activeQ: its retry; None: deleted). ``ended`` None: still waiting at the end."""
    pod: str
    since: int
    began: int
    queues: list[str]
    ended: int | None = None
    until: int | None = None
    to: str | None = None

    def length(self, end: int) -> int:
        """ns waited: until it left, or until ``end`` (the clock after the last step) while it waits still."""
        return (end if self.until is None else self.until) - self.since  # ``until`` is set with ``ended``

    def evidence(self, end: int) -> Evidence:
        return {"began": self.began, "since": self.since / NS, "queues": self.queues, "ended": self.ended,
                "until": None if self.until is None else self.until / NS, "to": self.to,
                "waited": self.length(end) / NS}


def _reached_active_at(applied: Applied, pod: str, now: int) -> int:
    """When ``pod`` reached activeQ in a step (``applied``: its result and record): at the time of its last move
    there (returns.move_times: a periodic flush's tick inside an advance_clock step), else at the step's clock."""
    result, record = applied
    times = move_times(record, result, now / NS)
    ticks = [at for move, at in zip(record["moves"], times) if move["pod"] == pod and move["to"] == ACTIVE_Q]
    return round(ticks[-1] * NS) if ticks else now


def _waits(scenario: Scenario, versions: Sequence[str]
           ) -> tuple[list[list[Wait]], list[int], list[dict[str, list[str | None]]]]:
    """Per version its waits; the clock after each step; where each moved pod is after its step, per version."""
    waits: list[list[Wait]] = [[] for _ in versions]
    open_: list[dict[str, Wait]] = [{} for _ in versions]  # pod -> its open Wait
    clock: list[int] = []
    placed: list[dict[str, list[str | None]]] = []
    for i, _step, applied, models in lockstep(scenario, versions):
        touched = sorted({m["pod"] for _result, record in applied for m in record["moves"]})
        for k, model in enumerate(models):
            now = model.queue.now
            for pod in touched:
                where, wait = model.queue.where(pod), open_[k].get(pod)
                if wait is not None and where not in WAITING:
                    wait.ended, wait.until, wait.to = i, _reached_active_at(applied[k], pod, now), where
                    del open_[k][pod]
                    continue
                if wait is None and where is not None and where in WAITING:
                    wait = open_[k][pod] = Wait(pod, now, i, [])
                    waits[k].append(wait)
                if wait is not None and where is not None and wait.queues[-1:] != [where]:
                    wait.queues.append(where)  # e.g. an event moved it from unschedulablePods to backoffQ
        clock.append(models[0].queue.now)
        placed.append({pod: [m.queue.where(pod) for m in models] for pod in touched})
    return waits, clock, placed


def check_five_minutes(scenario: Scenario) -> Verdict:
    (old, new), clock, placed = _waits(scenario, ("v1.28.1", "v1.28.2"))
    end, limit = (clock[-1] if clock else 0), WAIT * NS
    nearest = None  # not solved: the first wait long on both versions
    for wait in old:
        if wait.length(end) < limit:
            continue
        seen = bisect_left(clock, wait.since + limit, wait.began)  # the step by which it had waited WAIT
        theirs = [w for w in new if w.pod == wait.pod]
        evidence = dict(**wait.evidence(end), seen_step=seen, seen_at=clock[seen] / NS, threshold=WAIT,
                        elsewhere=placed[wait.began][wait.pod][1], periodic_flushes=scenario.config.periodic_flushes,
                        theirs=[w.evidence(end) for w in theirs])
        if all(w.length(end) < limit and (w.ended is not None or w.began > seen) for w in theirs):
            return verdict(True, "waited-long-on-old-only", wait.began, wait.pod, **evidence)
        nearest = nearest or verdict(False, "waited-long-on-both", wait.began, wait.pod, **evidence)
    if nearest:
        return nearest
    if old:
        longest = max(old, key=lambda w: w.length(end))  # the first of the longest
        return verdict(False, "not-long-enough", longest.began, longest.pod, seconds=longest.length(end) / NS,
                       queues=longest.queues, threshold=WAIT)
    return verdict(False, "never-waited", threshold=WAIT)


# --- 3. grow v1.28.2's list without bound --------------------------------------------------------------------
def check_unbounded_list(scenario: Scenario) -> Verdict:
    orphaned: dict[str, Any] | None = None
    first_broken: int | None = None
    model: Model | None = None
    for i, _step, [(_result, record)], models in lockstep(scenario, ("v1.28.2",)):
        model = models[0]
        if record.get("orphaned") and orphaned is None:
            orphaned = {"step": i, **record["orphaned"]}
        if first_broken is None and any(b["name"] == "pod_entries_in_flight" for b in record["invariants"]):
            first_broken = i
    entries = model.queue.tracker.entries() if model is not None else []
    at = next((k for k, e in enumerate(entries) if e["kind"] == "pod" and e["orphaned"]), None)
    events = len([e for e in entries if e["kind"] == "event"])
    if at is None:
        return verdict(False, "no-orphan", None, None, length=len(entries), events=events, growth=GROWTH,
                       version="v1.28.2")
    orphan = entries[at]
    behind = [e["id"] for e in entries[at + 1:] if e["kind"] == "event"]
    made: dict[str, Any] = orphaned if orphaned and orphaned["id"] == orphan["id"] else {"step": first_broken}
    evidence = dict(entry=orphan["id"], behind=behind, length=len(entries), growth=GROWTH,
                    invariant="pod_entries_in_flight", broken_at=first_broken, version="v1.28.2")
    if len(behind) < GROWTH:
        return verdict(False, "too-little-growth", made["step"], orphan["pod"], **evidence)
    return verdict(True, "orphan-holds-events", made["step"], orphan["pod"], **evidence)


# --- 4. v1.28.1 retries sooner than v1.28.2 ------------------------------------------------------------------
RETRY = (ACTIVE_Q, BACKOFF_Q)


def check_sooner_retry(scenario: Scenario) -> Verdict:
    failures = 0
    for i, _step, applied, models in lockstep(scenario, ("v1.28.1", "v1.28.2")):
        if not all("failed" in record for _result, record in applied):
            continue
        failures += 1
        pod = applied[0][1]["failed"]["pod"]
        where = [m.queue.where(pod) for m in models]
        if where[0] in RETRY and where[1] == UNSCHEDULABLE_PODS:
            hints = [_hint_said(result, record) for result, record in applied]
            retained = [e["id"] for e in models[0].queue.tracker.view()["entries"] if e.get("kind", "event") == "event"]
            return verdict(True, "old-retries-new-parks", i, pod, where={"v1.28.1": where[0], "v1.28.2": where[1]},
                           hints={"v1.28.1": hints[0], "v1.28.2": hints[1]},
                           plugins=applied[0][1]["failed"]["plugins"], retained=retained)
    return verdict(False, "no-such-failure", failures=failures)


def _hint_said(result: Result, record: Record) -> dict[str, str | None]:
    """How a version placed a failed pod: its hint's decision, reason and start, or its gate-off rule."""
    hint = record.get("hint")
    start = hint.get("start") if hint else None
    return {"decision": hint.get("decision") if hint else None, "reason": hint.get("reason") if hint else None,
            "start": start["rule"] if start else None, "marker": start.get("marker") if start else None,
            "rule": result.get("rule")}


@dataclass(frozen=True)
class Challenge:
    id: str
    title: str
    goal: str
    versions: tuple[str, ...]
    start: str  # a built-in to start from (it does not solve the challenge by itself)
    check: Callable[[Scenario], Verdict]


CHALLENGES = (
    Challenge("lose-marker", "Lose B's marker with two pods",
              f"With at most {MAX_PODS_LOSE} pods, make v1.28.1 remove the receivedEvents element an in-flight "
              "pod's marker points at (the in_flight_boundary invariant breaks).",
              ("v1.28.1",), "in-flight-basics", check_lose_marker),
    Challenge("five-minutes", "Make a pod wait five minutes in v1.28.1 but not in v1.28.2",
              f"Some pod waits at least {WAIT} s of the model's clock on v1.28.1 without a retry (in backoffQ or "
              f"unschedulablePods, never reaching activeQ), while on v1.28.2 that pod never waits that long "
              f"(periodic_flushes may run).",
              ("v1.28.1", "v1.28.2"), "lost-marker", check_five_minutes),
    Challenge("unbounded-list", "Grow v1.28.2's list without bound",
              f"End with an orphaned pod entry in v1.28.2's inFlightEvents (pod_entries_in_flight breaks) and at "
              f"least {GROWTH} events behind it that the front cleanup can never drop.",
              ("v1.28.2",), "front-cleanup", check_unbounded_list),
    Challenge("sooner-retry", "Find a case where v1.28.1 retries sooner than v1.28.2",
              "A failing pod goes to activeQ or backoffQ on v1.28.1 while on v1.28.2 the same failure parks it in "
              "unschedulablePods.",
              ("v1.28.1", "v1.28.2"), "queueing-hints", check_sooner_retry),
)
BY_ID = {c.id: c for c in CHALLENGES}


def challenge(challenge_id: object) -> Challenge:
    found = BY_ID.get(challenge_id) if isinstance(challenge_id, str) else None
    if found is None:
        shown = repr(challenge_id)[:60]
        raise NotFound(f"no challenge {shown}; the challenges are {', '.join(BY_ID)}")
    return found


def check(challenge_id: str, scenario: Scenario) -> Verdict:
    """The verdict of ``scenario`` (a loaded Scenario) on the challenge: {id, solved, why, versions}."""
    found = challenge(challenge_id)
    return {"id": found.id, "versions": list(found.versions), **found.check(scenario)}
