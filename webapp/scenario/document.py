"""The parsing boundary: every JSON document a user sends (an HTTP body, a Socket.IO packet, a scenario's JSON
text) is read by ``parse_json``, and every loaded YAML scenario is checked by ``check_values``. What passes
holds no value that a later step could choke on:

* nesting: at most ``MAX_DEPTH`` arrays and objects inside each other, the one nesting limit of every document
  (a Socket.IO packet, an HTTP body, a scenario's JSON or YAML text, a log line) and of a value built in Python.
  It is measured where each is read, before anything recursive sees it: JSON on the text (``too_deep``), YAML on
  the parser's events (load.py), a value level by level (``check_depth``); each refusal is ``depth_error``'s,
  naming the field where the value that goes too deep starts and, on a text, its line and column;
* numbers: an integer of more than ``MAX_DIGITS`` digits is refused (Python converts at most 4,300 digits, and
  every limit here is far below 100); NaN and Infinity are not JSON, nor is a number too large for a float
  (``1e309`` would be read as infinity, and sent back as ``Infinity``, which no JSON parser reads);
* text: a lone surrogate (``"\\ud800"`` without its pair) cannot be encoded as UTF-8 (the HTML export, the
  page, the log); it is refused, naming the field it is in.

Each refusal is a ``DocumentError`` (an ``Invalid``) naming the field (``steps[3].name``, or ``document``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate, chain
from operator import sub
from typing import Any

from ..errors import Invalid

MAX_DEPTH = 64  # arrays/objects inside each other in any document: a scenario needs 4, a packet carrying one 6
MAX_DIGITS = 100  # digits of an integer literal (int64 has 19)

_ESCAPE = re.compile(rb"\\.", re.DOTALL)  # inside a JSON string: \" \\ \n \u...
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')  # bytes.translate deletes these
_ONE_KIND = bytes.maketrans(b"{}", b"[]")  # an object nests like an array; mismatched pairs are the parser's
_STRING = re.compile(rb'"[^"]*"')  # once escapes are gone
_DIGITS_AS_ZERO = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))  # "a12" -> " 00"
_LONG_EXPONENT = re.compile(rb"[eE][-+]?[0-9]{3}")  # a float literal can overflow only with one (or long digits)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")  # paired or not: the parsed strings tell
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_STEP_FIELD = re.compile(r"steps\[(\d{1,9})\]")
_OPEN_RUN, _CLOSE_RUN = re.compile(rb"\[+"), re.compile(rb"]+")
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[][{},:]', re.DOTALL)  # a string, or a byte of structure
SHOWN_LEVELS = 6  # the start of a nesting refusal's path, enough to find it (steps[3].hints[0][0][0]...)
LOCATE_TOKENS = 200_000  # how far a nesting refusal's place is looked for (beyond: the whole document is named)


class DocumentError(Invalid):
    """A document refused at the boundary; ``field`` is where (``document`` for the whole text)."""

    kind = "Invalid"  # to a client, one more invalid input

    def __init__(self, where: str, field: str, reason: str):
        self.field, self.reason = field, reason
        super().__init__(f"{where}: {reason}" if field == "document" else f"{where}, field '{field}': {reason}")


class _Refused:
    """What the parser's hooks return in place of a value that may not pass; found (with its path) by the walk."""

    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason


def _integer(text: str) -> int | _Refused:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        return _Refused(f"an integer of {digits} digits; at most {MAX_DIGITS} are accepted")
    return int(text)


def _float(text: str) -> float | _Refused:
    value = float(text)
    if math.isinf(value):
        shown = text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters)"
        return _Refused(f"the number {shown} is too large for a float (at most about 1.8e308)")
    return value


def too_deep(data: bytes, max_depth: int = MAX_DEPTH) -> bool:
    """Whether arrays and objects nest more than ``max_depth`` levels in JSON ``data`` (UTF-8), measured without
    parsing or recursion, in time linear in ``data``: strings are cut out (escapes first, so every quote left
    delimits one), braces become brackets, then innermost ``[]`` pairs are removed, one level a pass, while a pass
    takes away at least a quarter of what is left (an ordinary document, a few levels deep, is gone after as many
    passes); what is left is measured in one scan of its runs of brackets (``deepest``), so a chain ``[[[...]]]``
    costs no pass per level. Brackets that do not pair up are not
    JSON: the parser says where (``parse_json`` still catches a RecursionError), unless they open more than
    ``max_depth`` levels (which the parser would have entered)."""
    if data.count(b"[") + data.count(b"{") <= max_depth:  # most documents: no need to look closer
        return False
    unescaped = _ESCAPE.sub(b"", data) if b"\\" in data else data
    brackets = unescaped.translate(None, _NOT_STRUCTURE).replace(b'""', b"")  # most strings hold no bracket
    if b'"' in brackets:
        brackets = _STRING.sub(b"", brackets)
    brackets = brackets.translate(_ONE_KIND)
    removed = 0  # levels taken away by the passes
    while brackets and removed < max_depth:
        fewer = brackets.replace(b"[]", b"")
        if len(fewer) == len(brackets):  # nothing pairs up any more
            break
        removed += 1
        shrunk = len(fewer) <= len(brackets) * 3 // 4
        brackets = fewer
        if not shrunk:  # a long chain: measured in one scan instead
            break
    return bool(brackets) and deepest(brackets) > max_depth - removed


