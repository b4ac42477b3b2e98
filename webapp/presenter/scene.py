"""present(frame, preview, settings) -> scene: what to show at one position, as plain data (shapes.Scene).

It imports no engine and moves no cursor: a frame and a preview (``Simulation.frame()`` / ``.preview()``) are
plain data (model.frame).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, cast

from ..model.frame import Frame, Preview, Returned, Returns, VariantFrame
from ..model.invariants import Invariant
from ..model.record import Hint, ListEntry, Record, Result, Step
from ..model.versions import VERSIONS
from ..model.views import Marker, View
from .lanes import lanes, mark, unflushed
from .narration import FORCE_PREFIX, describe_violation, forced_pod, narrate
from .shapes import (
    HintLine,
    Invariants,
    Item,
    LegendItem,
    ListPane,
    MarkerChip,
    Narration,
    Notes,
    OutcomePart,
    Outcomes,
    Pane,
    Pointer,
    Scene,
    SeenMarker,
    Settings,
    ShownMarker,
    StepLine,
)
from .verdicts import badges
from .words import (
    AT_END,
    BEFORE_FIRST,
    CAPTION_SAW,
    EMPTY_LIST,
    FOR_POD,
    FRONT_NOTE,
    GHOST_NOTE,
    GONE,
    GONE_OTHER,
    JUST_REMOVED,
    LEGEND,
    LIST_NAME,
    MARK,
    NAMED,
    NEXT_POP,
    OUTCOMES,
    PANES,
    PREDICT_CHOICES,
    UNFLUSHED_WHY,
    UNSEEN_BY,
    entries,
    named,
    seconds,
    step_label,
)

SETTINGS: Settings = {"playing": False, "speed": 1.0, "range": None, "room": None}


def present(frame: Frame, preview: Mapping[str, Preview] | None = None, settings: Settings | None = None) -> Scene:
    settings = {**SETTINGS, **(settings or {})}
    position, total, step = frame["position"], frame["total"], frame["step"]
    upcoming = frame["next"]
    now, after = step_of(position - 1, step), step_of(position, upcoming)
    return {
        "position": position,
        "total": total,
        "divergence": frame["divergence"],
        "positionText": f"{position} / {total}"
                        + (" · variants differ here" if frame["divergence"] == position else ""),
        "counter": f"{position} / {total}",
        "caption": caption(position, now, after),
        "step": now,
        "next": after,
        "predict": {"pod": upcoming["pod"], "choices": list(PREDICT_CHOICES)}
        if upcoming and upcoming["op"] == "fail" and frame["gate"] else None,
        "upcoming": {v: narrate(v, upcoming, p["result"], p["record"]) for v, p in preview.items()}
        if preview else None,
        "notes": presenter_notes(position, now, after) if settings["room"] else None,  # preview is None at the end
        "playing": settings["playing"],
        "speed": settings["speed"],
        "range": list(settings["range"]) if settings["range"] else [0, total],
        "room": settings["room"],
        "panes": with_badges(frame, {v: pane(v, payload, step, frame["gate"], frame.get("unschedulableLimit", 300.0),
                                             upcoming, frame.get("podGroups"))
                                     for v, payload in frame["variants"].items()}),
        "legend": LEGEND_ITEMS,
        "outcomes": outcomes({v: p["returns"] for v, p in frame["variants"].items() if "returns" in p}),
    }


def with_badges(frame: Frame, panes: dict[str, Pane]) -> dict[str, Pane]:
    """Each pane with its outcome badge (verdicts.badges: presentation mode shows it)."""
    said = badges(frame, {v: len(p["list"]["items"]) for v, p in panes.items()})
    return {v: {**p, "badge": said[v]} for v, p in panes.items()}


# shared by every scene, unchanged
LEGEND_ITEMS: list[LegendItem] = [{"key": key, "label": label, "text": text} for key, (label, text) in LEGEND.items()]


def outcomes(returns: Mapping[str, Returns]) -> Outcomes:
    """{label, pods: [{pod, parts: [{variant, text}]}]}: per failed pod, per variant, how it got back to activeQ or
    where it still waits, up to the cursor. The returns the tracker lists (its first two) are listed; more are summed
    up (how many, the longest), so the line stays short."""
    by_pod: dict[str, list[OutcomePart]] = {}
    for variant, summary in returns.items():
        back = {r["pod"]: r for r in summary["returned"]}
        waiting = {r["pod"]: r for r in summary["still_waiting"]}
        for pod in dict.fromkeys([*back, *waiting]):
            texts = returned_texts(back[pod]) if pod in back else []
            if pod in waiting:
                w = waiting[pod]
                texts.append(OUTCOMES["waiting" if w["where"] == w["via"] else "moved"].format(
                    where=w["where"], via=w["via"], since=seconds(w["failed_at"])))
            by_pod.setdefault(pod, []).append({"variant": variant, "text": f"{variant}: {', '.join(texts)}"})
    return {"label": OUTCOMES["label"], "pods": [{"pod": pod, "parts": parts} for pod, parts in by_pod.items()]}


def returned_texts(back: Returned) -> list[str]:
    """``back``: a pod's returns so far, as ReturnTracker.at gives them (count, the listed ones, the longest)."""
    if back["count"] <= len(back["listed"]):
        return [OUTCOMES["popped"].format(seconds=seconds(r["seconds"]), source=r["popped_from"])
                if "popped_from" in r else OUTCOMES["returned"].format(seconds=seconds(r["seconds"]), via=r["via"])
                for r in back["listed"]]
    longest = back["longest"]
    return [OUTCOMES["many"].format(count=back["count"], seconds=seconds(longest["seconds"]), via=longest["via"])]


