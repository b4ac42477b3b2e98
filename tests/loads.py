"""A session with a scenario loaded on every version, as the tests of sessions and of the message cache use it."""

from webapp.engine.session import Session
from webapp.model.variant import VARIANTS
from webapp.scenario.resolve import resolve


def loaded(source) -> Session:
    scenario, scenario_id = resolve(source)
    session = Session()
    session.load(scenario, VARIANTS, scenario_id)
    return session
