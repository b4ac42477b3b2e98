"""Every name, title and short text a view shows, stated once. Drawing code (the page, the SVG export, the
command line's text) takes them from the scene and never spells them itself."""

from __future__ import annotations

# variant -> (title, tag line, tone): the tone colours the pane (bug: the lost marker; fix: its repair)
PANES = {
    "v1.28.1": ("v1.28.1", "v1.28.0 – v1.28.1 · marker into a shared event list", "bug"),
    "v1.28.2": ("v1.28.2", "v1.28.2+ · every in-flight pod has its own entry", "fix"),
}
LIST_NAME = {"v1.28.1": "receivedEvents", "v1.28.2": "inFlightEvents"}

# queue -> (label, icon, what waiting there means), in the order the lanes are drawn
LANES = {
    "activeQ": ("activeQ", "●", "waiting to be popped"),
    "backoffQ": ("backoffQ", "◔", "backing off"),
    "unschedulablePods": ("unschedulablePods", "■", "parked until an event or the 5-min flush"),
    "inFlight": ("in flight", "▲", "popped; attempt running"),
}
PREDICT_CHOICES = ("activeQ", "backoffQ", "unschedulablePods")  # where a failed pod can go

FRONT_NOTE = "nil → walks from the front"
BEFORE_FIRST = "Before the first step."  # the presenter's "now" before any step
AT_END = "End of the scenario."  # the presenter's "next" after the last step
GHOST_NOTE = "Next() = nil"
EMPTY_LIST = "(empty)"  # an in-flight list that holds nothing


def seconds(value: float) -> str:
    return f"{int(value) if float(value).is_integer() else f'{value:.2f}'} s"


def entries(count: int) -> str:
    return f"{count} entr{'y' if count == 1 else 'ies'}"


def step_label(step: dict) -> str:
    params = [f"{k}={v}" for k, v in step.items() if k not in ("op", "note")]
    return f"{step['op']} {' '.join(str(p) for p in params)}".strip()