def step_of(index: int, step: Step | None) -> StepLine | None:
    if step is None:
        return None
    return {"index": index, "op": step["op"], "label": step_label(step), "note": step.get("note", "")}


def caption(position: int, now: StepLine | None, after: StepLine | None) -> str:
    """``now`` and ``after``: the step that led here and the next one, as ``step_of`` gives them."""
    if now is not None:
        return f"{position}. {now['label']}" + (f" — {now['note']}" if now["note"] else "")
    return "Press → to apply the first step." if after is not None else ""


def presenter_notes(position: int, now: StepLine | None, after: StepLine | None) -> Notes:
    def line(number: int, s: StepLine) -> str:
        return f"{number}. {s['note'] or s['label']}"
    return {"now": line(position, now) if now else BEFORE_FIRST,
            "next": line(position + 1, after) if after else AT_END}


def pane(variant: str, payload: VariantFrame, step: Step | None, gate: bool, limit: float,
         upcoming: Step | None = None, groups: Mapping[str, str] | None = None) -> Pane:
    state, view, record, result = payload["state"], payload["view"], payload["record"], payload["result"]
    title, tag, tone = PANES[variant]
    gate = gate and not VERSIONS[variant].rules.gate_off  # v1.28.5: SchedulerQueueingHints off by default
    hint = record.get("hint") if record else None
    narration = narrate(variant, step, result, record)
    markers = shown_markers(view, payload.get("before"), record)
    listed = in_flight_list(variant, view, payload.get("before"), record, markers, gate, (step or {}).get("pod", ""))
    windows = payload.get("windows", False)
    lanes_ = mark(lanes(state, view, limit, windows), state, view, result, windows, groups, payload.get("before"))
    for chip_ in (c for lane in lanes_ if lane["queue"] == "activeQ" for c in lane["chips"]):
        if chip_["pod"] in waiting_for_logged_pop(step, result, view["now"], upcoming):
            chip_["detail"] = NEXT_POP
    shown: Pane = {
        "variant": variant,
        "title": title,
        "tag": tag,
        "tone": tone,
        "time": f"t = {seconds(view['now'])}",
        "clock": f"t = {seconds(view['now'])} · cycle {state['schedulingCycle']} · "
                 f"moveRequestCycle {state['moveRequestCycle']}",
        "caption": pane_caption(narration, hint),
        "list": listed,
        "pointers": pointers(variant, record, markers, listed["items"]),
        "hint": hint_line(hint),
        "walk": {"ids": [w["id"] for w in hint["walk"]],
                 "nil": hint["start"].get("marker") if hint["start"]["rule"] == "marker-detached" else None}
        if hint else None,
        "lanes": lanes_,
        "invariants": invariants(payload["invariants"]),
        "narration": narration,
        "outcome": result.get("queue") if result and step and step["op"] == "fail" else None,
        "unflushed": unflushed(lanes_),
    }
    if shown["unflushed"]:
        shown["unflushedWhy"] = UNFLUSHED_WHY
    return shown


