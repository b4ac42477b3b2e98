"""The search finds what goes wrong in generated scenarios, shrinks it deterministically to a local minimum, and
says what broke first; `inflight-scope find` prints it as a scenario that replays."""

import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest
import yaml

from webapp.engine.find import WAIT_SECONDS, Search, check_query, size, updates_differ
from webapp.errors import Invalid
from webapp.model.variant import VARIANTS
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


def one_value_simpler(raw):
    """(what, scenario) for each value of ``raw`` made one notch simpler: a failure's plugin dropped (down to none),
    a pod's priority 0. Written out here, apart from the shrinker's own candidates, as what "simplest values" means."""
    for i, step in enumerate(raw["steps"]):
        plugins = step.get("unschedulable_plugins") or []
        for j in range(len(plugins)):
            simpler = {**step, "unschedulable_plugins": plugins[:j] + plugins[j + 1:]}
            yield f"step {i + 1} without {plugins[j]}", {**raw, "steps": [*raw["steps"][:i], simpler,
                                                                         *raw["steps"][i + 1:]]}
    for k, pod in enumerate(raw["pods"]):
        if pod.get("priority"):
            yield f"{pod['name']} at priority 0", {**raw, "pods": [*raw["pods"][:k], {**pod, "priority": 0},
                                                                   *raw["pods"][k + 1:]]}


@pytest.mark.parametrize("target,seed", [("divergence", 1), ("divergence", 4), ("invariant", 3), ("wait", 4)])
def test_the_shrunk_values_are_the_simplest_that_keep_the_finding(target, seed):
    # seed 1 left `fail B` with plugins [Q] (a one-plugin list was never emptied) and B at priority 1 (tried while
    # the pops were unnamed, so priority 0 changed the pop order); the finding held without either.
    search, _, small = found(target, seed)
    kept = [what for what, simpler in one_value_simpler(small) if search.holds(simpler)]
    assert kept == [], kept


def test_a_wait_is_explained_with_its_threshold():
    search, _, small = found("wait", 4)
    finding = search.first_finding(small)
    text = explain(asdict(finding), small, search.versions)
    assert f"longer than the threshold of {WAIT_SECONDS} s" in text and finding.detail["seconds"] > WAIT_SECONDS


def test_updates_are_generated_where_the_versions_handle_them_differently():
    assert not updates_differ(VARIANTS)  # v1.28.1 and v1.28.2: no update steps, the lost-marker searches unchanged
    assert updates_differ(("v1.30.14", "v1.31.13")) and updates_differ(("v1.28.1", "v1.31.13"))
    # 1.31 records an in-flight pod's update as an entry where 1.30 queues a copy: found, shrunk to its two steps
    search, _, small = found("divergence", 1, versions=("v1.30.14", "v1.31.13"))
    finding = search.first_finding(small)
    assert [s["op"] for s in small["steps"]] == ["pop", "update"] and len(small["pods"]) == 1
    assert finding.step == 1 and finding.detail["where"] == {"v1.30.14": "activeQ", "v1.31.13": "inFlight"}


@pytest.mark.parametrize("versions", [("v1.28.2",), ("v1.28.2", "v1.28.2")])
def test_a_divergence_of_one_version_is_a_user_error(versions):
    with pytest.raises(Invalid, match="a divergence needs at least two versions to compare"):
        Search("divergence", versions)
    check_query("invariant", versions)  # one version can break an invariant or make a pod wait


def test_a_divergence_is_explained_by_step_pod_and_both_places():
    search, _, small = found("divergence", 3)
    finding = search.first_finding(small)
    text = explain(asdict(finding), small, search.versions)
    where = finding.detail["where"]
    assert where["v1.28.1"] != where["v1.28.2"]
    assert f"step {finding.step + 1} (" in text  # counted as the page counts
    assert f"{finding.detail['pod']} is in {where['v1.28.1']} on v1.28.1" in text


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


@pytest.mark.parametrize("variant", ["v1.28.2", "v1.28.2,v1.28.2"])
def test_a_divergence_of_one_version_is_refused_before_searching(variant):
    # it ran the whole budget and said "nothing found" (status 1)
    out = run_cli("--variant", variant, "--budget-seconds", "60")
    assert out.returncode == 2 and not out.stdout and "Traceback" not in out.stderr
    assert "argument --variant: a divergence needs at least two versions to compare" in out.stderr


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
