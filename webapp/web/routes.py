"""HTTP: the page, the scenario library, whole-scenario replay, health."""

from __future__ import annotations

import json
import re
from typing import Any, TypedDict

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ..engine import followers
from ..engine.simulation import MAX_PANES, VERSIONS_TEXT_MOST, versions_in
from ..engine.trace import replay
from ..errors import Invalid, NotFound
from ..model.versions import VERSIONS
from ..scenario import builtin
from ..scenario.resolve import resolve
from ..server.offload import apart, offload_of
from ..server.settings import settings_of
from .audience import Audience, QrCodes
from .audience import audience as audience_urls
from .bodies import builtin_scenario, index_arg, json_body
from .firstframe import FirstFrame, for_room, for_view
from .held import hub_of, rooms_of
from .inline_style import page_style, styled

bp = Blueprint("main", __name__)

INLINE_FROM_EDITOR = "__inline__"  # the editor hands its scenario over in sessionStorage
INLINE_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,200000}")  # base64url of the deflated scenario JSON
ROOM_PATTERN = re.compile(r"[A-Z0-9]{4,12}")


def _int_arg(name: str, default: int) -> int:
    value = index_arg(name, "")
    return default if value is None else value


class ViewArgs(TypedDict):
    """What every page of the viewer takes from the URL (``_view_args``), as its template's arguments."""

    mode: str
    scenarios: list[dict[str, Any]]
    scenario_id: str
    default_scenario: str
    inline: str
    position: int
    versions: list[str] | None
    max_versions: int
    theme: str
    presenting: bool
    predict: bool
    tables: bool
    link_problems: list[str]
    damaged_link: str
    instead_of_link: str


def _view_args(mode: str) -> ViewArgs:
    """What every page of the viewer takes from the URL, checked: what cannot be used falls back, and
    ``link_problems`` tells the viewer so, in the page's words (a notice it can dismiss)."""
    problems: list[str] = []
    default = settings_of(current_app).default_scenario
    scenario_id = request.args.get("scenario") or default
    if scenario_id not in builtin.ids() and scenario_id != INLINE_FROM_EDITOR:
        problems.append(f"{names_no_builtin(scenario_id)} {_instead(default)}")
        scenario_id = default
    inline = request.args.get("inline", "")
    if inline and not INLINE_PATTERN.fullmatch(inline):
        problems.append(f"{DAMAGED} {_instead(scenario_id)}")
        inline = ""
    theme = request.args.get("theme")
    total = builtin.step_count(scenario_id) if scenario_id in builtin.ids() and not inline else None
    position = _int_arg("position", 0)
    return {
        "mode": mode,
        "scenarios": builtin.index(),
        "scenario_id": scenario_id,
        "default_scenario": default,
        "inline": inline,
        "position": position if total is None else min(position, total),
        "versions": _versions_arg(problems),
        "max_versions": MAX_PANES,
        "theme": theme if theme in ("light", "dark") else "",
        "presenting": request.args.get("presenting") == "1",
        "predict": request.args.get("predict") == "1",
        "tables": request.args.get("tables") == "1",
        "link_problems": problems,
        # the sentences the page says itself of a link it finds it cannot open (static/js/options.js, driver.js)
        "damaged_link": DAMAGED,
        "instead_of_link": _instead(default),
    }


# What the page says of a link's inline scenario that cannot be read: here of one that is not base64url, by the
# page (data-damaged-link) of one that does not decode.
DAMAGED = "This link's scenario is incomplete or damaged (was the link cut short when it was copied?)."


def _instead(scenario_id: str) -> str:
    """What opens instead of what a link asked for: the built-in ``scenario_id`` (the editor's hand-off: itself)."""
    name = next((s["name"] for s in builtin.index() if s["id"] == scenario_id), "the scenario handed over")
    return f"Showing {name} instead."


def names_no_builtin(scenario_id: str) -> str:
    """What a page (the viewer's, the editor's) says of a link naming a scenario that is no built-in."""
    return f"This link names no built-in scenario {_quoted(scenario_id)}."


def _quoted(text: str, most: int = 40) -> str:
    """A value from the link, quoted as the page shows it (a long one cut short)."""
    return f"“{text[:most]}…”" if len(text) > most else f"“{text}”"


