"""The error kinds the page tells apart are webapp/errors.py's: static/js/kinds.js is made from CLIENT_KINDS, and no
module of the page names a kind itself."""

import re
from pathlib import Path

import webapp.engine.roomstore  # noqa: F401 (its error is among the kinds)
import webapp.engine.tracefile  # noqa: F401
import webapp.scenario.logs  # noqa: F401
from tools.clientgen import kinds_module
from webapp.errors import CLIENT_KINDS, Invalid, NotLoaded, TooLarge, UserError
from webapp.scenario.errors import ScenarioError

JS = Path(__file__).resolve().parent.parent / "static" / "js"


def test_the_page_module_is_made_from_the_errors_module():
    assert (JS / "kinds.js").read_text() == kinds_module(), "run: python -m tools.clientgen"


def test_each_kind_the_page_tells_apart_is_what_the_server_answers_with():
    assert NotLoaded("no scenario").as_json()["kind"] == CLIENT_KINDS["NOT_LOADED"]
    refused = [ScenarioError([{"step": None, "field": "steps", "message": "empty"}]), Invalid("x"), TooLarge("x")]
    assert [err.as_json()["kind"] for err in refused] == CLIENT_KINDS["UNOPENABLE"]


def test_a_subclass_is_known_by_its_own_name_unless_it_names_one():
    class Late(Invalid):
        pass

    class Plain(Invalid):
        kind = Invalid.kind

    assert (Late("x").kind, Plain("x").kind) == ("Late", "Invalid")


def kinds_of(cls: type[UserError]) -> set[str]:
    return {cls.kind}.union(*(kinds_of(sub) for sub in cls.__subclasses__()))


def test_no_page_module_names_a_kind_itself():
    kinds = kinds_of(UserError) | {"Internal"}
    quoted = re.compile("|".join(rf"""["'`]{kind}["'`]""" for kind in sorted(kinds)))
    found = {p.name: quoted.findall(p.read_text()) for p in JS.glob("*.js") if p.name != "kinds.js"}
    assert len(kinds) > 8 and not {name: hits for name, hits in found.items() if hits}
