"""A viewer's session: the loaded simulation and the autoplay settings. No I/O, no Flask.

Its commands (load, step, back, seek, play, pause) change the session and return nothing; what to show is
``session.sim.frame()``."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from itertools import count
from typing import Any

from ..errors import Invalid, NotLoaded
from ..phrases import shown
from ..scenario.scenario import Scenario
from .rules import MAX_SPEED, MIN_SPEED, said
from .simulation import Simulation

__all__ = ["MAX_SPEED", "MIN_SPEED", "RunApart", "Session", "parse_range", "parse_speed", "run_here"]
_LOADS = count(1)

RunApart = Callable[..., Any]  # run_apart(fn, *args, small=...) -> fn(*args), wherever the transport runs it


def run_here(fn: Callable[..., Any], *args: Any, small: bool = False) -> Any:
    return fn(*args)


class Session:
    def __init__(self, max_bytes: int | None = None, run_apart: RunApart | None = None):
        # The most checkpoint bytes one simulation may hold (None: no bound); a scenario over it is refused
        # at load, as an invalid one is.
        self.max_bytes = max_bytes
        # run_apart(fn, *args, small=...) runs the CPU-heavy build of a simulation (the transport may move it
        # off its event loop unless it is small: a built-in); by default it runs here.
        self.run_apart = run_apart or run_here
        self.lock = threading.RLock()  # handlers and the autoplay task both move the cursor
        self.sim: Simulation | None = None
        self.scenario_id: str | None = None
        self.source: str | dict[str, Any] | None = None  # what was loaded: a built-in id or the scenario object
        # Names this load to its viewers: every message about it carries it (as "key"), so a viewer that missed
        # a scenario message knows its state belongs to another. A room's copies on other processes take their
        # presenter's.
        self.load_id: str | None = None
        self.serial = 0  # names the load in this process (never reused, unlike a random load_id or an id())
        self.playing = False
        self.speed = 1.0
        self.play_token = 0  # bumped on every play/pause/load: an older autoplay task stops
        self.range: tuple[int, int] = (0, 0)  # the positions this session may visit (an embed can be locked to a part)
        self.touched = time.monotonic()

    def load(self, scenario: Scenario, variants: object, scenario_id: str | None,
             range_: tuple[int, int] | None = None, position: object = None) -> None:
        """Replace the simulation only once the new one has loaded (and reached ``position``) completely."""
        sim, (lo, hi) = self.run_apart(self._build, scenario, variants, range_, position,
                                       small=scenario_id is not None)
        self.pause()
        self.sim, self.scenario_id, self.range = sim, scenario_id, (lo, hi)
        self.touched = time.monotonic()
        self.source = scenario_id if scenario_id is not None else scenario.raw
        self.load_id = secrets.token_hex(4)
        self.serial = next(_LOADS)

    def _build(self, scenario: Scenario, variants: object, range_: tuple[int, int] | None,
               position: object) -> tuple[Simulation, tuple[int, int]]:
        """A new simulation at ``position`` and its range; touches nothing of this session."""
        sim = Simulation(scenario, variants, max_bytes=self.max_bytes)
        lo, hi = range_ or (0, sim.total)
        start = lo if position is None else position
        if isinstance(start, bool) or not isinstance(start, int) or not lo <= start <= hi:
            raise Invalid(said("position", lo=lo, hi=hi, got=shown(position)))
        sim.seek(start)
        return sim, (lo, hi)

    @property
    def start(self) -> int:
        return self.range[0]

    def seek(self, position: object) -> None:
        sim = self.require()
        lo, hi = self.range
        if (lo, hi) != (0, sim.total) and isinstance(position, int) and not lo <= position <= hi:
            raise Invalid(f"position {position} is outside this view's range {lo}..{hi}")
        sim.seek(position)

    def step(self) -> None:
        sim = self.require()
        sim.seek(min(sim.position + 1, self.range[1]))

    def back(self) -> None:
        sim = self.require()
        sim.seek(max(sim.position - 1, self.range[0]))

    def reset(self) -> None:
        """Pause and go back to the start of this session's range."""
        self.pause()
        self.seek(self.start)

    def require(self) -> Simulation:
        if self.sim is None:
            raise NotLoaded(said("notLoaded"))
        self.touched = time.monotonic()
        return self.sim

    def play(self, speed: float) -> int | None:
        """Start autoplay; returns the token the autoplay task must hold, or None at the end."""
        sim = self.require()
        self.speed = speed
        self.play_token += 1
        self.playing = sim.position < self.range[1]
        return self.play_token if self.playing else None

    def pause(self) -> None:
        self.playing = False
        self.play_token += 1

    def evict(self) -> None:
        """Drop the simulation (idle): the session answers "no scenario loaded" until it loads again."""
        self.pause()
        self.sim = None

    def autoplay_step(self, token: int) -> bool:
        """One autoplay tick; False when this task should stop (paused, replaced or at the end)."""
        if token != self.play_token or self.sim is None:
            return False
        if self.sim.position >= self.range[1]:
            self.playing = False
            return False
        self.step()
        if self.sim.position >= self.range[1]:
            self.playing = False
        return True


def parse_speed(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not MIN_SPEED <= value <= MAX_SPEED:
        raise Invalid(said("speed", got=shown(value)))
    return float(value)


def parse_range(value: object, total: int) -> tuple[int, int] | None:
    """``[from, to]`` with 0 <= from <= to <= total, or None for the whole scenario."""
    if value is None:
        return None
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            and 0 <= value[0] <= value[1] <= total):
        raise Invalid(said("range", total=total, got=shown(value)))
    return value[0], value[1]
