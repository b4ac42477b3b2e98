"""The 1.28 plugin catalogue (webapp/model/plugins.py): every registration against a table of facts written out
here with its upstream reference, each reference checked against the upstream line (tests/upstream.py: the
lines' hashes, checked against the mirror of kubernetes/autoscaler where there is one), the docs table
generated from the catalogue, and scenarios that name plugins getting 1.28's behaviour (explicit hints winning where
given)."""

from pathlib import Path

import pytest

from tests.upstream import holds
from webapp.model import plugins
from webapp.model.events import CATALOGUE, action_name
from webapp.model.versions import VERSIONS
from webapp.scenario.scenario import from_valid_dict

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "scenario-format.md"

# Facts: (plugin, file under framework/plugins/, line, Go resource, Go action expression, QueueingHintFn or None).
# Written from `git show cb95d464:<root>framework/plugins/<file>` (kube-scheduler v1.28.0, kubernetes/autoscaler).
FACTS = [
    ("NodeResourcesFit", "noderesources/fit.go", 247, "Pod", "podActionType", None),  # = Delete (l. 240)
    ("NodeResourcesFit", "noderesources/fit.go", 248, "Node", "Add | Update", None),
    ("NodeAffinity", "nodeaffinity/node_affinity.go", 86, "Node", "Add | Update", None),
    ("TaintToleration", "tainttoleration/taint_toleration.go", 59, "Node", "Add | Update", None),
    ("NodeUnschedulable", "nodeunschedulable/node_unschedulable.go", 51, "Node", "Add | UpdateNodeTaint", None),
    ("NodePorts", "nodeports/node_ports.go", 115, "Pod", "Delete", None),
    ("NodePorts", "nodeports/node_ports.go", 116, "Node", "Add | Update", None),
    ("NodeName", "nodename/node_name.go", 46, "Node", "Add | Update", None),
    ("VolumeBinding", "volumebinding/volume_binding.go", 95, "StorageClass", "Add | Update", None),
    ("VolumeBinding", "volumebinding/volume_binding.go", 97, "PersistentVolumeClaim", "Add | Update", None),
    ("VolumeBinding", "volumebinding/volume_binding.go", 98, "PersistentVolume", "Add | Update", None),
    ("VolumeBinding", "volumebinding/volume_binding.go", 102, "Node", "Add | UpdateNodeLabel", None),
    ("VolumeBinding", "volumebinding/volume_binding.go", 104, "CSINode", "Add | Update", None),
    ("VolumeBinding", "volumebinding/volume_binding.go", 107, "CSIDriver", "Add | Update", None),
    ("VolumeBinding", "volumebinding/volume_binding.go", 108, "CSIStorageCapacity", "Add | Update", None),
    ("VolumeRestrictions", "volumerestrictions/volume_restrictions.go", 341, "Pod", "Delete", None),
    ("VolumeRestrictions", "volumerestrictions/volume_restrictions.go", 343, "Node", "Add", None),
    ("VolumeRestrictions", "volumerestrictions/volume_restrictions.go", 346, "PersistentVolumeClaim", "Add | Update",
     None),
    ("VolumeZone", "volumezone/volume_zone.go", 267, "StorageClass", "Add", None),
    ("VolumeZone", "volumezone/volume_zone.go", 269, "Node", "Add | UpdateNodeLabel", None),
    ("VolumeZone", "volumezone/volume_zone.go", 272, "PersistentVolumeClaim", "Add", None),
    ("VolumeZone", "volumezone/volume_zone.go", 274, "PersistentVolume", "Add | Update", None),
    ("NodeVolumeLimits", "nodevolumelimits/csi.go", 79, "CSINode", "Add", None),
    ("NodeVolumeLimits", "nodevolumelimits/csi.go", 80, "Pod", "Delete", None),
    *((name, "nodevolumelimits/non_csi.go", line, resource, action, None)
      for name in ("EBSLimits", "GCEPDLimits", "AzureDiskLimits", "CinderLimits")
      for line, resource, action in ((207, "Node", "Add"), (208, "Pod", "Delete"))),
    ("InterPodAffinity", "interpodaffinity/plugin.go", 66, "Pod", "All", None),
    ("InterPodAffinity", "interpodaffinity/plugin.go", 67, "Node", "Add | UpdateNodeLabel", None),
    ("PodTopologySpread", "podtopologyspread/plugin.go", 143, "Pod", "All", None),
    ("PodTopologySpread", "podtopologyspread/plugin.go", 146, "Node", "Add | Delete | UpdateNodeLabel", None),
    ("SchedulingGates", "schedulinggates/scheduling_gates.go", 60, "Pod", "Update", None),
    ("DynamicResources", "dynamicresources/dynamicresources.go", 261, "ResourceClaim", "Add | Update",
     "isSchedulableAfterClaimChange"),
    ("DynamicResources", "dynamicresources/dynamicresources.go", 264, "PodSchedulingContext", "Add | Update",
     "isSchedulableAfterPodSchedulingContextChange"),
    ("DynamicResources", "dynamicresources/dynamicresources.go", 267, "Node", "Add | UpdateNodeLabel", None),
]
# Plugins without EnqueueExtensions get UnrollWildCardResource (framework/types.go l. 152-160), in this order.
UNROLLED = ("DefaultPreemption", "ImageLocality", "NodeResourcesBalancedAllocation", "SelectorSpread",
            "PrioritySort", "DefaultBinder")
