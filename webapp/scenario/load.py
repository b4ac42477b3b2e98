"""Scenario text -> validated Scenario: size limit, safe JSON/YAML parsing, validation."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from .errors import ScenarioError
from .scenario import Scenario, from_valid_dict
from .validate import Limits, validate

FORMATS = ("json", "yaml")
SUFFIXES = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}

# libyaml when present: the pure-Python loader needs seconds for a 2 MiB document.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_OPEN = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSE = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


def _check_events(text: str, max_depth: int) -> None:
    """Reject anchors and aliases (an alias may expand exponentially: billion laughs) and deep nesting
    from the parser's events, before any node is composed."""
    depth = 0
    for event in yaml.parse(text, Loader=_SAFE_LOADER):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            problem = "anchors and aliases (&name, *name) are not allowed"
            raise yaml.MarkedYAMLError(problem=problem, problem_mark=event.start_mark)
        if isinstance(event, _OPEN):
            depth += 1
            if depth > max_depth:
                problem = f"nested deeper than {max_depth} levels"
                raise yaml.MarkedYAMLError(problem=problem, problem_mark=event.start_mark)
        elif isinstance(event, _CLOSE):
            depth -= 1


def _document_error(message: str) -> ScenarioError:
    return ScenarioError([{"step": None, "field": "document", "message": message}])


def _too_big(text: str | bytes, max_bytes: int) -> bool:
    if len(text) > max_bytes:  # a str has at least as many bytes as characters
        return True
    return isinstance(text, str) and len(text.encode("utf-8", "surrogatepass")) > max_bytes


def _parse_json(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise _document_error(f"invalid JSON at line {err.lineno}, column {err.colno}: {err.msg}") from None
    except ValueError as err:  # e.g. an integer literal longer than Python converts
        raise _document_error(f"invalid JSON: {err}") from None
    except RecursionError:  # the C scanner stops at the interpreter's recursion limit
        raise _document_error("invalid JSON: nested too deeply") from None


def _parse_yaml(text: str, max_depth: int) -> object:
    try:
        _check_events(text, max_depth)
        loader = _SAFE_LOADER(text)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise _document_error(f"invalid YAML{where}: {err.problem or err.context}") from None
    except (yaml.YAMLError, ValueError, TypeError) as err:  # constructors raise plain ValueError/TypeError too
        raise _document_error("invalid YAML: " + " ".join(str(err).split())) from None


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
    if fmt is None:
        fmt = "json" if text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[") else "yaml"
    return _parse_json(text) if fmt == "json" else _parse_yaml(text, limits.max_depth)


def load_scenario(raw: object, limits: Limits = Limits()) -> Scenario:
    """A Scenario from a parsed scenario object; raises ScenarioError listing every problem."""
    problems = validate(raw, limits)
    if problems:
        raise ScenarioError(problems)
    return from_valid_dict(raw)


def load_file(path, limits: Limits = Limits()) -> Scenario:
    """Read, parse (format from the suffix, else guessed) and validate a scenario file.
    OSError propagates; every problem with the content is a ScenarioError."""
    path = Path(path)
    with path.open("rb") as f:
        data = f.read(limits.max_bytes + 1)  # one byte over is enough to reject
    return load_scenario(parse_text(data, SUFFIXES.get(path.suffix.lower()), limits), limits)
