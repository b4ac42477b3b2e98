"""The search finds what goes wrong in generated scenarios, shrinks it deterministically to a local minimum, and
says what broke first; `inflight-scope find` prints it as a scenario that replays."""

import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest
import yaml

from webapp.engine.find import Search, size
from webapp.presenter.findings import explain
from webapp.scenario.validate import validate

ROOT = Path(__file__).resolve().parents[2]


def found(target: str, seed: int, versions=("v1.28.1", "v1.28.2"), invariant=None):
    search = Search(target, versions, invariant=invariant)
    raw, finding, _ = search.search(seed, budget_seconds=60)
    return search, raw, search.shrink(raw)


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_the_lost_marker_is_found_and_shrunk_below_the_six_step_story(seed):
    search, raw, small = found("invariant", seed, invariant="in_flight_boundary")
    finding = search.first_finding(small)
    assert (finding.variant, finding.detail["name"]) == ("v1.28.1", "in_flight_boundary")
    # The invariant breaks as soon as the first pod's Done removes the event the second pod's marker points at:
    # two pods, one event, four steps (the six-step story adds the event B misses and B's failure).
    assert size(small) == {"steps": 4, "pods": 2, "events": 1, "hints": 0}
    assert [s["op"] for s in small["steps"]][:3] == ["pop", "event", "pop"]


@pytest.mark.parametrize("target", ["invariant", "divergence", "wait"])
def test_the_shrunk_scenario_is_a_local_minimum_and_the_same_for_a_seed(target):
    search, raw, small = found(target, 4)
    assert validate(small) == [] and search.holds(small)
    assert size(small)["steps"] <= size(raw)["steps"]
    for i in range(len(small["steps"])):  # no single step can go
        assert not search.holds({**small, "steps": small["steps"][:i] + small["steps"][i + 1:]}), i
    assert found(target, 4)[2] == small  # deterministic for a given seed


def test_a_divergence_is_explained_by_step_pod_and_both_places():
    search, _, small = found("divergence", 3)
    finding = search.first_finding(small)
    text = explain(asdict(finding), small, search.versions)
    where = finding.detail["where"]
    assert where["v1.28.1"] != where["v1.28.2"]
    assert f"step {finding.step + 1} (" in text  # counted as the page counts and f"{finding.detail['pod']} is in {where['v1.28.1']} on v1.28.1" in text


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "webapp.cli", "find", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_the_command_prints_a_scenario_that_replays():
    out = run_cli("--seed", "2", "--target", "invariant", "--budget-seconds", "30")
    assert out.returncode == 0, out.stderr
    scenario = yaml.safe_load(out.stdout)
    assert validate(scenario) == [] and "in_flight_boundary breaks first" in scenario["description"]
    replay = subprocess.run([sys.executable, "-m", "webapp.cli", "replay", "-", "--format", "text"], cwd=ROOT,
                            input=out.stdout, capture_output=True, text=True, timeout=60)
    assert replay.returncode == 0 and "detached!" in replay.stdout


def test_nothing_to_find_is_status_1_and_bad_arguments_status_2():
    # v1.28.2's list keeps every in-flight pod's boundary: its invariants hold on every generated scenario.
    out = run_cli("--target", "invariant", "--variant", "v1.28.2,v1.28.4", "--budget-seconds", "0.5")
    assert out.returncode == 1 and not out.stdout and "nothing found" in out.stderr
    assert run_cli("--target", "everything").returncode == 2
    bad = run_cli("--pods", "0")
    assert bad.returncode == 2 and "--pods" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("option,value,expected", [
    ("--max-steps", "1", "an integer from 2 to 200"),  # a traceback (randint(2, 1)) and status 1, "nothing found"
    ("--max-steps", "9" * 5000, "an integer from 2 to 200"),
    ("--pods", "27", "an integer from 1 to 26"),
    ("--seed", "-5", "an integer from 0 to 9007199254740991"),
    ("--budget-seconds", "0", "a number from 0.001 to 3600"),
    ("--budget-seconds", "nan", "a number from 0.001 to 3600"),
    ("--budget-seconds", "inf", "a number from 0.001 to 3600"),
])
def test_each_nonsense_parameter_is_named_with_what_it_takes(option, value, expected):
    out = run_cli(option, value)
    assert out.returncode == 2 and not out.stdout and "Traceback" not in out.stderr
    assert f"argument {option}: expected {expected}" in out.stderr
