"""Where a problem is in the source text: its field path (``steps[3].event``, ``pods[1]``,
``config.max_backoff``, ``document``) -> a 1-based (line, column), for YAML and JSON sources alike.

The text is composed (not constructed) into YAML nodes, which carry their marks; JSON is YAML for this
purpose. A path that does not exist in the text is located at its nearest existing ancestor, and text
that does not compose at all at line 1. Columns count Unicode code points.
"""

from __future__ import annotations

import ast
import re

import yaml

from .load import _SAFE_LOADER, _check_events
from .validate import Limits

# "invalid YAML at line 3, column 7: ..." / "invalid JSON at line 3, column 7: ..." (load.py)
_MESSAGE_AT = re.compile(r"\bat line (\d+), column (\d+)")
# One path token: .name, [3], ['quoted key'] (validate's repr of a key that is not an identifier), [raw]
_TOKEN = re.compile(r"""\.?(?:\[(?P<index>\d+)\]|\[(?P<quoted>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\]"""
                    r"""|\[(?P<raw>[^\]]*)\]|(?P<name>[^.\[\]]+))""")


class _NoAliases(yaml.SafeLoader):
    """The pure-Python composer, refusing aliases as load.py does. Used when libyaml refuses the text:
    JSON's surrogate-pair escapes (``\\ud83d\\ude00``) are valid JSON but not valid to libyaml."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            raise yaml.composer.ComposerError(None, None, "aliases are not allowed", self.peek_event().start_mark)
        return super().compose_node(parent, index)


def _compose(text: str) -> yaml.Node | None:
    """The root node of ``text``, or None when it is empty or does not compose."""
    try:
        _check_events(text, Limits().max_depth)  # anchors, aliases, depth: exactly what load.py refuses
        return yaml.compose(text, Loader=_SAFE_LOADER)
    except yaml.YAMLError:
        pass
    try:
        # The pure-Python scanner refuses tabs where libyaml takes them. This path serves JSON (YAML text
        # that libyaml refuses never got as far as located fields), where a tab outside a string is
        # whitespace and one inside must be escaped: a space in its place keeps every position.
        return yaml.compose(text.replace("\t", " "), Loader=_NoAliases)
    except (yaml.YAMLError, RecursionError):
        return None


def _tokens(field: str) -> list[str | int]:
    """``steps[3].event`` -> ["steps", 3, "event"]; stops at the first part it cannot read."""
    tokens, pos = [], 0
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


def _child(node: yaml.Node, token: str | int) -> tuple[yaml.Node, yaml.Mark] | None:
    """The child ``token`` names and where to point at it: a sequence item at its start; a mapping value
    at its start if it begins on its key's line, else at the key (``config:`` for a block mapping)."""
    if isinstance(node, yaml.SequenceNode) and isinstance(token, int):
        return (node.value[token], node.value[token].start_mark) if token < len(node.value) else None
    if isinstance(node, yaml.MappingNode):
        for key, value in reversed(node.value):  # a repeated key: the last one wins, as when loading
            if isinstance(key, yaml.ScalarNode) and key.value == str(token):
                same_line = value.start_mark.line == key.start_mark.line
                return value, value.start_mark if same_line else key.start_mark
    return None


class Locator:
    """Locates any number of field paths in one text; the text is composed once, on first use."""

    def __init__(self, text: str):
        self.text = text
        self._root: yaml.Node | None = None
        self._composed = False

    def root(self) -> yaml.Node | None:
        if not self._composed:
            self._root, self._composed = _compose(self.text), True
        return self._root

    def field(self, field: str) -> tuple[int, int]:
        node = self.root()
        if node is None:
            return 1, 1
        mark = node.start_mark
        for token in _tokens(field):
            found = _child(node, token)
            if found is None:
                break
            node, mark = found
        return mark.line + 1, mark.column + 1

    def problem(self, problem: dict) -> tuple[int, int]:
        """A validation problem's position; a ``document`` problem where its message says, else line 1."""
        if problem["field"] == "document":
            at = _MESSAGE_AT.search(problem["message"])
            return (int(at[1]), int(at[2])) if at else (1, 1)
        return self.field(problem["field"])


def locate(text: str, field: str) -> tuple[int, int]:
    """The 1-based (line, column) of ``field`` in ``text``."""
    return Locator(text).field(field)


def locate_problems(text: str, problems: list[dict]) -> list[dict]:
    """Each problem with its ``line`` and ``column`` added (new dicts)."""
    locator = Locator(text)
    out = []
    for p in problems:
        line, column = locator.problem(p)
        out.append({**p, "line": line, "column": column})
    return out
