"""Socket.IO protocol through Flask-SocketIO's test client (threading mode: autoplay runs in real threads).

Client -> server: load {scenario, variants}, step, back, seek {position}, play {speed}, pause, reset.
Server -> client: scenario (on load), state (after every change), error {message}.
"""

import time
from pathlib import Path

import pytest

from tests.conftest import conformance_cases
from tests.web.conftest import ended
from tests.web.viewer import unnumbered
from webapp.delivery.cache import view_of
from webapp.model.variant import VARIANTS
from webapp.scenario import builtin
from webapp.web.snapshots import snapshot_of
from webapp.web.sockets import DRIVE, PAYLOADS, Viewers

CASES = conformance_cases()
LOST = builtin.get("lost-marker")
TOTAL = len(LOST["steps"])
VARIANT_KEYS = {"state", "result", "record", "source"}


# --- helpers -----------------------------------------------------------------------------------------
def messages(c):
    return [(m["name"], m["args"][0] if m["args"] else None) for m in c.get_received()]


def one(c, name):
    got = messages(c)
    assert [n for n, _ in got] == [name], got
    return got[0][1]


def load(c, scenario="lost-marker", **extra):
    c.emit("load", {"scenario": scenario, **extra})
    got = messages(c)
    assert [n for n, _ in got] == ["scenario", "state"], got
    return got[0][1], got[1][1]


def probe(c):
    """The session's current state without moving it: 'pause' answers with a state and changes nothing else
    (as long as nothing is playing)."""
    c.emit("pause")
    return one(c, "state")


def play(c, payload=None):
    """Emit ``play``; its reply and any tick that came before this looked (a loaded machine can pause the test
    for longer than a tick), all states."""
    c.emit("play", *([payload] if payload is not None else []))
    got = messages(c)
    assert got and all(name == "state" for name, _ in got), got
    return [state for _, state in got]


def wait_states(c, until, timeout=30.0, seen=()):
    """Collect state messages (after ``seen``, those already received) until ``until(state)`` holds for one of
    them; fail after ``timeout`` seconds."""
    seen = list(seen)
    for i, state in enumerate(seen):
        if until(state):
            return seen[:i + 1]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for name, payload in messages(c):
            assert name == "state", (name, payload)
            seen.append(payload)
            if until(payload):
                return seen
        time.sleep(0.01)
    pytest.fail(f"condition not reached within {timeout} s;"
                f" states seen: {[(s['position'], s['playing']) for s in seen]}")


def where(state_payload, variant, pod):
    st = state_payload["variants"][variant]["state"]
    return [q for q in ("activeQ", "backoffQ", "unschedulablePods") if pod in st[q]]


# --- load ----------------------------------------------------------------------------------------------
def test_nothing_is_sent_before_load(sio):
    assert sio.get_received() == []


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_load_builtin_sends_scenario_then_state_at_zero(sio, scenario_id):
    scenario, state = load(sio, scenario_id)
    raw = builtin.get(scenario_id)
    assert scenario["id"] == scenario_id
    assert scenario["name"] == raw["name"]
    assert scenario["variants"] == list(raw.get("versions", VARIANTS))  # a version lesson opens on its pair
    assert scenario["total"] == len(raw["steps"])
    assert [s["label"].split()[0] for s in scenario["steps"]] == [s["op"] for s in raw["steps"]]
    assert [s.get("note", "") for s in scenario["steps"]] == [s.get("note", "") for s in raw["steps"]]
    assert state["position"] == 0
    assert state["total"] == scenario["total"]
    scene = state["scene"]
    assert scene["divergence"] == scenario["divergence"]
    assert scene["divergence"] is None or 1 <= scene["divergence"] <= state["total"]
    assert state["playing"] is False
    assert scene["step"] is None
    assert scene["next"]["op"] == raw["steps"][0]["op"]
    assert set(state["variants"]) == set(raw.get("versions", VARIANTS)) == set(scene["panes"])
    for variant, payload in state["variants"].items():
        assert set(payload) == VARIANT_KEYS, (variant, sorted(payload))
        assert payload["result"] is None and payload["record"] is None
        pane = scene["panes"][variant]
        assert {"title", "lines", "functions"} <= set(pane["narration"])
        assert pane["invariants"]["ok"] and not pane["invariants"]["broken"]


