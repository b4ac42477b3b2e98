"""HTTP: a step range as an animated GIF, APNG or MP4 (webapp/export/animation.py), for the export routes (export.py).

    GET  /export/<id>.gif?from=a&to=b&theme=dark&width=w&preset=full   (also .apng, .mp4)   a built-in scenario's range
    POST /export/gif?from=a&to=b...   (also /export/apng, /export/mp4)   the same for the scenario object in the body

``to`` defaults to the scenario's end, ``from`` to as far back as an animation may go (MAX_STEPS before ``to``),
``theme`` to light, ``width`` to DEFAULT_WIDTH, ``preset`` (the layout, export/preset.py) to slide. The options are
checked here, before any work; the range, which needs the scenario, where the work runs. The whole export runs as
heavy work, a built-in's too (seconds of drawing however small its request), in a worker process under eventlet
(``apart``, server/offload.py), its simulation bounded by the session's memory as the other exports are, its frames
by animation.py's bounds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from flask import Response, current_app, request

from ..errors import Invalid
from ..export.animation import export_animation
from ..export.preset import SLIDE
from ..export.request import DEFAULT_WIDTH, MIME, Request, check_options, check_range, default_start
from ..scenario.resolve import resolve
from ..server.offload import apart
from ..server.settings import settings_of
from .bodies import builtin_scenario, index_arg, shown

EXTENSION = {"gif": "gif", "apng": "png", "mp4": "mp4"}  # an APNG is a PNG file: every tool that opens a PNG opens it


def animation_response(source: object, kind: str, name: str, versions: Sequence[str] | None) -> Response:
    """source: a built-in's id or a posted scenario object; name: the file's name without its extension."""
    start, end, width = (number_arg(name) for name in ("from", "to", "width"))
    width, theme = DEFAULT_WIDTH if width is None else width, request.args.get("theme", "light")
    preset = request.args.get("preset", SLIDE.name)
    check_options(kind, theme, width, preset)
    data, (first, last) = apart(_exported, source, start, end, settings_of(current_app).session_bytes, versions,
                                Request(0, 0, kind, theme, width, preset), pure=True)
    response = Response(data, mimetype=MIME[kind])
    response.headers["Content-Disposition"] = f'attachment; filename="{name}-{first}-{last}.{EXTENSION[kind]}"'
    return response


def number_arg(name: str) -> int | None:
    """Query parameter ``name`` as a whole number, None where it is absent or empty; Invalid for anything else."""
    text = request.args.get(name, "")
    if text == "":
        return None
    value = index_arg(name)
    if value is None:
        raise Invalid(f"{name} must be a whole number, got {shown(text)}")
    return value


def _exported(source: object, start: int | None, end: int | None, max_bytes: int | None,
              versions: Sequence[str] | None, asked: Request) -> tuple[bytes, tuple[int, int]]:
    """(the file, the range drawn): the whole export, from the scenario's source on, in one piece; ``asked``: the
    options (its range is the one found here)."""
    scenario = builtin_scenario(source) if isinstance(source, str) else resolve(source)[0]
    total = len(scenario.steps)
    end = total if end is None else end
    start = default_start(end) if start is None else start
    check_range(start, end, total)
    return export_animation(scenario, replace(asked, start=start, end=end), max_bytes, versions), (start, end)
