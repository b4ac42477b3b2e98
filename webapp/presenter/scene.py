"""present(frame, preview, settings) -> scene: what to show at one position, as plain data.

The scene is display-ready: every label, title and sentence is made here, once; the page, the SVG export,
the table view and the command line only draw it. It imports no engine and moves no cursor: a frame and a
preview (``Simulation.frame()`` / ``.preview()``) are plain data.

    scene = {position, total, divergence, positionText, counter, caption, step, next, predict, upcoming, notes,
             playing, speed, range, room, panes: {variant: pane}}

``counter`` is positionText without the divergence note (what a one-variant view of these panes shows);
``notes`` {now, next} are the presenter's lines for this step and the next (with ``upcoming``; else null).
    pane  = {variant, title, tag, tone, clock, list: {name, count, note, items, markerNotes, empty},
             hint, walk, lanes: [{queue, label, icon, help, chips}], invariants, narration, outcome}

List items, front to back: the nil-marker slot ("front"), ghosts of removed elements that detached
markers still point at ("ghost"), then the entries ("event" / "pod"); each carries its markers.
"""

from __future__ import annotations

from .narration import describe_violation, narrate
from .words import AT_END, BEFORE_FIRST, EMPTY_LIST, FRONT_NOTE, GHOST_NOTE, LANES, LIST_NAME, PANES, PREDICT_CHOICES, entries, seconds, step_label

SETTINGS = {"playing": False, "speed": 1.0, "range": None, "room": None}


def present(frame: dict, preview: dict | None = None, settings: dict | None = None) -> dict:
    settings = {**SETTINGS, **(settings or {})}
    position, total, step = frame["position"], frame["total"], frame["step"]
    upcoming = frame["next"]
    return {
        "position": position,
        "total": total,
        "divergence": frame["divergence"],
        "positionText": f"{position} / {total}" + (" · variants differ here" if frame["divergence"] == position else ""),
        "counter": f"{position} / {total}",
        "caption": caption(position, step, upcoming),
        "step": step_of(position - 1, step),
        "next": step_of(position, upcoming),
        "predict": {"pod": upcoming["pod"], "choices": list(PREDICT_CHOICES)}
        if upcoming and upcoming["op"] == "fail" and frame["gate"] else None,
        "upcoming": {v: narrate(v, upcoming, p["result"], p["record"]) for v, p in preview.items()}
        if preview else None,
        "notes": presenter_notes(position, step, upcoming) if preview else None,
        "playing": settings["playing"],
        "speed": settings["speed"],
        "range": list(settings["range"]) if settings["range"] else [0, total],
        "room": settings["room"],
        "panes": {v: pane(v, payload, step, frame["gate"]) for v, payload in frame["variants"].items()},
    }


def step_of(index: int, step: dict | None) -> dict | None:
    if step is None:
        return None
    return {"index": index, "op": step["op"], "label": step_label(step), "note": step.get("note", "")}


def caption(position: int, step: dict | None, upcoming: dict | None) -> str:
    if step is not None:
        note = step.get("note", "")
        return f"{position}. {step_label(step)}" + (f" — {note}" if note else "")
    return "Press → to apply the first step." if upcoming is not None else ""


def presenter_notes(position: int, step: dict | None, upcoming: dict | None) -> dict:
    def line(number: int, s: dict) -> str:
        return f"{number}. {s.get('note') or step_label(s)}"
    return {"now": line(position, step) if step else BEFORE_FIRST,
            "next": line(position + 1, upcoming) if upcoming else AT_END}


def pane(variant: str, payload: dict, step: dict | None, gate: bool) -> dict:
    state, view, record, result = payload["state"], payload["view"], payload["record"], payload["result"]
    title, tag, tone = PANES[variant]
    hint = record.get("hint") if record else None
    return {
        "variant": variant,
        "title": title,
        "tag": tag,
        "tone": tone,
        "clock": f"t = {seconds(view['now'])} · cycle {state['schedulingCycle']} · "
                 f"moveRequestCycle {state['moveRequestCycle']}",
        "list": in_flight_list(variant, view, gate),
        "hint": hint_line(hint),
        "walk": {"ids": [w["id"] for w in hint["walk"]],
                 "nil": hint["start"].get("marker") if hint["start"]["rule"] == "marker-detached" else None}
        if hint else None,
        "lanes": lanes(state, view),
        "invariants": invariants(payload["invariants"]),
        "narration": narrate(variant, step, result, record),
        "outcome": result.get("queue") if result and step and step["op"] == "fail" else None,
    }


