"""``inflight-scope replay`` on temporary files, run in this process (tests/cli/run.py) but for test_stdin: a real
``python -m webapp.cli replay`` reading a scenario from a pipe, the entry point end to end."""

import json
from pathlib import Path

import pytest
import yaml

from tests.cli.run import cli
from tests.conftest import conformance_cases
from webapp.engine.simulation import Simulation
from webapp.export.text import in_flight, render_text
from webapp.presenter import state_message
from webapp.scenario import builtin
from webapp.scenario.load import load_scenario

CASES = {c["id"]: c for c in conformance_cases()}
LOST_MARKER = CASES["custom-lost-marker-01"]


def run(*args, stdin=None, process=False):
    return cli("replay", *args, stdin=stdin, text=True, process=process, timeout=60)


@pytest.fixture
def lost_marker(tmp_path):
    path = tmp_path / "lost.json"
    path.write_text(json.dumps(LOST_MARKER["scenario"]))
    return path


def write(tmp_path, name, scenario):
    path = tmp_path / name
    path.write_text(json.dumps(scenario))
    return path


def assert_matches_case(line, case, variant):
    trace = json.loads(line)
    expected = case["expected"][variant]
    assert (trace["schema"], trace["variant"], trace["scenario"]) == (1, variant, case["scenario"]["name"])
    assert trace["steps"] == expected["steps"]
    assert trace["final"] == expected["final"]


def test_json_lines_reproduce_the_expected_traces(lost_marker):
    out = run(lost_marker)
    assert (out.returncode, out.stderr) == (0, "")
    lines = out.stdout.splitlines()
    assert len(lines) == 2
    assert_matches_case(lines[0], LOST_MARKER, "v1.28.1")
    assert_matches_case(lines[1], LOST_MARKER, "v1.28.2")
    assert lines[0] == json.dumps(json.loads(lines[0]), separators=(",", ":"))  # compact, keys unsorted


def test_files_in_order_and_one_variant(tmp_path, lost_marker):
    other = CASES["upstream-inflight-02"]
    yaml_path = tmp_path / "other.yaml"
    yaml_path.write_text(yaml.safe_dump(other["scenario"]))
    out = run(yaml_path, lost_marker, "--variant", "v1.28.2")
    assert out.returncode == 0
    first, second = out.stdout.splitlines()
    assert_matches_case(first, other, "v1.28.2")
    assert_matches_case(second, LOST_MARKER, "v1.28.2")


def test_stdin(lost_marker):
    out = run("-", "--variant", "v1.28.1", stdin=lost_marker.read_text(), process=True)
    assert out.returncode == 0
    assert_matches_case(out.stdout, LOST_MARKER, "v1.28.1")


def test_builtin_scenario_id():
    out = run("lost-marker", "--variant", "v1.28.2")
    assert out.returncode == 0
    assert json.loads(out.stdout)["scenario"] == builtin.get("lost-marker")["name"]


def test_records(lost_marker):
    out = run(lost_marker, "--records", "--variant", "v1.28.2")
    assert all("record" in step for step in json.loads(out.stdout)["steps"])


def test_records_need_json_output(lost_marker):
    out = run(lost_marker, "--records", "--format", "text")
    assert out.returncode == 2
    assert "--records needs --format json" in out.stderr


def test_text_draws_the_in_flight_lists(lost_marker):
    out = run(lost_marker, "--format", "text")
    assert out.returncode == 0
    text = out.stdout
    assert "(v1.28.1) ==" in text and "(v1.28.2) ==" in text
    assert "[A] -> NodeAdd#e1 -> [B] -> PvAdd#e2   pointers: A->A@1, B->B@2" in text
    assert "NodeAdd#e1(n=1) -> PvAdd#e2(n=2)   pointers: A->nil, B->e1" in text  # the scene's counts
    # Done(A) counts e1 down to 0 and removes it: drawn as removed, n=0, B's pointer detached, PvAdd unseen by B
    assert "NodeAdd#e1(n=0){removed} -> PvAdd#e2(n=1){unseen by B}   pointers: B->e1 (detached!)" in text
    # B's fail as its walk saw it: v1.28.1 saw nothing; v1.28.2 walked PvAdd (both removed by the deferred Done)
    assert "PvAdd#e2(n=0){removed, unseen by B}   pointers: B->e1 (detached!, decided)" in text
    assert "[B]{removed} -> PvAdd#e2{walked, removed}   pointers: B->B@2 (decided)" in text
    assert "(empty)   pointers: A->nil" in text
    assert "QueueSkip -> unschedulablePods" in text and "QueueAfterBackoff -> backoffQ" in text


