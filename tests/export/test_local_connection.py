"""static/js/local.js in node: it answers the viewer's events from the precomputed messages as the server would."""

import json
import shutil
import subprocess

import pytest

from webapp import ROOT
from webapp.export.offline import messages

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

# Sends each [event, payload] of the script ("wait" sleeps payload ms), then prints what the handlers got.
HARNESS = """
import { localConnection } from "./local.js";
import { readFileSync } from "node:fs";
const { bundle, script } = JSON.parse(readFileSync(0, "utf8"));
const got = [];
const handler = (event) => (msg) => got.push(event === "state"
  ? [event, msg.position, Object.keys(msg.variants), msg.playing, msg.speed, msg.scene.divergence] : [event, msg]);
const conn = localConnection(bundle)({ connect: handler("connect"), scenario: handler("scenario"),
  state: handler("state"), error: handler("error") });
got.push(["opened"]);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
await sleep(0);
for (const [event, payload] of script) {
  if (event === "wait") await sleep(payload);
  else conn.send(event, payload);
  await sleep(0);
}
console.log(JSON.stringify(got));
process.exit(0);
"""
BOTH = ["v1.28.1", "v1.28.2"]


@pytest.fixture(scope="module")
def bundle():
    from webapp.scenario import builtin
    from webapp.scenario.load import load_scenario

    # as the file holds it
    return json.loads(json.dumps(messages(load_scenario(builtin.get("lost-marker")), "lost-marker")))


@pytest.fixture
def replay(tmp_path, bundle):
    for module in ("local.js", "rules.js"):  # local.js and what it imports, as ES modules
        shutil.copy(ROOT / "static" / "js" / module, tmp_path / module)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "harness.mjs").write_text(HARNESS)

    def run(script):
        done = subprocess.run([NODE, "harness.mjs"], cwd=tmp_path,
                              input=json.dumps({"bundle": bundle, "script": script}),
                              capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    return run


def test_connect_comes_after_open_returns_and_load_sends_scenario_then_state(replay, bundle):
    got = replay([["load", {"scenario": "lost-marker", "variants": BOTH}]])
    assert got[0] == ["opened"] and got[1] == ["connect", None]
    held = bundle["scenario"]["variants"]  # the picker offers only the versions the file holds
    offered = [v for v in bundle["scenario"]["versions"] if v["name"] in held]
    assert got[2] == ["scenario", {**bundle["scenario"], "versions": offered}]
    assert got[3] == ["state", 0, BOTH, False, 1, 6]


def test_load_may_start_at_a_position(replay):
    got = replay([["load", {"scenario": "lost-marker", "position": 5}],
                  ["load", {"scenario": "lost-marker", "position": 7}],
                  ["step", {}]])
    assert got[3][:2] == ["state", 5]
    assert got[4] == ["error", {"message": "position must be an integer in 0..6, got 7", "event": "load"}]
    assert got[5][:2] == ["state", 6]  # the refused load left the replay where it was


def test_stepping_and_seeking(replay):
    got = replay([["load", {"scenario": "lost-marker"}], ["step", {}], ["step", None], ["back", {}],
                  ["seek", {"position": 6}], ["step", {}], ["reset", {}], ["back", {}]])
    assert [g[1] for g in got if g[0] == "state"] == [0, 1, 2, 1, 6, 6, 0, 0]


@pytest.mark.parametrize("position", [-1, 7, 1.5, "3", None])
def test_seek_outside_the_scenario_is_an_error_and_changes_nothing(replay, position):
    got = replay([["load", {"scenario": "lost-marker"}], ["seek", {"position": 2}], ["seek", {"position": position}],
                  ["step", {}]])
    assert got[-2] == ["error", {"message": f"position must be an integer in 0..6, got {json.dumps(position)}",
                                 "event": "seek"}]
    assert got[-1][:2] == ["state", 3]


def test_one_variant_is_stripped_from_the_scenario_and_every_frame(replay, bundle):
    got = replay([["load", {"scenario": "lost-marker", "variants": ["v1.28.2"]}], ["seek", {"position": 6}]])
    scenario = got[2][1]
    assert scenario["variants"] == ["v1.28.2"]
    assert scenario["divergence"] is None  # as the server says for one variant
    assert "returns" not in scenario  # no outcome before its step, not even on the wire
    assert got[3] == ["state", 0, ["v1.28.2"], False, 1, None]
    assert got[4] == ["state", 6, ["v1.28.2"], False, 1, None]


def test_play_steps_at_the_speed_and_stops_at_the_end(replay):
    got = replay([["load", {"scenario": "lost-marker"}], ["seek", {"position": 3}], ["play", {"speed": 20}],
                  ["wait", 1000]])
    assert [g[1:4:2] for g in got if g[0] == "state"] == [[0, False], [3, False], [3, True], [4, True], [5, True],
                                                          [6, False]]
    assert got[-1][4] == 20


def test_pause_stops_playing(replay):
    got = replay([["load", {"scenario": "lost-marker"}], ["play", {"speed": 2}], ["pause", {}], ["wait", 800]])
    # the first tick was due after 500 ms: the pause cancelled it
    assert [g[1:4:2] for g in got if g[0] == "state"] == [[0, False], [0, True], [0, False]]


@pytest.mark.parametrize("speed", [0.1, 21, "2", True])
def test_bad_speeds_are_errors(replay, speed):
    got = replay([["load", {"scenario": "lost-marker"}], ["play", {"speed": speed}]])
    assert got[-1][0] == "error" and got[-1][1]["event"] == "play"
    assert got[-1][1]["message"].startswith("speed must be a number of steps per second in 0.25..20")


def test_messages_before_load_and_bad_loads_are_errors(replay):
    got = replay([["step", {}], ["load", {"scenario": "lost-marker", "variants": ["v1.27"]}],
                  ["load", {"variants": []}],
                  ["frobnicate", {}], ["seek", 3]])
    assert [g[1]["message"] for g in got[2:]] == [
        "no scenario loaded: send 'load' first",
        "this file holds v1.28.1, v1.28.2: variants must be a non-empty list of those",
        "this file holds v1.28.1, v1.28.2: variants must be a non-empty list of those",
        "unknown event 'frobnicate'",
        "'seek' expects an object payload",
    ]
