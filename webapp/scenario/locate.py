"""Where a problem is in the source text: its field path (``steps[3].event``, ``pods[1]``,
``config.max_backoff``, ``document``) -> a 1-based (line, column), for YAML and JSON sources alike.

The text's YAML events are walked once, not composed into nodes, and only for the paths asked (JSON is YAML for
this purpose): composing a document of a million items would hold the editor's one place for heavy work for
seconds. At most MAX_EVENTS events are walked; a path not reached by then, or that does
not exist in the text, is located at its nearest ancestor that is, and a text that does not parse at line 1.
Columns count Unicode code points.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from itertools import islice
from typing import Any

import yaml

from .errors import Problem
from .load import _CLOSE, _OPEN, _SAFE_LOADER, OpenCollection
from .validate import Limits

MAX_EVENTS = 100_000  # events walked (an 8,000-step scenario has about 60,000)
PURE_EVENTS = 10_000  # the same with the pure-Python parser, about ten times slower an event
_NODE = frozenset({yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent, yaml.AliasEvent})

# "invalid YAML at line 3, column 7: ..." / "invalid JSON at line 3, column 7: ..." (load.py)
_MESSAGE_AT = re.compile(r"\bat line (\d+), column (\d+)")
# One path token: .name, [3], ['quoted key'] (validate's repr of a key that is not an identifier), [raw]
_TOKEN = re.compile(r"""\.?(?:\[(?P<index>\d+)\]|\[(?P<quoted>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\]"""
                    r"""|\[(?P<raw>[^\]]*)\]|(?P<name>[^.\[\]]+))""")

Path = tuple[str, ...]  # a field's keys and indices, each as str
Mark = Any  # a YAML mark, the pure-Python parser's or libyaml's: its line and column (0-based)
Marks = dict[Path, tuple[Mark, Mark | None]]  # path -> (the mark to point at, its key's mark)
Place = tuple[int, int]  # 1-based (line, column)


class Located(Problem):
    """A validation problem with where it is in the text."""

    line: int
    column: int


def _tokens(field: str) -> list[str | int]:
    """``steps[3].event`` -> ["steps", 3, "event"]; stops at the first part it cannot read."""
    tokens: list[str | int] = []
    pos = 0
    while pos < len(field) and (m := _TOKEN.match(field, pos)):
        if m["index"] is not None:
            tokens.append(int(m["index"]))
        elif m["quoted"] is not None:
            try:
                tokens.append(ast.literal_eval(m["quoted"]))
            except (ValueError, SyntaxError):
                break
        else:
            tokens.append(m["raw"] if m["raw"] is not None else m["name"])
        pos = m.end()
    return tokens


class _Open(OpenCollection):
    """An open collection while the events are walked, with its path (None: no field asked for is inside it)."""

    __slots__ = ("path",)

    def __init__(self, path: Path | None, mapping: bool):
        super().__init__(mapping)
        self.path = path


def _walk(events: Iterable[yaml.Event], wanted: set[Path], limit: int) -> Marks | None:
    """path -> (the mark to point at, its key's mark), for each node whose path (a tuple of keys and indices, as
    str) is in ``wanted``: a sequence item at its start (no key); a mapping value at its start if it begins on its
    key's line, else at the key (``config:`` for a block mapping); a repeated key: the last one, as when loading.
    At most ``limit`` events are walked: paths not reached by then are not marked. None for a text with anchors or
    aliases, or nested deeper than a scenario may be (exactly what load.py refuses)."""
    marks: Marks = {}
    stack: list[_Open] = []
    max_depth = Limits().max_depth
    for event in islice(events, limit):
        kind = type(event)
        if kind in _CLOSE:
            stack.pop()
            continue
        if kind not in _NODE:  # the stream's and the document's start and end
            continue
        if kind is yaml.AliasEvent or getattr(event, "anchor", None) is not None:
            return None
        path: Path | None = ()
        mark: Mark = event.start_mark
        key_mark: Mark | None = None
        if stack:
            parent = stack[-1]
            if parent.take(event):  # a key (a collection as a key is walked through, never asked for)
                if kind in _OPEN:
                    stack.append(_Open(None, kind is yaml.MappingStartEvent))
                continue
            key = parent.key if parent.mapping else None
            if key is not None:
                key_start: Mark = key.start_mark
                key_mark = key_start
                if key_start.line != mark.line:
                    mark = key_start
            unnamed = parent.mapping and key is None  # the value of a key that is not a scalar
            path = None if parent.path is None or unnamed else (*parent.path, str(parent.position()))
        if path is not None and path in wanted:
            marks[path] = (mark, key_mark)
        else:
            path = None
        if kind in _OPEN:
            if len(stack) == max_depth:
                return None
            stack.append(_Open(path, kind is yaml.MappingStartEvent))
    return marks


def _marks(text: str, wanted: set[Path]) -> Marks | None:
    """``_walk`` over ``text``'s events (None when it does not parse)."""
    try:
        return _walk(yaml.parse(text, Loader=_SAFE_LOADER), wanted, MAX_EVENTS)
    except yaml.YAMLError:
        pass
    try:
        # The pure-Python scanner refuses tabs where libyaml takes them, and takes the JSON surrogate-pair escapes
        # (``\\ud83d\\ude00``) libyaml refuses. This path serves JSON (YAML text that libyaml refuses never got as
        # far as located fields), where a tab outside a string is whitespace and one inside must be escaped: a
        # space in its place keeps every position.
        return _walk(yaml.parse(text.replace("\t", " "), Loader=yaml.SafeLoader), wanted, PURE_EVENTS)
    except (yaml.YAMLError, RecursionError):
        return None