def _versions_arg(problems: list[str]) -> list[str] | None:
    """The versions shown side by side: ``versions=v1.28.1,v1.30.14`` (read as everywhere, ``versions_in``; shown
    in the table's order), or an old link's ``layout=both|<version>``. None (nothing given, or nothing usable:
    the link opens on the scenario's own versions, and ``problems`` says why)."""
    text = request.args.get("versions", request.args.get("layout"))
    if text is None:
        return None
    try:
        chosen = versions_in(text)
    except Invalid:
        problems.append(_versions_problem(text))
        return None
    return [name for name in VERSIONS if name in chosen]


def _versions_problem(text: str) -> str:
    """Why ``versions_in`` refused the versions a link asks for (read as it reads them), and what is shown instead."""
    names = list(dict.fromkeys(name.strip() for name in text.split(","))) if len(text) <= VERSIONS_TEXT_MOST else []
    unknown = [name for name in names if name not in VERSIONS]
    if len(text) > VERSIONS_TEXT_MOST:
        asked = f"more versions than fit side by side (at most {MAX_PANES})"
    elif unknown:
        named = ", ".join(_quoted(name, 20) for name in unknown[:3])
        asked = (f"{'an unknown version' if len(unknown) == 1 else 'unknown versions'} {named} (the versions are "
                 f"{', '.join(VERSIONS)})")
    else:
        asked = f"{len(names)} versions side by side, and at most {MAX_PANES} fit"
    return f"This link asks for {asked}. Showing the scenario's own versions instead."


def _page(template: str, args: ViewArgs, frame: FirstFrame | None, **more: object) -> Response:
    """The viewer's page with its first frame drawn in (and then its stylesheet inline), or without one."""
    style = page_style() if frame else None
    page = current_app.make_response(render_template(template, **args, **more, first_frame=frame,
                                                     inline_style=style))
    return styled(page, style)


def _view_frame(args: ViewArgs) -> FirstFrame | None:
    """The first frame of the built-in a page of the viewer opens on (none for a scenario handed over inline)."""
    if args["inline"]:
        return None
    return for_view(args["scenario_id"], args["position"], args["versions"], args["theme"], told=not args["predict"])


def _room_page(code: str) -> Response:
    args = _view_args("audience")
    return _page("index.html", args, for_room(code, args["theme"]), room=code)


@bp.get("/")
def index() -> Response:
    room = request.args.get("room", "")
    if ROOM_PATTERN.fullmatch(room.upper()):
        return _room_page(room.upper())
    args = _view_args("main")
    if room:
        args["link_problems"].append(f"There is no room {_quoted(room, 20)}: a room's code is 4 to 12 letters and "
                                     "digits, as the presenter's screen shows it. This is the viewer, on your own.")
    return _page("index.html", args, _view_frame(args))


@bp.get("/r/<code>")
def audience(code: str) -> ResponseReturnValue:
    """The audience link: the room's page itself (a redirect costs a phone one more round trip), with the browser's
    follower identity and the room's current picture; a code that is no room's goes to the viewer, which says so."""
    if ROOM_PATTERN.fullmatch(code.upper()):
        page = _room_page(code.upper())
        _hand_follower(page)
        return page
    return redirect(url_for("main.index", room=code))


def _hand_follower(page: Response) -> None:
    """The browser's follower identity (engine/followers.py), if it holds none this server signed: a cookie its
    Socket.IO connection carries, so that its phone is one follower and one vote in any room."""
    rooms = rooms_of(current_app)
    if rooms.follower(request.cookies.get(followers.COOKIE)) is None:
        page.set_cookie(followers.COOKIE, rooms.new_follower(), max_age=followers.COOKIE_SECONDS, httponly=True,
                        samesite="Lax")


@bp.get("/api/audience")
def audience_api() -> Response:
    """The URLs an audience may open a room at, best first, and whether another machine can (``web/audience.py``)."""
    answer = jsonify(_audience())
    answer.headers["Cache-Control"] = "no-store"  # the machine's addresses change when it joins a network
    return answer


