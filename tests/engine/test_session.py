"""Session.memo_key: the key under which a position's messages are kept (presenter/memo.py). A built-in
is one document for everyone; a scenario of the viewer's own is named by its load, and kept only while it is as
small as a built-in."""

from __future__ import annotations

from webapp.engine.session import SHOWN_LIVE_BYTES, Session
from webapp.model.variant import VARIANTS
from webapp.scenario import builtin
from webapp.scenario.resolve import resolve


def loaded(source) -> Session:
    scenario, scenario_id = resolve(source)
    session = Session()
    session.load(scenario, VARIANTS, scenario_id)
    return session


def test_every_viewer_of_a_built_in_shares_its_key():
    first, second = loaded("lost-marker"), loaded("lost-marker")
    first.step()
    assert first.memo_key == ("lost-marker", VARIANTS, 1) != second.memo_key
    second.step()
    assert first.memo_key == second.memo_key


def test_a_scenario_of_the_viewers_own_is_named_by_its_load():
    document = builtin.get("lost-marker")
    first, second = loaded(document), loaded(document)
    assert first.sim.live_bytes <= SHOWN_LIVE_BYTES
    assert first.memo_key != second.memo_key  # only the session that loaded it shows it
    key = first.memo_key
    first.step()
    assert first.memo_key[1:] == (VARIANTS, 1)
    first.back()
    assert first.memo_key == key
    first.load(resolve(document)[0], VARIANTS, None)  # loaded again: nothing kept for the old load is reused
    assert first.memo_key != key


def test_a_scenario_of_the_viewers_own_larger_than_a_built_in_is_not_kept():
    steps = [{"op": "pop", "expect": "A"}] + [{"op": "event", "event": "NodeAdd"}] * 199
    session = loaded({"schema": 1, "name": "200 entries", "pods": [{"name": "A"}], "initial_active": ["A"],
                      "steps": steps})
    assert session.sim.live_bytes > SHOWN_LIVE_BYTES and session.memo_key is None
    assert Session().memo_key is None  # nothing loaded
