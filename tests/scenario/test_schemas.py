"""Each scenario schema reads a missing ``periodic_flushes`` as its own documented default."""

from __future__ import annotations

import pytest

from webapp.scenario.scenario import from_valid_dict
from webapp.scenario.schemas import CURRENT, SCHEMAS
from webapp.scenario.validate import validate

BASE = {"name": "s", "pods": [{"name": "A"}], "steps": [{"op": "add", "pod": "A"}]}


@pytest.mark.parametrize("schema, flushes", [(1, False), (2, True)])
def test_missing_field_reads_as_the_schemas_default(schema, flushes):
    raw = {**BASE, "schema": schema}
    assert validate(raw) == []
    assert from_valid_dict(raw).config.periodic_flushes is flushes


@pytest.mark.parametrize("schema", sorted(SCHEMAS))
@pytest.mark.parametrize("stated", [True, False])
def test_a_stated_field_wins_in_every_schema(schema, stated):
    raw = {**BASE, "schema": schema, "periodic_flushes": stated}
    assert from_valid_dict(raw).config.periodic_flushes is stated


def test_the_project_writes_time_that_runs():
    assert SCHEMAS[CURRENT]["periodic_flushes"] is True


@pytest.mark.parametrize("schema, shown", [(0, "0"), (3, "3"), ("2", "'2'"), (2.0, "2.0"), (True, "true"),
                                           (None, "null")])
def test_an_unknown_schema_is_named_with_the_known_ones(schema, shown):
    assert validate({**BASE, "schema": schema}) == [
        {"step": None, "field": "schema", "message": f"expected 1 or 2, got {shown}"}]
