"""Where each release keeps the queue's functions, for the narration's "where" line: up to 1.31 every function
the model stands for is in ``pkg/scheduler/internal/queue/scheduling_queue.go``; from 1.32 the queue is
``pkg/scheduler/backend/queue``, activeQ and the in-flight bookkeeping in ``active_queue.go`` and, from 1.33,
podBackoffQ in ``backoff_queue.go`` (checked against the trees named in REAL-QUEUE-NEW.md: v1.33.0-alpha.0 for
v1.32.0, v1.36.2)."""

from __future__ import annotations

from ..model.record import Record, Result, Step

OLD_FILE = "pkg/scheduler/internal/queue/scheduling_queue.go"
NEW_DIR = "pkg/scheduler/backend/queue/"
MAIN = "scheduling_queue.go"
ACTIVE = "active_queue.go"
BACKOFF = "backoff_queue.go"

# version -> the files of its queue beside scheduling_queue.go (a version not listed: OLD_FILE alone)
SPLIT = {"v1.32.0": (ACTIVE,), "v1.36.2": (ACTIVE, BACKOFF)}


# version -> {the model's name of a function: the name it has in that release} (1.36 renamed the requeue)
RENAMED = {"v1.32.0": {"done": "Done"},
           "v1.36.2": {"done": "Done", "requeuePodViaQueueingHint": "requeuePodWithQueueingStrategy"}}


def upstream_name(variant: str, function: str) -> str:
    """``function`` as ``variant``'s release names it."""
    return RENAMED.get(variant, {}).get(function, function)


def inner_calls(step: Step, result: Result, record: Record) -> list[tuple[str, str]]:
    """(file, function) a step entered below PriorityQueue's own functions, read from what it did."""
    op = step["op"]
    calls: list[tuple[str, str]] = []
    if op == "pop":
        calls.append((ACTIVE, "unlockedPop"))
        if result.get("from") == "backoffQ":
            calls.append((BACKOFF, "popBackoff"))
    elif op in ("activate", "update") and record["appended"]:
        calls.append((ACTIVE, "addEventsIfPodInFlight"))
    elif op in ("event", "assigned_pod_added") and result.get("recorded_in_flight"):
        calls.append((ACTIVE, "addEventIfAnyInFlight"))
    if op == "fail" and result.get("queue") == "backoffQ":
        calls.append((BACKOFF, "add"))
    if op == "flush_backoff" or (op == "advance_clock" and any(f["op"] == "flush_backoff"
                                                                 for f in result.get("flushes", ()))):
        calls.append((BACKOFF, "popAllBackoffCompleted"))
    if op in ("done", "fail"):
        calls.append((ACTIVE, "done"))
    return calls


def where(variant: str, functions: list[str], step: Step, result: Result, record: Record) -> str:
    """The files the step ran in, each with its functions: "pkg/scheduler/backend/queue/ scheduling_queue.go:
    Pop · active_queue.go: unlockedPop" (a release before 1.32: its one file)."""
    files = SPLIT.get(variant)
    if files is None:
        return OLD_FILE
    by_file: dict[str, list[str]] = {MAIN: [f for f in functions if f != "clock"]}
    for file, function in inner_calls(step, result, record):
        if file in files:
            by_file.setdefault(file, []).append(function)
    said = [f"{file}: {', '.join(dict.fromkeys(names))}" for file, names in by_file.items() if names]
    return f"{NEW_DIR} " + " · ".join(said) if said else NEW_DIR