LOGGED = re.compile(r"(line \d+|\S+:\d+): ")  # an imported step's note names its log line (not "assumed: ...")
IDLE = 1.0  # s in activeQ with no Pop: the scheduler, popping whenever activeQ holds a pod, would have tried it


def waiting_for_logged_pop(step: Step | None, result: Result | None, now: float, upcoming: Step | None) -> set[str]:
    """The pods a clock step's flushes moved to activeQ over IDLE before its end, when the next step is a Pop a
    log line states (an import): in the model they wait for that Pop, as the log has it, not for the queue."""
    if step is None or step["op"] != "advance_clock" or not result or upcoming is None or upcoming["op"] != "pop":
        return set()
    if not LOGGED.match(str(upcoming.get("note", ""))):
        return set()
    return {pod for f in result.get("flushes") or () if f["at"] < now - IDLE
            for pod in [*(f["result"].get("moved_to_activeQ") or ()),
                        *(p for p, queue in (f["result"].get("moved") or {}).items() if queue == "activeQ")]}


def pane_caption(narration: Narration, hint: Hint | None) -> str:
    """One line under the diagram: what the step did and, for a failure, what the walk saw."""
    if hint is None:
        return narration["title"]
    events = [f"{w['event']} ({w['hint']})" if w.get("hint") else w["event"] for w in hint["walk"] if w.get("event")]
    start = hint["start"]
    saw = (CAPTION_SAW["detached"].format(marker=start.get("marker")) if start["rule"] == "marker-detached"
           else CAPTION_SAW[hint["reason"]] if hint.get("reason") in CAPTION_SAW  # decided without a walk
           else CAPTION_SAW["saw"].format(events=", ".join(events)) if events else CAPTION_SAW["nothing"])
    return f"{narration['title']}: {saw}"


MARKER_WALKS = ("front", "marker-next", "marker-detached")  # v1.28.1 walks that start from the pod's marker


def shown_markers(view: View, before: View | None, record: Record | None) -> list[ShownMarker]:
    """v1.28.1's markers at the cursor, plus, after a failure, the failed pod's marker as its walk saw it
    (the deferred Done has dropped it from the model)."""
    markers: list[SeenMarker] = [{**m, "decided": False} for m in view.get("markers", [])]
    hint = (record.get("hint") if record else None)
    failed = hint["pod"] if hint and hint["start"]["rule"] in MARKER_WALKS else None
    if failed and before and not any(m["pod"] == failed for m in markers):
        markers += [{**m, "decided": True} for m in before.get("markers", []) if m["pod"] == failed]
    removed_now = {r["id"] for r in (record["removed"] if record else [])}
    return [{**m, "key": marker_key(m, removed_now)} for m in markers]


def listed_entries(view: View, before: View | None, record: Record | None
                   ) -> list[tuple[ListEntry, ListEntry | None]]:
    """(entry, removal) front to back: the entries at the cursor and, where this step removed some, those too
    in the places they held (``removal`` is the record's; None for an entry still listed)."""
    removed = {r["id"]: r for r in (record["removed"] if record else [])}
    if not removed or before is None:
        return [(e, None) for e in view["entries"]]
    now = {e["id"]: e for e in view["entries"]}
    out = [(now.get(e["id"], e), removed.get(e["id"])) for e in before["entries"]
           if e["id"] in now or e["id"] in removed]
    seen = {e["id"] for e, _ in out}
    return out + [(e, None) for e in view["entries"] if e["id"] not in seen]


