"""The scenario editor: its page, validation with line/column positions, trace files.

    POST /api/validate     {text, format: "yaml"|"json"|null}
        -> {ok: true, scenario, total, variants_ok, advice: [text]}  (advice: what it may not mean as written)
         | {ok: false, problems: [{step, field, message, line, column}], variants_ok}
    POST /api/trace        a scenario object -> a trace file {schema: 1, scenario_object, traces}
    POST /api/trace/check  a trace file -> {match, variants: {v: {match, first_mismatch}}, scenario_object}
    GET  /editor           the page; its palette's first operations (PALETTE) in data-palette, EMPTY in data-empty;
                           ?scenario=<id> starts from a built-in's file (one it does not know: from STARTER, and
                           the page's link notice says so, as the viewer's does)
    POST /api/import       a kube-scheduler log as the body (docs/import.md); ?name=FILE its file name, which the
                           scenario's name and the messages give (else "the log")
        -> {scenario, text (the YAML, assumptions and disagreements as comments), assumptions, disagreements,
            counts, report: {verdict, incident (the position where the versions part for the pod that lost the
            most), lost: [text]} (the incident report's, presenter/report.py; null for a scenario too large)}

A body that is not what the route expects is answered 400 with {message} (and problems, for an invalid
scenario object); one over MAX_UPLOAD_BYTES 413 with {message}.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request

from ..engine import tracefile
from ..engine.trace import dry_runs
from ..errors import Invalid
from ..model.operations import OPERATIONS
from ..presenter.advice import advised
from ..scenario import builtin
from ..scenario.errors import Problem, ScenarioError
from ..scenario.load import FORMATS, load_scenario, parse_text
from ..scenario.locate import locate_problems
from ..scenario.scenario import from_valid_dict
from ..scenario.schemas import defaults
from ..scenario.validate import Limits, validate
from ..server.offload import apart
from ..server.settings import settings_of
from .bodies import body_bytes, json_body, small_body
from .fields import check_fields
from .routes import names_no_builtin

bp = Blueprint("editor", __name__)
LIMITS = Limits()
MAX_FILE_NAME = 255  # characters of an imported log's ?name= (a file name's bytes on most file systems)

HEAD = """\
schema: 2
name: My scenario
description: |
  What this scenario shows.
periodic_flushes: true   # the default: the scheduler's 1 s and 30 s flushes run as the clock advances
"""
STARTER = HEAD + """\
hints:
  - {event: PvAdd, plugin: P, hint: QueueAfterBackoff}
pods:
  - {name: A}
initial_active: [A]
steps:
  - op: pop
    expect: A
  - op: event
    event: PvAdd
    note: PvAdd arrives while A is in flight.
  - op: fail
    pod: A
    unschedulable_plugins: [P]
    note: P says PvAdd may help, so A goes to backoffQ.
"""

# The palette's first row (the rest of OPERATIONS under "More operations"): what a first scenario needs. The page
# reads each operation's parameters, kind and summary from GET /api/operations.
PALETTE = ("add", "pop", "event", "fail", "done", "advance_clock")
if not set(PALETTE) <= set(OPERATIONS):
    raise RuntimeError(f"the palette names operations the registry does not have: {set(PALETTE) - set(OPERATIONS)}")

# "Start an empty scenario": what the palette builds on (valid as it is: no pods, no steps).
EMPTY = HEAD + """\
pods: []
steps: []
"""


def _json(obj: object, status: int = 200) -> Response:
    """Like jsonify, but keys keep their order: a scenario comes back laid out as it was written."""
    return current_app.response_class(json.dumps(obj), status, mimetype="application/json")


def _library_text(scenario_id: str) -> str:
    """A built-in's YAML file as written (its comments and layout kept)."""
    return (resources.files(builtin.__package__) / "library" / f"{scenario_id}.yaml").read_text(encoding="utf-8")