def _found(marks: Marks | None, path: Path) -> tuple[Mark, Mark | None] | None:
    """The marks of ``path``, or of its nearest ancestor the text holds with its key's mark dropped (the key
    asked for is not there); None when nothing is."""
    if not marks:
        return None
    if path in marks:
        return marks[path]
    return next(((marks[path[:k]][0], None) for k in range(len(path) - 1, -1, -1) if path[:k] in marks), None)


def _at(mark: Mark | None) -> Place:
    return (1, 1) if mark is None else (mark.line + 1, mark.column + 1)


def _places(text: str, fields: Iterable[str]) -> dict[str, tuple[Place, Place]]:
    """field path -> (its value's 1-based (line, column), its key's: the value's where it has none), for each of
    ``fields``; a path the text does not hold (or not within the events walked) at its nearest ancestor that it
    does, and every one at line 1 when the text does not parse."""
    tokens = {field: tuple(str(t) for t in _tokens(field)) for field in fields}
    wanted = {path[:k] for path in tokens.values() for k in range(len(path) + 1)}
    marks = _marks(text, wanted) if tokens else None
    out: dict[str, tuple[Place, Place]] = {}
    for field, path in tokens.items():
        value_mark, key_mark = _found(marks, path) or (None, None)
        out[field] = (_at(value_mark), _at(key_mark or value_mark))
    return out


def locate_fields(text: str, fields: Iterable[str]) -> dict[str, Place]:
    """field path -> its value's 1-based (line, column) in ``text`` (as ``_places``)."""
    return {field: value for field, (value, _key) in _places(text, fields).items()}


def _position(problem: Problem, places: dict[str, tuple[Place, Place]]) -> Place:
    """A validation problem's position: its key's for a problem about a key (``"at": "key"``), else its value's;
    a ``document`` problem where its message says, else line 1."""
    if problem["field"] == "document":
        at = _MESSAGE_AT.search(problem["message"])
        return (int(at[1]), int(at[2])) if at else (1, 1)
    value, key = places[problem["field"]]
    return key if problem.get("at") == "key" else value


def locate_problems(text: str, problems: list[Problem]) -> list[Located]:
    """Each problem with its ``line`` and ``column`` added (new dicts); the text is walked once for them all."""
    places = _places(text, {p["field"] for p in problems if p["field"] != "document"})
    return [{**p, "line": line, "column": column} for p in problems for line, column in [_position(p, places)]]


def locate(text: str, field: str) -> Place:
    """The 1-based (line, column) of ``field`` in ``text``."""
    return locate_fields(text, [field])[field]
