"""The two things a viewer is sent: what the scenario is (``scenario``) and where it stands (``state``),
made from the engine's plain data. A ``delta`` is the difference between two states (``delta.diff``).

    state = {position, total, variants: {variant: {state, result, record}}, scene}

``state`` and ``result`` are exactly the trace objects of scenario-format.md and ``record`` the step record:
the data a program reads. ``scene`` is what a person is shown (scene.py).
"""

from __future__ import annotations

from ..model.operations import kind_of
from ..model.variant import VARIANTS
from ..model.versions import VERSIONS
from .delta import diff
from .scene import present
from .words import GLOSSARY, step_label


def scenario_message(summary: dict, scenario_id: str | None, room: str | None = None) -> dict:
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
        # a step's place in the list is its index; its note only where it has one (an 8,000-step upload's message
        # was 902 kB, 639 kB of it these entries, a third of that the index, the op and empty notes)
        "steps": [{"kind": kind_of(s["op"]), "label": step_label(s), **({"note": s["note"]} if s.get("note") else {})}
                  for s in summary["steps"]],
        "keyPositions": key_positions(summary),
        "glossary": GLOSSARY,
        "versions": VERSION_TABLE,  # what the version picker offers: every version the model reproduces
        "opensOn": list(summary["source"].get("versions") or VARIANTS),  # shown unless the viewer picks others
        "source": summary["source"],  # lets a follower detach and replay the same scenario privately
        "room": room,
    }


VERSION_TABLE = [{"name": v.name, "releases": v.releases, "summary": v.summary} for v in VERSIONS.values()]


def state_message(frame: dict, preview: dict | None = None, settings: dict | None = None) -> dict:
    """``frame`` and ``preview`` are ``Simulation.frame()`` / ``.preview()``."""
    return {
        "position": frame["position"],
        "total": frame["total"],
        "variants": {v: {"state": p["state"], "result": p["result"], "record": p["record"]}
                     for v, p in frame["variants"].items()},
        "scene": present(frame, preview, settings),
    }


def key_positions(summary: dict) -> list[int]:
    """Where the story turns: the first step where the variants differ, every failure, the end."""
    fails = [i + 1 for i, s in enumerate(summary["steps"]) if s["op"] == "fail"]
    marks = {*fails, summary["total"]} | ({summary["divergence"]} if summary["divergence"] is not None else set())
    return sorted(marks)


TRACED = ("position", "total", "variants", "scene")  # what a delta's ops describe; the settings travel whole


def traced(message: dict) -> dict:
    return {key: message[key] for key in TRACED}


def delta_message(seq: int, old: dict, new: dict) -> dict:
    """What turns the state message ``old`` into ``new`` on a client that holds ``old`` as state ``seq - 1``:
    ops on their TRACED parts."""
    return {"seq": seq, "position": new["position"], "ops": diff(traced(old), traced(new))}