@bp.get("/editor")
def editor() -> str:
    scenario_id = request.args.get("scenario", "")
    known = scenario_id in builtin.ids()
    theme = request.args.get("theme")
    # in the words the viewer uses of its own links (routes.py _view_args), shown in the same notice
    link_problems = [] if known or not scenario_id else [
        f"{names_no_builtin(scenario_id)} Starting from a blank scenario instead."]
    return render_template(
        "editor.html",
        text=_library_text(scenario_id) if known else STARTER,
        scenarios=builtin.index(),
        scenario_id=scenario_id if known else "",
        max_bytes=LIMITS.max_bytes,
        palette=" ".join(PALETTE),
        empty_text=EMPTY,
        max_message_bytes=settings_of(current_app).max_message_bytes,  # what Run can hand to the viewer
        theme=theme if theme in ("light", "dark") else "",
        link_problems=link_problems,
    )


def _dry_run(raw: dict[str, Any]) -> tuple[list[Problem], list[str], list[str]]:
    """(problems, variants that ran, advice): engine.trace.dry_runs, its overdue pods in words, and plugin names
    that look misspelt."""
    scenario = from_valid_dict(raw)
    problems, ran, overdue = dry_runs(scenario, scenario.versions)
    return problems, ran, advised(raw, overdue, defaults(raw["schema"])["periodic_flushes"])


@bp.post("/api/validate")
def validate_text() -> Response:
    body = json_body("{text, format}")
    if not isinstance(body, dict) or not isinstance(body.get("text"), str):
        raise Invalid("expected {text: string, format: \"yaml\" | \"json\" | null}")
    check_fields("the request body", body, ("text", "format"))
    fmt = body.get("format")
    if fmt not in (None, *FORMATS):
        raise Invalid(f"format must be \"yaml\", \"json\" or null, not {json.dumps(fmt)[:40]}")
    return _json(apart(_checked_text, body["text"], fmt, pure=True, small=small_body()))


def _checked_text(text: str, fmt: str | None) -> dict[str, object]:
    """The answer of /api/validate: parse, validate, then a dry run of each variant."""
    ran: list[str] = []
    advice: list[str] = []
    try:
        raw = parse_text(text, fmt, LIMITS)
    except ScenarioError as err:
        problems = err.problems
    else:
        problems = validate(raw, LIMITS)
        if not problems:
            assert isinstance(raw, dict)  # validate passes a scenario object only
            problems, ran, advice = _dry_run(raw)
            if not problems:
                return {"ok": True, "scenario": raw, "total": len(raw["steps"]), "variants_ok": ran, "advice": advice}
    return {"ok": False, "problems": locate_problems(text, problems), "variants_ok": ran}


@bp.post("/api/trace")
def trace_file() -> Response:
    return _json(apart(_trace_file_of, json_body("a scenario object"), settings_of(current_app).max_trace_entries,
                       pure=True))


def _trace_file_of(raw: object, max_entries: int) -> tracefile.Document:
    return tracefile.build(load_scenario(raw, LIMITS), max_entries)


@bp.post("/api/trace/check")
def trace_check() -> Response:
    doc = json_body("a trace file")
    try:
        result = apart(tracefile.check, doc, pure=True)
    except tracefile.MalformedTraceFile as err:
        raise Invalid(f"not a trace file: {err}") from None
    except ScenarioError as err:
        raise ScenarioError(err.problems, f"the trace file's scenario_object is not valid:\n{err}") from None
    assert isinstance(doc, dict)  # tracefile.check refuses anything else
    return _json({**result, "scenario_object": doc["scenario_object"]})


@bp.post("/api/import")
def import_log() -> Response:
    """A scenario from the kube-scheduler log in the body (klog text or JSON lines); 400 for what is not one."""
    from .incidents import imported  # on the first import: under eventlet it blocks the hub once, for ms

    return _json(apart(imported, body_bytes(), _log_name(), settings_of(current_app).session_bytes, imported=True))


def _log_name() -> str:
    """The log's file name (``?name=``, as the page's file input gives it) without directories, else "the log"."""
    name = request.args.get("name", "")
    if len(name) > MAX_FILE_NAME or not name.isprintable():
        raise Invalid(f"name must be a file name of at most {MAX_FILE_NAME} printable characters")
    return os.path.basename(name) or "the log"
