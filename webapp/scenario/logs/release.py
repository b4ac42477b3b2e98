"""Which kube-scheduler release wrote a log, and the version the import replays it on. Each message the importer reads
is logged at a file:line of its release (a klog header's caller, JSON's "caller"), and those lines moved from release
to release: 1.28.0 to 1.31 as messages.RELEASE_LINES holds them, 1.32 and 1.36 as LATER_LINES below (the failure's
gate-on and gate-off lines of each are lines.MOVE_CALLERS') (pkg/scheduler/ vendored in kubernetes/autoscaler at
ee4fafa6, v1.33.0-alpha.0, the 1.32 branch point, and 74a7d3b1, v1.36.2; the queue in backend/queue). The release
that logs the most of the log's lines where they are is recognised (a line no release logs where it is tells
nothing). A 1.32 log is replayed on v1.32.0; a 1.36 log on v1.36.2, and so is one whose lines only a release from
1.33 on writes (a queue move logged by active_queue.go or backoff_queue.go: 1.33 to 1.35, between the two trees, are
not known line by line); an older or unrecognised log on v1.28.1 and v1.28.2, as before.

In 1.32 a move to activeQ is logged by moveToActiveQ (scheduling_queue.go:587, whatever moved it); in 1.36 by
active_queue.go (add, :111) and backoff_queue.go (add, :310 and :321), which log a failure's move without its
schedulingCycle: those lines are not the gate-off path (NOT_GATE). The pod events are named UnschedulablePodAdd and
UnschedulablePodUpdate from 1.32 (framework/types.go: unschedulablePod), PodAdd and PodUpdate before (LABELS)."""

from __future__ import annotations

from dataclasses import dataclass

from .lines import MOVE_CALLERS
from .messages import RELEASE_LINES, RELEASES

QUEUE = "Pod moved to an internal scheduling queue"
# release -> where its lines were read, the model's version that replays its logs
LATER = {"1.32": ("kubernetes/autoscaler ee4fafa6 (v1.33.0-alpha.0, the 1.32 branch point)", "v1.32.0"),
         "1.36": ("kubernetes/autoscaler 74a7d3b1 (v1.36.2)", "v1.36.2")}
# message -> release -> its callers (file:line under pkg/scheduler/, the queue's files in backend/queue)
LATER_LINES: dict[str, dict[str, tuple[str, ...]]] = {
    "About to try and schedule pod": {"1.32": ("schedule_one.go:83",), "1.36": ("schedule_one.go:107",)},
    "Attempting to schedule pod": {"1.32": ("schedule_one.go:99",), "1.36": ("schedule_one.go:123",)},
    "Unable to schedule pod; no fit; waiting": {"1.32": ("schedule_one.go:1056",), "1.36": ("schedule_one.go:1239",)},
    "Unable to schedule pod; no nodes are registered to the cluster; waiting": {
        "1.32": ("schedule_one.go:1052",), "1.36": ("schedule_one.go:1235",)},
    "Error scheduling pod; retrying": {"1.32": ("schedule_one.go:1058",), "1.36": ("schedule_one.go:1243",)},
    "Successfully bound pod to node": {"1.32": ("schedule_one.go:325",), "1.36": ("schedule_one.go:481",)},
    QUEUE: {"1.32": ("scheduling_queue.go:587", "scheduling_queue.go:740", "scheduling_queue.go:744",
                     "scheduling_queue.go:794", "scheduling_queue.go:967", "scheduling_queue.go:1130"),
            "1.36": ("scheduling_queue.go:727", "scheduling_queue.go:895", "scheduling_queue.go:958",
                     "active_queue.go:111", "backoff_queue.go:310", "backoff_queue.go:321")},
    "Event is not making pod schedulable": {"1.32": ("scheduling_queue.go:1124",),
                                            "1.36": ("scheduling_queue.go:1325",)},
    "Add event for unscheduled pod": {"1.32": ("eventhandlers.go:132",), "1.36": ("eventhandlers.go:214",)},
    "Delete event for unscheduled pod": {"1.32": ("eventhandlers.go:186",), "1.36": ("eventhandlers.go:335",)},
    "Add event for node": {"1.32": ("eventhandlers.go:60",), "1.36": ("eventhandlers.go:63",)},
    "Add event for scheduled pod": {"1.32": ("eventhandlers.go:214",), "1.36": ("eventhandlers.go:374",)},
    "Update event for scheduled pod": {"1.32": ("eventhandlers.go:251",), "1.36": ("eventhandlers.go:407",)},
    "Delete event for scheduled pod": {"1.32": ("eventhandlers.go:303",), "1.36": ("eventhandlers.go:443",)},
}
NOT_GATE = frozenset({"scheduling_queue.go:587", "scheduling_queue.go:727", "active_queue.go:111",
                      "backoff_queue.go:310", "backoff_queue.go:321"})