UNROLLED_RESOURCES = ("Pod", "Node", "CSINode", "CSIDriver", "CSIStorageCapacity", "PersistentVolume",
                      "PersistentVolumeClaim", "StorageClass", "PodSchedulingContext")
GVK = {"Pod": "Pod", "Node": "Node", "PersistentVolume": "PersistentVolume",
       "PersistentVolumeClaim": "PersistentVolumeClaim", "PodSchedulingContext": "PodSchedulingContext",
       "ResourceClaim": "ResourceClaim", "StorageClass": "storage.k8s.io/StorageClass",
       "CSINode": "storage.k8s.io/CSINode", "CSIDriver": "storage.k8s.io/CSIDriver",
       "CSIStorageCapacity": "storage.k8s.io/CSIStorageCapacity"}
BITS = {"Add": 1, "Delete": 2, "UpdateNodeAllocatable": 4, "UpdateNodeLabel": 8, "UpdateNodeTaint": 16,
        "UpdateNodeCondition": 32, "Update": 60, "All": 63, "podActionType": 2}


def bits(expr: str) -> int:
    out = 0
    for name in expr.split("|"):
        out |= BITS[name.strip()]
    return out


def expected() -> set:
    facts = {(name, GVK[res], bits(act), f"framework/plugins/{path}:{line}", fn or "defaultQueueingHintFn")
             for name, path, line, res, act, fn in FACTS}
    facts |= {(name, GVK[res], 63, f"framework/types.go:{152 + i}", "defaultQueueingHintFn")
              for name in UNROLLED for i, res in enumerate(UNROLLED_RESOURCES)}
    return facts


def catalogued() -> set:
    return {(p.name, r.resource, r.action, r.source, r.hint_fn)
            for p in plugins.PLUGINS.values() for r in p.registrations}


def test_every_registration_is_a_fact_and_every_fact_is_catalogued():
    assert catalogued() == expected()


def test_order_follows_the_source():
    """Registrations are in source order (the model evaluates hint functions in this order)."""
    for p in plugins.PLUGINS.values():
        files = [r.source.rsplit(":", 1) for r in p.registrations]
        assert [f for f, _ in files] == [files[0][0]] * len(files)
        assert [int(n) for _, n in files] == sorted(int(n) for _, n in files)


@pytest.mark.parametrize("name", sorted(plugins.PLUGINS))
def test_hints_and_assumptions(name):
    """1.28: only DynamicResources sets QueueingHint functions; every other registration uses
    defaultQueueingHintFn, which returns QueueAfterBackoff, and says so. Every registration states its assumption."""
    for r in plugins.PLUGINS[name].registrations:
        assert r.assumption
        if r.hint_fn == plugins.DEFAULT_FN:
            assert (r.hint, r.returns) == ("QueueAfterBackoff", "QueueAfterBackoff")
        else:
            assert name == "DynamicResources" and r.hint == "QueueImmediately"
            assert r.resource in ("ResourceClaim", "PodSchedulingContext")
            assert not plugins.event_labels(r.resource, r.action)  # no scenario event reaches it
        assert plugins.hint_for(r, gate=False) == "QueueAfterBackoff"  # scheduler.go l. 382


