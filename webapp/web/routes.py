"""HTTP: the page, the scenario library, whole-scenario replay, health."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify, render_template, request

from ..engine.trace import replay
from ..model.variant import VARIANTS
from ..scenario import builtin
from ..scenario.errors import ScenarioError
from .scenarios import resolve

bp = Blueprint("main", __name__)


@bp.get("/")
def index():
    scenario_id = request.args.get("scenario", current_app.config["DEFAULT_SCENARIO"])
    if scenario_id not in builtin.ids():
        scenario_id = current_app.config["DEFAULT_SCENARIO"]
    position = request.args.get("position", "0")
    layout = request.args.get("layout", "both")
    return render_template(
        "index.html",
        scenarios=builtin.index(),
        scenario_id=scenario_id,
        position=int(position) if position.isascii() and position.isdigit() else 0,
        layout=layout if layout in ("both", *VARIANTS) else "both",
        theme=request.args.get("theme") if request.args.get("theme") in ("light", "dark") else "",
    )


@bp.get("/api/scenarios")
def scenarios():
    return jsonify(builtin.index())


@bp.get("/api/scenarios/<scenario_id>")
def scenario(scenario_id: str):
    try:
        return jsonify(builtin.get(scenario_id))
    except KeyError:
        abort(404)


@bp.post("/api/replay")
def replay_scenario():
    raw = request.get_json(silent=True)
    if raw is None:
        return jsonify({"message": "expected a JSON scenario object in the request body"}), 400
    try:
        scenario, _ = resolve(raw)
        return jsonify({v: replay(scenario, v) for v in VARIANTS})
    except ScenarioError as err:
        return jsonify(err.as_json()), 400


@bp.get("/healthz")
def healthz():
    return jsonify({"status": "ok", "async_mode": current_app.config["ASYNC_MODE"]})
