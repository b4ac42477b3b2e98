"""Fuzzing the Socket.IO protocol (hypothesis, stateful): random event names and JSON-like payloads, mutated
scenarios and room messages, interleaved with valid messages, against a shadow model of what each session shows.

After every message: the server raised nothing (the test client re-raises a handler's exception); a rejected
message got exactly one ``error`` and changed nothing (a ``pause`` probe reads the position back); an accepted
one moved the session where the model says. At the end no autoplay task is left running.
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass, replace

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from tests.profiles import examples
from tests.web.viewer import Viewer
from webapp import create_app
from webapp.engine.rooms import CODE_PATTERN, MIN_TOKEN_LENGTH
from webapp.engine.session import MAX_SPEED, MIN_SPEED
from webapp.model.variant import VARIANTS
from webapp.scenario import builtin
from webapp.scenario.scenario import from_valid_dict
from webapp.server.offences import MALFORMED_PER_CONNECTION

HANDLED = ("load", "step", "back", "seek", "play", "pause", "reset", "echo", "create_room", "join_room",
           "leave_room", "claim_room")
DRIVE = ("load", "step", "back", "seek", "play", "pause", "reset")
NEEDS_PAYLOAD = ("load", "seek")
ROOM = {"room", "token"}
# event -> the fields its payload may hold: a payload with any other field is refused, whatever else it holds
FIELDS = {"load": {"scenario", "variants", "position", "range", *ROOM}, "seek": {"position", *ROOM},
          "play": {"speed", *ROOM}, **{event: ROOM for event in ("step", "back", "reset", "pause", "join_room",
                                                                 "claim_room")}}
IDS = builtin.ids()
TOTALS = {i: len(builtin.get(i)["steps"]) for i in IDS}
# loads stay quick, on the variants the rules draw (the lessons on gates, pod groups and PopSpecificPod are
# refused by 1.28: tests/web/test_sockets.py loads them on their own versions)
SMALL = [i for i in IDS if TOTALS[i] <= 16 and not from_valid_dict(builtin.get(i)).refused("v1.28.1")]
STEPS = 40  # messages per run
RUNS = 10  # runs (hypothesis examples) in make test (tests/profiles.py): a few seconds


# --- strategies -----------------------------------------------------------------------------------------------
# NaN and Infinity are not JSON: the boundary refuses any message that holds one (the rule not_json).
numbers = (st.integers(-3, 40) | st.integers() | st.sampled_from([2**31, 2**63, -2**63, 10**30])
           | st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([0.0, 0.25, 1.5, 20.0, 20.5, -0.0]))
scalars = (st.none() | st.booleans() | numbers | st.text(max_size=12)
           | st.sampled_from(["", "ä€𝄞\u0000", "\ud7ff"]))
json_like = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                         | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20)
keys = st.sampled_from(["scenario", "variants", "position", "range", "speed", "room", "token"]) | st.text(max_size=6)
values_for_keys = st.one_of(json_like, st.sampled_from(IDS), st.just(list(VARIANTS)), st.just(["v1.28.2"]),
                            st.just(["v1.28.1", "v1.28.1"]),
                            st.lists(st.integers(-2, 30), min_size=2, max_size=2))
payload_dicts = st.dictionaries(keys, values_for_keys, max_size=4)
payloads = json_like | payload_dicts
event_names = st.sampled_from(HANDLED) | st.sampled_from(["connect", "disconnect", "message", "*", "", "Load"]) \
    | st.text(max_size=10)


def label(value: str) -> None:
    """Counts ``value`` in hypothesis's statistics, in a run it drives (not in a replayed one)."""
    if currently_in_test_context():
        event(value)


def mutate(raw, data) -> dict:
    """A built-in scenario object with a few random changes: a value replaced, a key dropped or added, a list
    element duplicated or removed."""
    raw = copy.deepcopy(raw)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        paths, stack = [], [((), raw)]
        while stack:
            path, node = stack.pop()
            paths.append(path)
            items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
            stack.extend((path + (k,), v) for k, v in items)
        path = data.draw(st.sampled_from(paths), label="path")
        parent = raw
        for part in path[:-1]:
            parent = parent[part]
        kind = data.draw(st.sampled_from(["replace", "drop", "add", "duplicate"]), label="kind")
        if not path:
            continue
        last = path[-1]
        if kind == "replace":
            parent[last] = data.draw(json_like, label="value")
        elif kind == "drop":
            del parent[last]
        elif kind == "add" and isinstance(parent[last], dict):
            parent[last][data.draw(st.text(max_size=8), label="key")] = data.draw(json_like, label="value")
        elif kind == "duplicate" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
    return raw