def test_lost_marker_summary(sio):
    scenario, state = load(sio)
    assert scenario["total"] == TOTAL == 6
    assert scenario["divergence"] == 6
    assert [s["kind"] for s in scenario["steps"]] == ["pop", "event", "pop", "event", "done", "fail"]
    assert scenario["pods"] == ["A", "B"]
    assert where(state, "v1.28.1", "A") == where(state, "v1.28.2", "A") == ["activeQ"]


@pytest.mark.parametrize("variants", [["v1.28.1"], ["v1.28.2"], ["v1.28.2", "v1.28.1"]])
def test_load_a_subset_or_order_of_variants(sio, variants):
    scenario, state = load(sio, variants=variants)
    assert scenario["variants"] == variants
    assert list(state["variants"]) == variants
    assert scenario["divergence"] == (6 if len(variants) == 2 else None)


def test_load_again_replaces_the_scenario(sio):
    load(sio)
    sio.emit("seek", {"position": 4})
    one(sio, "state")
    scenario, state = load(sio, "gate-off")
    assert scenario["id"] == "gate-off"
    assert state["position"] == 0
    assert state["total"] == len(builtin.get("gate-off")["steps"])


# --- moving the cursor -------------------------------------------------------------------------------------
def test_step_back_seek_reset(sio):
    load(sio)
    for position in range(1, TOTAL + 1):
        sio.emit("step")
        state = one(sio, "state")
        assert state["position"] == position
        assert state["scene"]["step"]["index"] == position - 1
        assert state["scene"]["step"]["op"] == LOST["steps"][position - 1]["op"]
    assert state["scene"]["next"] is None
    sio.emit("step")  # at the end: stays there, still answers
    assert one(sio, "state")["position"] == TOTAL
    sio.emit("back")
    assert one(sio, "state")["position"] == TOTAL - 1
    sio.emit("seek", {"position": 2})
    assert one(sio, "state")["position"] == 2
    sio.emit("seek", {"position": 0})
    assert one(sio, "state")["position"] == 0
    sio.emit("back")  # at the start: stays there
    assert one(sio, "state")["position"] == 0
    sio.emit("seek", {"position": TOTAL})
    assert one(sio, "state")["position"] == TOTAL
    sio.emit("reset")
    state = one(sio, "state")
    assert (state["position"], state["playing"]) == (0, False)


def test_the_same_position_gives_the_same_state_however_reached(sio):
    """Stepping and going back travel as deltas, seeking as whole states: the client holds the same."""
    _, start = load(sio)
    stepped = {0: unnumbered(start)}
    for position in range(1, TOTAL + 1):
        sio.emit("step")
        stepped[position] = unnumbered(one(sio, "state"))
    for position in range(TOTAL - 1, -1, -1):
        sio.emit("back")
        assert unnumbered(one(sio, "state")) == stepped[position], f"back to {position}"
    for position in (5, 2, 6, 0, 3):
        sio.emit("seek", {"position": position})
        assert unnumbered(one(sio, "state")) == stepped[position], f"seek {position}"
    sio.emit("reset")
    assert unnumbered(one(sio, "state")) == stepped[0]
    assert len(sio.deltas) == 2 * TOTAL


def test_viewers_of_a_built_in_share_its_states_and_see_what_its_own_copy_shows(app, make_sio):
    """A built-in's states and deltas are made for the first two viewers and kept for every later one
    (delivery/cache.py); a viewer stepping the same scenario loaded as its own document (apart, under its own
    load, asked for once: not kept) holds the same states."""
    first, second, own = make_sio(), make_sio(), make_sio()
    load(first)
    load(second)
    load(own, LOST)
    hub = app.extensions["inflight_hub"]
    seen = []
    for position in range(1, TOTAL + 1):
        for c in (first, second, own):
            c.emit("step")
        states = [unnumbered(one(c, "state")) for c in (first, second, own)]
        assert states[0] == states[1] == states[2] and states[0]["position"] == position
        seen.append(states[0])
    assert len(hub.cache) == 2 * TOTAL + 1  # each position's state and each step's delta of the built-in, once
    third = make_sio()
    load(third)
    built = lambda: sum(s.sim.frames_built for s in hub.sessions.values() if s.sim)  # noqa: E731
    before = built()
    for position in range(1, TOTAL + 1):
        third.emit("step")
        assert unnumbered(one(third, "state")) == seen[position - 1]
    assert built() == before  # a later viewer is served what was kept: no frame is built for it