# --- the references, checked against the upstream lines ---------------------------------------------------------
# The receiver of each plugin's EventsToRegister, as its file declares it.
RECEIVERS = {"NodeResourcesFit": "f *Fit", "NodeVolumeLimits": "pl *CSILimits",
             "DynamicResources": "pl *dynamicResources",
             **{n: "pl *nonCSILimits" for n in ("EBSLimits", "GCEPDLimits", "AzureDiskLimits", "CinderLimits")}}


def upstream(path: str, number: int, expected: str) -> bool:
    return holds(plugins.SOURCE_COMMIT, plugins.SOURCE_ROOT + path, number, expected)


@pytest.mark.parametrize("fact", FACTS, ids=lambda f: f"{f[0]}:{f[2]}")
def test_fact_is_the_upstream_line(fact):
    name, path, line, resource, action, fn = fact
    go_action = " | ".join(f"framework.{a.strip()}" for a in action.split("|")) if action != "podActionType" \
        else "podActionType"
    hint = f", QueueingHintFn: pl.{fn}}}," if fn else "},"
    assert upstream(f"framework/plugins/{path}", line,
                    f"{{Event: framework.ClusterEvent{{Resource: framework.{resource}, ActionType: {go_action}}}{hint}")


def test_fit_pod_action_is_delete_without_in_place_scaling():
    assert upstream("framework/plugins/noderesources/fit.go", 240, "podActionType := framework.Delete")
    assert upstream("framework/plugins/noderesources/fit.go", 241, "if f.enableInPlacePodVerticalScaling {")


@pytest.mark.parametrize("name", sorted(plugins.PLUGINS))
def test_plugin_source_is_its_events_to_register(name):
    p = plugins.PLUGINS[name]
    path, line = p.source.rsplit(":", 1)
    if name in UNROLLED:
        expected = "f.enqueueExtensions = append(f.enqueueExtensions, &defaultEnqueueExtension{pluginName: p.Name()})"
    else:
        receiver = RECEIVERS.get(name, f"pl *{name}")
        expected = f"func ({receiver}) EventsToRegister() []framework.ClusterEventWithHint {{"
    assert upstream(path, int(line), expected)


def test_unrolled_resources_and_the_queueing_hint_map():
    for i, resource in enumerate(UNROLLED_RESOURCES):
        expected = f"{{Event: ClusterEvent{{Resource: {resource}, ActionType: All}}}},"
        assert upstream("framework/types.go", 152 + i, expected)
    assert upstream("framework/types.go", 81, "type ClusterEventWithHint struct {")
    assert upstream("scheduler.go", 366, "var defaultQueueingHintFn = func(_ klog.Logger, _ *v1.Pod, _, _ interface{}) "
                                         "framework.QueueingHint {")
    assert upstream("scheduler.go", 367, "return framework.QueueAfterBackoff")
    assert upstream("scheduler.go", 370,
                    "func buildQueueingHintMap(es []framework.EnqueueExtensions) internalqueue.QueueingHintMap {")
    assert upstream("scheduler.go", 382,
                    "if fn == nil || !utilfeature.DefaultFeatureGate.Enabled(features.SchedulerQueueingHints) {")
    assert upstream("framework/runtime/framework.go", 572, "return framework.UnrollWildCardResource()")


# --- scenarios that name plugins ----------------------------------------------------------------------------------
def run(raw: dict, variant: str) -> list:
    scenario = from_valid_dict({"schema": 1, "name": "t", **raw})
    model = scenario.model(variant)
    return [model.apply(i, step) for i, step in enumerate(scenario.steps)]


def lost_marker(plugin: str, **extra) -> dict:
    return {"pods": [{"name": "A"}, {"name": "B"}], "initial_active": ["A", "B"], **extra, "steps": [
        {"op": "pop", "expect": "A"}, {"op": "event", "event": "NodeAdd"}, {"op": "pop", "expect": "B"},
        {"op": "event", "event": "PvAdd"}, {"op": "done", "pod": "A"},
        {"op": "fail", "pod": "B", "unschedulable_plugins": [plugin]}]}


def test_lost_marker_by_plugin_name():
    """VolumeBinding registers PersistentVolume Add|Update: on v1.28.1 B's detached marker hides PvAdd and B is
    parked; on v1.28.2 B's walk finds PvAdd and B backs off."""
    (result, record), = run(lost_marker("VolumeBinding"), "v1.28.1")[-1:]
    assert result == {"hint": "QueueSkip", "queue": "unschedulablePods"}
    (result, record), = run(lost_marker("VolumeBinding"), "v1.28.2")[-1:]
    assert result == {"hint": "QueueAfterBackoff", "queue": "backoffQ"}
    for variant in VERSIONS:
        if variant != "v1.28.1":
            assert run(lost_marker("VolumeBinding"), variant)[-1][0]["queue"] == "backoffQ", variant