def in_flight_list(variant: str, view: View, before: View | None, record: Record | None,
                   markers: list[ShownMarker], gate: bool, done_by: str) -> ListPane:
    """``done_by``: the pod whose Done ran in this step (a ``done`` or a ``fail``), for the ghosts' labels."""
    at: dict[str, list[ShownMarker]] = {}  # item key -> the markers drawn under it
    unseen_by: dict[str, list[str]] = {}
    for m in markers:
        at.setdefault(m["key"], []).append(m)
        for event_id in m["unseen"]:
            unseen_by.setdefault(event_id, []).append(m["pod"])
    hint = (record.get("hint") if record else None)
    walked = {w["id"]: w.get("hint") for w in hint["walk"]} if hint else {}  # entry id -> its hint (events)
    items: list[Item] = []
    if "front" in at:
        items.append({"key": "front", "kind": "front", "label": "nil",
                      "markers": [marker(m, FRONT_NOTE) for m in at["front"]]})
    for key in (k for k in at if k.startswith("ghost:")):
        removed = key.removeprefix("ghost:")
        items.append({"key": key, "kind": "ghost", "id": removed, "label": removed, "sub": "removed",
                      "title": f"{removed} was removed from the list",
                      "markers": [marker(m, GHOST_NOTE) for m in at[key]]})
    for e, removal in listed_entries(view, before, record):
        gone = GONE.get(removal["reason"], GONE_OTHER).format(pod=done_by) if removal else None
        if removal and removal["reason"] == "exhausted":  # drawn as Done left it, beside the entries it counted down
            e = {**e, "inFlightPodsNum": 0}
        items.append(entry(e, at.get(e["id"], []), unseen_by.get(e["id"]), e["id"] in walked, gone,
                           walked.get(e["id"])))
    ghosts = sum(1 for i in items if i.get("ghost"))
    return {
        "name": LIST_NAME[variant],
        "count": entries(len(view["entries"])) + (JUST_REMOVED.format(count=ghosts) if ghosts else ""),
        "note": "" if gate else "gate off: nothing is tracked",
        "items": items,
        "markerNotes": [marker_note(m) for m in markers],
        "empty": EMPTY_LIST,  # what a view shows for a list without entries
    }


def marker_key(m: Marker, removed_now: set[str]) -> str:
    """The list item a v1.28.1 marker points at: its element (kept as a ghost if this step removed it), the
    ghost of an element removed earlier, or the front."""
    if m["detached"] and m["previousEvent"] not in removed_now:
        return f"ghost:{m['previousEvent']}"
    return m["previousEvent"] or "front"


def entry(e: ListEntry, markers: list[ShownMarker], unseen_by: list[str] | None, walked: bool = False,
          gone: str | None = None, hint: str | None = None) -> Item:
    # marks only where they hold (an entry of a long list is sent once per step: no false flags on the wire);
    # ``walkHint``: the hint the failing pod's walk read on this event
    item: dict[str, Any] = {"key": e["id"], "kind": e["kind"], "id": e["id"],
            **({"markers": [marker(m) for m in markers]} if markers else {}),
            **({"orphaned": True} if e.get("orphaned") else {}),
            **({"unseen": UNSEEN_BY.format(pods=named(unseen_by)), "unseenBy": unseen_by[:NAMED]} if unseen_by else {}),
            **({"walked": True} if walked else {}), **({"walkHint": hint} if walked and hint else {}),
            **({"ghost": True, "gone": gone} if gone is not None else {})}
    if e["kind"] == "pod":
        sub = "orphaned" if e.get("orphaned") else "pod entry"
        return cast(Item, {**item, "label": f"[{e['pod']}]", "sub": sub,
                           "table": (f"pod {e['pod']}", "orphaned" if e.get("orphaned") else "")})
    count = e.get("inFlightPodsNum")
    forced = forced_pod(e["event"])
    if forced:  # 1.32+: Activate of an in-flight pod; drawn with the pod it is for
        text, title = FOR_POD
        item.update(forPod=forced, forText=text.format(pod=forced), forTitle=title.format(pod=forced))
    return cast(Item, {**item, "label": FORCE_PREFIX.rstrip(":") if forced else e["event"], "sub": e["id"],
                       **({} if count is None else {"count": f"n={count}"}),
                       "table": (f"event {e['event']}", "" if count is None else f"inFlightPodsNum {count}")})