def test_a_viewers_next_step_is_made_while_it_looks_at_this_one(app, make_sio):
    """A scenario of the viewer's own, on its first way through (nothing kept): each step's frame was built
    before the step was asked for, once, and what the step sends is what a viewer of the built-in is sent."""
    own, builtin_viewer = make_sio(), make_sio()
    load(own, LOST)
    load(builtin_viewer)
    hub = app.extensions["inflight_hub"]
    session = next(s for s in hub.sessions.values() if s.scenario_id is None and s.sim)
    shared = next(s for s in hub.sessions.values() if s.scenario_id is not None and s.sim)
    assert session.sim.frames_built == 2  # position 0, and position 1 ahead
    for position in range(1, TOTAL + 1):
        own.emit("step")
        builtin_viewer.emit("step")
        assert unnumbered(one(own, "state")) == unnumbered(one(builtin_viewer, "state"))
        assert session.sim.frames_built == min(position + 2, TOTAL + 1)  # one per position: the next one built
        assert shared.sim.frames_built == position + 1  # a built-in's are kept for everyone: none made ahead


def test_nothing_is_made_ahead_for_a_scenario_larger_than_a_built_in(app, sio):
    steps = [{"op": "pop", "expect": "A"}] + [{"op": "event", "event": "NodeAdd"}] * 199
    load(sio, {"schema": 1, "name": "200 entries", "pods": [{"name": "A"}], "initial_active": ["A"], "steps": steps})
    session = next(iter(app.extensions["inflight_hub"].sessions.values()))
    for position in (1, 2):
        sio.emit("step")
        assert one(sio, "state")["position"] == position
        # none for the next
        assert view_of(snapshot_of(session, None)) is None and session.sim.frames_built == position + 1


def test_what_was_made_ahead_for_a_connection_goes_with_it(app, make_sio):
    own = make_sio()
    load(own, LOST)
    hub = app.extensions["inflight_hub"]
    [(sid, session)] = [(sid, s) for sid, s in hub.sessions.items() if s.sim]
    here, next_step = view_of(snapshot_of(session, None)), view_of(snapshot_of(session, None), 1)
    assert hub.cache.holds(sid, here, next_step) and len(hub.cache) == 0  # made while the viewer looks at 0
    own.disconnect()
    assert sid not in hub.sent and not hub.cache.holds(sid, here, next_step)


def test_what_was_made_ahead_is_not_sent_once_the_viewer_shows_something_else(sio):
    load(sio, LOST)
    for position in (1, 2):  # at 2, with the step to 3 made ahead
        sio.emit("step")
        assert one(sio, "state")["position"] == position
    sio.emit("back")
    went_back = one(sio, "state")
    sio.emit("seek", {"position": 1})
    assert unnumbered(one(sio, "state")) == unnumbered(went_back)
    load(sio, builtin.get("in-flight-basics"))  # another load: nothing made for lost-marker is sent for it
    sio.emit("step")
    stepped = one(sio, "state")
    sio.emit("seek", {"position": 1})
    assert unnumbered(stepped) == unnumbered(one(sio, "state")) and stepped["scene"]["caption"].startswith("1. pop")


def test_steps_travel_as_deltas_and_seeks_as_whole_states(sio):
    load(sio)
    seqs = []
    for event, payload in (("step", None), ("step", None), ("back", None), ("seek", {"position": 4}),
                           ("step", None), ("reset", None)):
        sio.emit(event, payload)
        (name, message), = [(m["name"], m["args"][0]) for m in sio.client.get_received()]
        assert name == ("state" if event in ("seek", "reset") else "delta"), (event, name)
        seqs.append(message["seq"])
    assert seqs == list(range(2, 8))  # the load's state was 1


def test_a_client_that_lost_its_place_asks_for_the_whole_state(sio):
    _, start = load(sio)
    sio.emit("step")
    sio.client.get_received()  # this delta is lost: the client still holds position 0
    sio.emit("sync")
    state = one(sio, "state")
    assert (state["position"], state["seq"]) == (1, 2)
    sio.emit("step")
    assert one(sio, "state")["position"] == 2  # the next delta follows the state sync sent


