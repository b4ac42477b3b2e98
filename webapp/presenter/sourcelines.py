"""A step record to the upstream lines it ran: per version, in execution order, each lit line's function, anchor,
line number (webapp/sources/) and the live value beside it (the pod's marker and what Next() returned, the entry
the walk is on, the hint, the decision, the queue chosen). Plain data in, plain data out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from ..sources.maps import MAPS
from ..sources.types import SourceMap

RECEIVED_EVENTS = "v1.28.1"  # the one version with receivedEvents and markers


class Lit(TypedDict):
    function: str
    anchor: str
    line: int
    value: str | None


class _Run:
    def __init__(self, m: SourceMap) -> None:
        self.map = m
        self.out: list[Lit] = []
        self.backend = "pop.call" in m.anchors  # pkg/scheduler/backend/queue (1.32 on): Pop calls activeQ.pop

    def __call__(self, anchor: str, value: str | None = None) -> None:
        a = self.map.anchors.get(anchor)
        if a is not None:
            self.out.append({"function": a.function, "anchor": anchor, "line": a.lines[0], "value": value})


def lit_lines(version: str, record: Mapping[str, Any] | None, result: Mapping[str, Any] | None,
              state: Mapping[str, Any]) -> list[Lit]:
    """The lines ``record`` (one step on ``version``, leaving ``state``) ran, in order; [] before the first step."""
    if not record or version not in MAPS:
        return []
    run, result = _Run(MAPS[version]), result or {}
    received = version == RECEIVED_EVENTS
    op = record["op"]
    if op == "pop":
        (_pop_backend if run.backend else _pop)(run, record, result)
    elif op == "fail":
        _fail(run, record, result, received, state)
    elif op == "done":
        if not run.backend:  # from 1.32 Done checks the gate before it calls activeQ.done
            run("Done.call")
        _done(run, record, received, state)
    elif op in ("event", "assigned_pod_added", "flush_unschedulable_leftover"):
        run({"event": "mall.call", "assigned_pod_added": "ap.move"}.get(op, "fu.check"))
        if op == "event":
            run("mall.collect")
            run("mall.move")
        elif op == "flush_unschedulable_leftover":
            run("fu.move")
        _move_pods(run, record)
    elif op in ("flush_backoff", "advance_clock"):
        if record["moves"]:
            run("fb.pop_all", ", ".join(m["pod"] for m in record["moves"]))
        for m in record["moves"]:
            run("fb.backingoff", f"{m['pod']} has finished backing off")
            run("fb.add", f"{m['pod']} → activeQ")
    elif op in ("update", "ungate"):  # ungate: an Update that removes the pod's scheduling gates
        _update(run, record)
    elif op == "pop_specific":
        _pop_specific(run, record, result)
    elif op == "delete":
        run("del.active", _where(record))
        run("del.unschedulable")
    elif op == "activate":
        run("act.loop")
        for m in record["moves"]:
            run("act.add", f"{m['pod']} → activeQ")
        forced = [e for e in record["appended"] if e["kind"] == "event"]
        if forced or not record["moves"]:  # 1.32+: a pod Activate cannot move
            run("act.force", ", ".join(f"{e['id']} {e['event']} appended" for e in forced) or "not in flight")
            run("act.cycle", "moveRequestCycle = schedulingCycle")
    elif op == "add":
        run("add.add", _where(record))
    return run.out


def on_the_wire(lit: list[Lit]) -> list[list[str | None]]:
    """The state message's ``source``: [anchor, value] per lit line, in order (the page reads each anchor's
    function and line from the version's map, GET /api/sources/VERSION)."""
    return [[x["anchor"], x["value"]] for x in lit]


def record_lines(version: str, lit: list[Lit]) -> list[dict[str, Any]]:
    """``record.lines`` of ``replay --records``: each lit line as {file, line, function}, in execution order."""
    m = MAPS.get(version)
    return [{"file": m.functions[x["function"]].path if m else None, "line": x["line"], "function": x["function"]}
            for x in lit]


def with_lines(trace: Mapping[str, Any]) -> dict[str, Any]:
    """A trace (replay --records) with each step's ``record.lines``."""
    version = trace["variant"]
    steps = [{**s, "record": {**s["record"], "lines": record_lines(version, lit_lines(
        version, s["record"], s.get("result"), s["state"]))}} if s.get("record") else s for s in trace["steps"]]
    return {**trace, "steps": steps}


