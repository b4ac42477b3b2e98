"""Session: every load is named anew, for its viewers (``load_id``, carried by every message about it) and in
this process (``serial``, never reused); a load that fails leaves the session as it was."""

from __future__ import annotations

import pytest

from tests.loads import loaded
from webapp.engine.session import Session
from webapp.errors import Invalid
from webapp.model.variant import VARIANTS
from webapp.scenario import builtin
from webapp.scenario.resolve import resolve


def test_every_load_is_named_anew():
    first, second = loaded("lost-marker"), loaded("lost-marker")
    assert first.load_id != second.load_id and first.serial != second.serial
    load_id, serial = first.load_id, first.serial
    first.step()
    assert (first.load_id, first.serial) == (load_id, serial)  # moving is not loading
    first.load(resolve(builtin.get("lost-marker"))[0], VARIANTS, None)
    assert first.load_id != load_id and first.serial > serial
    assert Session().load_id is None  # nothing loaded


def test_a_load_that_fails_leaves_the_session_as_it_was():
    session = loaded("lost-marker")
    session.step()
    before = session.sim, session.load_id, session.serial
    with pytest.raises(Invalid):
        session.load(resolve("lost-marker")[0], VARIANTS, "lost-marker", position=99)
    assert (session.sim, session.load_id, session.serial) == before and session.sim.position == 1