def test_lost_marker_story(sio):
    load(sio)
    sio.emit("seek", {"position": 4})
    at4 = one(sio, "state")["scene"]["panes"]["v1.28.1"]["list"]["items"]
    assert [(i["key"], m["detached"]) for i in at4 for m in i.get("markers", []) if m["pod"] == "B"] == [("e1", False)]
    sio.emit("step")
    at5 = one(sio, "state")["scene"]["panes"]["v1.28.1"]["list"]["items"]
    # Done(A) removed e1 in this very step: it stays drawn as a ghost entry, B's detached marker under it
    assert [(i["key"], i.get("ghost"), m["detached"])
            for i in at5 for m in i.get("markers", []) if m["pod"] == "B"] == [
        ("e1", True, True)]
    assert [(i["id"], i.get("ghost"), i.get("unseen")) for i in at5 if i["kind"] == "event"] == [
        ("e1", True, None), ("e2", None, "unseen by B")]
    sio.emit("step")
    at6 = one(sio, "state")
    # the decisive frame keeps what the walk saw although the deferred Done(B) emptied both lists
    bug, fix = (at6["scene"]["panes"][v] for v in ("v1.28.1", "v1.28.2"))
    assert [(p["pod"], p["target"], p["decided"]) for p in bug["pointers"]] == [("B", "detached", True)]
    assert [(i["key"], i.get("ghost"), i.get("walked"), i.get("unseen")) for i in bug["list"]["items"]] == [
        ("ghost:e1", None, None, None), ("e2", True, None, "unseen by B")]
    # reach: [first, last]
    assert [(p["pod"], p["target"], p["reach"]) for p in fix["pointers"]] == [("B", "B@2", ["e2", "e2"])]
    assert [(i["key"], i.get("ghost"), i.get("walked")) for i in fix["list"]["items"]] == [("B@2", True, None),
                                                                                  ("e2", True, True)]
    assert where(at6, "v1.28.1", "B") == ["unschedulablePods"]
    assert where(at6, "v1.28.2", "B") == ["backoffQ"]
    assert at6["scene"]["divergence"] == at6["position"] == 6
    for variant in VARIANTS:
        functions = at6["scene"]["panes"][variant]["narration"]["functions"]
        assert "AddUnschedulableIfNotPresent" in functions
        assert "determineSchedulingHintForInFlightPod" in functions
    assert at6["variants"]["v1.28.1"]["record"]["hint"]["decision"] == "QueueSkip"
    assert at6["variants"]["v1.28.2"]["record"]["hint"]["decision"] == "QueueAfterBackoff"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_inline_conformance_scenario_states(sio, case):
    variants = sorted(case["expected"])
    scenario, state = load(sio, case["scenario"], variants=variants)
    assert scenario["id"] is None  # an inline object, not a built-in
    assert state["total"] == len(case["scenario"]["steps"])
    for i in range(len(case["scenario"]["steps"])):
        sio.emit("step")
        state = one(sio, "state")
        assert state["position"] == i + 1
        for variant in variants:
            want = case["expected"][variant]["steps"][i]
            got = state["variants"][variant]
            assert got["result"] == want["result"], f"{variant} step {i} result"
            assert got["state"] == want["state"], f"{variant} step {i} state"
    for variant in variants:
        assert state["variants"][variant]["state"] == case["expected"][variant]["final"]


# --- errors: answered with `error`, nothing changes ----------------------------------------------------------
NOT_LOADED = [("step", None), ("back", None), ("reset", None), ("pause", None), ("play", {"speed": 2}),
              ("seek", {"position": 0})]


@pytest.mark.parametrize("event,payload", NOT_LOADED, ids=[e for e, _ in NOT_LOADED])
def test_message_before_load_is_an_error(sio, event, payload):
    sio.emit(event, payload) if payload is not None else sio.emit(event)
    error = one(sio, "error")
    assert "load" in error["message"]
    assert error["event"] == event
    if event not in ("load", "seek"):
        assert error["kind"] == "NotLoaded"  # what the page reacts to by loading again
    sio.emit("step")  # still nothing loaded
    assert "load" in one(sio, "error")["message"]