def test_the_same_with_the_hint_written_out():
    """The catalogue gives B what the explicit hint gave: the lost-marker built-in's story with a real name. (From
    1.30 NodeAdd is no longer ignored: VolumeBinding also registers Node Add.)"""
    explicit = lost_marker("P", hints=[{"event": "PvAdd", "plugin": "P", "hint": "QueueAfterBackoff"}])
    for variant in VERSIONS:
        named, written = run(lost_marker("VolumeBinding"), variant), run(explicit, variant)
        assert named[-1][0] == written[-1][0], variant
        assert named[1][0]["recorded_in_flight"] == (variant != "v1.28.5"), variant
        ignores = ("v1.28.5", "v1.30.14", "v1.31.13", "v1.32.0", "v1.36.2")
        assert written[1][0]["recorded_in_flight"] == (variant not in ignores), variant


def test_an_event_no_failed_plugin_registered_for():
    """NodeResourcesFit registers Pod Delete and Node Add|Update: PvAdd does not wake B, NodeAdd does."""
    raw = {"pods": [{"name": "B"}], "initial_active": ["B"], "steps": [
        {"op": "pop"}, {"op": "fail", "pod": "B", "unschedulable_plugins": ["NodeResourcesFit"]},
        {"op": "event", "event": "PvAdd"}, {"op": "event", "event": "NodeAdd"}]}
    for variant in ("v1.28.1", "v1.28.2", "v1.29.9"):
        results = [r for r, _ in run(raw, variant)]
        assert results[2]["moved"] == {} and results[3]["moved"] == {"B": "backoffQ"}, variant
    # 1.30: isEventOfInterest over the scenario's profile: no named plugin registered PvAdd, so it is ignored.
    (_, pv), (_, node) = run(raw, "v1.30.14")[2:]
    assert pv["ignored"] == {"event": "PvAdd", "id": "e1"} and "ignored" not in node
    assert [e["why"] for e in node["evaluations"]] == ["hint-fn"]


def test_explicit_hints_win_per_plugin():
    """A plugin with an explicit hint uses only its explicit hints: VolumeBinding hinted on PvcAdd alone no longer
    registers PvAdd, so v1.28.2's B walks past PvAdd and is parked."""
    raw = lost_marker("VolumeBinding",
                      hints=[{"event": "PvcAdd", "plugin": "VolumeBinding", "hint": "QueueImmediately"}])
    assert run(raw, "v1.28.2")[-1][0] == {"hint": "QueueSkip", "queue": "unschedulablePods"}
    config = from_valid_dict({"schema": 1, "name": "t", **raw}).config
    assert config.plugins == ("VolumeBinding",)
    assert [(e.label, p, h) for e, p, h in config.registrations(VERSIONS["v1.28.2"].rules)] == [
        ("PvcAdd", "VolumeBinding", "QueueImmediately")]


def test_a_name_outside_the_catalogue_registers_nothing():
    raw = lost_marker("Volumebinding")  # not a catalogue name: nothing registered, as before the catalogue
    assert run(raw, "v1.28.2")[-1][0] == {"hint": "QueueSkip", "queue": "unschedulablePods"}
    assert from_valid_dict({"schema": 1, "name": "t", **raw}).config.registrations(VERSIONS["v1.28.2"].rules) == ()


def test_registrations_mix_explicit_and_catalogue_in_order():
    raw = {"hints": [{"event": "NodeAdd", "plugin": "P", "hint": "QueueImmediately"}],
           "pods": [{"name": "B"}], "initial_active": ["B"], "steps": [
               {"op": "pop"}, {"op": "fail", "pod": "B", "unschedulable_plugins": ["NodeName", "P", "NodeName"]}]}
    config = from_valid_dict({"schema": 1, "name": "t", **raw}).config
    assert config.plugins == ("NodeName", "P")
    assert [(e.resource, e.action, p, h) for e, p, h in config.registrations(VERSIONS["v1.28.2"].rules)] == [
        ("Node", 1, "P", "QueueImmediately"), ("Node", 61, "NodeName", "QueueAfterBackoff")]