def test_the_cli_docs_text_sample_is_what_replay_prints():
    """Each line of docs/cli.md's ``replay lost-marker --variant v1.28.1 --format text`` sample (columns cut at
    "...") is a line the command prints."""
    readme = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    sample = readme.split("--format text`, cut):\n\n```\n", 1)[1].split("```", 1)[0].splitlines()
    printed = run("lost-marker", "--variant", "v1.28.1", "--format", "text").stdout.splitlines()
    assert len(sample) >= 3
    for line in sample:
        head, _, tail = line.partition("  ...  ")
        assert any(p.startswith(head.rstrip()) and p.rstrip().endswith(tail) for p in printed), line


def test_text_rows_are_drawn_from_the_scene():
    """Each row's lanes and in-flight list are the scene's at that position (the page's words)."""
    scenario = load_scenario(LOST_MARKER["scenario"])
    text = render_text("lost", Simulation(scenario))
    tables = [block.splitlines()[2:] for block in text.split("\n\n")]
    sim = Simulation(scenario)
    for position in range(1, sim.total + 1):
        sim.seek(position)
        scene = state_message(sim.frame())["scene"]
        for rows, pane in zip(tables, scene["panes"].values()):
            row = rows[position - 1]
            assert row.startswith(f"{position} ")  # the page's number: step 6 is the one that leads to position 6
            assert row.split("  ")[0] == f"{position}" and f"  {scene['step']['label']}  " in row  # and its words
            assert row.endswith(in_flight(pane))
            for lane in pane["lanes"][:3]:
                assert ",".join(chip["pod"] for chip in lane["chips"]) in row


def assert_clean_failure(out):
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert all(line.startswith("error: ") for line in out.stderr.splitlines())


def test_invalid_scenario_names_step_and_field(tmp_path):
    scenario = {**LOST_MARKER["scenario"], "steps": [{"op": "pop"}, {"op": "event", "event": "NodeAddd"}]}
    path = write(tmp_path, "bad.json", scenario)
    out = run(path)
    assert_clean_failure(out)
    assert out.stdout == ""
    assert out.stderr.startswith(f"error: {path}: step 1, field 'steps[1].event': unknown event 'NodeAddd'")


def test_dry_run_failure_names_step_and_field(tmp_path):
    scenario = {**LOST_MARKER["scenario"], "steps": [{"op": "pop"}, {"op": "pop"}, {"op": "pop"}]}
    out = run(write(tmp_path, "empty.json", scenario))
    assert_clean_failure(out)
    assert "step 2, field 'steps[2].op': pop on an empty activeQ" in out.stderr


