"""The step record: what one operation did, for renderers, narration and invariant checks.

Keys (lists are empty when nothing of that kind happened):
  step, op          position of the step and its operation
  calls             upstream functions entered, in order (Pop, Done, AddUnschedulableIfNotPresent, ...)
  moves             [{pod, from, to}] lane changes; from/to are activeQ, backoffQ, unschedulablePods,
                    inFlight or None (outside the queue)
  appended          [{kind: pod|event, id, ...}] list entries pushed at the back
  removed           [{kind, id, reason: done|cleanup_front|exhausted}] list entries removed
  counters          v1.28.1: [{id, inFlightPodsNum}] each decrement made by Done
  detached          v1.28.1: [{pod, marker, unseen}] markers removed from the list during this step
  evaluations       [{pod, hint, why, plugin}] isPodWorthRequeuing per unschedulable pod for an event
  skipped           [{pod, why}] pods an operation left where they were
  cleared           pop, 1.28.3+: the plugins (unschedulable, and pending from 1.29) Pop cleared (absent: none)
  hint              determineSchedulingHintForInFlightPod: {pod, start, walk: [...], decision, reason}
  invariants        [{name, violations}] the invariants violated after the step (empty: all hold)
"""



def new_record(step: int, op: str) -> dict:
    return {"step": step, "op": op, "calls": [], "moves": [], "appended": [], "removed": [], "counters": [],
            "detached": [], "evaluations": [], "skipped": []}