BAD_SCENARIO = {"schema": 1, "name": "broken", "pods": [{"name": "A"}], "initial_active": ["A"],
                "steps": [{"op": "pop", "expect": "A"}, {"op": "fly", "pod": "A"}]}
REJECTED = [
    # (event, payload, words the message must contain)
    ("seek", {"position": -1}, ["0..6"]),
    ("seek", {"position": TOTAL + 1}, ["0..6"]),
    ("seek", {"position": 10**9}, ["0..6"]),
    ("seek", {"position": "2"}, ["integer"]),
    ("seek", {"position": 2.0}, ["integer"]),
    ("seek", {"position": True}, ["integer"]),
    ("seek", {"position": None}, ["integer"]),
    ("seek", {}, ["integer"]),
    ("seek", 2, ["object"]),
    ("seek", [2], ["object"]),
    ("seek", "2", ["object"]),
    ("load", "lost-marker", ["object"]),
    ("load", ["lost-marker"], ["object"]),
    ("load", 7, ["object"]),
    ("load", {"scenario": "no-such-scenario"}, ["no-such-scenario", "lost-marker"]),
    ("load", {"scenario": None}, ["scenario"]),
    ("load", {}, ["scenario"]),
    ("load", {"scenario": 12}, ["scenario"]),
    ("load", {"scenario": {"schema": 1}}, ["name", "steps"]),
    ("load", {"scenario": BAD_SCENARIO}, ["step 1", "steps[1]"]),
    ("load", {"scenario": "gate-off", "variants": []}, ["variants"]),
    ("load", {"scenario": "gate-off", "variants": ["v1.28.3"]}, ["variants"]),
    ("load", {"scenario": "gate-off", "variants": "v1.28.1"}, ["variants"]),
    ("load", {"scenario": "gate-off", "variants": ["v1.28.1", None]}, ["variants"]),
    ("play", {"speed": 0}, ["speed"]),
    ("play", {"speed": 0.1}, ["speed"]),
    ("play", {"speed": 21}, ["speed"]),
    ("play", {"speed": -1}, ["speed"]),
    ("play", {"speed": "fast"}, ["speed"]),
    ("play", {"speed": True}, ["speed"]),
    ("play", {"speed": None}, ["speed"]),
    ("play", {"speed": float("inf")}, ["speed"]),
    # a field the event does not take is named (a misspelt one was ignored: play went on at the old speed)
    ("play", {"sped": 8}, ["takes no field 'sped'", "did you mean 'speed'", "speed, room, token"]),
    ("seek", {"position": 5, "positon": 6}, ["'positon'", "did you mean 'position'"]),
    ("load", {"scenario": "gate-off", "varaints": ["v1.28.4"]}, ["'varaints'", "did you mean 'variants'"]),
    ("step", {"x" * 300: 1}, ["takes no field '" + "x" * 60 + "'... (300 characters)", "room, token"]),
    ("pause", {"room": None, "unknown": 1}, ["'unknown'"]),
]


@pytest.mark.parametrize("event,payload,words", REJECTED, ids=[f"{e}-{p!r}"[:60] for e, p, _ in REJECTED])
def test_rejected_message_answers_error_and_changes_nothing(sio, event, payload, words):
    load(sio, variants=["v1.28.1", "v1.28.2"])
    sio.emit("seek", {"position": 3})
    one(sio, "state")
    play(sio, {"speed": 4})  # remember a speed other than the default, then stop
    sio.emit("pause")  # a tick may come first on a loaded machine: wait for the pause, then go back to 3
    wait_states(sio, lambda s: not s["playing"])
    sio.emit("seek", {"position": 3})
    one(sio, "state")
    before = probe(sio)
    assert (before["position"], before["speed"], before["playing"]) == (3, 4.0, False)

    sio.emit(event, payload)
    error = one(sio, "error")
    assert isinstance(error["message"], str) and error["message"]
    for word in words:
        assert word in error["message"], (word, error["message"])
    assert error["event"] == event

    assert unnumbered(probe(sio)) == unnumbered(before)
    sio.emit("step")  # the same scenario is still loaded and moves on from where it was
    after = one(sio, "state")
    assert (after["position"], after["total"]) == (4, TOTAL)


