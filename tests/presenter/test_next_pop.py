"""An imported pod the model had back in activeQ long before the log's next Pop says it waits for that Pop
(presenter/scene.py waiting_for_logged_pop), on the version that has it there early only."""

from pathlib import Path

from webapp.engine.simulation import Simulation
from webapp.presenter import state_message
from webapp.presenter.words import NEXT_POP
from webapp.scenario import builtin
from webapp.scenario.logs import import_logs
from webapp.scenario.scenario import from_valid_dict

LOG = Path(__file__).resolve().parents[1] / "data" / "logs" / "five-minute-incident.log"


def saying(scenario) -> list[tuple[int, str, str]]:
    sim = Simulation(scenario)
    out = []
    for position in range(sim.total + 1):
        sim.seek(position)
        for variant, pane in state_message(sim.frame())["scene"]["panes"].items():
            out += [(position, variant, c["pod"]) for lane in pane["lanes"] for c in lane["chips"]
                    if c["detail"] == NEXT_POP]
    return out


def test_b_waits_for_the_log_s_pop_on_v1_28_2_only():
    with LOG.open("rb") as f:
        scenario = from_valid_dict(import_logs([(LOG.name, f)]).scenario)
    assert saying(scenario) == [(30, "v1.28.2", "b")]  # after the clock's 329.91 s, before the log's Pop of b


def test_a_built_in_never_says_it():
    assert saying(from_valid_dict(builtin.get("five-minute-wait"))) == []