ONLY_LATER_FILES = ("active_queue.go", "backoff_queue.go")  # no release before 1.33 logs a move from them
LABELS = {"UnschedulablePodAdd": "PodAdd", "UnschedulablePodUpdate": "PodUpdate"}  # 1.32+ -> the 1.28 name


def _callers() -> dict[str, dict[str, set[str]]]:
    """release -> message -> the file:line callers it logs it from."""
    found: dict[str, dict[str, set[str]]] = {}
    for msg, (path, numbers) in RELEASE_LINES.items():
        for release, number in zip(RELEASES, numbers, strict=True):
            if number is not None:
                found.setdefault(release, {}).setdefault(msg, set()).add(f"{path.rsplit('/', 1)[-1]}:{number}")
    for release, lines in MOVE_CALLERS.items():
        found.setdefault(release, {}).setdefault(QUEUE, set()).update(f"scheduling_queue.go:{n}" for n in lines)
    for msg, by_release in LATER_LINES.items():
        for release, callers in by_release.items():
            found.setdefault(release, {}).setdefault(msg, set()).update(callers)
    return found


CALLERS = _callers()


@dataclass(frozen=True)
class Recognised:
    release: str | None  # "1.31", "1.36", ...; None: no line says
    version: str | None  # the model's version the log is replayed on; None: v1.28.1 and v1.28.2, as before
    lines: int  # how many of the log's lines it logs where they are
    said: str  # in words, for the description


NOT_RECOGNISED = Recognised(None, None, 0, "no release: none of its lines is where a known release logs its message")


def recognise(seen: dict[tuple[str, str], int]) -> Recognised:
    """The release that wrote a log, from ``seen``: (message, caller) -> the first line it is on."""
    known = {key for key in seen if any(key[1] in CALLERS[r].get(key[0], ()) for r in CALLERS)}
    scores = {r: sum(caller in CALLERS[r].get(msg, ()) for msg, caller in known) for r in CALLERS}
    best = max(scores.values(), default=0)
    if best:
        tied = [r for r in CALLERS if scores[r] == best]  # equal: the latest is replayed (and all are named)
        release = tied[-1]
        where, version = LATER.get(release, (None, None))
        sources = "; ".join(LATER[r][0] if r in LATER else f"kubernetes/autoscaler {RELEASES[r]}" for r in tied)
        named = " or ".join(tied)
        return Recognised(release, version, best, f"kube-scheduler {named}'s ({best} of its {len(known)} lines with "
                          f"a known file:line are where {named} logs them: {sources})")
    later = sorted({caller for _, caller in seen if caller.split(":")[0] in ONLY_LATER_FILES})
    if later:
        return Recognised("1.33+", LATER["1.36"][1], 0, f"kube-scheduler 1.33 or later's: {later[0]} logs a queue "
                          "move only from 1.33 (its lines are not those of 1.36.2: 1.33 to 1.35 are not known line "
                          "by line), replayed on v1.36.2, the nearest release whose queue the model reproduces")
    return NOT_RECOGNISED
