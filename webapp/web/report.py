"""The incident report as a page (docs/import.md): the facts of presenter/report.py, laid out by
templates/report.html (its body, templates/_report.html, is the offline file's report too).

    GET  /report/<id>            a built-in scenario's report (the versions part: where, and the time each pod lost)
    GET  /report/<id>.md         the same as Markdown, to download
    POST /report?name=FILE       a kube-scheduler log as the multipart field ``log`` (the editor's import panel
                                 posts the log it imported): the import's report, with the log lines that agree
                                 and disagree with each version and the importer's assumptions, kept (kept.py);
                                 answered 303 to its address:
    GET  /report/kept/<key>      the kept report, as long as it is kept (the page says until when)
    GET  /report/kept/<key>.md   the same as Markdown, to download

What is not a scheduler log is answered 400 with the importer's message, as POST /api/import answers it.
"""

from __future__ import annotations

import base64
import json
import zlib
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..errors import Invalid, NotFound
from ..presenter.report import Report
from ..server.offload import apart
from ..server.settings import settings_of
from .bodies import body_bytes
from .editor import _log_name
from .kept import KEEP_HOURS, KeptReports

bp = Blueprint("report", __name__)
MAX_ADDRESS = 4000  # the longest address the page writes (static/js/links.js MAX_ADDRESS)
HANDOFF_ID = "__inline__"  # static/js/links.js HANDOFF_ID: the scenario the editor handed over in the tab
NO_LOG_FIELD = "post the log as the multipart field `log`, as the editor's import panel does"


@bp.get("/report/<scenario_id>")
def builtin_report(scenario_id: str) -> str:
    from .incidents import report_of  # on the first report: under eventlet it blocks the hub once, for ms

    facts, svgs = apart(report_of, scenario_id, settings_of(current_app).session_bytes, pure=True, small=True)
    return _page(facts, svgs, _viewer_href(facts, scenario=scenario_id),
                 url_for("report.builtin_markdown", scenario_id=scenario_id))


@bp.get("/report/<scenario_id>.md")
def builtin_markdown(scenario_id: str) -> Response:
    from .incidents import report_of  # as above

    facts, _ = apart(report_of, scenario_id, settings_of(current_app).session_bytes, pure=True, small=True)
    return _markdown(facts, scenario_id)


@bp.get("/report/kept/<key>")
def kept_page(key: str) -> str:
    page, until = _kept(key)
    return _page(page["facts"], page["svgs"], page["viewer_href"], url_for("report.kept_markdown", key=key),
                 until)


@bp.get("/report/kept/<key>.md")
def kept_markdown(key: str) -> Response:
    page, _ = _kept(key)
    return _markdown(page["facts"], "incident-report")


@bp.post("/report")
def imported_page() -> BaseResponse:
    """The body is read here; the form is parsed apart, with the import and the permalink's compression (a 2 MB form
    of many parts parsed on the event loop stalled every viewer for up to two seconds: bench/abuse.py, reports)."""
    if request.mimetype != "multipart/form-data":
        raise Invalid(NO_LOG_FIELD)
    from .incidents import imported_report_of  # as above

    form = (body_bytes(), request.content_type, request.max_form_memory_size, request.max_form_parts)
    facts, svgs, inline = apart(imported_report_of, form, _log_name(), settings_of(current_app).session_bytes,
                                imported=True)
    href = _viewer_href(facts, inline=inline) if len(inline) + 40 < MAX_ADDRESS else _viewer_href(facts, HANDOFF_ID)
    key, _ = _reports().keep({"facts": facts, "svgs": svgs, "viewer_href": href})
    return redirect(url_for("report.kept_page", key=key), 303)


def _reports() -> KeptReports:
    reports: KeptReports = current_app.extensions.setdefault("inflight_kept_reports", KeptReports())
    return reports


def _kept(key: str) -> tuple[dict[str, Any], float]:
    kept = _reports().get(key)
    if kept is None:
        raise NotFound(f"this report is no longer kept: a report is kept {KEEP_HOURS} hours after its import (and "
                       "not across a restart of the server); import the log again in the editor")
    return kept


def _markdown(facts: Report, name: str) -> Response:
    from ..export.report_md import markdown  # as above (it loads the log importer's words)

    return Response(markdown(facts), mimetype="text/markdown",
                    headers={"Content-Disposition": f'attachment; filename="{name}.md"'})


def inline(raw: dict[str, Any]) -> str:
    """The scenario as a permalink carries it (static/js/links.js encodeScenario: deflate-raw, base64url)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    deflated = packer.compress(json.dumps(raw, separators=(",", ":")).encode()) + packer.flush()
    return base64.urlsafe_b64encode(deflated).decode().rstrip("=")


def _viewer_href(facts: Report, scenario: str | None = None, inline: str | None = None) -> str:
    """The viewer at the report's incident, on a built-in ``scenario`` or an ``inline`` one (None: not in the
    address)."""
    return url_for("main.index", scenario=scenario, inline=inline, position=facts["incident"] or None)


def _page(facts: Report, svgs: list[dict[str, str]], viewer_href: str, markdown_href: str,
          kept_until: float | None = None) -> str:
    until = datetime.fromtimestamp(kept_until, UTC).strftime("%Y-%m-%d %H:%M UTC") if kept_until else None
    return render_template("report.html", facts=facts, svgs=svgs, viewer_href=viewer_href,
                           markdown_href=markdown_href, kept_until=until, keep_hours=KEEP_HOURS,
                           theme=request.args.get("theme") if request.args.get("theme") in ("light", "dark") else "")
