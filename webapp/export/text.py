"""The ``replay --format text`` rendering: a table per variant, a row per step, in the words the page shows."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.simulation import Simulation
from ..model.record import Result
from ..presenter import state_message
from ..presenter.shapes import Item, Pane, Pointer

COLUMNS = ("#", "operation", "result", "activeQ", "backoffQ", "unschedulablePods", "in flight")
TEXT_LANES = ("activeQ", "backoffQ", "unschedulablePods")  # the lanes drawn as columns, by queue


def render_text(label: str, sim: Simulation) -> str:
    """One table per variant, a row per step, drawn from the scene of each position (the words the page
    shows: lanes' chips, the in-flight list's items as the picture marks them, the pointers); the result column
    sums up the step's result."""
    rows: dict[str, list[Sequence[str]]] = {variant: [COLUMNS] for variant in sim.variants}
    while sim.position < sim.total:
        sim.step()
        frame = sim.frame()
        msg = state_message(frame)
        scene = msg["scene"]
        step = scene["step"]
        assert step is not None  # a position past the first: a step led here
        for variant, pane in scene["panes"].items():
            chips = {lane["queue"]: [chip["pod"] for chip in lane["chips"]] for lane in pane["lanes"]}
            rows[variant].append((
                str(step["index"] + 1),  # numbered as the page numbers it ("6. fail B")
                step["label"],  # the page's words ("fail B — plugin P")
                _summary(msg["variants"][variant]["result"] or {}),
                *(_value(chips[queue]) for queue in TEXT_LANES),
                in_flight(pane),
            ))
    name = sim.scenario.name
    return "\n".join(_table(f"== {label}: {name} ({variant}) ==", table) for variant, table in rows.items())


def _table(heading: str, rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join([heading, *lines, ""])


def in_flight(pane: Pane) -> str:
    """The scene's in-flight list and pointers in one line: v1.28.2 ``[A] -> NodeAdd#e1 -> [B]   pointers:
    B->B@2``; v1.28.1 ``NodeAdd#e1(n=1){removed} -> PvAdd#e2(n=1){unseen by B}   pointers: B->e1 (detached!)``.
    An entry says in braces what the picture marks on it: ``walked`` (the step's walk visited it), ``removed``
    (this step removed it: a ghost), ``unseen by …``; a pointer ``pod->item`` aims where the pod's walk starts
    (``nil``: the front; ``(detached!)``: its element is gone; ``(decided)``: the failed pod's, as its walk
    saw it)."""
    listing = pane["list"]
    entries = " -> ".join(_entry(item) for item in listing["items"] if item["kind"] in ("event", "pod"))
    pointers = [_pointer(p) for p in pane.get("pointers", [])]
    if not pointers:
        return entries or "-"
    return f"{entries or listing['empty']}   pointers: {', '.join(pointers)}"


def _entry(item: Item) -> str:
    text = item["label"] if item["kind"] == "pod" else (
        f"{item['label']}#{item.get('id', '')}" + (f"({item['count']})" if item.get("count") else ""))
    unseen = item.get("unseen")
    marks = [word for word, on in (("walked", item.get("walked")), ("removed", item.get("ghost")), (unseen, unseen))
             if on and word]
    return text + (f"{{{', '.join(marks)}}}" if marks else "")


def _pointer(p: Pointer) -> str:
    where = p["key"].removeprefix("ghost:") if p["detached"] else "nil" if p["target"] == "front" else p["target"]
    notes = [note for note, on in (("detached!", p["detached"]), ("decided", p["decided"])) if on]
    return f"{p['pod']}->{where}" + (f" ({', '.join(notes)})" if notes else "")


def _summary(result: Result) -> str:
    if "popped" in result:
        return f"popped {result['popped']}"
    if "error" in result:
        return f"error: {result['error']}"
    if "event_id" in result:
        recorded = "recorded" if result["recorded_in_flight"] else "not recorded"
        moved = f", moved {_value(result['moved'])}" if "moved" in result else ""
        return f"{result['event']}#{result['event_id']} {recorded}{moved}"
    if "queue" in result:
        return f"{result.get('hint') or result.get('rule')} -> {result['queue']}"
    if "flushes" in result:  # periodic flushes while the clock advanced
        ran = "; ".join(f"{f['op']} at {f['at']:g}s: {_summary(f['result'])}" for f in result["flushes"])
        return f"now={result['now']:g}" + (f"; {ran}" if ran else "")
    return " ".join(f"{k}={_value(v)}" for k, v in result.items())


def _value(v: object) -> str:
    if isinstance(v, list):
        return ",".join(map(str, v)) or "-"
    if isinstance(v, dict):
        return ",".join(f"{k}->{x}" for k, x in v.items()) or "-"
    return str(v)
