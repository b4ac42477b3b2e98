"""Text that becomes code: every built-in and hostile names and texts go through import -> YAML -> load and come
back as the same scenario; a pod name that is unsafe or unbounded is refused by the importer, naming its log line
(one that is merely no Kubernetes name is read: test_logs_edited_names.py)."""

import io
import json
from pathlib import Path

import pytest
import yaml

from webapp.scenario import builtin
from webapp.scenario.load import load_scenario, parse_text
from webapp.scenario.logs import LogError, import_logs
from webapp.scenario.logs.yamltext import to_yaml

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"
# Every character Python's str.splitlines() breaks at (the Unicode line boundaries), and CR LF.
SEPARATORS = ("\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
HOSTILE = (
    *(f"a{sep}b: evil{sep}# x" for sep in SEPARATORS),
    *(f"{sep}steps: []" for sep in SEPARATORS),
    'say "hi"', "it's", "a # not a comment", "key: value", "---", "...", "--- !!python/object:os.system",
    *(f"{c}x" for c in "-?&*!|>%@"), "`code`", "```", "<b>bold</b>", "[link](http://x)", "\\u2028", "\t tab",
    "\ufeffbom", "\x00nul", "\x7fdel", "\U0001f600", " leading space", "trailing space ",
    "x" * 253,
)


def readback(scenario: dict, assumptions=(), disagreements=()) -> str:
    """The YAML of ``scenario``, checked to load as exactly it and to validate."""
    text = to_yaml(scenario, list(assumptions), list(disagreements))
    assert yaml.safe_load(text) == scenario
    load_scenario(parse_text(text.encode("utf-8", "surrogatepass"), "yaml"))
    return text


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_every_builtin_reads_back_from_its_yaml(scenario_id):
    scenario = builtin.get(scenario_id)
    readback(scenario, scenario.get("assumptions", []))


def incident() -> dict:
    with (LOGS / "five-minute-incident.log").open("rb") as f:
        return import_logs([("five-minute-incident.log", f)]).scenario


def renamed(scenario: dict, names: dict) -> dict:
    """``scenario`` with its pods named ``names[old]``, in every step that names one."""
    scenario = json.loads(json.dumps(scenario))
    scenario["pods"] = [{**p, "name": names.get(p["name"], p["name"])} for p in scenario["pods"]]
    for step in scenario["steps"]:
        for key in ("pod", "expect"):
            if key in step:
                step[key] = names.get(step[key], step[key])
        if "affinity_matching" in step:
            step["affinity_matching"] = [names.get(n, n) for n in step["affinity_matching"]]
    return scenario


@pytest.mark.parametrize("hostile", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_name_and_text_read_back_as_they_are(hostile):
    """As a pod's name, the scenario's, a note, the description, an assumption and a disagreement (the last two
    also as comments above the YAML): the YAML loads as the scenario, no more, no less."""
    scenario = renamed(incident(), {"a": hostile, "b": hostile[:-1] + "2"})
    scenario["name"] = hostile
    scenario["steps"][0]["note"] = hostile
    scenario["assumptions"] = [hostile, f"line 3: {hostile}"]
    for description in (hostile, hostile + "\n", f"Imported from {hostile}\n\n* {hostile}\n"):
        scenario["description"] = description
        text = readback(scenario, scenario["assumptions"], [hostile])
        head = text.split("\nschema: ")[0]
        assert yaml.safe_load(head) is None  # the comments stay comments
        assert all(line.startswith("#") for line in head.split("\n"))


def klog(*lines: tuple[str, str]) -> bytes:
    """klog text lines (kube-scheduler's format: header, quoted message, key="value"), a millisecond apart."""
    return "".join(f'I1130 12:00:00.{i:03d}000       1 schedule_one.go:80] "{msg}" {kv}\n'
                   for i, (msg, kv) in enumerate(lines, 1)).encode("utf-8", "surrogatepass")


def quoted(text: str) -> str:
    return json.dumps(text)  # Go's %q and JSON agree on what these lines hold


def failing(pod: str = "default/a", err: str = "0/3 nodes are available: 3 Insufficient cpu.") -> bytes:
    return klog(("Add event for unscheduled pod", f"pod={quoted(pod)}"),
                ("Attempting to schedule pod", f"pod={quoted(pod)}"),
                ("Unable to schedule pod; no fit; waiting", f"pod={quoted(pod)} err={quoted(err)}"))


@pytest.mark.parametrize("hostile", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_text_from_the_log_reaches_the_yaml_as_it_is(hostile):
    """A log's free text (a failure's reason no plugin gives, the file's name, --name) reaches the scenario and
    its YAML's comments: the YAML the editor runs is the scenario imported."""
    err = f"0/3 nodes are available: 2 node(s) {hostile}, 1 Insufficient cpu."
    result = import_logs([(hostile, io.BytesIO(failing(err=err)))], name=f"Imported from {hostile}"[:200])
    assert yaml.safe_load(result.yaml) == result.scenario
    assert result.scenario["name"] == f"Imported from {hostile}"[:200]
    load_scenario(parse_text(result.yaml.encode("utf-8", "surrogatepass"), "yaml"))


def test_the_longest_names_kubernetes_allows_are_imported():
    pod = "n" * 63 + "/" + ".".join(["a" * 63] * 3) + "." + "b" * 61
    assert len(pod.split("/")[1]) == 253
    result = import_logs([("log", io.BytesIO(failing(pod)))])
    assert result.scenario["pods"] == [{"name": pod.split("/")[1]}]
    assert yaml.safe_load(result.yaml) == result.scenario


BAD_PODS = {  # the pod value as klog's text format writes it -> what the message says of it
    "default/": "its name is empty",
    "/a": "its namespace is empty",
    "a": "has no namespace",
    "": "has no namespace",
    "default/" + "a" * 254: "its name is 254 characters long, over 253",
    "n" * 64 + "/a": "its namespace is 64 characters long, over 63",
    "default/a\x00b": "its name has a character that is not printable (\\x00)",
    "def\x1bault/a": "its namespace has a character that is not printable (\\x1b)",
    **{f"default/a{sep}b": "its name has a character that is not printable" for sep in SEPARATORS},
}


@pytest.mark.parametrize(("pod", "says"), BAD_PODS.items(), ids=range(len(BAD_PODS)))
def test_a_pod_name_no_pod_has_is_refused_naming_its_line(pod, says):
    with pytest.raises(LogError) as raised:
        import_logs([("my.log", io.BytesIO(klog(("Add event for unscheduled pod", 'pod="default/ok"'),
                                                ("Attempting to schedule pod", f"pod={quoted(pod)}"))))])
    message = str(raised.value)
    assert message.startswith("my.log:2: pod: ") and says in message
    assert "expected a pod's namespace/name" in message and message.isprintable()


@pytest.mark.parametrize("pod", [{"name": "", "namespace": "default"}, {"name": "a", "namespace": ""},
                                 {"name": "a"}, {"name": 5, "namespace": "default"}, "default/a",
                                 {"name": "a\u2028b", "namespace": "default"}])
def test_a_json_lines_pod_no_pod_has_is_refused_naming_its_line(pod):
    line = {"ts": 1701345600000.1, "msg": "Add event for unscheduled pod", "v": 3, "pod": pod}
    good = {**line, "pod": {"name": "ok", "namespace": "default"}}
    data = (json.dumps(good) + "\n" + json.dumps(line) + "\n").encode()
    if pod == "default/a":  # the text format's string in a JSON line is a pod's name too
        assert import_logs([("j.log", io.BytesIO(data))]).scenario["pods"] == [{"name": "ok"}, {"name": "a"}]
        return
    with pytest.raises(LogError, match=r"^j\.log:2: pod: .*expected a pod's namespace/name"):
        import_logs([("j.log", io.BytesIO(data))])


def test_a_pod_name_in_invalid_utf8_is_refused_naming_its_line():
    data = klog(("Add event for unscheduled pod", 'pod="default/ok"')) + \
        b'I1130 12:00:01.000000       1 x.go:1] "Add event for unscheduled pod" pod="default/a\xff\xfe"\n'
    with pytest.raises(LogError, match=r"^bad\.log:2: pod: .*its name is not valid UTF-8"):
        import_logs([("bad.log", io.BytesIO(data))])


def test_a_file_name_that_is_not_utf8_names_the_scenario_readably():
    """sys.argv holds a non-UTF-8 file name's bytes as lone surrogates, which no YAML (no UTF-8) can hold."""
    label = b"in\xffcident.log".decode("utf-8", "surrogateescape")
    result = import_logs([(label, io.BytesIO(failing()))], name=f"Imported from {label}")
    assert result.scenario["name"] == "Imported from in\ufffdcident.log"
    assert yaml.safe_load(result.yaml) == result.scenario
    result.yaml.encode("utf-8")