def in_flight_list(variant: str, view: dict, gate: bool) -> dict:
    markers = view.get("markers", [])
    at: dict[str, list] = {}  # item key -> the markers drawn under it
    unseen_by: dict[str, list] = {}
    for m in markers:
        key = f"ghost:{m['previousEvent']}" if m["detached"] else (m["previousEvent"] or "front")
        at.setdefault(key, []).append(m)
        for event_id in m["unseen"]:
            unseen_by.setdefault(event_id, []).append(m["pod"])
    items = []
    if "front" in at:
        items.append({"key": "front", "kind": "front", "label": "nil", "markers": [marker(m, FRONT_NOTE) for m in at["front"]]})
    for key in (k for k in at if k.startswith("ghost:")):
        removed = key.removeprefix("ghost:")
        items.append({"key": key, "kind": "ghost", "id": removed, "label": removed, "sub": "removed",
                      "title": f"{removed} was removed from the list",
                      "markers": [marker(m, GHOST_NOTE) for m in at[key]]})
    items += [entry(e, at.get(e["id"], []), unseen_by.get(e["id"])) for e in view["entries"]]
    return {
        "name": LIST_NAME[variant],
        "count": entries(len(view["entries"])),
        "note": "" if gate else "gate off: nothing is tracked",
        "items": items,
        "markerNotes": [marker_note(m) for m in markers],
        "empty": EMPTY_LIST,  # what a view shows for a list without entries
    }


def entry(e: dict, markers: list, unseen_by: list | None) -> dict:
    item = {"key": e["id"], "kind": e["kind"], "id": e["id"], "orphaned": bool(e.get("orphaned")),
            "unseen": f"unseen by {', '.join(unseen_by)}" if unseen_by else None,
            "markers": [marker(m) for m in markers]}
    if e["kind"] == "pod":
        sub = "orphaned" if e.get("orphaned") else "pod entry"
        return {**item, "label": f"[{e['pod']}]", "sub": sub, "count": None,
                "table": (f"pod {e['pod']}", "orphaned" if e.get("orphaned") else "")}
    count = e.get("inFlightPodsNum")
    return {**item, "label": e["event"], "sub": e["id"], "count": None if count is None else f"n={count}",
            "table": (f"event {e['event']}", "" if count is None else f"inFlightPodsNum {count}")}


def marker(m: dict, note: str = "") -> dict:
    arrow = "⇡" if m["detached"] else "↑"
    unseen = ", ".join(m["unseen"]) or "later events"
    return {"pod": m["pod"], "detached": m["detached"], "text": f"{m['pod']} {arrow}" + (f" {note}" if note else ""),
            "title": f"{m['pod']}'s previousEvent {m['previousEvent']} was removed: it cannot see {unseen}"
            if m["detached"] else f"{m['pod']}'s previousEvent marker"}


def marker_note(m: dict) -> str:
    unseen = ", ".join(m["unseen"]) or "later events"
    return f"{m['pod']}: previousEvent {m['previousEvent'] or 'nil'}" + (
        f" (detached; cannot see {unseen})" if m["detached"] else "")


def hint_line(hint: dict | None) -> dict | None:
    if hint is None:
        return None
    walked = [f"{w['id']}: {w['hint']}" if w.get("hint") else w["id"] for w in hint["walk"] if w.get("event")]
    return {"pod": hint["pod"], "walked": f"walked {', '.join(walked)} → " if walked else "walked nothing → ",
            "decision": hint["decision"]}


def lanes(state: dict, view: dict) -> list[dict]:
    members = {"activeQ": state["activeQ"], "backoffQ": state["backoffQ"],
               "unschedulablePods": state["unschedulablePods"],
               "inFlight": [name for name, pod in view["pods"].items() if pod["where"] == "inFlight"]}
    return [{"queue": queue, "label": label, "icon": icon, "help": help_,
             "chips": [chip(pod, queue, view["pods"].get(pod)) for pod in members[queue]]}
            for queue, (label, icon, help_) in LANES.items()]


CHIP_DETAIL = {"backoffQ": ("backoffExpiry", "until {}"), "unschedulablePods": ("timestamp", "since {}")}


def chip(pod: str, queue: str, info: dict | None) -> dict:
    detail = ""
    if info and queue in CHIP_DETAIL:
        key, text = CHIP_DETAIL[queue]
        detail = text.format(seconds(info[key]))
    elif info and queue == "inFlight" and "attempts" in info:
        detail = f"attempt {info['attempts']}"
    plugins = (info or {}).get("plugins")
    return {"pod": pod, "detail": detail, "title": f"plugins: {', '.join(plugins)}" if plugins else pod}


def invariants(report: list[dict]) -> dict:
    broken = [i for i in report if not i["ok"]]
    return {
        "ok": not broken,
        "summary": f"✓ all {len(report)} invariants hold" if not broken else f"✗ {len(broken)} of {len(report)} "
                                                                            "invariants broken",
        "broken": [{"name": i["name"], "title": i["name"].replace("_", " "),
                    "detail": "; ".join(describe_violation(i["name"], v) for v in i["violations"]),
                    "description": i["description"]} for i in broken],
    }
