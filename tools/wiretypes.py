"""The wire shapes as TypeScript: every TypedDict the server sends the page (ROOTS, and each one their fields name),
written as the interfaces static/js/types.d.ts declares for the checker (`make jscheck`), in the namespace Wire
(``Wire.Scene``): a TypedDict keeps its name (Record, State, Item) without meeting a global type of the browser's.

A field maps to what its JSON is: str -> string, int and float -> number, bool -> boolean, None -> null,
object -> unknown, Any -> any, list/Sequence/tuple[X, ...] -> X[], tuple[A, B] -> [A, B], dict/Mapping[str, X] ->
{ [key: string]: X }, Literal["a", 1] -> "a" | 1, a union -> its members joined by |, a TypedDict -> its interface by
name; a NotRequired field (or one of a total=False TypedDict) is optional (``name?:``). A type it cannot map, or two
TypedDicts of one name, is an error (WireTypeError) naming the field: the file is never written half right.
"""

from __future__ import annotations

import json
import textwrap
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, NotRequired, Required, is_typeddict

from webapp.engine.polls import Poll, Tally
from webapp.engine.votes import Vote, VoteTally
from webapp.errors import Reply
from webapp.presenter.messages import DeltaMessage, ScenarioMessage, StateMessage

ROOTS: tuple[type, ...] = (ScenarioMessage, StateMessage, DeltaMessage, Poll, Tally, Vote, VoteTally, Reply)
NAMED = {str: "string", int: "number", float: "number", bool: "boolean", type(None): "null", object: "unknown"}
LISTS = (list, Sequence, set, frozenset)
RECORDS = (dict, Mapping)


class WireTypeError(TypeError):
    pass


def fields(shape: type) -> dict[str, tuple[Any, bool]]:
    """{field: (its type, whether it is required)} of the TypedDict ``shape``, inherited fields included."""
    hints = typing.get_type_hints(shape, include_extras=True)
    total = shape.__total__  # type: ignore[attr-defined]
    found = {}
    for name, hint in hints.items():
        origin = typing.get_origin(hint)
        if origin in (NotRequired, Required):
            found[name] = (typing.get_args(hint)[0], origin is Required)
        else:
            found[name] = (hint, name in shape.__required_keys__ if not total else True)  # type: ignore[attr-defined]
    return found


def ts(hint: Any, where: str, named: dict[str, type]) -> str:
    """The TypeScript type of ``hint`` (the field ``where``), recording each TypedDict it names in ``named``."""
    if hint is Any:
        return "any"
    if hint in NAMED:
        return NAMED[hint]
    if is_typeddict(hint):
        known = named.setdefault(hint.__name__, hint)
        if known is not hint:
            raise WireTypeError(f"{where}: two TypedDicts are named {hint.__name__} ({known.__module__}, "
                                f"{hint.__module__}): rename one")
        return hint.__name__
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        return " | ".join(json.dumps(arg) for arg in args)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(ts(arg, where, named) for arg in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _list(ts(args[0], where, named))
        return "[" + ", ".join(ts(arg, where, named) for arg in args) + "]"
    if origin in LISTS and len(args) == 1:
        return _list(ts(args[0], where, named))
    if origin in RECORDS and len(args) == 2 and args[0] is str:
        return f"{{ [key: string]: {ts(args[1], where, named)} }}"
    raise WireTypeError(f"{where}: no TypeScript for {hint!r}: map it in tools/wiretypes.py or change the field")


def _list(item: str) -> str:
    return f"({item})[]" if " " in item else f"{item}[]"


Member = tuple[str, str, bool]  # field, its TypeScript type, whether it is required


def interfaces(roots: Iterable[type] = ROOTS) -> dict[str, tuple[type, list[Member]]]:
    """{interface: (its TypedDict, its members)} for ``roots`` and every TypedDict they name, roots first."""
    named: dict[str, type] = {}
    for root in roots:
        ts(root, root.__name__, named)
    made: dict[str, tuple[type, list[Member]]] = {}
    while len(made) < len(named):
        for name, shape in list(named.items()):
            if name not in made:
                made[name] = (shape, [(field, ts(hint, f"{shape.__module__}.{name}.{field}", named), required)
                                      for field, (hint, required) in fields(shape).items()])
    return made


def _key(field: str) -> str:
    return field if field.isidentifier() else json.dumps(field)


def _doc(shape: type) -> str:
    doc = " ".join((shape.__doc__ or "").split())
    return "" if not doc or doc.startswith(f"{shape.__name__}(") else f": {doc}"  # not the TypedDict's own


def declarations(roots: Iterable[type] = ROOTS) -> str:
    """static/js/types.d.ts: the interfaces of ``roots``, each with its TypedDict's module and docstring."""
    out = ["// The wire shapes: what the server sends the page, made from the TypedDicts of webapp (each interface",
           "// names its own) by `python -m tools.clientgen`: edit them there. For the checker only (`make jscheck`);",
           "// the browser never loads this file. The client's own shapes are static/js/client.d.ts.",
           "",
           "declare namespace Wire {"]
    for name, (shape, members) in interfaces(roots).items():
        out.extend(textwrap.wrap(f"{shape.__module__}.{name}{_doc(shape)}", 110, initial_indent="  /** ",
                                 subsequent_indent="   * ", break_on_hyphens=False))
        out[-1] += " */"
        out.append(f"  interface {name} {{")
        out.extend(f"    {_key(field)}{'' if required else '?'}: {kind};" for field, kind, required in members)
        out.extend(["  }", ""])
    out[-1] = "}"
    return "\n".join(out) + "\n"
