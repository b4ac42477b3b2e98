"""``advised`` reads the ``periodic_flushes`` default its caller gives (the document's schema's, from
scenario.schemas.defaults), not one of its own: a document that leaves the field out is told so only under a schema
whose default runs no flushes."""

from webapp.presenter.advice import OLD_SCHEMA, REMEDY, advised
from webapp.scenario.schemas import SCHEMAS, defaults

OVERDUE = {"v1.28.2": {"now": 310.0, "limit": 300.0,
                       "pods": [{"pod": "b", "where": "backoffQ", "due": 1.0}]}}


def raw(schema, **more):
    return {"schema": schema, "name": "x", "pods": [{"name": "b"}], "steps": [{"op": "pop"}], **more}


def test_each_schema_is_advised_by_its_own_default():
    for schema in SCHEMAS:
        said = advised(raw(schema), OVERDUE, defaults(schema)["periodic_flushes"])
        if defaults(schema)["periodic_flushes"]:
            assert said[-1] == REMEDY.format(them="it")
        else:
            assert said[-1] == OLD_SCHEMA.format(them="it")


def test_a_stated_field_is_never_the_schema_default():
    said = advised(raw(1, periodic_flushes=False), OVERDUE, defaults(1)["periodic_flushes"])
    assert said[-1] == REMEDY.format(them="it")


def test_nothing_overdue_nothing_advised():
    assert advised(raw(2), {}, True) == []