def _where(record: Mapping[str, Any]) -> str | None:
    moves = record["moves"]
    return ", ".join(f"{m['pod']}: {m['from'] or 'none'} → {m['to'] or 'gone'}" for m in moves) or None


def _pop(run: _Run, record: Mapping[str, Any], result: Mapping[str, Any]) -> None:
    popped = result.get("popped")
    run("pop.take", f"pInfo = {popped}" if popped else "activeQ is empty")
    if not popped:
        return
    run("pop.attempts")
    run("pop.cycle")
    marker = record.get("marker")
    entries = [e for e in record["appended"] if e["kind"] == "pod"]
    if marker is not None or entries:
        run("pop.gate", "true")
        if marker is not None:
            run("pop.marker", f"previousEvent = {marker['previousEvent'] or 'nil'}")
        for e in entries:
            run("pop.entry", f"{e['pod']}'s entry {e['id']} at the back")
    else:
        run("pop.gate")
    if record.get("cleared") is not None:
        run("pop.clear", "cleared " + (", ".join(sorted(record["cleared"])) or "nothing"))
        run("pop.clear_pending")
    run("pop.return", popped)


def _pop_backend(run: _Run, record: Mapping[str, Any], result: Mapping[str, Any]) -> None:
    """Pop from 1.32: PriorityQueue.Pop calls activeQ.pop, whose unlockedPop takes the head (1.36: backoffQ's when
    activeQ is empty), discards a pod already in flight and pops again."""
    popped = result.get("popped")
    run("pop.call")
    for pod in result.get("discarded") or []:
        run("pop.take", f"pInfo = {pod}")
        _to_in_flight(run)
        run("pop.in_flight", f"{pod} is already in flight")
        run("pop.discard", f"{pod} discarded: pop the next")
    if result.get("from") == "backoffQ":
        run("pop.take", "activeQ is empty")
        run("pop.from_backoff", f"pInfo = {popped}")
        run("pop.backoff_head", f"{popped}, backoffQ's head (its backoff not over)")
    else:
        run("pop.take", f"pInfo = {popped}" if popped else "activeQ is empty")
    if not popped:
        return
    _to_in_flight(run)
    _entered(run, record)
    if record.get("cleared") is not None:
        run("pop.clear", "cleared " + (", ".join(sorted(record["cleared"])) or "nothing"))
        run("pop.clear_pending")
    run("pop.return", popped)


def _pop_specific(run: _Run, record: Mapping[str, Any], result: Mapping[str, Any]) -> None:
    """PopSpecificPod (1.36): activate the pod, take it out of activeQ and move it to in flight, as Pop does."""
    popped = result.get("popped")
    activated = [m for m in record["moves"] if m["to"] == "activeQ"]
    run("ps.activate", _where({"moves": activated}) or "; ".join(s["why"] for s in record["skipped"]) or None)
    run("ps.get", f"pInfo = {popped}" if popped else "not in activeQ")
    if not popped:
        run("ps.none", "nil")
        return
    run("ps.move", f"{popped}: activeQ → in flight")
    run("pop.attempts")  # movePodToInFlight: unlockedMovePodToInFlight's lines
    run("pop.gate")
    _entered(run, record)
    run("ps.return", popped)


def _entered(run: _Run, record: Mapping[str, Any]) -> None:
    """unlockedMovePodToInFlight's lines after the gate (1.36; in 1.32 unlockedPop's): the pod's entry and the
    cycle."""
    entries = [e for e in record["appended"] if e["kind"] == "pod"]
    if entries:
        run("pop.in_flight")
    for e in entries:
        run("pop.entry", f"{e['pod']}'s entry {e['id']} at the back")
    run("pop.cycle")


def _to_in_flight(run: _Run) -> None:
    run("pop.move")  # 1.36: unlockedMovePodToInFlight
    run("pop.attempts")
    run("pop.gate")