def test_unparsable_yaml(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("a: &x 1\nb: *x\n")
    out = run(path)
    assert_clean_failure(out)
    assert "field 'document': invalid YAML at line 1" in out.stderr


def test_missing_file_and_undecodable_file(tmp_path):
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    out = run(tmp_path / "missing.json", binary)
    assert_clean_failure(out)
    assert len(out.stderr.splitlines()) == 2


def test_valid_files_still_replay_when_another_fails(tmp_path, lost_marker):
    out = run(tmp_path / "missing.json", lost_marker, "--variant", "v1.28.2")
    assert_clean_failure(out)
    assert_matches_case(out.stdout, LOST_MARKER, "v1.28.2")


def test_variant_takes_any_version_or_a_comma_list():
    out = run("in-flight-update", "--variant", "v1.30.14,v1.31.13")
    traces = [json.loads(line) for line in out.stdout.splitlines()]
    assert [t["variant"] for t in traces] == ["v1.30.14", "v1.31.13"]
    last = [t["steps"][-1]["result"] for t in traces]
    assert last == [{"error": "Pod A is already present in the active queue"},
                    {"hint": "QueueAfterBackoff", "queue": "backoffQ"}]
    text = run("in-flight-update", "--variant", "v1.31.13", "--format", "text").stdout
    assert "UnschedulablePodUpdate#u1 recorded" in text


def test_without_variant_a_scenario_replays_on_its_own_versions():
    """in-flight-update is the 1.31 lesson (versions: [v1.30.14, v1.31.13]); the lost marker names none: both."""
    traces = [json.loads(line) for line in run("in-flight-update", "lost-marker").stdout.splitlines()]
    assert [t["variant"] for t in traces] == ["v1.30.14", "v1.31.13", "v1.28.1", "v1.28.2"]
    both = [json.loads(line)["variant"] for line in run("in-flight-update", "--variant", "both").stdout.splitlines()]
    assert both == ["v1.28.1", "v1.28.2"]


@pytest.mark.parametrize("bad", ["v1.27", "v1.28.1,nope", "v1.28.1,,v1.28.2"])
def test_an_unknown_version_is_a_usage_error_naming_the_versions(bad):
    out = run("lost-marker", "--variant", bad)
    assert out.returncode == 2 and not out.stdout
    assert "unknown version" in out.stderr and "v1.31.13" in out.stderr and "Traceback" not in out.stderr


TYPO = """schema: 1
name: lost marker by names
periodic_flushes: true
pods: [{name: A}, {name: B}]
initial_active: [A, B]
steps:
  - {op: pop, expect: A}
  - {op: event, event: AssignedPodDelete}
  - {op: pop, expect: B}
  - {op: event, event: NodeAdd}
  - {op: done, pod: A}
  - {op: fail, pod: B, unschedulable_plugins: [NodeResourceFit]}
  - {op: advance_clock, seconds: 400}
"""


@pytest.mark.parametrize("output", ["json", "text"])
def test_a_misspelt_plugin_is_advised_as_the_editor_does(tmp_path, output):
    """NodeResourceFit became a placeholder nothing wakes, silently; the editor said "Did you mean
    NodeResourcesFit?". The replay runs (status 0) and says it on stderr."""
    path = tmp_path / "typo.yaml"
    path.write_text(TYPO)
    out = run(path, "--format", output)
    assert out.returncode == 0 and out.stdout
    assert out.stderr.splitlines() == [
        f"warning: {path}: steps[5].unschedulable_plugins names plugin “NodeResourceFit”, which is not one of the "
        "in-tree plugins this tool knows, and no hint names it: no event wakes a pod it rejects. Did you mean "
        "“NodeResourcesFit”?"]


def test_pods_only_a_flush_would_move_are_advised(tmp_path):
    path = tmp_path / "noflush.yaml"
    path.write_text(TYPO.replace("periodic_flushes: true", "periodic_flushes: false")
                    .replace("NodeResourceFit", "NodeResourcesFit"))
    out = run(path, "--variant", "v1.28.2")
    assert out.returncode == 0 and json.loads(out.stdout)["variant"] == "v1.28.2"
    ends, remedy = out.stderr.splitlines()
    assert ends.startswith(f"warning: {path}: v1.28.2 ends at t = 400 s with B still in backoffQ")
    assert remedy.startswith(f"warning: {path}: Nothing moved it: this scenario runs no periodic flushes.")


def test_an_old_schema_that_leaves_the_flushes_out_is_told_so(tmp_path):
    path = tmp_path / "old.yaml"
    path.write_text(TYPO.replace("periodic_flushes: true\n", "").replace("NodeResourceFit", "NodeResourcesFit"))
    assert "schema: 1" in path.read_text() and "periodic_flushes" not in path.read_text()
    out = run(path, "--variant", "v1.28.2")
    assert out.returncode == 0
    assert out.stderr.splitlines()[-1] == (
        f"warning: {path}: Nothing moved it: this scenario runs no periodic flushes, because it leaves "
        "“periodic_flushes” out and schema 1 reads that as false. Write “schema: 2” (time runs as in a cluster) or "
        "“periodic_flushes: true”, or flush steps where they would run.")


POP_FROM_BACKOFF = {"schema": 2, "name": "pop from backoffQ", "periodic_flushes": False, "pods": [{"name": "A"}],
                    "initial_active": ["A"], "hints": [{"event": "NodeAdd", "plugin": "P", "hint": "Queue"}],
                    "steps": [{"op": "pop", "expect": "A"}, {"op": "event", "event": "NodeAdd"},
                              {"op": "fail", "pod": "A", "unschedulable_plugins": ["P"]}, {"op": "pop"}]}


def test_the_newest_versions_replay(tmp_path):
    out = run(write(tmp_path, "s.json", POP_FROM_BACKOFF), "--variant", "v1.36.2")
    assert (out.returncode, out.stderr) == (0, "")
    trace = json.loads(out.stdout)
    assert trace["variant"] == "v1.36.2" and trace["steps"][-1]["result"] == {"popped": "A", "from": "backoffQ"}
    # v1.32.0's Pop takes nothing from backoffQ: it would wait, so that step is refused; the rest runs.
    out = run(write(tmp_path, "s.json", POP_FROM_BACKOFF), "--variant", "v1.32.0")
    assert out.returncode == 2 and "step 3" in out.stderr and "(on v1.32.0)" in out.stderr
    out = run(write(tmp_path, "t.json", {**POP_FROM_BACKOFF, "steps": POP_FROM_BACKOFF["steps"][:3]}),
              "--variant", "v1.32.0")
    assert (out.returncode, out.stderr) == (0, "")
    assert json.loads(out.stdout)["steps"][-1]["state"]["backoffQ"] == ["A"]


@pytest.mark.parametrize("form", ["json", "text"])
def test_gate_off_on_v1_36_2_is_one_clear_line(tmp_path, form):
    out = run(write(tmp_path, "g.json", {**POP_FROM_BACKOFF, "gate": False}), "--variant", "v1.36.2", "--format", form)
    assert out.returncode == 2 and out.stdout == ""
    [line] = out.stderr.splitlines()
    assert line.startswith("error: ") and "field 'gate'" in line and "locked on since 1.34" in line
