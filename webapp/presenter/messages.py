"""The two things a viewer is sent: what the scenario is (``scenario``) and where it stands (``state``),
made from the engine's plain data. A ``delta`` is the difference between two states (``delta.diff``).

    state = {position, total, variants: {variant: {state, result, record, source}}, scene}

``state`` and ``result`` are exactly the trace objects of scenario-format.md, ``record`` the step record and
``source`` the upstream lines it ran (sourcelines.py):
the data a program reads. ``scene`` is what a person is shown (scene.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from ..model.frame import Facts, Frame, Preview, Summary
from ..model.operations import kind_of
from ..model.record import Record, Result, Step
from ..model.variant import VARIANTS
from ..model.versions import VERSIONS
from ..model.views import State
from ..phrases import FORK_MARK
from .delta import Op, diff
from .scene import present
from .shapes import Scene, Settings
from .sourcelines import lit_lines, on_the_wire
from .words import GLOSSARY, step_label


class StepEntry(TypedDict):
    kind: str
    label: str
    note: NotRequired[str]


class VersionEntry(TypedDict):
    name: str
    releases: str
    summary: str


class ScenarioMessage(Facts):
    id: str | None
    steps: list[StepEntry]
    keyPositions: list[int]
    glossary: dict[str, str]
    versions: list[VersionEntry]
    opensOn: list[str]
    source: dict[str, Any]
    room: str | None


class Traced(TypedDict):
    state: State
    result: Result | None
    record: Record | None
    source: list[list[str | None]]  # the upstream lines the step ran, in order: [anchor, value] (sourcelines.py)


class StateMessage(TypedDict):
    position: int
    total: int
    variants: dict[str, Traced]
    scene: Scene


class DeltaMessage(TypedDict):
    seq: int
    position: int
    ops: list[Op]


def scenario_message(summary: Summary, scenario_id: str | None, room: str | None = None) -> ScenarioMessage:
    """``summary`` is ``Simulation.summary()``."""
    return {
        "id": scenario_id,
        "name": summary["name"],
        "description": summary["description"],
        "variants": summary["variants"],
        "total": summary["total"],
        "divergence": summary["divergence"],
        "gate": summary["gate"],
        "pods": summary["pods"],
        # a step's place in the list is its index; its note only where it has one (these entries are most of a
        # long scenario's message: no index, no empty note)
        "steps": [step_entry(s) for s in summary["steps"]],
        "keyPositions": key_positions(summary),
        "glossary": GLOSSARY,
        "versions": VERSION_TABLE,  # what the version picker offers: every version the model reproduces
        "opensOn": list(summary["source"].get("versions") or VARIANTS),  # shown unless the viewer picks others
        "source": summary["source"],  # lets a follower detach and replay the same scenario privately
        "room": room,
    }


def step_entry(step: Step) -> StepEntry:
    entry: StepEntry = {"kind": kind_of(step["op"]), "label": step_label(step)}
    if step.get("note"):
        entry["note"] = step["note"]
    return entry


VERSION_TABLE: list[VersionEntry] = [{"name": v.name, "releases": v.releases, "summary": v.summary}
                                     for v in VERSIONS.values()]


def state_message(frame: Frame, preview: Mapping[str, Preview] | None = None, settings: Settings | None = None
                  ) -> StateMessage:
    """``frame`` and ``preview`` are ``Simulation.frame()`` / ``.preview()``."""
    return {
        "position": frame["position"],
        "total": frame["total"],
        "variants": {v: {"state": p["state"], "result": p["result"], "record": p["record"],
                         "source": on_the_wire(lit_lines(v, p["record"], p["result"], p["state"]))}
                     for v, p in frame["variants"].items()},
        "scene": present(frame, preview, settings),
    }


def key_positions(summary: Summary) -> list[int]:
    """Where the story turns: the first step where the variants differ, every failure, the end."""
    fails = [i + 1 for i, s in enumerate(summary["steps"]) if s["op"] == "fail"]
    marks = {*fails, summary["total"]} | ({summary["divergence"]} if summary["divergence"] is not None else set())
    return sorted(marks)


# What a room's scene carries for its presenter only (the speaker's notes, what the next step does, the next step
# itself: while a prediction is open, each names its answer); its followers are sent the scene without them.
SPEAKERS_ONLY = ("notes", "upcoming", "next")


def for_audience(message: Mapping[str, Any]) -> dict[str, Any]:
    """A room's state message as its followers are sent it: the scene without ``SPEAKERS_ONLY`` (each None), and
    its ``divergence`` only once the room is there."""
    scene = message["scene"]
    ahead = scene["divergence"] is not None and scene["divergence"] > scene["position"]
    return {**message, "scene": {**scene, **dict.fromkeys(SPEAKERS_ONLY), **({"divergence": None} if ahead else {})}}


# What a room's scenario message carries for its presenter only, where the scenario asks predictions (the gate is
# on and a step fails: a poll opens before each failure): the introduction and every step's note, which name how
# the story ends. Its followers are sent the scenario without them, in the steps list and in the ``source`` they
# detach with (a detached follower replays the same steps, without the texts); a scenario that asks nothing keeps
# them. Nor is where the versions first place a pod differently (``divergence``, in ``keyPositions`` too) theirs:
# a room's scene tells it once the room is there (``for_audience``).
AHEAD_TEXTS = ("description", "note")
INTRO_UNTOLD = "This introduction tells how the story ends: the presenter tells it as the talk goes."


def for_followers(message: dict[str, Any]) -> dict[str, Any]:
    """A room's scenario message as its followers are sent it: without ``AHEAD_TEXTS`` where it asks predictions
    (``message`` itself where it asks none)."""
    if not (message["gate"] and any(step["kind"] == "fail" for step in message["steps"])):
        return message
    source = message["source"]
    steps = source.get("steps") if isinstance(source, Mapping) else None
    told = {i + 1 for i, step in enumerate(message["steps"]) if step["kind"] == "fail"} | {message["total"]}
    return {**message, "description": INTRO_UNTOLD, "steps": [_untold(step) for step in message["steps"]],
            "divergence": None, "keyPositions": [p for p in message["keyPositions"] if p in told],
            "source": {**_untold(source), "steps": [_untold(s) for s in steps]} if isinstance(steps, list) else source}


def _untold(entry: Any) -> Any:
    """``entry`` without its AHEAD_TEXTS, but for a fork's note (phrases.FORK_MARK: where the room forked, and how
    it voted, tells nothing ahead)."""
    if not isinstance(entry, Mapping):
        return entry
    return {key: value for key, value in entry.items()
            if key not in AHEAD_TEXTS or key == "note" and str(value).startswith(FORK_MARK)}


TRACED = ("position", "total", "variants", "scene")  # what a delta's ops describe; the settings travel whole


def traced(message: Mapping[str, Any]) -> dict[str, Any]:
    return {key: message[key] for key in TRACED}


def delta_message(seq: int, old: Mapping[str, Any], new: Mapping[str, Any]) -> DeltaMessage:
    """What turns the state message ``old`` into ``new`` on a client that holds ``old`` as state ``seq - 1``:
    ops on their TRACED parts."""
    return {"seq": seq, "position": new["position"], "ops": diff(traced(old), traced(new))}