@bp.get("/r/<code>/qr.svg")
def audience_qr(code: str) -> Response:
    """The QR code of the room's audience link on the first of ``/api/audience``'s URLs (a room that exists only;
    kept, ``audience.QrCodes``)."""
    if not ROOM_PATTERN.fullmatch(code):
        raise NotFound(f"no room {_quoted(code, 20)}: a room's code is 4 to 12 capital letters and digits")
    if not rooms_of(current_app).exists(code):  # no work for a code that is no room's
        raise NotFound(f"no room {code} is open here")
    qr_codes = current_app.extensions.setdefault("inflight_qr", QrCodes())
    svg = qr_codes.svg(code, f"{_audience()['urls'][0]}/r/{code}",
                       lambda fn, text: apart(fn, text, pure=True, small=True))
    return current_app.response_class(svg, mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


def _audience() -> Audience:
    return audience_urls(request.scheme, request.host, settings_of(current_app).listen)


@bp.get("/present")
def present() -> str:
    """The presenter's page; the room code and its token live in the URL fragment, never sent here."""
    return render_template("present.html", **_view_args("present"))


@bp.get("/speaker")
def speaker() -> str:
    """The presenter's speaker view of room ``?room=CODE`` (it follows the room as a follower does)."""
    room = request.args.get("room", "").upper()
    theme = request.args.get("theme")
    ok = ROOM_PATTERN.fullmatch(room) is not None
    return render_template("speaker.html", room=room if ok else "", theme=theme if theme in ("light", "dark") else "",
                           problem=None if ok else f"The speaker view follows a room: open it from the presenter's "
                           f"page (Shift+S). {_quoted(room, 20) if room else 'No room'} is not a room's code.")


@bp.get("/embed")
def embed() -> Response:
    args = _view_args("embed")
    if not args["inline"] and args["scenario_id"] not in builtin.ids():  # the editor's hand-off is not embeddable
        args["scenario_id"] = settings_of(current_app).default_scenario
    # An inline scenario's length is known only once loaded: the server checks its range then.
    total = None if args["inline"] else builtin.step_count(args["scenario_id"])
    lo = _int_arg("from", 0)
    hi = _int_arg("to", -1 if total is None else total)
    if index_arg("to", "") is not None and hi < lo:
        args["link_problems"].append(f"This link's range runs backwards, from step {lo} to step {hi}. "
                                     "Showing the whole scenario instead.")
        return _page("embed.html", args, _view_frame(args), lock_range=None)
    if total is not None:
        if hi > total:
            args["link_problems"].append(f"This link's range runs to step {hi}, past the scenario's last, step "
                                         f"{total}. Showing steps {min(lo, total)} to {total}.")
        lo, hi = min(lo, total), min(hi, total)
    if hi < 0:
        return _page("embed.html", args, _view_frame(args), lock_range=None)
    hi = max(lo, hi)
    args["position"] = min(max(args["position"], lo), hi) or lo
    return _page("embed.html", args, _view_frame(args), lock_range=(lo, hi))


@bp.get("/api/scenarios")
def scenarios() -> Response:
    return jsonify(builtin.index())


@bp.get("/api/scenarios/<scenario_id>")
def scenario(scenario_id: str) -> Response:
    builtin_scenario(scenario_id)  # an unknown id: 404 naming the ones there are
    return jsonify(builtin.get(scenario_id))


@bp.post("/api/replay")
def replay_scenario() -> Response:
    raw = json_body("a scenario object or a built-in id")
    if not isinstance(raw, (dict, str)):
        raise Invalid("expected a scenario object or a built-in id as JSON in the request body")
    replayed = apart(_replayed, raw, settings_of(current_app).max_trace_entries, small=isinstance(raw, str))
    return current_app.response_class(replayed, mimetype="application/json")


def _replayed(raw: object, max_entries: int) -> str:
    """The trace of each of the scenario's versions (its ``versions``, else both), as JSON text, for a built-in id
    or a scenario object."""
    scenario, _ = resolve(raw)
    return json.dumps({v: replay(scenario, v, max_entries=max_entries) for v in scenario.versions})


@bp.get("/favicon.ico")
def favicon() -> ResponseReturnValue:
    return "", 204


@bp.get("/healthz")
def healthz() -> Response:
    """Alive, in which async mode, each work lane's calls running and waiting, and the autoplay tasks running (a
    test waits on these)."""
    return jsonify({"status": "ok", "async_mode": settings_of(current_app).async_mode,
                    "work": offload_of(current_app).occupancy(), "autoplays": hub_of(current_app).autoplays})