def deepest(brackets: bytes) -> int:
    """The most brackets open at once in ``brackets`` (only ``[`` and ``]``; a ``]`` with none open goes below 0):
    a scan of its runs, C-speed, however long each run is."""
    opens: Iterable[int] = map(len, _OPEN_RUN.findall(brackets))
    closes = chain((0,), map(len, _CLOSE_RUN.findall(brackets)))  # the closes before each run of opens
    if brackets[:1] == b"]":
        opens = chain((0,), opens)
    return max(accumulate(map(sub, opens, closes)), default=0)


def deep_place(data: bytes, max_depth: int) -> tuple[str, int] | None:
    """Where JSON ``data`` first opens an array or object deeper than ``max_depth``: (the field path, the byte
    offset of its bracket); None when not met within LOCATE_TOKENS strings and bytes of structure (the work is
    bounded: it is asked only once ``too_deep`` has said yes)."""
    levels: list[list[Any]] = []  # per open container: [its key or index now, whether a key comes next (objects)]
    for n, token in enumerate(_TOKEN.finditer(data)):
        if n == LOCATE_TOKENS:
            return None
        c = token[0][0]
        if c == 0x22:  # a string: an object's key when one comes next
            if levels and levels[-1][1]:
                levels[-1][0] = token[0]
        elif c == 0x5B or c == 0x7B:  # [ {
            if len(levels) == max_depth:
                keys = [key if type(key) is int else json.loads(key) if key else "?" for key, _ in levels]
                return deep_field(keys), token.start()
            levels.append([0, False] if c == 0x5B else [None, True])
        elif c == 0x2C and levels:  # , the next item or key
            top = levels[-1]
            if type(top[0]) is int:
                top[0] += 1
            else:
                top[1] = True
        elif c == 0x3A and levels:  # : the key's value comes next
            levels[-1][1] = False
        elif levels:  # ] }
            levels.pop()
    return None


def depth_error(where: str, field: str, max_depth: int, line: int | None = None,
                column: int | None = None) -> DocumentError:
    """The refusal of a value nested deeper than ``max_depth``: where it starts (``deep_field``), and on a text
    the line and column of the bracket (or YAML node) that goes too deep."""
    at = f" (line {line}, column {column})" if line is not None else ""
    return DocumentError(where, field, f"nested deeper than {max_depth} levels{at}")


def _too_deep_error(where: str, raw: bytes, max_depth: int) -> DocumentError:
    place = deep_place(raw, max_depth)
    if place is None:
        return depth_error(where, "document", max_depth)
    path, offset = place
    line = raw.count(b"\n", 0, offset) + 1
    column = len(raw[raw.rfind(b"\n", 0, offset) + 1:offset].decode("utf-8", "replace")) + 1
    return depth_error(where, path, max_depth, line, column)


_CONTAINERS = (dict, list)  # what a parsed document nests


def check_depth(value: object, where: str = "the document", max_depth: int = MAX_DEPTH) -> None:
    """``depth_error`` for a value (built in Python) nested deeper than ``max_depth``, naming the first container
    too deep (level by level, each level in document order)."""
    if _too_deep_value(value, max_depth):
        raise depth_error(where, _deep_field(value, max_depth), max_depth)


def _too_deep_value(value: object, max_depth: int) -> bool:
    """Level by level, so any depth is safe to ask about, and only containers are kept from one level to the next
    (a list of a million numbers is one pass of a comprehension, not a million pushes and pops);
    each container once per level, so an object that contains itself is too deep, not endless."""
    level: list[Any] = [value] if type(value) in _CONTAINERS else []
    depth = 1
    while level:
        if depth > max_depth:
            return True
        inner = {id(c): c for v in level for c in (v.values() if type(v) is dict else v) if type(c) in _CONTAINERS}
        level, depth = list(inner.values()), depth + 1
    return False


def _deep_field(value: object, max_depth: int) -> str:
    """The field of the first container (level by level, each level in document order) nested deeper than
    ``max_depth`` (``deep_field``); asked only once _too_deep_value has said yes."""
    level: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    for _ in range(max_depth):
        inner: list[tuple[Any, tuple[Any, ...]]] = []
        seen: set[int] = set()
        for v, keys in level:
            for key, c in (v.items() if type(v) is dict else enumerate(v)):
                if type(c) in _CONTAINERS and id(c) not in seen:
                    seen.add(id(c))
                    inner.append((c, (*keys, key) if len(keys) <= SHOWN_LEVELS else keys))  # one more: "..."
        level = inner
    return deep_field(list(level[0][1]))


