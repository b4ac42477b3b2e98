"""The SVG export: valid XML, the same lists, markers and lanes as the state message, its words from the scene,
every text escaped."""

import xml.etree.ElementTree as ET

import pytest

from webapp.engine.simulation import Simulation
from webapp.errors import Invalid
from webapp.export.svg import export_svg
from webapp.presenter import state_message
from webapp.scenario.load import load_scenario

from .conftest import renamed

SVG = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    return root


def pane(root, variant):
    [group] = [g for g in root.iter(f"{SVG}g") if g.get("data-variant") == variant]
    return group


def texts(element) -> list[str]:
    return [t.text for t in element.iter(f"{SVG}text")]


def lanes(group) -> dict:
    return {lane.get("data-queue"): [chip.get("data-pod") for chip in lane.iter(f"{SVG}g") if chip.get("data-pod")]
            for lane in group.iter(f"{SVG}g") if lane.get("data-queue")}


def entries(group) -> list[str]:
    return [f"{g.get('data-entry')}:{g.get('data-id')}" for g in group.iter(f"{SVG}g") if g.get("data-entry")]


def markers(group) -> list[tuple]:
    return [(m.get("data-marker"), m.get("data-detached")) for m in group.iter(f"{SVG}g") if m.get("data-marker")]


def test_every_position_matches_the_state(lost_marker):
    sim = Simulation(lost_marker)
    for position in range(sim.total + 1):
        sim.seek(position)
        frame = sim.frame()
        root = parse(export_svg(lost_marker, position))
        for variant, payload in frame["variants"].items():
            group = pane(root, variant)
            state, view = payload["state"], payload["view"]
            assert entries(group) == [f"{e['kind']}:{e['id']}" for e in view["entries"]]
            assert markers(group) == [(m["pod"], str(m["detached"]).lower()) for m in view.get("markers", [])]
            in_flight = [pod for pod, info in view["pods"].items() if info["where"] == "inFlight"]
            assert lanes(group) == {"activeQ": state["activeQ"], "backoffQ": state["backoffQ"],
                                    "unschedulablePods": state["unschedulablePods"], "inFlight": in_flight}


def test_position_5_draws_the_detached_marker_under_the_removed_element(lost_marker):
    root = parse(export_svg(lost_marker, 5))
    assert "Step 5: done pod=A (position 5 of 6)" in texts(root)
    old = pane(root, "v1.28.1")
    [ghost] = [g for g in old.iter(f"{SVG}g") if g.get("data-removed-id")]
    assert ghost.get("data-removed-id") == "e1"
    assert markers(ghost) == [("B", "true")]
    assert "B ⇡ Next() = nil" in texts(ghost)
    assert entries(old) == ["event:e2"]
    assert {"PvAdd", "e2 · n=1", "unseen by B"} <= set(texts(old))
    assert lanes(old)["inFlight"] == ["B"]
    fixed = pane(root, "v1.28.2")
    assert entries(fixed) == ["pod:B@2", "event:e2"]
    assert markers(fixed) == []
    assert {"[B]", "pod entry", "PvAdd", "e2"} <= set(texts(fixed))
    assert "t = 0 s · cycle 2 · moveRequestCycle 2" in texts(old)


def test_position_6_shows_b_placed_differently(lost_marker):
    root = parse(export_svg(lost_marker, 6))
    assert lanes(pane(root, "v1.28.1"))["unschedulablePods"] == ["B"]
    assert lanes(pane(root, "v1.28.2"))["backoffQ"] == ["B"]
    assert "B fails → unschedulablePods" in texts(pane(root, "v1.28.1"))
    assert "B fails → backoffQ" in texts(pane(root, "v1.28.2"))
    assert markers(root) == []


def test_pod_names_are_escaped(lost_marker_raw):
    name = "<script>alert(1)</script>"
    scenario = load_scenario(renamed(lost_marker_raw, "B", name))
    text = export_svg(scenario, 5)
    assert "<script" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    root = parse(text)
    assert [m.get("data-marker") for m in root.iter(f"{SVG}g") if m.get("data-marker")] == [name]
    assert lanes(pane(root, "v1.28.2"))["inFlight"] == [name]
    assert not list(root.iter(f"{SVG}script"))


def test_characters_xml_cannot_hold_are_replaced(lost_marker_raw):
    scenario = load_scenario(renamed(lost_marker_raw, "B", "B\x01\ufffe"))
    root = parse(export_svg(scenario, 4))
    assert lanes(pane(root, "v1.28.1"))["inFlight"] == ["A", "B\ufffd\ufffd"]


def test_long_names_are_cut_in_the_drawing_but_kept_in_the_hooks(lost_marker_raw):
    name = "b" * 253
    root = parse(export_svg(load_scenario(renamed(lost_marker_raw, "B", name)), 4))
    assert lanes(pane(root, "v1.28.1"))["inFlight"] == ["A", name]
    assert "b" * 39 + "…" in texts(root)


@pytest.mark.parametrize("position", [-1, 7])
def test_positions_outside_the_scenario_are_refused(lost_marker, position):
    with pytest.raises(Invalid, match=r"0\.\.6"):
        export_svg(lost_marker, position)


def test_every_word_comes_from_the_scene(lost_marker):
    """Titles, tags, clocks, narration titles, list headings, item and marker texts, lane labels: the scene's."""
    sim = Simulation(lost_marker)
    for position in range(sim.total + 1):
        sim.seek(position)
        scene = state_message(sim.frame())["scene"]
        root = parse(export_svg(lost_marker, position))
        for variant, p in scene["panes"].items():
            drawn = texts(pane(root, variant))
            listing = p["list"]
            expected = [p["title"], p["tag"], p["clock"], p["narration"]["title"],
                        f"{listing['name']} · {listing['count']}"]
            for it in listing["items"]:
                expected += [it["label"], *(m["text"] for m in it["markers"])]
                expected += [it["unseen"]] if it.get("unseen") else []
            expected += [lane["label"] for lane in p["lanes"]]
            expected += [c["pod"] for lane in p["lanes"] for c in lane["chips"]]
            expected += [] if listing["items"] else [listing["empty"]]
            assert set(expected) <= set(drawn), set(expected) - set(drawn)
            titles = [t.text for t in pane(root, variant).iter(f"{SVG}title")]
            marker_titles = [m["title"] for it in listing["items"] for m in it["markers"]]
            assert set(marker_titles) <= set(titles)


def test_an_empty_list_reads_as_the_scene_says(lost_marker):
    root = parse(export_svg(lost_marker, 0))
    assert "(empty)" in texts(pane(root, "v1.28.1"))


def test_chips_show_the_scene_detail(lost_marker):
    root = parse(export_svg(lost_marker, 6))
    [chip] = [g for g in pane(root, "v1.28.2").iter(f"{SVG}g") if g.get("data-pod") == "B"]
    assert [t.text for t in chip.iter(f"{SVG}tspan")] == ["until 1 s"]