def test_every_event_declares_the_fields_it_takes():
    """One table (sockets.PAYLOADS) says what each handler reads; docs/protocol.md's table documents each field."""
    readme = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    table = readme.split("Client → server:")[1].split("Server → client:")[0].splitlines()
    assert sorted(PAYLOADS) == Viewers.events()
    for event, fields in PAYLOADS.items():
        row = next(line for line in table if line.startswith("| ") and f"`{event}`" in line)
        for name in [f for f in fields or () if f not in DRIVE]:
            assert name in row, (event, name, row)


def test_rejected_load_keeps_the_previous_scenario(sio):
    load(sio)
    sio.emit("load", {"scenario": BAD_SCENARIO})
    one(sio, "error")
    sio.emit("load", {"scenario": "gate-off", "variants": ["nope"]})
    one(sio, "error")
    state = probe(sio)
    assert state["total"] == TOTAL
    assert list(state["variants"]) == list(VARIANTS)
    assert state["scene"]["next"]["label"] == "pop — expect A"


# --- sessions -----------------------------------------------------------------------------------------------
def test_two_clients_are_independent_sessions(make_sio):
    one_client, other = make_sio(), make_sio()
    load(one_client)
    load(other, "gate-off")
    for _ in range(3):
        one_client.emit("step")
        one(one_client, "state")
    assert other.get_received() == []
    state = probe(other)
    assert (state["position"], state["total"]) == (0, len(builtin.get("gate-off")["steps"]))
    other.emit("step")
    assert one(other, "state")["position"] == 1
    assert one_client.get_received() == []
    assert probe(one_client)["position"] == 3


def test_a_client_without_load_is_not_affected_by_another(make_sio):
    loaded, fresh = make_sio(), make_sio()
    load(loaded)
    fresh.emit("step")
    assert "load" in one(fresh, "error")["message"]
    assert probe(loaded)["position"] == 0


def test_disconnect_forgets_the_session(app, make_sio):
    sessions = app.extensions["inflight_sessions"]
    c = make_sio()
    load(c)
    assert len(sessions) == 1
    c.disconnect()
    assert sessions == {}


# --- autoplay ------------------------------------------------------------------------------------------------
def test_play_reaches_the_end_and_stops(sio, autoplays):
    load(sio)
    first, *ticks = play(sio, {"speed": 20})
    assert (first["position"], first["playing"], first["speed"]) == (0, True, 20.0)
    seen = wait_states(sio, lambda s: s["position"] == TOTAL and not s["playing"], seen=ticks)
    assert [s["position"] for s in seen] == list(range(1, TOTAL + 1))
    assert all(s["playing"] for s in seen[:-1])
    assert seen[-1]["playing"] is False
    ended(autoplays)
    assert messages(sio) == []


def test_play_from_the_middle(sio):
    load(sio)
    sio.emit("seek", {"position": 4})
    one(sio, "state")
    first, *ticks = play(sio, {"speed": 20})
    assert first["playing"] is True
    seen = wait_states(sio, lambda s: not s["playing"], seen=ticks)
    assert [s["position"] for s in seen] == [5, 6]


def test_play_uses_the_remembered_speed_without_a_payload(sio):
    load(sio)
    wait_states(sio, lambda s: not s["playing"], seen=play(sio, {"speed": 20}))
    sio.emit("reset")
    one(sio, "state")
    state, *ticks = play(sio)
    assert (state["playing"], state["speed"]) == (True, 20.0)
    wait_states(sio, lambda s: not s["playing"], seen=ticks)


def test_pause_stops_autoplay(sio, autoplays):
    load(sio)
    wait_states(sio, lambda s: s["position"] >= 1, seen=play(sio, {"speed": 4}))
    sio.emit("pause")
    # the reply to pause is the last state that says playing=false (a tick under way may add an older one)
    paused = [p for n, p in messages(sio) if n == "state" and not p["playing"]][-1]
    assert paused["position"] < TOTAL
    # a tick already under way when pause arrived may still deliver its (older) state; nothing moves further
    ended(autoplays)
    later = messages(sio)
    assert all(n == "state" and p["position"] <= paused["position"] for n, p in later), later
    state = probe(sio)
    assert (state["position"], state["playing"]) == (paused["position"], False)


