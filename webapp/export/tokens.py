"""The design tokens for Python: static/js/tokens.js, their one owner, read as JSON (everything after
``export const TOKENS =``), and the stylesheet of custom properties made from them (``css``), which the pages load
as css/tokens.css and the offline file inlines before app.css."""

from __future__ import annotations

import json
from typing import TypedDict

from .. import ROOT

SOURCE = ROOT / "static" / "js" / "tokens.js"
OPENING = "export const TOKENS ="


class CurveTokens(TypedDict):
    rise: float
    bend: float
    samples: int


class ArrowTokens(TypedDict):
    spread: float
    spreadShare: float
    below: float
    corner: float
    cornerSteps: int
    stopShort: float
    line: float
    decidedLine: float
    dash: list[float]
    head: float
    headPerLine: float
    headAngle: float
    headAim: float
    tail: float
    tailPerLine: float
    overReach: float
    aboveLanes: float
    channelStep: float


class RouteTokens(TypedDict):
    clear: float
    bend: float
    down: float
    near: float
    crowded: float
    budget: int


class CutTokens(TypedDict):
    room: float
    cross: float
    gap: float
    maxGap: float
    bar: float
    maxBar: float
    barHalf: float
    step: float
    tries: int
    bent: float


class Tokens(TypedDict):
    """tokens.js's TOKENS, as its JSON reads."""

    colours: dict[str, list[str]]  # name -> [light, dark]
    lanes: dict[str, float]
    chips: dict[str, list[float]]
    curve: CurveTokens
    arrow: ArrowTokens
    route: RouteTokens
    type: dict[str, float]
    cut: CutTokens
    beats: dict[str, int]


def read(text: str) -> Tokens:
    """The tokens of tokens.js's ``text``: the one JSON object after the line opening with OPENING (its closing
    semicolon left out)."""
    start = text.index("\n" + OPENING) + 1 + len(OPENING)
    tokens: Tokens = json.loads(text[start:].strip().removesuffix(";"))
    return tokens


TOKENS = read(SOURCE.read_text(encoding="utf-8"))
THEMES = {theme: {name: pair[i] for name, pair in TOKENS["colours"].items()}
          for i, theme in enumerate(("light", "dark"))}  # theme -> colour name -> colour
LANE_SHARES: dict[str, float] = TOKENS["lanes"]
CHIP_CORNERS: dict[str, list[float]] = TOKENS["chips"]  # top-left, top-right, bottom-right, bottom-left
CURVE, ARROW, ROUTE, CUT = TOKENS["curve"], TOKENS["arrow"], TOKENS["route"], TOKENS["cut"]
BEATS: dict[str, int] = TOKENS["beats"]  # the climax's beats in ms (a step by hand): per, hold, fade
# the least text (px) presentation mode, an embed and a slide (1280 px wide) draw; small print's share
TYPE: dict[str, float] = TOKENS["type"]


def css(tokens: Tokens = TOKENS) -> str:
    """The tokens the stylesheets use, as custom properties of :root: each colour as light-dark(light, dark)
    (app.css's data-theme picks the scheme), each lane's share as --lane-<queue> (in fr), its chips' corners as
    --chip-<queue> (a border-radius), a detached arrow's dashes as --pointer-dash, small print's share as --type-small
    and, per screen (presenting, embed), the least text as --type-<screen> and the least list size as
    --list-least-<screen>."""
    lines = [f"  --{name}: light-dark({light}, {dark});" for name, (light, dark) in tokens["colours"].items()]
    lines += [f"  --lane-{queue}: {share:g}fr;" for queue, share in tokens["lanes"].items()]
    lines += [f"  --chip-{queue}: {' '.join(f'{r:g}px' for r in corners)};"
              for queue, corners in tokens["chips"].items()]
    lines.append(f"  --pointer-dash: {' '.join(f'{d:g}' for d in tokens['arrow']['dash'])};")
    # the least text per screen and the least list size that keeps an entry's small print at it (fit.js)
    small = tokens["type"]["small"]
    lines.append(f"  --type-small: {small:g}em;")
    for screen in ("presenting", "embed"):
        least = tokens["type"][screen]
        lines.append(f"  --type-{screen}: {least:g}px;\n  --list-least-{screen}: {least / small:g}px;")
    return "/* The design tokens (static/js/tokens.js) as custom properties: webapp/export/tokens.py */\n" \
        ":root {\n" + "\n".join(lines) + "\n}\n"
