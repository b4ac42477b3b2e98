"""Challenges from the page: the list, and a check of the scenario on screen.

    GET  /api/challenges             {challenges: [{id, title, goal, versions, start}]} in course order
    POST /api/challenges/<id>/check  a scenario object -> {id, title, versions, solved, why (words), evidence}
                                     checked by running the model (engine/challenges.py) off the event loop

An unknown id is answered 404, a body that is not a valid scenario object 400 with {message, kind} (and problems,
located like the editor's), one over MAX_UPLOAD_BYTES 413: the UserError family of webapp/errors.py.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from ..engine.challenges import CHALLENGES, challenge, check
from ..presenter.challenges import explain
from ..scenario.load import load_scenario
from ..scenario.validate import Limits
from ..server.offload import apart
from .bodies import json_body, small_body

bp = Blueprint("challenges", __name__)
LIMITS = Limits()


@bp.get("/api/challenges")
def listed() -> Response:
    return jsonify({"challenges": [{"id": c.id, "title": c.title, "goal": c.goal, "versions": list(c.versions),
                                    "start": c.start} for c in CHALLENGES]})


def _checked(challenge_id: str, raw: object) -> dict[str, object]:
    scenario = load_scenario(raw, LIMITS)
    result = check(challenge_id, scenario)
    return {"id": result["id"], "title": challenge(challenge_id).title, "versions": result["versions"],
            "solved": result["solved"], "why": explain(result, scenario.steps), "evidence": result["why"]}


@bp.post("/api/challenges/<challenge_id>/check")
def check_route(challenge_id: str) -> Response:
    challenge(challenge_id)  # 404 before the body is read
    return jsonify(apart(_checked, challenge_id, json_body("a scenario object"), pure=True, small=small_body()))
