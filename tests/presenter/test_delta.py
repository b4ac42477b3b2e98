"""diff/apply: applying the operations diff(old, new) to a copy of old gives new, exactly (types included),
for JSON documents that keep booleans and numbers at different paths (as messages do); the operations are
few when little changed."""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.profiles import examples
from webapp.presenter.delta import apply, diff, paths


def documents_of(scalars):
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.sampled_from("abcdef"), inner, max_size=5)), max_leaves=40)


scalars = st.one_of(st.none(), st.integers(-3, 3), st.sampled_from(["a", "b", "front", ""]))
documents = documents_of(scalars)
flags = documents_of(st.one_of(st.none(), st.booleans(), st.just("x")))


def exact(doc) -> str:
    """JSON with types kept apart (True is not 1, 1 is not 1.0)."""
    return json.dumps([doc, _types(doc)], sort_keys=True)


def _types(doc):
    if isinstance(doc, dict):
        return {k: _types(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_types(v) for v in doc]
    return type(doc).__name__


@settings(max_examples=examples(60), deadline=None)
@given(documents, documents)
def test_apply_of_diff_rebuilds_the_new_document(old, new):
    ops = diff(old, new)
    assert exact(apply(copy.deepcopy(old), ops)) == exact(new)
    json.dumps(ops)  # what goes on the wire is JSON


@settings(max_examples=examples(30), deadline=None)
@given(flags, flags)
def test_documents_of_booleans_are_rebuilt_exactly(old, new):
    assert exact(apply(copy.deepcopy(old), diff(old, new))) == exact(new)


@settings(max_examples=examples(30), deadline=None)
@given(st.dictionaries(st.sampled_from("abcdef"), documents, min_size=1), st.sampled_from("abcdef"), scalars)
def test_one_changed_value_is_one_small_operation(doc, key, value):
    new = {**doc, key: {"inner": [value]}}
    old = {**doc, key: {"inner": [value, "x"]}}
    assert diff(old, new) == [[[0, key, "inner"], 1, 1, []]]
    assert diff(new, new) == []


def test_a_value_that_changes_type_where_it_is_compared_is_sent():
    assert diff(1, True) == [[[0], True]]
    assert diff({"a": 1, "b": 2}, {"a": True, "b": 3}) == [[[0, "a"], True], [[0, "b"], 3]]


def test_a_path_is_written_as_what_it_adds_to_the_one_before():
    old = {"scene": {"panes": {"v": {"caption": "a", "list": {"count": "1", "items": [1]}}}, "caption": "x"}, "gone": 1}
    new = {"scene": {"panes": {"v": {"caption": "b", "list": {"count": "2", "items": [1, 2]}}}, "caption": "y"}}
    ops = diff(old, new)
    assert ops == [[[0, "scene", "panes", "v", "caption"], "b"], [[3, "list", "count"], "2"], [[4, "items"], 1, 0, [2]],
                   [[1, "caption"], "y"], [[0, "gone"]]]
    assert list(paths(ops)) == [["scene", "panes", "v", "caption"], ["scene", "panes", "v", "list", "count"],
                                ["scene", "panes", "v", "list", "items"], ["scene", "caption"], ["gone"]]
    assert apply(copy.deepcopy(old), ops) == new


def test_the_scene_keeps_booleans_and_numbers_at_different_paths():
    """The assumption the skip relies on, checked over every position of every built-in."""
    from tests.conftest import builtin_simulation
    from webapp.presenter import state_message
    from webapp.scenario.builtin import ids

    kinds: dict = {}

    def walk(doc, path):
        if isinstance(doc, dict):
            for k, v in doc.items():
                walk(v, path + (k,))
        elif isinstance(doc, list):
            for v in doc:
                walk(v, path + ("[]",))
        elif doc is not None:
            kind = "bool" if isinstance(doc, bool) else "number" if isinstance(doc, (int, float)) else "other"
            kinds.setdefault(path, set()).add(kind)

    for scenario_id in ids():
        sim = builtin_simulation(scenario_id)
        for position in range(sim.total + 1):
            sim.seek(position)
            walk(state_message(sim.frame(), sim.preview(), {}), ())
    mixed = {path: k for path, k in kinds.items() if {"bool", "number"} <= k}
    assert not mixed
