"""``inflight-scope export``: a scenario as a file to put on a slide or in a page: a step range as an animated GIF
or APNG or an MP4 video (animation.py), one position as SVG (svg.py), or the offline HTML file (offline.py).

Every refusal is one line on stderr and status 2, and no file is written: the options and the output's folder are
checked first, then the scenario is loaded and the range checked, and the file is written only once it is made."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable

from ..errors import UserError
from ..scenario import builtin
from ..scenario.errors import ScenarioError
from ..scenario.scenario import Scenario
from .preset import FULL, SLIDE
from .request import (
    DEFAULT_WIDTH,
    KINDS,
    MAX_STEPS,
    READABLE_PX,
    WIDTHS,
    Request,
    check_options,
    check_range,
    default_start,
    text_height,
)
from .svg import THEMES, export_svg

FORMATS = (*KINDS, "svg", "html")
BY_EXTENSION = {".gif": "gif", ".png": "apng", ".apng": "apng", ".mp4": "mp4", ".svg": "svg",  # no --format
                ".html": "html"}
STDOUT = "-"
Load = Callable[[str], Scenario]  # the CLI's own: a file, a built-in id, or - for stdin, to a Scenario


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], load: Load) -> None:
    """The ``export`` subcommand; ``load``: the CLI's own (a file, a built-in id, or - for stdin, to a Scenario)."""
    p = commands.add_parser("export", help="a scenario's step range as an animated GIF, APNG or MP4, a position as "
                                           "SVG, or the offline HTML file (docs/cli.md)")
    p.add_argument("scenario", metavar="SCENARIO", help="a JSON or YAML scenario file, a built-in id, or - for stdin")
    p.add_argument("--from", dest="start", default=None, metavar="A",
                   help=f"the first position drawn, each step after it played (default: 0, the initial state, or "
                        f"{MAX_STEPS} steps before B if that is later)")
    p.add_argument("--to", dest="end", default=None, metavar="B",
                   help="the last position drawn (default: the scenario's end); svg draws this position")
    p.add_argument("--format", default=None, metavar="FORMAT",
                   help=f"one of {', '.join(FORMATS)} (default: FILE's extension says, .png an APNG; else gif)")
    p.add_argument("--theme", default="light", metavar="THEME", help=f"one of {', '.join(THEMES)} (default light)")
    p.add_argument("--preset", default=SLIDE.name, metavar="PRESET",
                   help=f"an animation's layout: {SLIDE.name} (the panes stacked, no legend, text at least "
                        f"{SLIDE.least_px:g} px at {DEFAULT_WIDTH} px wide; the default) or {FULL.name} (as the page)")
    p.add_argument("--width", default=str(DEFAULT_WIDTH), metavar="W",
                   help=f"an animation's width in pixels, {WIDTHS[0]} to {WIDTHS[1]} (default {DEFAULT_WIDTH})")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write it, or - for stdout")
    p.set_defaults(run=lambda args: run(args, load))


def run(args: argparse.Namespace, load: Load) -> int:
    try:
        data = made(args, load)
    except Refused as err:
        print(f"inflight-scope export: {err}", file=sys.stderr)
        return 2
    warning = small_text(args.format, number("--width", args.width), args.panes, args.preset)
    if warning:
        print(f"inflight-scope export: {warning}", file=sys.stderr)
    if args.output == STDOUT:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return 0
    try:
        with open(args.output, "wb") as f:
            f.write(data)
    except OSError as err:
        print(f"inflight-scope export: {args.output}: {err.strerror or err}", file=sys.stderr)
        return 2
    print(f"inflight-scope export: wrote {args.output} ({len(data):,} bytes)", file=sys.stderr)
    return 0


def small_text(kind: str, width: int, panes: int, preset: str) -> str | None:
    """The warning for an animation whose ordinary text is drawn too small to read, or None."""
    height = text_height(width, panes, preset)
    if kind not in KINDS or height >= READABLE_PX:
        return None
    wide = math.ceil(width * READABLE_PX / height)
    return f"warning: at {width} px wide the picture's text is {height:.1f} px high; {wide} px or more reads well"


class Refused(Exception):
    """One line saying why nothing was exported."""


def made(args: argparse.Namespace, load: Load) -> bytes:
    """The file's bytes; Refused for any bad input."""
    kind = args.format = args.format or BY_EXTENSION.get(os.path.splitext(args.output)[1].lower(), "gif")
    if kind not in FORMATS:
        raise Refused(f"--format must be one of {', '.join(FORMATS)}, not {kind[:40]!r}")
    width = number("--width", args.width)
    start = None if args.start is None else number("--from", args.start)
    end = None if args.end is None else number("--to", args.end)
    try:
        check_options(kind if kind in KINDS else KINDS[0], args.theme, width, args.preset)
    except UserError as err:
        raise Refused(f"--{err}") from None
    problem = unwritable(args.output, kind)
    if problem:
        raise Refused(f"-o {args.output}: {problem}")
    name = "<stdin>" if args.scenario == "-" else args.scenario
    try:
        scenario = load(args.scenario)
    except ScenarioError as err:
        lines = err.describe().splitlines() or [str(err)]
        more = f" (and {len(lines) - 1} more: `inflight-scope replay` lists them all)" if len(lines) > 1 else ""
        raise Refused(f"{name[:200]}: {lines[0]}{more}") from None
    except OSError as err:
        raise Refused(f"{name[:200]}: {err.strerror or err}") from None
    total, args.panes = len(scenario.steps), len(scenario.versions)
    locked = None if start is None or end is None else (start, end)  # the offline file's range, when both given
    end = total if end is None else end
    start = default_start(end) if start is None else start
    try:
        check_range(start, end, total, most=None)  # an animation's own bound: export_animation's
        if kind == "svg":
            return export_svg(scenario, end, theme=args.theme).encode()
        if kind == "html":
            from .offline import export_html  # jinja2 and the incident report load only for the offline file
            scenario_id = args.scenario if args.scenario in builtin.ids() and not os.path.exists(args.scenario) \
                else None
            return export_html(scenario, scenario_id, position=None if args.end is None else end,
                               range_=locked).encode()
        from .animation import export_animation  # Pillow, resvg and the encoders load only for an animation

        return export_animation(scenario, Request(start, end, kind, args.theme, width, args.preset))
    except UserError as err:
        raise Refused(str(err)) from None


def number(option: str, text: str) -> int:
    if not (0 < len(text) <= 9 and text.isascii() and text.isdigit()):
        raise Refused(f"{option} must be a whole number, not {text[:40]!r}")
    return int(text)


def unwritable(path: str, kind: str) -> str | None:
    """Why the file cannot be written at ``path`` (checked before any work), or None."""
    if path == STDOUT:
        return "a terminal shows no picture: redirect stdout to a file" if kind in KINDS and sys.stdout.isatty() \
            else None
    return unwritable_file(path)


def unwritable_file(path: str) -> str | None:
    """Why no file can be written at ``path`` (a directory, a missing or read-only folder), or None."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        return "is a directory"
    if not os.path.isdir(folder):
        return f"no such directory: {folder}"
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        return "not writable"
    return None
