"""Scenario text -> validated Scenario: size limit, safe JSON/YAML parsing, validation."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import yaml

from .document import (
    MAX_DIGITS,
    DocumentError,
    check_values,
    deep_field,
    depth_error,
    may_hold_surrogates,
    parse_json,
    step_of,
)
from .errors import ScenarioError
from .scenario import Scenario, from_valid_dict
from .validate import Limits, validate

FORMATS = ("json", "yaml")
SUFFIXES = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}

# libyaml when present: the pure-Python loader needs seconds for a 2 MiB document.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_OPEN = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSE = (yaml.SequenceEndEvent, yaml.MappingEndEvent)
# A plain scalar YAML 1.1 may read as an integer: base 10 (or 8, or sexagesimal), whose int() refuses more than
# 4,300 digits, or base 16 or 2 (0x..., 0b...), whose str() does once it is converted (and validate names values).
_INTEGER = re.compile(r"[-+]?(?:0x[0-9a-fA-F_]*|0b[01_]*|[0-9][0-9_:]*)")  # as the resolver's, lower-case 0x, 0b
_INT_TAG = "tag:yaml.org,2002:int"  # !!int: a quoted scalar read as an integer all the same
_NOT_DIGITS = re.compile(r"^[-+]?(?:0[xb])?|[_:]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


class OpenCollection:
    """A collection open while a text's YAML events are walked (here, and by locate.py): where the node it takes
    now goes. A sequence counts its nodes; a mapping takes a key (its event; None for one that is not a scalar),
    then that key's value."""

    __slots__ = ("mapping", "index", "key", "at_key", "keys")

    def __init__(self, mapping: bool):
        self.mapping, self.index, self.at_key = mapping, -1, True
        self.key: yaml.ScalarEvent | None = None
        self.keys: set[str] = set()  # a mapping's scalar keys so far

    def take(self, event: yaml.Event) -> bool:
        """Place the node ``event`` starts; whether it is a mapping's key."""
        if not self.mapping:
            self.index += 1
            return False
        if self.at_key:
            self.key, self.at_key = (event if isinstance(event, yaml.ScalarEvent) else None), False
            return True
        self.at_key = True
        return False

    def position(self) -> int | str:
        """Where its last node is: a sequence's index, a mapping's key ("?" for one that is not a scalar)."""
        if not self.mapping:
            return self.index
        return "?" if self.key is None else str(self.key.value)


def _check_events(text: str, max_depth: int, max_values: int) -> None:
    """Reject anchors and aliases (an alias may expand exponentially: billion laughs), deep nesting, more than
    ``max_values`` values (the reading's cost), integers too long to convert (document.MAX_DIGITS) and a key twice
    in one mapping (YAML requires keys to be unique; the loader kept the last, dropping the first without a word)
    from the parser's events, before any node is composed."""
    open_: list[OpenCollection] = []
    values = 0
    for event in yaml.parse(text, Loader=_SAFE_LOADER):
        if isinstance(event, yaml.ScalarEvent) and len(event.value) > MAX_DIGITS \
                and (not event.style or event.tag == _INT_TAG) and _INTEGER.fullmatch(event.value) \
                and (digits := _digits(event.value)) > MAX_DIGITS:
            raise _refused(f"an integer of {digits} digits; at most {MAX_DIGITS} are accepted", event)
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise _refused("anchors and aliases (&name, *name) are not allowed", event)
        if isinstance(event, _CLOSE):
            open_.pop()
            continue
        if not isinstance(event, (yaml.ScalarEvent, *_OPEN)):  # stream and document events
            continue
        values += 1
        if values > max_values:
            problem = (f"more than {max_values:,} values: a YAML scenario holds at most that many (an 8,000-step "
                       "one has about 48,000); write a longer one as JSON, read a hundred times faster (inflight-scope "
                       "import --format json)")
            raise _refused(problem, event)
        if open_ and open_[-1].take(event) and (key := open_[-1].key) is not None:  # a scalar key: this event
            parent = open_[-1]
            if key.value in parent.keys:
                raise _refused(f"the key {key.value[:40]!r} is already in this mapping: each key once", event)
            parent.keys.add(key.value)
        if isinstance(event, _OPEN):
            if len(open_) == max_depth:
                raise _too_deep_error(open_, max_depth, event.start_mark)
            open_.append(OpenCollection(isinstance(event, yaml.MappingStartEvent)))


def _refused(problem: str, event: yaml.Event) -> yaml.MarkedYAMLError:
    """The parser's own kind of error, at the event's start (libyaml's marks have the pure-Python ones' fields)."""
    return yaml.MarkedYAMLError(problem=problem, problem_mark=cast("yaml.Mark | None", event.start_mark))