# --- the shadow model ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class View:
    loaded: bool = False
    total: int = 0
    lo: int = 0
    hi: int = 0
    position: int = 0


@dataclass
class RoomModel:
    code: str
    token: str
    view: View
    joined: bool = True
    presenting: bool = True  # among the room's presenters: created, claimed or drove it, and has not left it
    loads: int = 0  # accepted loads: each is a new load id


def is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def valid_speed(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and not math.isnan(x) and MIN_SPEED <= x <= MAX_SPEED


def unknown_fields(event: str, payload) -> bool:
    return event in FIELDS and isinstance(payload, dict) and not set(payload) <= FIELDS[event]


ERROR, UNKNOWN = "error", "unknown"  # predictions besides a View: rejected; accepted or rejected (can't tell)


def predict_drive(event: str, payload: dict, view: View, speed: float):
    """What a drive message does to the target's view: a View, ERROR, or UNKNOWN (a scenario object)."""
    if event == "load":
        variants = payload.get("variants", list(VARIANTS))
        if not isinstance(variants, list) or not variants or any(v not in VARIANTS for v in variants):
            return ERROR
        scenario = payload.get("scenario")
        if isinstance(scenario, dict):
            return UNKNOWN
        if not isinstance(scenario, str) or scenario not in TOTALS:
            return ERROR
        total, rng, position = TOTALS[scenario], payload.get("range"), payload.get("position")
        if rng is None:
            lo, hi = 0, total
        elif isinstance(rng, list) and len(rng) == 2 and all(map(is_int, rng)) and 0 <= rng[0] <= rng[1] <= total:
            lo, hi = rng
        else:
            return ERROR
        if position is None:
            position = lo
        if not is_int(position) or not lo <= position <= hi:
            return ERROR
        return View(True, total, lo, hi, position)
    if event == "play" and not valid_speed(payload.get("speed", speed)):
        return ERROR
    if not view.loaded:
        return ERROR
    if event == "step":
        return replace(view, position=min(view.position + 1, view.hi))
    if event == "back":
        return replace(view, position=max(view.position - 1, view.lo))
    if event == "seek":
        p = payload.get("position")
        return replace(view, position=p) if is_int(p) and view.lo <= p <= view.hi else ERROR
    if event == "reset":
        return replace(view, position=view.lo)
    return view  # pause; play is followed by a pause at once (see _drive)


def machine_for(app):
    """The state machine over ``app``'s Socket.IO server."""
    socketio = app.extensions["socketio"]

    class SocketMachine(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.client = Viewer(socketio.test_client(app))  # deltas come out as the states they make
            assert self.client.is_connected()
            self.own = View()
            self.speed = {None: 1.0}  # the session's speed (room code or None): play without a speed uses it
            self.rooms: dict[str, RoomModel] = {}
            self.held = None  # (room, its loads, as follower): the scenario last sent on a join or a claim
            self.offences = 0  # events the JSON boundary refused: the connection is closed at the one past the bound

        def teardown(self):
            if self.client.is_connected():
                self.client.disconnect()

        # --- sending ---------------------------------------------------------------------------------------
        def send(self, event, *args, ack=False):
            result = self.client.emit(event, *args, callback=ack)
            received = [(m["name"], m["args"][0] if m["args"] else None) for m in self.client.get_received()]
            return (result, received) if ack else received

        def view_of(self, code):
            return self.own if code is None else self.rooms[code].view

        def set_view(self, code, view):
            if code is None:
                self.own = view
            else:
                self.rooms[code].view = view

        def target(self, payload: dict):
            """(room code or None, ERROR when the room part is refused)."""
            if "room" not in payload:
                return None, None
            code, token = payload["room"], payload.get("token")
            room = self.rooms.get(code.upper()) if isinstance(code, str) else None
            if room is None or not isinstance(token, str) or token != room.token:
                return None, ERROR
            return room.code, None

        # --- checking one drive message ----------------------------------------------------------------------
        def drive(self, event, *args):
            payload = args[0] if args else None
            received = self.send(event, *args)
            errors = [m for name, m in received if name == "error"]
            others = [(name, m) for name, m in received if name != "error"]
            if len(args) > 1 or (payload is not None and not isinstance(payload, dict)) or \
                    (payload is None and event in NEEDS_PAYLOAD):
                return self.rejected(event, received)
            payload = payload or {}
            code, refused = self.target(payload)
            if refused or unknown_fields(event, payload):
                return self.rejected(event, received)
            if code is not None:
                self.rooms[code].presenting = True  # Hub.target: whoever drives a room presents it
            expected = predict_drive(event, payload, self.view_of(code), self.speed.get(code, 1.0))
            if expected == ERROR:
                return self.rejected(event, received)
            if expected == UNKNOWN and errors:
                return self.rejected(event, received)
            assert not errors, (event, payload, errors)
            label(f"{event}: accepted" + (" (scenario object)" if expected == UNKNOWN else ""))
            assert code is None or self.rooms[code].joined  # drive_room follows a room before driving it
            states = [m for name, m in others if name == "state"]
            assert states and all(m["room"] == code for m in states), (event, payload, received)
            if event == "load":
                assert [name for name, _ in others] == ["scenario", "state"], received
                if code is None:
                    self.held = None  # its own load: it holds no room's scenario any more
                else:
                    self.rooms[code].loads += 1
                scenario = others[0][1]
                lo, hi = states[-1]["range"]
                expected = expected if expected != UNKNOWN else View(True, scenario["total"], lo, hi,
                                                                     states[-1]["position"])
                assert (scenario["total"], lo, hi) == (expected.total, expected.lo, expected.hi)
            if event == "play":
                self.speed[code] = float(payload.get("speed", self.speed.get(code, 1.0)))
                assert states[0]["playing"] == (expected.position < expected.hi)
                assert states[0]["position"] == expected.position
                self.set_view(code, self.stop_playing(code, expected))
                return None
            assert [name for name, _ in others] in (["state"], ["scenario", "state"]), received
            assert states[-1]["position"] == expected.position, (event, payload, states[-1]["position"], expected)
            assert states[-1]["total"] == expected.total and not states[-1]["playing"]
            self.set_view(code, expected)
            return None

        def stop_playing(self, code, view: View) -> View:
            """Pause right after play: autoplay may have stepped (forward only, within the range) meanwhile."""
            pause = {} if code is None else {"room": code, "token": self.rooms[code].token}
            received = self.send("pause", pause)
            states = [m for name, m in received if name == "state"]
            assert states and [name for name, _ in received if name != "state"] == [], received
            position = states[-1]["position"]
            assert view.position <= position <= view.hi and not states[-1]["playing"]
            return replace(view, position=position)

        def rejected(self, event, received):
            label(f"{event if event in HANDLED else 'other'}: rejected")
            assert [name for name, _ in received] == ["error"], (event, received)
            assert isinstance(received[0][1]["message"], str) and received[0][1]["message"]

        # --- rules: valid messages ---------------------------------------------------------------------------
        @initialize(scenario=st.none() | st.sampled_from(SMALL))
        def start(self, scenario):
            if scenario is not None:  # else the session starts (and may stay) with nothing loaded
                self.drive("load", {"scenario": scenario})

        @rule(scenario=st.sampled_from(SMALL), position=st.integers(0, 16), variants=st.sampled_from(
            [list(VARIANTS), ["v1.28.1"], ["v1.28.2"]]), ranged=st.booleans())
        def load_builtin(self, scenario, position, variants, ranged):
            payload = {"scenario": scenario, "variants": variants, "position": min(position, TOTALS[scenario])}
            if ranged:
                payload["range"] = [0, TOTALS[scenario]]
            self.drive("load", payload)

        @rule(event=st.sampled_from(["step", "back", "reset", "pause"]), bare=st.booleans())
        def move(self, event, bare):
            if bare:
                self.drive(event)
            else:
                self.drive(event, {})

        @rule(position=st.integers(-2, 32))
        def seek(self, position):
            self.drive("seek", {"position": position})

        @rule(speed=st.sampled_from([0.25, 1, 4, 20, 20.0001, 0, -1]))
        def play(self, speed):
            self.drive("play", {"speed": speed})

        @rule(data=st.data(), scenario=st.sampled_from(SMALL))
        def load_mutated(self, data, scenario):
            payload = {"scenario": mutate(builtin.get(scenario), data)}
            self.drive("load", payload)

        @precondition(lambda self: self.offences < MALFORMED_PER_CONNECTION)
        @rule(event=event_names, payload=json_like, bad=st.sampled_from([math.nan, math.inf, -math.inf]))
        def not_json(self, event, payload, bad):
            """A message holding NaN or Infinity anywhere is refused before any handler: one error (an offence: the
            one past MALFORMED_PER_CONNECTION closes the connection, which tests/web/test_parse_apart.py checks)."""
            self.offences += 1
            received = self.send(event, [payload, {"x": [bad]}])
            assert [name for name, _ in received] == ["error"], received
            assert received[0][1]["kind"] == "Invalid" and "is not a JSON value" in received[0][1]["message"]
            label("not JSON: rejected")

        @rule(payload=json_like)
        def echo(self, payload):
            received = self.send("echo", payload)
            assert [name for name, _ in received] == ["echo"]
            assert json.dumps(received[0][1], sort_keys=True) == json.dumps(payload, sort_keys=True)

        @precondition(lambda self: len(self.rooms) < 4)
        @rule(payload=st.none() | json_like)
        def create_room(self, payload):
            ack, received = self.send("create_room", *([] if payload is None else [payload]), ack=True)
            assert received == [] and CODE_PATTERN.fullmatch(ack["room"]) and len(ack["token"]) >= MIN_TOKEN_LENGTH
            assert ack["room"] not in self.rooms
            self.rooms[ack["room"]] = RoomModel(ack["room"], ack["token"], View())
            self.speed[ack["room"]] = 1.0

        @precondition(lambda self: self.rooms)
        @rule(data=st.data(), event=st.sampled_from(DRIVE), with_token=st.booleans())
        def drive_room(self, data, event, with_token):
            room = self.rooms[data.draw(st.sampled_from(sorted(self.rooms)), label="room")]
            if not room.joined:
                self.join(room, leave_first=False)
            payload = {"room": room.code.lower(), "token": room.token if with_token else room.token[:-1] + "?"}
            if event == "load":
                payload.update(scenario=data.draw(st.sampled_from(SMALL), label="scenario"))
            elif event == "seek":
                payload["position"] = data.draw(st.integers(-1, 17), label="position")
            elif event == "play":
                payload["speed"] = data.draw(st.sampled_from([1, 20, 50]), label="speed")
            self.drive(event, payload)

        @precondition(lambda self: self.rooms)
        @rule(data=st.data(), leave_first=st.booleans())
        def join_room(self, data, leave_first):
            self.join(self.rooms[data.draw(st.sampled_from(sorted(self.rooms)), label="room")], leave_first)

        def join(self, room: RoomModel, leave_first: bool) -> None:
            if leave_first:
                assert self.send("leave_room", {"room": room.code}) == []
                room.joined = room.presenting = False
            received = self.send("join_room", {"room": room.code})
            room.joined = True
            self.entered(room, received)

        @precondition(lambda self: self.rooms)
        @rule(data=st.data(), right=st.booleans())
        def claim_room(self, data, right):
            self.claim(self.rooms[data.draw(st.sampled_from(sorted(self.rooms)), label="room")], right)

        def claim(self, room: RoomModel, right: bool) -> None:
            token = room.token if right else room.token[::-1]
            ack, received = self.send("claim_room", {"room": room.code, "token": token}, ack=True)
            if token != room.token:
                assert "error" in ack and [name for name, _ in received] == ["error"]
                return
            room.joined = room.presenting = True
            assert ack == {"room": room.code, "loaded": room.view.loaded}
            self.entered(room, received)

        def entered(self, room: RoomModel, received) -> None:
            """What a join or a claim is sent (Hub.whole_state): nothing before the room's first load; else the
            room's scenario, unless the last one this connection was sent on a join or a claim was of the same
            room, load and role (presenter or follower); then the room's state."""
            if not room.view.loaded:
                assert received == []
                return
            held = (room.code, room.loads, not room.presenting)
            assert [name for name, _ in received] == (["state"] if self.held == held else ["scenario", "state"])
            self.held = held
            assert received[-1][1]["position"] == room.view.position and received[-1][1]["room"] == room.code

        # --- rules: anything ---------------------------------------------------------------------------------
        @rule(event=event_names, args=st.lists(payloads, max_size=3))
        def anything(self, event, args):
            if event in DRIVE:
                return self.drive(event, *args)
            received = self.send(event, *args)
            names = [name for name, _ in received]
            if event in ("connect", "disconnect") or len(args) > 1:
                return self.rejected(event, received)
            payload = args[0] if args else None
            if unknown_fields(event, payload):
                return self.rejected(event, received)
            if event == "echo":
                assert names == ["echo"]
            elif event == "leave_room":
                assert names == []
                if isinstance(payload, dict) and isinstance(payload.get("room"), str) and \
                        payload["room"].upper() in self.rooms:
                    left = self.rooms[payload["room"].upper()]
                    left.joined = left.presenting = False
            elif event == "join_room":
                code = payload.get("room") if isinstance(payload, dict) else None
                room = self.rooms.get(code.upper()) if isinstance(code, str) else None
                if room is None:
                    return self.rejected(event, received)
                room.joined = True
                self.entered(room, received)
            elif event == "create_room":
                assert names == []  # no acknowledgement asked for: a room the model never drives (no token)
            elif event == "claim_room":
                assert names == ["error"]  # random payloads never carry a 32-character token
            else:
                self.rejected(event, received)
                assert received[0][1]["event"] == event[:60]

        # --- the invariant: a probe reads the position back ---------------------------------------------------
        @invariant()
        def position_is_what_the_model_says(self):
            received = self.send("pause", {})
            if not self.own.loaded:
                assert [name for name, _ in received] == ["error"]
                return
            assert [name for name, _ in received] == ["state"], received
            state = received[0][1]
            assert (state["position"], state["total"], state["room"]) == (self.own.position, self.own.total, None)
            assert state["range"] == [self.own.lo, self.own.hi] and not state["playing"]

    return SocketMachine


def run_fuzz(app):
    run_state_machine_as_test(machine_for(app), settings=settings(
        max_examples=examples(RUNS), stateful_step_count=STEPS, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]))


@pytest.fixture
def fuzz_app():
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True, "RATE_LIMIT_PER_SECOND": 0,
                      "MAX_ROOMS_PER_CONNECTION": 10_000})
    socketio = app.extensions["socketio"]
    threads = []
    start = socketio.start_background_task

    def recording(target, *args, **kwargs):
        thread = start(target, *args, **kwargs)
        threads.append(thread)
        return thread

    socketio.start_background_task = recording
    yield app, threads
    # no autoplay outlives the test: pause every session (connections' and rooms'), stop the sweeper, wait
    for session in list(app.extensions["inflight_sessions"].values()):
        session.pause()
    rooms = app.extensions["inflight_rooms"]
    for code in rooms.local_codes():
        rooms.find(code).session.pause()
    app.extensions["inflight_guard"].sweeper.stop()
    for thread in threads:
        thread.join(timeout=1 / MIN_SPEED + 30)  # a tick's sleep, and a bound against a hang only
    assert not [t for t in threads if t.is_alive()], "a background task outlived the test"


def test_fuzz_socket_protocol(fuzz_app):
    app, threads = fuzz_app
    run_fuzz(app)
    assert threads, "autoplay and the sweeper never ran: the fuzz did not reach them"


def test_a_presenter_who_claimed_a_room_and_joins_it_is_not_sent_its_scenario_again(fuzz_app):
    """A run the fuzz found (the model had expected the scenario again): create a room, load it, claim it (its
    scenario and state), join it as its presenter still (the state only: the connection holds that scenario)."""
    app, _ = fuzz_app
    state = machine_for(app)()
    try:
        state.start(scenario=None)
        state.create_room(payload=None)
        room = next(iter(state.rooms.values()))
        state.drive("load", {"room": room.code, "token": room.token, "scenario": SMALL[0]})
        state.claim(room, right=True)
        assert state.held is not None
        state.join(room, leave_first=False)
        state.join(room, leave_first=True)  # as a follower now: its scenario as followers see it
        state.claim(room, right=True)  # a presenter again
        state.position_is_what_the_model_says()
    finally:
        state.teardown()