def pointers(variant: str, record: Record | None, markers: list[ShownMarker], items: list[Item]) -> list[Pointer]:
    """One arrow per in-flight pod from its chip to where it marks the list, plus the failed pod's as its walk
    saw it (``decided``). ``reach``: [first, last] of the entries its walk would visit from there (the event
    entries between them, in list order), or []."""
    order = [i["key"] for i in items if i["kind"] in ("event", "pod")]
    events = {i["key"] for i in items if i["kind"] == "event" and not i.get("ghost")}
    hint = (record.get("hint") if record else None)
    walked = [w["id"] for w in hint["walk"]] if hint else []

    position = {key: i for i, key in enumerate(order)}
    next_event: list[str | None] = [None] * (len(order) + 1)  # index -> the first event entry at or after it
    for i in range(len(order) - 1, -1, -1):
        next_event[i] = order[i] if order[i] in events else next_event[i + 1]
    last_event = next((k for k in reversed(order) if k in events), None)

    def reach(after: str | None, decided: bool) -> list[str]:
        """[first, last]: the walk visits the event entries from first to last in list order (O(1) per pointer,
        however long the list and however many pods are in flight); [] when it visits none."""
        if decided:
            return [walked[0], walked[-1]] if walked else []
        start = 0 if after is None else position[after] + 1 if after in position else len(order)
        first = next_event[start]
        return [first, last_event] if first is not None and last_event is not None else []

    out: list[Pointer] = []
    for m in markers:  # v1.28.1
        target = "detached" if m["detached"] else m["previousEvent"] or "front"
        out.append(pointer(m["pod"], target, m["key"], m["detached"], [] if m["detached"] else
                           reach(m["previousEvent"], m["decided"]), m["unseen"], m["decided"]))
    own: dict[str, str] = {}  # v1.28.2: each in-flight pod's own (newest, live) entry
    for item in items:
        if item["kind"] == "pod" and not item.get("orphaned") and not item.get("ghost"):
            own[item["label"][1:-1]] = item["key"]
    if VERSIONS[variant].rules.pod_entries:
        for pod in sorted(own):
            out.append(pointer(pod, own[pod], own[pod], False, reach(own[pod], False), [], False))
        start = hint.get("start") if hint else None
        if hint and start and start["rule"] == "after-own-entry":
            out.append(pointer(hint["pod"], start["id"], start["id"], False, reach(None, True), [], True))
    return out


def pointer(pod: str, target: str, key: str, detached: bool, reach: list[str], unseen: list[str],
            decided: bool) -> Pointer:
    if detached:
        text, title = f"{pod} ⇢ ✕", f"{pod}'s marker was removed from the list: Next() is nil, its walk sees nothing"
    elif target == "front":
        text, title = f"{pod} → front", f"{pod}'s marker is nil: its walk starts at the front of the list"
    else:
        text, title = f"{pod} → {target}", f"{pod}'s walk starts after {target}"
    return {"pod": pod, "target": target, "key": key, "detached": detached, "reach": reach,
            "unseen": list(unseen[:NAMED]), "decided": decided, "text": text, "title": title}


def marker(m: Marker, note: str = "") -> MarkerChip:
    arrow = MARK["detached" if m["detached"] else "live"]
    unseen = named(m["unseen"]) or "later events"
    return {"pod": m["pod"], "detached": m["detached"], "text": f"{m['pod']} {arrow}" + (f" {note}" if note else ""),
            "title": f"{m['pod']}'s previousEvent {m['previousEvent']} was removed: it cannot see {unseen}"
            if m["detached"] else f"{m['pod']}'s previousEvent marker"}


def marker_note(m: Marker) -> str:
    unseen = named(m["unseen"]) or "later events"
    return f"{m['pod']}: previousEvent {m['previousEvent'] or 'nil'}" + (
        f" (detached; cannot see {unseen})" if m["detached"] else "")


def hint_line(hint: Hint | None) -> HintLine | None:
    if hint is None:
        return None
    events = [w for w in hint["walk"] if w.get("event")]
    several = len(events) > 1  # with one event, its hint is the decision: said once
    walked = [f"{w['event']} ({w['id']})" + (f": {w['hint']}" if several and w.get("hint") else "") for w in events]
    return {"pod": hint["pod"], "walked": f"walked {', '.join(walked)} → " if walked else "walked nothing → ",
            "decision": hint["decision"]}


def invariants(report: list[Invariant]) -> Invariants:
    broken = [i for i in report if not i["ok"]]
    return {
        "ok": not broken,
        "summary": f"✓ all {len(report)} invariants hold" if not broken else f"✗ {len(broken)} of {len(report)} "
                                                                            "invariants broken",
        "broken": [{"name": i["name"], "title": i["name"].replace("_", " "),
                    "detail": "; ".join(describe_violation(i["name"], v) for v in i["violations"]),
                    "description": i["description"]} for i in broken],
    }
