"""A viewer's session: the loaded simulation and the autoplay settings. No I/O, no Flask.

Its commands (load, step, back, seek, play, pause) change the session and return nothing; what to show is
``session.sim.frame()``."""

from __future__ import annotations

import secrets
import threading
import time
from itertools import count

from ..errors import Invalid, NotLoaded
from ..phrases import shown
from .simulation import Simulation

MIN_SPEED, MAX_SPEED = 0.25, 20.0  # steps per second
SHOWN_LIVE_BYTES = 96 * 1024  # the largest own simulation whose messages are kept (built-ins: 52 to 72 kB live)
_LOADS = count(1)


class Session:
    def __init__(self, max_bytes: int | None = None, run_apart=None):
        # The most checkpoint bytes one simulation may hold (None: no bound); a scenario over it is refused
        # at load, as an invalid one is.
        self.max_bytes = max_bytes
        # run_apart(fn, *args, small=...) runs the CPU-heavy build of a simulation (the transport may move it
        # off its event loop unless it is small: a built-in); by default it runs here.
        self.run_apart = run_apart or (lambda fn, *args, small=False: fn(*args))
        self.lock = threading.RLock()  # handlers and the autoplay task both move the cursor
        self.sim: Simulation | None = None
        self.scenario_id: str | None = None
        self.source = None  # what was loaded: a built-in id or the scenario object
        # Names this load: every message about it carries the key, so a viewer that missed a scenario message
        # knows its state belongs to another. A room's copies on other processes take their presenter's.
        self.key: str | None = None
        self.serial = 0  # names the load in this process (never reused, unlike a random key or an id())
        self.playing = False
        self.speed = 1.0
        self.play_token = 0  # bumped on every play/pause/load: an older autoplay task stops
        self.range = (0, 0)  # the positions this session may visit (an embed can be locked to a part)
        self.touched = time.monotonic()

    def load(self, scenario, variants, scenario_id: str | None, range_: tuple | None = None,
             position: int | None = None) -> None:
        """Replace the simulation only once the new one has loaded (and reached ``position``) completely."""
        sim, (lo, hi) = self.run_apart(self._build, scenario, variants, range_, position,
                                       small=scenario_id is not None)
        self.pause()
        self.sim, self.scenario_id, self.range = sim, scenario_id, (lo, hi)
        self.touched = time.monotonic()
        self.source = scenario_id if scenario_id is not None else scenario.raw
        self.key = secrets.token_hex(4)
        self.serial = next(_LOADS)

    def _build(self, scenario, variants, range_, position) -> tuple[Simulation, tuple[int, int]]:
        """A new simulation at ``position`` and its range; touches nothing of this session."""
        sim = Simulation(scenario, variants, max_bytes=self.max_bytes)
        lo, hi = range_ or (0, sim.total)
        start = lo if position is None else position
        if isinstance(start, bool) or not isinstance(start, int) or not lo <= start <= hi:
            raise Invalid(f"position must be an integer in {lo}..{hi}, got {shown(position)}")
        sim.seek(start)
        return sim, (lo, hi)

    @property
    def memo_key(self) -> tuple | None:
        """``memo_key_at`` the cursor."""
        return None if self.sim is None else self.memo_key_at(self.sim.position)

    def memo_key_at(self, position: int) -> tuple | None:
        """What the frame at ``position`` depends on entirely, as the key under which the messages made from it
        are kept (presenter/memo.py): the scenario with its versions and the position. A built-in is named by
        its id (one document for everyone: every session that loads it shows the same); a scenario of the
        viewer's own by the serial of its load (only this session shows it, but a viewer going back and forth
        has each message made once), while the simulation is as small as a built-in's. None when nothing is
        loaded, or for a larger scenario of the viewer's own (its messages are made every time: kept, each
        would cost more memory than a built-in's)."""
        if self.sim is None:
            return None
        if self.scenario_id is not None:
            return self.scenario_id, self.sim.variants, position
        if self.sim.live_bytes <= SHOWN_LIVE_BYTES:
            return self.serial, self.sim.variants, position
        return None

    @property
    def start(self) -> int:
        return self.range[0]

    def seek(self, position) -> None:
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

    def ahead(self) -> dict | None:
        """The frame ``step()`` will show, built now (``Simulation.ahead``); None at the end of the range."""
        sim = self.require()
        return sim.ahead() if sim.position < self.range[1] else None

    def reset(self) -> None:
        """Pause and go back to the start of this session's range."""
        self.pause()
        self.seek(self.start)

    def require(self) -> Simulation:
        if self.sim is None:
            raise NotLoaded("no scenario loaded: send 'load' first")
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


def parse_speed(value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not MIN_SPEED <= value <= MAX_SPEED:
        raise Invalid(f"speed must be a number of steps per second in {MIN_SPEED}..{MAX_SPEED}, got {shown(value)}")
    return float(value)


def parse_range(value, total: int) -> tuple[int, int] | None:
    """``[from, to]`` with 0 <= from <= to <= total, or None for the whole scenario."""
    if value is None:
        return None
    ok = isinstance(value, list) and len(value) == 2 and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value)
    if not ok or not 0 <= value[0] <= value[1] <= total:
        raise Invalid(f"range must be [from, to] with 0 <= from <= to <= {total}, got {shown(value)}")
    return value[0], value[1]
