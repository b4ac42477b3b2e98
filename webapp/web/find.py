"""Explore from the page: what the viewer's palette offers, and the search of ``inflight-scope find``.

    GET  /api/operations  the operations of model/operations.py (name, kind, summary, parameters with their
                          choices), for the viewer's palette: the page never spells an operation itself
    POST /api/find        {target, seed, versions} -> {scenario, explanation, size, position}
                          the same search and shrink as ``inflight-scope find``, run off the event loop within
                          a time budget bounded here (MAX_BUDGET_SECONDS); nothing found is NotFound (404)

A body that is not what the route expects is answered 400 with {message, kind} (webapp/errors.py).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from functools import cache

from flask import Blueprint, Response, current_app, jsonify

from ..engine.find import MAX_SEED, Search, check_query, size
from ..errors import Invalid, NotFound
from ..model.operations import OPERATIONS, TYPES
from ..model.variant import VARIANTS
from ..presenter.findings import explain
from ..server.offload import apart
from ..server.settings import settings_of
from .bodies import json_body, versions_field
from .fields import check_fields

bp = Blueprint("find", __name__)

MAX_BUDGET_SECONDS = 3.0  # a search holds its lane's place (offload.py, search=True) at most this long
MAX_STEPS, PODS = 12, 2  # the CLI's defaults: what the shrinker brings down to a handful of steps
BODY = "{target: divergence|invariant|wait, seed: integer, versions: [version, ...]}"


@cache
def _operations() -> dict[str, object]:
    return {"operations": [
        {"name": op.name, "kind": op.kind, "summary": op.summary,
         "params": [{"name": p.name, "type": p.type, "what": TYPES[p.type], "required": p.required, "doc": p.doc,
                     "choices": list(p.choices)} for p in op.params]}
        for op in OPERATIONS.values()]}


@bp.get("/api/operations")
def operations() -> Response:
    return jsonify(_operations())


def _request(body: object) -> tuple[str, int, tuple[str, ...]]:
    """(target, seed, versions) of a /api/find body, checked."""
    if not isinstance(body, dict):
        raise Invalid(f"expected {BODY} as JSON in the request body")
    check_fields("the request body", body, ("target", "seed", "versions"))
    target = body.get("target", "divergence")
    seed = body.get("seed", 1)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise Invalid(f"seed must be an integer from 0 to {MAX_SEED}, not {json.dumps(seed)[:40]}")
    versions = versions_field(body.get("versions", list(VARIANTS)))
    check_query(target, versions)  # before a heavy-work slot is taken
    return target, seed, versions


def budget_seconds() -> float:
    """The FIND_BUDGET_SECONDS setting, within MAX_BUDGET_SECONDS."""
    return max(0.0, min(float(settings_of(current_app).find_budget_seconds), MAX_BUDGET_SECONDS))


def _found(target: str, seed: int, versions: tuple[str, ...], budget: float) -> dict[str, object] | None:
    """What ``inflight-scope find`` prints, as the answer's data (None: nothing in the budget)."""
    search = Search(target, versions, MAX_STEPS, PODS)
    found = search.search(seed, budget)
    if found is None:
        return None
    raw, _, tries = found
    small = search.shrink(raw)
    finding = search.first_finding(small)
    assert finding is not None  # shrink keeps only scenarios that still go wrong
    paragraph = explain(asdict(finding), small, versions)
    scenario = {"schema": 1, "name": f"Found: {target} (seed {seed})", "description": paragraph,
                **{k: v for k, v in small.items() if k not in ("schema", "name", "description")},
                "versions": list(versions)}
    return {"scenario": scenario, "explanation": paragraph, "size": size(small), "from": size(raw), "tries": tries,
            "position": finding.step + 1}


@bp.post("/api/find")
def find() -> Response:
    target, seed, versions = _request(json_body(BODY))
    budget = budget_seconds()
    answer = apart(_found, target, seed, versions, budget, pure=True, search=True)
    if answer is None:
        raise NotFound(f"nothing found: no {target} on {', '.join(versions)} in {budget:g} s from seed {seed}; "
                       "try another seed")
    return jsonify(answer)
