"""The work of a log import and of an incident report, run in a worker process (server/offload.py): POST /api/import
(editor.py), GET /report/<id> and POST /report (report.py). The log importer and the incident report load with this
module, on the first import or report, never at the server's start."""

from __future__ import annotations

import io
from dataclasses import asdict

from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.formparser import parse_form_data

from ..errors import Invalid, TooLarge
from ..export.incident import imported_report, incident_report, themed_frames
from ..presenter.report import Report
from ..scenario.logs import LISTS, import_logs
from ..scenario.logs.importer import Imported
from .bodies import builtin_scenario
from .editor import LIMITS
from .report import NO_LOG_FIELD, inline


def imported(data: bytes, name: str, max_bytes: int | None = None) -> dict[str, object]:
    """POST /api/import's answer for the log ``data``."""
    result = import_logs([(name, io.BytesIO(data))], LIMITS)
    return {"report": _verdict(result, max_bytes),
            "scenario": result.scenario, "text": result.yaml, "assumptions": result.assumptions,
            "disagreements": result.disagreements, "counts": asdict(result.counts), "said": result.counts.said(),
            "lists": {key: {"title": title, "what": what} for key, (title, what) in LISTS.items()}}


def _verdict(result: Imported, max_bytes: int | None) -> dict[str, object] | None:
    """What the import panel shows of the incident report: its verdict, where the viewer opens (the incident) and
    each pod's time lost; None for a scenario too large to step through here."""
    try:
        facts = imported_report(result, max_bytes)[1]
    except TooLarge:
        return None
    return {"verdict": facts["verdict"], "incident": facts["incident"], "lost": [p["text"] for p in facts["pods"]]}


def report_of(scenario_id: str, max_bytes: int | None) -> tuple[Report, list[dict[str, str]]]:
    """A built-in's incident report and its before/after frames."""
    scenario = builtin_scenario(scenario_id)
    facts = incident_report(scenario, max_bytes=max_bytes)
    return facts, themed_frames(scenario, facts, max_bytes)


def imported_report_of(form: tuple[bytes, str, int | None, int | None], name: str, max_bytes: int | None
                       ) -> tuple[Report, list[dict[str, str]], str]:
    """The report of the log posted in ``form`` (POST /report), its frames, and its scenario as a permalink's."""
    scenario, facts = imported_report(import_logs([(name, io.BytesIO(_log_field(*form)))], LIMITS), max_bytes)
    return facts, themed_frames(scenario, facts, max_bytes), inline(scenario.raw)


def _log_field(body: bytes, content_type: str, max_memory: int | None, max_parts: int | None) -> bytes:
    """The multipart field ``log`` of a form body, parsed with the request's bounds (Flask's)."""
    environ = {"REQUEST_METHOD": "POST", "CONTENT_TYPE": content_type, "CONTENT_LENGTH": str(len(body)),
               "wsgi.input": io.BytesIO(body)}
    try:
        files = parse_form_data(environ, max_form_memory_size=max_memory, max_form_parts=max_parts)[2]
    except RequestEntityTooLarge:
        raise Invalid(f"the form is over its bounds: {max_memory} bytes of fields, {max_parts} parts") from None
    upload = files.get("log")
    if upload is None:
        raise Invalid(NO_LOG_FIELD)
    data: bytes = upload.read(LIMITS.max_bytes + 1)
    if len(data) > LIMITS.max_bytes:
        raise Invalid(f"the log is over {LIMITS.max_bytes:,} bytes: use `inflight-scope import LOG --report FILE.md`")
    return data