def test_pending_plugins_name_the_profile_too():
    """1.29: a pending plugin's registrations are its own; Queue from a pending plugin means at once."""
    raw = {"pods": [{"name": "B"}], "initial_active": ["B"], "steps": [
        {"op": "pop"}, {"op": "fail", "pod": "B", "unschedulable_plugins": [], "pending_plugins": ["VolumeZone"]},
        {"op": "event", "event": "PvcAdd"}]}
    assert run(raw, "v1.29.9")[-1][0]["moved"] == {"B": "activeQ"}


def test_dynamic_resources_hint_follows_the_gate():
    raw = {"pods": [{"name": "B"}], "initial_active": ["B"], "steps": [
        {"op": "pop"}, {"op": "fail", "pod": "B", "unschedulable_plugins": ["DynamicResources"]}]}
    on = from_valid_dict({"schema": 1, "name": "t", **raw}).config
    off = from_valid_dict({"schema": 1, "name": "t", "gate": False, **raw}).config
    hints = lambda config, version: [h for _, _, h in config.registrations(VERSIONS[version].rules)]  # noqa: E731
    assert hints(on, "v1.28.2") == ["QueueImmediately", "QueueImmediately", "QueueAfterBackoff"]
    assert hints(on, "v1.28.5") == hints(off, "v1.28.2") == ["QueueAfterBackoff"] * 3


def test_wakes_lists_the_plugins_an_event_wakes():
    """Only plugins a real pod may carry: those that never reject (registered for every event, UNROLLED) were
    listed as woken by every event (the editor's palette said AssignedPodAdd "wakes ... PrioritySort,
    DefaultBinder")."""
    assert plugins.wakes(CATALOGUE["PvAdd"]) == ["VolumeBinding", "VolumeZone"]
    assert plugins.wakes(CATALOGUE["AssignedPodUpdate"]) == ["InterPodAffinity", "PodTopologySpread", "SchedulingGates"]
    assert not any(plugins.PLUGINS[name].rejects for name in UNROLLED)


# --- the docs table is generated from the catalogue ---------------------------------------------------------------
def catalogue_table() -> str:
    rows = ["| plugin | registers (resource: action) | wakes on (scenario events) | QueueingHintFn → model's hint | "
            "line (`pkg/scheduler/framework/plugins/`) |", "|---|---|---|---|---|"]
    for p in plugins.catalogue()["plugins"]:
        if p["name"] in UNROLLED:
            continue
        for r in p["registrations"]:
            resource = r["resource"].rsplit("/", 1)[-1]
            events = ", ".join(r["events"]) or "— (no scenario event)"
            fn = "default → QueueAfterBackoff" if r["hint_fn"] == plugins.DEFAULT_FN else \
                f"`{r['hint_fn']}` → {r['hint']} (gate off: {r['hint_gate_off']})"
            action = r["action_name"].replace("|", "\\|")
            rows.append(f"| {p['name']} | {resource}: {action} | {events} | {fn} | "
                        f"`{r['source'].removeprefix('framework/plugins/')}` |")
    return "\n".join(rows)


def plugins_table() -> str:
    rows = ["| plugin | EventsToRegister (`pkg/scheduler/`) | conditions | 1.29–1.31 (not modelled) |",
            "|---|---|---|---|"]
    for p in plugins.catalogue()["plugins"]:
        cells = (p["name"], f"`{p['source']}`", p["note"] or "—", p["later"])
        rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(rows)


def documented(header: str) -> str:
    text = DOCS.read_text()
    start = text.index(header)
    return text[start:text.index("\n\n", start)]


def test_docs_tables_are_generated_from_the_catalogue():
    assert documented("| plugin | registers (resource: action) |") == catalogue_table(), (
        f"docs/scenario-format.md: replace the registrations table with\n\n{catalogue_table()}\n")
    assert documented("| plugin | EventsToRegister") == plugins_table(), (
        f"docs/scenario-format.md: replace the plugins table with\n\n{plugins_table()}\n")


def test_action_names():
    assert [action_name(a) for a in (1, 2, 61, 9, 17, 11, 60, 63)] == [
        "Add", "Delete", "Add|Update", "Add|UpdateNodeLabel", "Add|UpdateNodeTaint", "Add|Delete|UpdateNodeLabel",
        "Update", "All"]
