"""HTTP: the page, the scenario library, whole-scenario replay, health."""

from __future__ import annotations

import json
import re

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for

from ..engine.simulation import MAX_PANES, versions_in
from ..engine.trace import replay
from ..errors import Invalid
from ..model.variant import VARIANTS
from ..model.versions import VERSIONS
from ..scenario import builtin
from ..scenario.resolve import resolve
from .bodies import builtin_scenario, index_arg, json_body
from .offload import apart

bp = Blueprint("main", __name__)

INLINE_FROM_EDITOR = "__inline__"  # the editor hands its scenario over in sessionStorage
INLINE_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,200000}")  # base64url of the deflated scenario JSON
ROOM_PATTERN = re.compile(r"[A-Z0-9]{4,12}")


def _int_arg(name: str, default: int) -> int:
    value = index_arg(name, "")
    return default if value is None else value


def _view_args(mode: str) -> dict:
    """What every page of the viewer takes from the URL, checked: unknown values fall back."""
    scenario_id = request.args.get("scenario", current_app.config["DEFAULT_SCENARIO"])
    if scenario_id not in builtin.ids() and scenario_id != INLINE_FROM_EDITOR:
        scenario_id = current_app.config["DEFAULT_SCENARIO"]
    inline = request.args.get("inline", "")
    theme = request.args.get("theme")
    total = builtin.step_count(scenario_id) if scenario_id in builtin.ids() and not inline else None
    position = _int_arg("position", 0)
    return {
        "mode": mode,
        "scenarios": builtin.index(),
        "scenario_id": scenario_id,
        "inline": inline if INLINE_PATTERN.fullmatch(inline) else "",
        "position": position if total is None else min(position, total),
        "versions": _versions_arg(),
        "max_versions": MAX_PANES,
        "theme": theme if theme in ("light", "dark") else "",
    }


def _versions_arg() -> list[str] | None:
    """The versions shown side by side: ``versions=v1.28.1,v1.30.14`` (read as everywhere, ``versions_in``; shown
    in the table's order), or an old link's ``layout=both|<version>``. None (nothing given, or nothing usable:
    a link is not refused, it opens on the scenario's own versions)."""
    text = request.args.get("versions", request.args.get("layout"))
    if text is None:
        return None
    try:
        chosen = versions_in(text)
    except Invalid:
        return None
    return [name for name in VERSIONS if name in chosen]


@bp.get("/")
def index():
    room = request.args.get("room", "")
    if ROOM_PATTERN.fullmatch(room.upper()):
        return render_template("index.html", **_view_args("audience"), room=room.upper())
    return render_template("index.html", **_view_args("main"))


@bp.get("/r/<code>")
def audience(code: str):
    return redirect(url_for("main.index", room=code))


@bp.get("/present")
def present():
    """The presenter's page; the room code and its token live in the URL fragment, never sent here."""
    return render_template("present.html", **_view_args("present"))


@bp.get("/embed")
def embed():
    args = _view_args("embed")
    if not args["inline"] and args["scenario_id"] not in builtin.ids():  # the editor's hand-off is not embeddable
        args["scenario_id"] = current_app.config["DEFAULT_SCENARIO"]
    # An inline scenario's length is known only once loaded: the server checks its range then.
    total = None if args["inline"] else builtin.step_count(args["scenario_id"])
    lo = _int_arg("from", 0)
    hi = _int_arg("to", -1 if total is None else total)
    if total is not None:
        lo, hi = min(lo, total), min(hi, total)
    if hi < 0:
        return render_template("embed.html", **args, lock_range=None)
    hi = max(lo, hi)
    args["position"] = min(max(args["position"], lo), hi) or lo
    return render_template("embed.html", **args, lock_range=(lo, hi))


@bp.get("/api/scenarios")
def scenarios():
    return jsonify(builtin.index())


@bp.get("/api/scenarios/<scenario_id>")
def scenario(scenario_id: str):
    builtin_scenario(scenario_id)  # an unknown id: 404 naming the ones there are
    return jsonify(builtin.get(scenario_id))


@bp.post("/api/replay")
def replay_scenario():
    raw = json_body("a scenario object or a built-in id")
    if not isinstance(raw, (dict, str)):
        raise Invalid("expected a scenario object or a built-in id as JSON in the request body")
    replayed = apart(_replayed, raw, current_app.config["MAX_TRACE_ENTRIES"], small=isinstance(raw, str))
    return current_app.response_class(replayed, mimetype="application/json")


def _replayed(raw, max_entries: int) -> str:
    """The trace of every variant, as JSON text, for a built-in id or a scenario object."""
    scenario, _ = resolve(raw)
    return json.dumps({v: replay(scenario, v, max_entries=max_entries) for v in VARIANTS})


@bp.get("/favicon.ico")
def favicon():
    return "", 204


@bp.get("/healthz")
def healthz():
    return jsonify({"status": "ok", "async_mode": current_app.config["ASYNC_MODE"]})
