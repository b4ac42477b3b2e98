"""Session.same_everywhere: the key under which a position's messages are kept (presenter/memo.py). A built-in
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
    assert first.same_everywhere == ("lost-marker", VARIANTS, 1) != second.same_everywhere
    second.step()
    assert first.same_everywhere == second.same_everywhere


def test_a_scenario_of_the_viewers_own_is_named_by_its_load():
    document = builtin.get("lost-marker")
    first, second = loaded(document), loaded(document)
    assert first.sim.live_bytes <= SHOWN_LIVE_BYTES
    assert first.same_everywhere != second.same_everywhere  # only the session that loaded it shows it
    key = first.same_everywhere
    first.step()
    assert first.same_everywhere[1:] == (VARIANTS, 1)
    first.back()
    assert first.same_everywhere == key
    first.load(resolve(document)[0], VARIANTS, None)  # loaded again: nothing kept for the old load is reused
    assert first.same_everywhere != key


def test_a_scenario_of_the_viewers_own_larger_than_a_built_in_is_not_kept():
    steps = [{"op": "pop", "expect": "A"}] + [{"op": "event", "event": "NodeAdd"}] * 199
    session = loaded({"schema": 1, "name": "200 entries", "pods": [{"name": "A"}], "initial_active": ["A"],
                      "steps": steps})
    assert session.sim.live_bytes > SHOWN_LIVE_BYTES and session.same_everywhere is None
    assert Session().same_everywhere is None  # nothing loaded
