"""The parsing boundary (scenario/document.py): nesting measured on the text agrees with the parsed value's
depth, a document that passes parses as json.loads would, and each refusal names its field."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.profiles import examples
from webapp.scenario.document import MAX_DEPTH, DocumentError, check_values, deepest, parse_json, too_deep

# Strings full of what the depth measure must see through: brackets, quotes, backslashes, escapes.
tricky = st.text(alphabet=st.sampled_from('[]{}"\\/ubn:,a\u00e9\U0001F600'), max_size=8)
scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | tricky


def spine(depth: int, inner, wrap):
    """``inner`` wrapped ``depth`` times by ``wrap`` (one of list/object per level)."""
    for kind in wrap[:depth]:
        inner = [inner] if kind else {"k[": inner, "\"}": 1}
    return inner


def depth_of(value) -> int:
    stack, best = [(value, 0)], 0
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            best = max(best, level + 1)
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return best


documents = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                         | st.dictionaries(tricky, inner, max_size=3), max_leaves=30)


@settings(max_examples=examples(100), deadline=None)
@given(documents, st.integers(0, 90), st.lists(st.booleans(), min_size=90, max_size=90), st.sampled_from([5, 20, 64]),
       st.booleans())
def test_depth_on_the_text_is_the_depth_of_the_value(doc, levels, wrap, limit, ascii_only):
    value = spine(levels, doc, wrap)
    data = json.dumps(value, ensure_ascii=ascii_only).encode()
    assert too_deep(data, limit) == (depth_of(value) > limit)


@settings(max_examples=examples(100), deadline=None)
@given(documents)
def test_what_passes_parses_as_json_loads_would(doc):
    text = json.dumps(doc)
    assert parse_json(text) == json.loads(text)
    assert parse_json(text.encode()) == json.loads(text)


@pytest.mark.parametrize("text, field, words", [
    ("[" * 1_000_000, "[0][0][0][0][0][0]...", f"nested deeper than {MAX_DEPTH} levels (line 1, column 65)"),
    ("[" * 500 + "}" * 500, "[0][0][0][0][0][0]...", f"nested deeper than {MAX_DEPTH} levels (line 1, column 65)"),
    ('{"a": ' * 65 + "1" + "}" * 65, "a.a.a.a.a.a...", f"nested deeper than {MAX_DEPTH} levels (line 1, column 385)"),
    ('{"s": [1,\n  {"é b": ' + "[" * 64 + "]" * 64 + "}]}", "s[1]['é b'][0][0][0]...",
     f"nested deeper than {MAX_DEPTH} levels (line 2, column 72)"),  # characters: é is two bytes
    ('{"steps": [{"op": "pop", "n": ' + "1" * 4301 + "}]}", "steps[0].n", "an integer of 4301 digits"),
    ('{"a b": [0, -' + "2" * 101 + "]}", "['a b'][1]", "an integer of 101 digits"),
    ('{"x": [Infinity]}', "x[0]", "Infinity is not a JSON value"),
    ('{"name": "ok \\ud800"}', "name", "text with a lone surrogate (U+D800) at character 4"),
    ('{"pods": [{"\\udfff": 1}]}', "pods[0]", "a key with a lone surrogate (U+DFFF)"),
    ('{"a": "\\ud83d"}', "a", "lone surrogate (U+D83D)"),  # a high surrogate without its low half
    ('{"a": 1,}', "document", "invalid JSON at line 1, column 9"),
    (b'{"a": "\xff"}', "document", "not UTF-8 text (byte 7"),
])
def test_each_refusal_names_its_field(text, field, words):
    with pytest.raises(DocumentError) as caught:
        parse_json(text, "the body")
    assert caught.value.field == field
    assert words in str(caught.value) and str(caught.value).startswith("the body")
    assert caught.value.kind == "Invalid" and caught.value.status == 400


def test_a_value_built_in_python_is_checked_without_recursion():
    deep = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(DocumentError, match="nested deeper"):
        check_values(deep)
    check_values({"a": ["ok", {"b": "\U0001F600"}]})  # nothing to refuse


def chains(depths: list[int], objects: bool) -> str:
    """A list holding one chain per depth (``[[[]]]``, or ``{"a":{"a":{}}}``), side by side."""
    def chain(d):
        return '{"a":' * (d - 1) + "{}" + "}" * (d - 1) if objects and d else "[" * d + "]" * d
    return "[" + ",".join(chain(d) if d else "0" for d in depths) + "]"


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.integers(0, 140), min_size=1, max_size=40), st.sampled_from([5, 20, 64]), st.booleans(),
       st.integers(0, 3))
def test_depth_of_long_chains_side_by_side_is_measured_exactly(depths, limit, objects, wrap):
    """Chains are what the pass-per-level measure was slow on (one pass removed one pair): past its first passes
    the rest is measured in one scan of bracket runs, with the same answer."""
    text = "[" * wrap + chains(depths, objects) + "]" * wrap
    assert too_deep(text.encode(), limit) == (wrap + 1 + max(depths) > limit)
    assert (json.loads(text) is not None) and (depth_of(json.loads(text)) == wrap + 1 + max(depths))


@pytest.mark.parametrize("text, deepest_open", [
    ("[" * 70, 70), ("]" + "[" * 70, 69), ("[[]" * 40, 41), ("[]" * 40 + "[" * 3, 3), ("]]]" + "[]" * 100, 0),
])
def test_brackets_that_do_not_pair_up_are_too_deep_only_if_they_open_too_many(text, deepest_open):
    assert deepest(text.encode()) == deepest_open
    assert too_deep(text.encode(), 64) == (deepest_open > 64)


def test_a_chain_a_million_deep_is_refused_with_the_same_message_as_before():
    with pytest.raises(DocumentError) as caught:
        parse_json(b"[" * 1_000_000 + b"]" * 1_000_000, "the request body")
    assert str(caught.value) == ("the request body, field '[0][0][0][0][0][0]...': nested deeper than 64 levels "
                                 "(line 1, column 65)")
