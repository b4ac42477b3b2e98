"""The scene: what to show at one position, display-ready (present() in scene.py makes it; the page, the SVG
export, the table view and the command line only draw it). Every label, title and sentence is made once, here
in the presenter; the keys below are the wire's.

``counter`` is positionText without the divergence note (what a one-variant view of these panes shows); ``notes``
are the presenter's lines for this step and the next, in a room's scene (else None); ``upcoming`` what the next
step will do on each variant, before the end (else None).

A pane's list items, front to back: the nil-marker slot ("front"), ghosts of elements removed earlier that
detached markers still point at ("ghost"), then the entries ("event" / "pod"); each carries its markers and, only
where they hold, ``walked`` (the step's hint walk visited it; ``walkHint``: the hint it read there),
``ghost``/``gone`` (this step removed it, e.g. the deferred Done of a ``fail``: it is drawn in its old place,
faint, with ``gone`` saying why), ``unseen``/``unseenBy`` and ``orphaned``. So the frame after a ``fail`` still
shows what the walk saw.

``pointers``: one per pod the tracker holds in flight (it starts at the pod's chip in the in-flight lane) plus,
after a failure, the failed pod's as its walk saw it (``decided``; it starts at the chip wherever the pod went).
``target``: the entry id, "front" (a nil marker) or "detached"; ``key``: the list item to aim at; ``reach``: the
entries its walk would visit (for a decided pointer: those it visited). Chips carry a ``timer`` in
unschedulablePods (the wait against the flush limit) and backoffQ (the backoff left).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class Settings(TypedDict, total=False):
    """How a viewer plays the scenario; every key has a default (scene.SETTINGS)."""

    playing: bool
    speed: float
    range: tuple[int, int] | list[int] | None  # the positions a view is held to
    room: str | None


class StepLine(TypedDict):
    index: int
    op: str
    label: str
    note: str


class Predict(TypedDict):
    pod: str
    choices: list[str]


class Notes(TypedDict):
    now: str
    next: str


class Narration(TypedDict):
    title: str
    lines: list[str]
    functions: list[str]  # the upstream functions the step entered
    where: str  # the upstream files they are in, each with its functions (files.where)
    note: str


class MarkerChip(TypedDict):
    pod: str
    detached: bool
    text: str
    title: str


class Item(TypedDict):
    key: str
    kind: str  # front | ghost | event | pod
    label: str
    id: NotRequired[str]
    sub: NotRequired[str]
    title: NotRequired[str]
    count: NotRequired[str]
    table: NotRequired[tuple[str, str]]  # the table view's two cells
    markers: NotRequired[list[MarkerChip]]
    orphaned: NotRequired[bool]
    unseen: NotRequired[str]
    unseenBy: NotRequired[list[str]]
    walked: NotRequired[bool]
    walkHint: NotRequired[str]
    ghost: NotRequired[bool]
    gone: NotRequired[str]
    forPod: NotRequired[str]  # 1.32+: a ForceActivate entry's pod, the only one whose failure it requeues
    forText: NotRequired[str]
    forTitle: NotRequired[str]


class ListPane(TypedDict):
    name: str
    count: str
    note: str
    items: list[Item]
    markerNotes: list[str]
    empty: str  # what a view shows for a list without entries


class Pointer(TypedDict):
    pod: str
    target: str
    key: str
    detached: bool
    reach: list[str]  # [first, last] of the event entries the walk visits, or []
    unseen: list[str]
    decided: bool
    text: str
    title: str


class HintLine(TypedDict):
    pod: str
    walked: str
    decision: str


class Walk(TypedDict):
    ids: list[str]
    nil: str | None  # v1.28.1: the marker a detached walk started from


class Timer(TypedDict):
    kind: str  # wait | backoff
    value: float
    limit: float
    fraction: float
    text: str
    next: NotRequired[float]  # with periodic flushes: when the tick that moves the pod comes
    missed: NotRequired[float]  # without them: when the tick that would have moved the pod came
    parts: NotRequired[list[str]]  # the phrases of text, each kept on one line where the chip is narrow


class ChipMark(TypedDict):
    """What 1.32+ adds to a pod's place, drawn as a small tag on its chip (``kind``: early, error, window, gated,
    group or discarded; words.CHIP_MARKS)."""

    kind: str
    text: str
    title: str


class Chip(TypedDict):
    pod: str
    detail: str
    title: str
    timer: Timer | None
    head: NotRequired[bool]  # one of activeQ's heads
    marks: NotRequired[list[ChipMark]]
    ghost: NotRequired[bool]  # a record this step took and dropped (Pop's discarded duplicate), drawn faint
    window: NotRequired[ChipMark]  # 1.33+: the one-second window of backoffQ that starts at this chip, drawn over it


class Lane(TypedDict):
    queue: str
    label: str
    icon: str
    help: str
    chips: list[Chip]


class Broken(TypedDict):
    name: str
    title: str
    detail: str
    description: str


class Badge(TypedDict):
    """A pane's outcome in a few words (``tone``: slow, quick or plain)."""

    text: str
    tone: str


class Invariants(TypedDict):
    ok: bool
    summary: str
    broken: list[Broken]


class Pane(TypedDict):
    variant: str
    title: str
    tag: str
    tone: str
    time: str
    clock: str
    caption: str
    list: ListPane
    pointers: list[Pointer]
    hint: HintLine | None
    walk: Walk | None
    lanes: list[Lane]
    invariants: Invariants
    narration: Narration
    outcome: str | None
    unflushed: list[str]  # without periodic flushes: the moves the scheduler's flushes would have made by now
    unflushedWhy: NotRequired[str]  # with those: why nothing moved them
    badge: NotRequired[Badge | None]  # the outcome once known (verdicts.badges), for presentation mode


class LegendItem(TypedDict):
    key: str
    label: str
    text: str


class OutcomePart(TypedDict):
    variant: str
    text: str


class PodOutcome(TypedDict):
    pod: str
    parts: list[OutcomePart]


class Outcomes(TypedDict):
    label: str
    pods: list[PodOutcome]


class Scene(TypedDict):
    position: int
    total: int
    divergence: int | None
    positionText: str
    counter: str
    caption: str
    step: StepLine | None
    next: StepLine | None
    predict: Predict | None
    upcoming: dict[str, Narration] | None
    notes: Notes | None
    playing: bool
    speed: float
    range: list[int]
    room: str | None
    panes: dict[str, Pane]
    legend: list[LegendItem]
    outcomes: Outcomes


class SeenMarker(TypedDict):
    """A v1.28.1 marker as the pane draws it (not on the wire): ``decided``, the failed pod's as its walk saw it."""

    pod: str
    previousEvent: str | None
    detached: bool
    unseen: list[str]
    decided: bool


class ShownMarker(SeenMarker):
    key: str  # the list item it points at