def test_step_while_playing_keeps_playing_from_the_new_position(sio):
    load(sio)
    play(sio, {"speed": 2})
    sio.emit("seek", {"position": 4})
    assert max(p["position"] for n, p in messages(sio) if n == "state") >= 4
    seen = wait_states(sio, lambda s: not s["playing"])
    assert seen[-1]["position"] == TOTAL


def test_load_stops_autoplay(sio, autoplays):
    load(sio)
    play(sio, {"speed": 2})
    _, state = load(sio, "gate-off")
    assert state["playing"] is False
    ended(autoplays)
    assert all(p["position"] == 0 for n, p in messages(sio)), "the old autoplay task kept stepping"


def test_reset_stops_autoplay(sio, autoplays):
    load(sio)
    play(sio, {"speed": 4})
    sio.emit("reset")
    state = [p for n, p in messages(sio) if n == "state"][-1]
    assert (state["position"], state["playing"]) == (0, False)
    ended(autoplays)
    assert all(p["position"] == 0 for n, p in messages(sio))


def test_autoplay_of_one_client_does_not_reach_another(make_sio):
    player, watcher = make_sio(), make_sio()
    load(player)
    load(watcher)
    wait_states(player, lambda s: not s["playing"], seen=play(player, {"speed": 20}))
    assert watcher.get_received() == []
    assert probe(watcher)["position"] == 0


def test_disconnect_while_playing_stops_the_task(app, make_sio, autoplays):
    c = make_sio()
    load(c)
    play(c, {"speed": 1})
    session = next(iter(app.extensions["inflight_sessions"].values()))
    c.disconnect()
    assert session.playing is False
    ended(autoplays)
    assert session.sim.position == 0


def test_play_at_the_end_tells_the_client_it_stopped(sio):
    load(sio)
    sio.emit("seek", {"position": TOTAL})
    one(sio, "state")
    sio.emit("play", {"speed": 20})
    states = [p for n, p in messages(sio) if n == "state"]
    assert states and states[-1]["playing"] is False and states[-1]["position"] == TOTAL


@pytest.mark.parametrize("payload", ["fast", [20], 5])
def test_play_with_a_non_object_payload_is_an_error(sio, payload):
    load(sio)
    sio.emit("play", payload)
    assert one(sio, "error")["event"] == "play"


def test_a_room_step_builds_one_frame_and_followers_get_it_as_a_delta(app, make_sio):
    """A room of a scenario of the presenter's own (nothing kept for everyone): each step builds one frame in
    all, whatever the followers, and each follower receives that step as a delta, the presenter's narration
    of the next step (worked out on copies) moving no cursor."""
    presenter, followers = make_sio(), [make_sio() for _ in range(2)]
    ack = presenter.emit("create_room", {}, callback=True)
    presenter.emit("load", {"scenario": LOST, **ack})
    for f in followers:
        f.emit("join_room", {"room": ack["room"]})
    for c in (presenter, *followers):
        c.get_received()
    sim = app.extensions["inflight_hub"].rooms.find(ack["room"]).session.sim
    built = sim.frames_built
    for position in range(1, TOTAL + 1):
        presenter.emit("step", ack)
        for f in followers:
            [(name, state)] = messages(f)  # the delta, folded into the state it makes (tests/web/viewer.py)
            assert state["position"] == position and len(f.deltas) == position
            assert f.deltas[-1]["seq"] == state["seq"]
        presenter.get_received()
        assert sim.frames_built - built == position and sim.position == position


@pytest.mark.parametrize("event, payload, said", [
    ("seek", {"position": None}, "position must be an integer in 0..6, got null"),
    ("seek", {"position": True}, "position must be an integer in 0..6, got true"),
    ("seek", {"position": list(range(5000))}, "position must be an integer in 0..6, got a list of 5,000 items"),
    ("play", {"speed": None}, "got null"),
])
def test_a_refused_value_is_said_in_the_words_of_json(sio, event, payload, said):
    """Values a client sent are named as JSON says them ("got null", not Python's "got None"), and short."""
    load(sio)
    sio.emit(event, payload)
    [(name, error)] = messages(sio)
    assert name == "error" and said in error["message"] and len(error["message"]) < 200, error