def _too_deep_error(open_: list[OpenCollection], max_depth: int, mark: Any) -> DocumentError:
    """The refusal of a collection opened inside ``open_`` (max_depth of them): where it starts (the path's first
    levels, as document.deep_place shows a JSON one) and its line and column."""
    return depth_error("the document", deep_field([level.position() for level in open_]), max_depth,
                       mark.line + 1, mark.column + 1)


def _digits(literal: str) -> int:
    """The digits of an integer literal (``_INTEGER``): no sign, base prefix, ``_`` or ``:``."""
    return len(_NOT_DIGITS.sub("", literal))


def _document_error(message: str) -> ScenarioError:
    return ScenarioError([{"step": None, "field": "document", "message": message}])


def _too_big(text: str | bytes, max_bytes: int) -> bool:
    if len(text) > max_bytes:  # a str has at least as many bytes as characters
        return True
    return isinstance(text, str) and len(text.encode("utf-8", "surrogatepass")) > max_bytes


def _parse_json(text: str, max_depth: int) -> object:
    # the boundary every JSON document passes; a number too large for a float is left to validate() (its field's range)
    return parse_json(text, "the document", max_depth, finite=False)


def _parse_yaml(text: str, limits: Limits) -> object:
    try:
        _check_events(text, limits.max_depth, limits.max_yaml_values)
        loader = _SAFE_LOADER(text)
        try:
            value = loader.get_single_data()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise _document_error(f"invalid YAML{where}: {err.problem or err.context}") from None
    except (yaml.YAMLError, ValueError, TypeError) as err:  # constructors raise plain ValueError/TypeError too
        raise _document_error("invalid YAML: " + " ".join(str(err).split())) from None
    if may_hold_surrogates(text):  # the pure-Python loader turns "\ud800" into a lone surrogate
        check_values(value, "the document")
    return value


def _surrogate_at(text: str) -> str | None:
    """Where the first lone surrogate *character* of ``text`` is, as a problem message (libyaml cannot even
    read such text; JSON would keep it)."""
    if text.isascii():
        return None
    for line, content in enumerate(text.split("\n"), 1):
        found = _SURROGATE.search(content)
        if found:
            return (f"text at line {line}, column {found.start() + 1}: a lone surrogate (U+{ord(found[0]):04X}) "
                    "cannot be encoded as UTF-8")
    return None


def parse_text(text: str | bytes, fmt: str | None = None, limits: Limits = Limits()) -> object:
    """The JSON or YAML document in ``text`` (``fmt`` None: JSON if it starts with '{' or '[').
    Raises ScenarioError (field "document") for oversized, undecodable or malformed input."""
    if fmt not in (None, *FORMATS):
        raise ValueError(f"fmt must be one of {FORMATS} or None, not {fmt!r}")
    if _too_big(text, limits.max_bytes):
        raise _document_error(f"larger than {limits.max_bytes} bytes")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise _document_error(f"not UTF-8 text (byte {err.start}: {err.reason})") from None
    surrogate = _surrogate_at(text)
    if surrogate:
        raise _document_error(surrogate)
    if fmt is None:
        fmt = "json" if text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[") else "yaml"
    if fmt == "json":  # a byte order mark, as a body's bytes may start with (utf-8-sig above); YAML reads one itself
        text = text.removeprefix("\ufeff")
    try:
        return _parse_json(text, limits.max_depth) if fmt == "json" else _parse_yaml(text, limits)
    except DocumentError as err:  # named by field path: a scenario problem like any other
        raise ScenarioError([{"step": step_of(err.field), "field": err.field,
                              "message": err.reason}]) from None


def load_scenario(raw: object, limits: Limits = Limits()) -> Scenario:
    """A Scenario from a parsed scenario object; raises ScenarioError listing every problem."""
    problems = validate(raw, limits)
    if problems:
        raise ScenarioError(problems)
    return from_valid_dict(cast("dict[str, Any]", raw))  # valid: an object


def load_file(path: str | Path, limits: Limits = Limits()) -> Scenario:
    """Read, parse (format from the suffix, else guessed) and validate a scenario file.
    OSError propagates; every problem with the content is a ScenarioError."""
    path = Path(path)
    with path.open("rb") as f:
        data = f.read(limits.max_bytes + 1)  # one byte over is enough to reject
    return load_scenario(parse_text(data, SUFFIXES.get(path.suffix.lower()), limits), limits)
