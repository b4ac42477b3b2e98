"""Simulation frames -> the messages the browser renders (scenario summary, per-step state)."""

from __future__ import annotations

from .narration import narrate

KINDS = {"pop": "pop", "event": "event", "assigned_pod_added": "event", "flush_unschedulable_leftover": "event",
         "done": "done", "fail": "fail", "advance_clock": "clock", "flush_backoff": "clock"}


def step_label(step: dict) -> str:
    params = [f"{k}={v}" for k, v in step.items() if k not in ("op", "note")]
    return f"{step['op']} {' '.join(str(p) for p in params)}".strip()


def scenario_message(session, room: str | None = None) -> dict:
    sim = session.sim
    sc = sim.scenario
    return {
        "id": session.scenario_id,
        "name": sc.name,
        "description": sc.description,
        "variants": list(sim.variants),
        "total": sim.total,
        "divergence": sim.divergence,
        "gate": sc.config.gate,
        "pods": list(sc.pods),
        "steps": [
            {"index": i, "op": s["op"], "kind": KINDS.get(s["op"], "other"), "label": step_label(s),
             "note": s.get("note", "")}
            for i, s in enumerate(sc.steps)
        ],
        "returns": {v: r.summary() for v, r in sim.returns.items()},
        "source": sc.raw,  # lets a follower detach and replay the same scenario privately
        "room": room,
    }


def state_message(session, room: str | None = None) -> dict:
    sim = session.sim
    frame = sim.frame()
    position = frame["position"]
    step = sim.scenario.steps[position - 1] if position else None
    for variant, view in frame["variants"].items():
        view["narration"] = narrate(variant, step, view["result"], view["record"])
    upcoming = sim.peek()
    frame["step"] = {"index": position - 1, "op": step["op"], "label": step_label(step),
                     "note": step.get("note", "")} if step else None
    frame["next"] = {"op": upcoming["op"], "label": step_label(upcoming),
                     "note": upcoming.get("note", "")} if upcoming else None
    frame["playing"] = session.playing
    frame["speed"] = session.speed
    frame["range"] = list(session.range)
    frame["room"] = room
    if room is not None:
        frame["upcoming"] = upcoming_narration(sim)
    return frame


def upcoming_narration(sim) -> dict | None:
    """The narration of the next step per variant (for the presenter's notes); the cursor is restored."""
    position = sim.position
    if position >= sim.total:
        return None
    step = sim.scenario.steps[position]
    ahead = sim.seek(position + 1)["variants"]
    sim.seek(position)
    return {v: narrate(v, step, view["result"], view["record"]) for v, view in ahead.items()}
