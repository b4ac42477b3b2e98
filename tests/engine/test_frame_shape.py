"""A frame has the shape its type names (model/frame.py ``Frame``): what ``Simulation.frame`` returns is what the
presenter and the exports read, so a key added or dropped on one side only is caught here, as mypy catches it in
the code."""

from typing import NotRequired, get_origin, get_type_hints

from webapp.engine.simulation import Simulation
from webapp.model.frame import Frame, VariantFrame
from webapp.scenario import builtin
from webapp.scenario.load import load_scenario


def keys_fit(value: dict, shape: type) -> bool:
    """Whether ``value`` has every required key of the TypedDict ``shape`` and no key it does not name (read from
    its hints: the module's postponed annotations hide NotRequired from ``__required_keys__``)."""
    hints = get_type_hints(shape, include_extras=True)
    required = {key for key, hint in hints.items() if get_origin(hint) is not NotRequired}
    return required <= value.keys() <= hints.keys()


def test_every_frame_of_a_scenario_has_the_keys_of_frame_and_variant_frame():
    sim = Simulation(load_scenario(builtin.get("lost-marker")))
    for position in range(sim.total + 1):
        frame = sim.frame_at(position)
        assert keys_fit(frame, Frame), sorted(frame)
        for variant in frame["variants"].values():
            assert keys_fit(variant, VariantFrame), sorted(variant)