def _fail(run: _Run, record: Mapping[str, Any], result: Mapping[str, Any], received: bool,
          state: Mapping[str, Any]) -> None:
    run("aup.defer_done")
    if result.get("error"):
        run("aup.present", result["error"])
        _done(run, record, received, state)
        return
    run("aup.present")
    plugins = record.get("failed", {}).get("plugins", [])
    counted = "aup.errors" in run.map.anchors  # 1.34+: backoff counts failures, before the gate is read
    if counted:
        run("aup.unschedulable_count" if plugins else "aup.errors",
            "a failure with rejector plugins" if plugins else "an error: no rejector plugin")
        run("aup.timestamp")
    off = record.get("gate_off_rule")
    if off is not None:
        run("aup.gate", "queueing hints off")
        run("aup.gate_off")
        cycle = f"moveRequestCycle {off['moveRequestCycle']} vs podSchedulingCycle {off['podSchedulingCycle']}"
        run("woh.cycle", cycle)
        run("woh.backoff" if result.get("queue") == "backoffQ" else "woh.unschedulable", result.get("queue"))
        return
    run("aup.gate", "queueing hints on")
    if not counted:
        run("aup.timestamp")
    hint = record.get("hint") or {}
    run("aup.hint", f"{hint.get('pod', '')}'s plugins: {', '.join(plugins)}")
    (_hint_received if received else _hint_in_flight)(run, hint)
    run("aup.requeue", f"hint = {hint.get('decision')}")
    _requeue(run, hint.get("decision"), result.get("queue"), bool(plugins))
    _done(run, record, received, state)


def _walk(run: _Run, hint: Mapping[str, Any], loop_value: str | None) -> None:
    run("dh.init")
    run("dh.loop", loop_value)
    for step in hint.get("walk", []):
        if "pod" in step and "event" not in step:
            run("dh.pod_entry", f"{step['id']} is {step['pod']}'s entry: skipped")
            continue
        run("dh.pod_entry", f"{step['id']} is an event")
        if "hint" in step:
            plugin = f" ({step['plugin']})" if step.get("plugin") else ""
            run("dh.worth", f"{step['id']} {step['event']} → {step['hint']}{plugin}")
            if step["hint"] == "QueueImmediately":
                run("dh.immediately")
            elif step["hint"] == "QueueAfterBackoff":
                run("dh.backoff")
    run("dh.return", hint.get("decision"))


def _hint_received(run: _Run, hint: Mapping[str, Any]) -> None:
    start = hint.get("start", {})
    rule = start.get("rule")
    if rule == "no-plugins-global":
        run("dh.no_plugins", f"no plugins: {hint.get('decision')}")
        return
    run("dh.no_plugins")
    run("dh.lookup")
    if rule == "not-in-flight":
        run("dh.not_in_flight", "not in flight")
        return
    walk = hint.get("walk", [])
    run("dh.front")
    if rule == "front":
        run("dh.marker_check", "previousEvent = nil")
        first = "the front"
    else:
        marker = start.get("marker")
        run("dh.marker_check", f"previousEvent = {marker}")
        if rule == "marker-detached":
            unseen = ", ".join(start.get("unseen", [])) or "none"
            run("dh.marker_next", f"{marker}.Next() = nil: {marker} was removed from the list (unseen: {unseen})")
        else:
            run("dh.marker_next", f"{marker}.Next() = {walk[0]['id'] if walk else 'nil'}")
        first = ""
    loop = "event = nil: the loop does not run" if not walk else (f"from {first}" if first else None)
    _walk(run, hint, loop)


def _hint_in_flight(run: _Run, hint: Mapping[str, Any]) -> None:
    start = hint.get("start", {})
    run("dh.lookup", f"{hint.get('pod')}'s entry {start['id']}" if start.get("id") else None)
    if start.get("rule") == "not-in-flight":
        run("dh.not_in_flight", f"not in flight: {hint.get('decision')}")
        return
    reason = hint.get("reason", "")
    if reason.startswith("no-"):
        run("dh.no_plugins", f"no rejector plugins: {hint.get('decision')}")
        return
    run("dh.no_plugins")
    walk = hint.get("walk", [])
    loop = f"{start.get('id')}.Next() = {walk[0]['id'] if walk else 'nil'}"
    _walk(run, hint, loop + ("" if walk else ": nothing after the pod's entry"))