def may_hold_surrogates(text: str) -> bool:
    """Whether ``text`` (JSON, or YAML with its escapes) may parse to a string with a lone surrogate."""
    return ("\\u" in text and _SURROGATE_ESCAPE.search(text) is not None) or (
        not text.isascii() and _SURROGATE.search(text) is not None)


def parse_json(data: str | bytes, where: str = "the document", max_depth: int = MAX_DEPTH,
               finite: bool = True) -> object:
    """The JSON value in ``data``, checked; raises DocumentError (naming ``where`` and the field) otherwise.
    ``max_depth`` may only be lower than MAX_DEPTH (a scenario's text: ``Limits.max_depth``). ``finite`` False:
    a float literal too large is read as infinity (a scenario's text, whose every number the validator checks
    against its field's range)."""
    max_depth = min(max_depth, MAX_DEPTH)
    if isinstance(data, str):
        text, raw = data, data.encode("utf-8", "surrogatepass")
    else:
        raw = bytes(data)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise DocumentError(where, "document", f"not UTF-8 text (byte {err.start}: {err.reason})") from None
    if too_deep(raw, max_depth):
        raise _too_deep_error(where, raw, max_depth)
    refused: list[_Refused] = []

    def checked(convert: Callable[[str], object]) -> Callable[[str], object]:
        def hook(literal: str) -> object:
            value = convert(literal)
            if isinstance(value, _Refused):
                refused.append(value)
            return value
        return hook

    def constant(name: str) -> _Refused:
        refused.append(_Refused(f"{name} is not a JSON value"))
        return refused[-1]

    # Numbers are looked at only when a literal may be long enough to matter (a hook halves the speed).
    long_digits = b"0" * (MAX_DIGITS + 1) in raw.translate(_DIGITS_AS_ZERO)
    long_floats = finite and (long_digits or _LONG_EXPONENT.search(raw) is not None)
    try:
        value = json.loads(text, parse_int=checked(_integer) if long_digits else None,
                           parse_float=checked(_float) if long_floats else None, parse_constant=constant)
    except json.JSONDecodeError as err:
        raise DocumentError(where, "document", f"invalid JSON at line {err.lineno}, column {err.colno}: "
                                               f"{err.msg}") from None
    except RecursionError:  # the brackets did not pair up: the parser went deep before it found out
        raise _too_deep_error(where, raw, max_depth) from None
    if refused or may_hold_surrogates(text):
        check_values(value, where)
    return value


def check_values(value: object, where: str = "the document") -> None:
    """Raise DocumentError for the first value that may not pass: nesting deeper than MAX_DEPTH (``check_depth``),
    then a refused number or constant, a string or key with a lone surrogate. Iterative (a stack, no recursion)."""
    check_depth(value, where)
    stack: list[tuple[object, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            _check_text(item, path, where)
        elif isinstance(item, _Refused):
            raise DocumentError(where, path or "document", item.reason)
        elif isinstance(item, (dict, list)):
            pairs: Iterable[tuple[Any, Any]] = item.items() if isinstance(item, dict) else enumerate(item)
            children: list[tuple[object, str]] = []
            for key, child in pairs:
                if isinstance(key, str):
                    _check_text(key, path, where, key=True)
                children.append((child, join_path(path, key)))
            stack.extend(reversed(children))  # the first problem in document order is reported


def _check_text(text: str, path: str, where: str, key: bool = False) -> None:
    found = _SURROGATE.search(text)
    if found:
        what = "a key" if key else "text"
        raise DocumentError(where, path or "document",
                            f"{what} with a lone surrogate (U+{ord(found[0]):04X}) at character {found.start() + 1}, "
                            "which cannot be encoded as UTF-8")


def deep_field(keys: Sequence[object]) -> str:
    """A nesting refusal's field: the path through ``keys`` (an index, or a key; "?" where a key is not a string)
    to the value that goes too deep, its first SHOWN_LEVELS levels."""
    path = ""
    for key in keys[:SHOWN_LEVELS]:
        path = join_path(path, key)
    return (path + ("..." if len(keys) > SHOWN_LEVELS else "")) or "document"


def step_of(field: str) -> int | None:
    """The step a field path is in (``steps[3].event`` -> 3), or None."""
    found = _STEP_FIELD.match(field)
    return int(found[1]) if found else None


def join_path(path: str, key: object) -> str:
    """validate.py's field paths: ``steps[3].event``; a key that is not an identifier as ``['a b']``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}" if path else key
    shown = repr(key[:40] + "..." if isinstance(key, str) and len(key) > 40 else key)
    return f"{path}[{shown}]"