def _requeue(run: _Run, decision: str | None, queue: str | None, plugins: bool) -> None:
    run("rq.skip", f"hint = {decision}")
    if decision == "QueueSkip":
        run("rq.unschedulable", queue)
        return
    run("rq.backoff_check")
    if queue == "backoffQ":
        run("rq.to_backoff")  # 1.36: moveToBackoffQ, then backoffQueue.add picks the heap
        run("bq.heap" if plugins else "bq.error_heap", "podBackoffQ" if plugins else "podErrorBackoffQ: Pop never "
                                                                                     "takes from it")
        run("rq.backoff", queue)
        return
    run("rq.active")
    if queue == "activeQ":
        run("rq.active_return", queue)


def _done(run: _Run, record: Mapping[str, Any], received: bool, state: Mapping[str, Any]) -> None:
    start = record.get("done_start")
    own = [e for e in record["removed"] if e.get("reason") == "done"]
    if not (start or own or record["counters"]):
        run("done.gate")
        return
    run("done.gate")
    if run.backend:
        run("Done.call", "activeQ.done(pod)")
    run("done.lookup", f"{(start or own[0])['pod']} in flight")
    run("done.delete")
    if received:
        run("done.front")
        rule = start["rule"] if start else "front"
        run("done.marker", {"marker-next": "its marker still counts", "front": "no marker: from the front",
                            "front-marker-removed": "its marker was removed: from the front"}.get(rule, rule))
        if rule == "marker-next":
            run("done.marker_next", f"start at {start['id'] if start else 'nil'}")
        run("done.loop", None if record["counters"] else "event = nil")
        removed = {e["id"] for e in record["removed"] if e.get("reason") == "exhausted"}
        for c in record["counters"]:
            run("done.decrement", f"{c['id']}.inFlightPodsNum = {c['inFlightPodsNum']}")
            if c["id"] in removed:
                run("done.remove_event", f"{c['id']} removed")
        return
    for e in own:
        run("done.remove_own", f"{e['id']} removed")
    for e in record["removed"]:
        if e.get("reason") == "cleanup_front":
            run("done.prune_front", f"front = {e['id']}")
            run("done.prune_remove", f"{e['id']} {e.get('event', '')} removed")
    # the loop ends on an empty list (if e == nil) or on the entry of the pod in flight longest, at the front
    run("done.prune_front")
    front = (state.get("inFlightEvents") or [None])[0]
    if front is None:
        run("done.prune_empty", "the list is empty")
    else:
        run("done.prune_pod", f"front is {front.get('pod')}'s entry: stop")


def _move_pods(run: _Run, record: Mapping[str, Any]) -> None:
    ignored = record.get("ignored")
    if ignored is not None:
        run("mp.interest", f"{ignored['event']}: no registered hint matches, ignored")
        return
    run("mp.interest")
    run("mp.loop", ", ".join(e["pod"] for e in record["evaluations"]) or "no unschedulable pods")
    moved = {m["pod"]: m["to"] for m in record["moves"]}
    for e in record["evaluations"]:
        run("mp.worth", f"{e['pod']} → {e['hint']}")
        if e["hint"] == "QueueSkip":
            run("mp.skip")
        else:
            run("mp.requeue", f"{e['pod']} → {moved.get(e['pod'])}")
    run("mp.cycle")
    events = [e for e in record["appended"] if e["kind"] == "event"]
    run("mp.in_flight", "pods in flight" if events else "no pod in flight")
    for e in events:
        n = f", inFlightPodsNum {e['inFlightPodsNum']}" if "inFlightPodsNum" in e else ""
        run("mp.record", f"{e['id']} {e['event']} appended{n}")


def _update(run: _Run, record: Mapping[str, Any]) -> None:
    moves, skipped = record["moves"], record["skipped"]
    in_flight = [e for e in record["appended"] if e["kind"] == "event"]
    for e in in_flight:
        run("up.in_flight", f"{e['id']} appended")
    if any(m["from"] == "unschedulablePods" for m in moves) or any("not scheduling-relevant" in s["why"]
                                                                    for s in skipped):
        run("up.unschedulable")
        run("up.updated", _where(record) or "kept in unschedulablePods")
    elif any(m["from"] is None for m in moves):
        run("up.new", _where(record))
