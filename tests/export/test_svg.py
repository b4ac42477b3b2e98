"""The SVG export: valid XML, the same lists, markers and lanes as the state message, its words from the scene,
every text escaped."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.conftest import runnable_variants
from webapp.engine.simulation import Simulation
from webapp.errors import Invalid
from webapp.export.svg import export_svg, render, render_panes
from webapp.export.tokens import THEMES
from webapp.presenter import state_message
from webapp.scenario import builtin
from webapp.scenario.load import load_scenario

from .conftest import renamed

SVG = "{http://www.w3.org/2000/svg}"
LIGHT, DARK = THEMES["light"], THEMES["dark"]


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    return root


def pane(root, variant):
    [group] = [g for g in root.iter(f"{SVG}g") if g.get("data-variant") == variant]
    return group


def texts(element) -> list[str]:
    """Each text element's words (its tspans joined)."""
    return ["".join(t.itertext()) for t in element.iter(f"{SVG}text")]


def lanes(group) -> dict:
    return {lane.get("data-queue"): [chip.get("data-pod") for chip in lane.iter(f"{SVG}g") if chip.get("data-pod")]
            for lane in group.iter(f"{SVG}g") if lane.get("data-queue")}


def entries(group) -> list[str]:
    return [f"{g.get('data-entry')}:{g.get('data-id')}" for g in group.iter(f"{SVG}g") if g.get("data-entry")]


def markers(group) -> list[tuple]:
    return [(m.get("data-marker"), m.get("data-detached")) for m in group.iter(f"{SVG}g") if m.get("data-marker")]


def items(group) -> list:
    """The drawn list items with their hooks, front to back."""
    return [g for g in group.iter(f"{SVG}g") if g.get("data-key") and not g.get("data-pointer")]


def pointers(group) -> list[tuple]:
    return [(g.get("data-pod"), g.get("data-target"), g.get("data-key"), g.get("data-detached"), g.get("data-decided"))
            for g in group.iter(f"{SVG}g") if g.get("data-pointer") is not None]


def flagged(group, hook: str) -> list[str]:
    return [g.get("data-id") for g in group.iter(f"{SVG}g") if g.get(hook) == "true"]


def test_every_position_matches_the_state(lost_marker):
    """Entries: the scene's event and pod items in order, ghosts included; the live ones are the view's entries;
    ghosts exactly the entries the step's record removed, walked exactly its hint's walk."""
    sim = Simulation(lost_marker)
    for position in range(sim.total + 1):
        sim.seek(position)
        frame = sim.frame()
        scene = state_message(frame)["scene"]
        root = parse(export_svg(lost_marker, position))
        for variant, payload in frame["variants"].items():
            group = pane(root, variant)
            state, view, record = payload["state"], payload["view"], payload["record"] or {}
            listed = [it for it in scene["panes"][variant]["list"]["items"] if it["kind"] in ("event", "pod")]
            assert entries(group) == [f"{it['kind']}:{it['id']}" for it in listed]
            ghosts = set(flagged(group, "data-ghost"))
            assert ghosts == {r["id"] for r in record.get("removed", [])} & {it["id"] for it in listed}
            assert [e for e in entries(group) if e.split(":", 1)[1] not in ghosts] == [
                f"{e['kind']}:{e['id']}" for e in view["entries"]]
            hint = record.get("hint")
            assert set(flagged(group, "data-walked")) == ({w["id"] for w in hint["walk"]} if hint else set())
            assert markers(group) == [(m["pod"], str(m["detached"]).lower())
                                      for it in scene["panes"][variant]["list"]["items"] for m in it.get("markers", [])]
            in_flight = [pod for pod, info in view["pods"].items() if info["where"] == "inFlight"]
            assert lanes(group) == {"activeQ": state["activeQ"], "backoffQ": state["backoffQ"],
                                    "unschedulablePods": state["unschedulablePods"], "inFlight": in_flight}


def test_position_5_draws_the_detached_marker_under_the_removed_element(lost_marker):
    """Done(A) removed e1 in this very step: e1 is drawn as a ghost entry, B's detached marker under it and B's
    broken pointer aimed at it; PvAdd is unseen by B."""
    root = parse(export_svg(lost_marker, 5))
    sim = Simulation(lost_marker)
    sim.seek(5)
    label = state_message(sim.frame())["scene"]["step"]["label"]  # the scene's words for the step
    assert f"Step 5: {label} (position 5 of 6)" in texts(root)
    old = pane(root, "v1.28.1")
    assert entries(old) == ["event:e1", "event:e2"]
    [ghost] = [g for g in old.iter(f"{SVG}g") if g.get("data-ghost") == "true"]
    assert (ghost.get("data-id"), ghost.get("data-key"), ghost.get("data-removed-id")) == ("e1", "e1", "e1")
    assert "counted down to 0 by Done(A)" in texts(ghost)
    assert markers(ghost) == [("B", "true")]
    assert "B ⇡" in texts(ghost)
    [unseen] = [g for g in old.iter(f"{SVG}g") if g.get("data-unseen-by")]
    assert (unseen.get("data-id"), unseen.get("data-unseen-by")) == ("e2", "B")
    assert {"PvAdd", "e2 · n=1", "unseen by B"} <= set(texts(unseen))
    assert pointers(old) == [("B", "detached", "e1", "true", "false")]
    assert lanes(old)["inFlight"] == ["B"]
    assert "t = 0 s · cycle 2 · moveRequestCycle 2" in texts(old)
    fixed = pane(root, "v1.28.2")
    assert entries(fixed) == ["pod:A@1", "event:e1", "pod:B@2", "event:e2"]
    assert flagged(fixed, "data-ghost") == ["A@1", "e1"]
    assert markers(fixed) == []
    assert pointers(fixed) == [("B", "B@2", "B@2", "false", "false")]
    assert {"[B]", "pod entry", "PvAdd", "e2", "removed by Done(A)"} <= set(texts(fixed))


def test_position_6_the_decisive_frame_tells_the_story_in_both_panes(lost_marker):
    """B's fail: v1.28.1 keeps B's decided pointer, detached and aimed at the ghost of e1, PvAdd a ghost unseen
    by B, nothing walked; v1.28.2 keeps the ghosts of [B] and PvAdd, PvAdd walked; B placed differently."""
    root = parse(export_svg(lost_marker, 6))
    old, fixed = pane(root, "v1.28.1"), pane(root, "v1.28.2")
    assert lanes(old)["unschedulablePods"] == ["B"]
    assert lanes(fixed)["backoffQ"] == ["B"]
    assert "B fails → unschedulablePods: its marker e1 was removed: saw nothing" in captions(old)
    assert "B fails → backoffQ: saw PvAdd (QueueAfterBackoff)" in captions(fixed)
    assert pointers(old) == [("B", "detached", "ghost:e1", "true", "true")]
    [removed] = [g for g in items(old) if g.get("data-key") == "ghost:e1"]
    assert removed.get("data-removed-id") == "e1" and markers(removed) == [("B", "true")]
    assert entries(old) == ["event:e2"] and flagged(old, "data-ghost") == ["e2"]
    assert flagged(old, "data-walked") == []
    assert [g.get("data-unseen-by") for g in old.iter(f"{SVG}g") if g.get("data-unseen-by")] == ["B"]
    [broken] = [g for g in old.iter(f"{SVG}g") if g.get("data-pointer") == "B"]
    lines = [p for p in broken.iter(f"{SVG}path") if p.get("data-line")]
    assert len(lines) == 2 and all(p.get("stroke-dasharray") for p in lines)  # cut in two, dashed
    assert {p.get("stroke") for p in lines} == {LIGHT["bug"]}
    assert entries(fixed) == ["pod:B@2", "event:e2"]
    assert flagged(fixed, "data-ghost") == ["B@2", "e2"]
    assert flagged(fixed, "data-walked") == ["e2"]
    [walked] = [g for g in items(fixed) if g.get("data-walked")]  # the hint the walk read there, as on the page
    [tag] = [r for r in walked.iter(f"{SVG}rect") if r.get("data-tag") == "walk"]
    assert "QueueAfterBackoff" in texts(walked) and tag.get("stroke") == LIGHT["backoff"]
    assert pointers(fixed) == [("B", "B@2", "B@2", "false", "true")]
    assert markers(fixed) == []


def captions(group) -> list[str]:
    return [" ".join(t.itertext()) for t in group.iter(f"{SVG}text") if t.get("data-testid") == "caption"]


def test_every_pointer_of_every_builtin_is_drawn():
    """At every position of every built-in scenario: one arrow (a line and a head, from the pod's chip) per
    pointer of the scene with its target, and the walked / ghost hooks on exactly the items the scene says."""
    for name in builtin.ids():
        scenario = load_scenario(builtin.get(name))
        sim = Simulation(scenario, runnable_variants(scenario))
        for position in range(sim.total + 1):
            sim.seek(position)
            scene = state_message(sim.frame())["scene"]
            root = parse(render(scenario.name, scene))
            for variant, p in scene["panes"].items():
                group = pane(root, variant)
                where = (name, position, variant)
                assert pointers(group) == [(q["pod"], q["target"], q["key"], str(q["detached"]).lower(),
                                            str(q["decided"]).lower()) for q in p["pointers"]], where
                for g in (g for g in group.iter(f"{SVG}g") if g.get("data-pointer") is not None):
                    assert [x for x in g.iter(f"{SVG}path") if x.get("data-line")], where
                    assert [x for x in g.iter(f"{SVG}path") if x.get("data-head")], where
                listed = [it for it in p["list"]["items"] if it["kind"] in ("event", "pod")]
                assert flagged(group, "data-walked") == [it["id"] for it in listed if it.get("walked")], where
                assert flagged(group, "data-ghost") == [it["id"] for it in listed if it.get("ghost")], where


def test_the_dark_theme_draws_the_same_picture_in_its_colours(lost_marker):
    """The export was always light, even from a dark page: the same elements, every colour its dark twin's."""
    light, dark = export_svg(lost_marker, 6), export_svg(lost_marker, 6, theme="dark")
    assert f'fill="{DARK["bg"]}"' in dark and f'fill="{LIGHT["bg"]}"' not in dark
    strip = lambda text: re.sub(r'"#[0-9a-fA-F]{6}"', '"#"', text)  # noqa: E731
    assert strip(light) == strip(dark)


def test_chip_timers_and_the_legend(lost_marker):
    root = parse(export_svg(lost_marker, 6))
    [wait] = [g for g in pane(root, "v1.28.1").iter(f"{SVG}g") if g.get("data-timer")]
    assert (wait.get("data-pod"), wait.get("data-timer")) == ("B", "wait")
    assert "0 s / 300 s" in texts(wait)
    [backoff] = [g for g in pane(root, "v1.28.2").iter(f"{SVG}g") if g.get("data-timer")]
    assert (backoff.get("data-timer"), "1 s left" in texts(backoff)) == ("backoff", True)
    [legend] = [g for g in root.iter(f"{SVG}g") if g.get("data-testid") == "legend"]
    scene_legend = state_message(Simulation(lost_marker).frame())["scene"]["legend"]
    assert [g.get("data-legend") for g in legend.iter(f"{SVG}g") if g.get("data-legend")] == [
        it["key"] for it in scene_legend]
    assert {" ".join(t.itertext()) for t in legend.iter(f"{SVG}text")} >= {"walked", "unseen", "removed"}
    [time] = [t for t in pane(root, "v1.28.1").iter(f"{SVG}text") if t.get("data-testid") == "pane-time"]
    assert time.text == "t = 0 s" and float(time.get("font-size")) >= 20


def test_nothing_outside_the_document(lost_marker):
    text = export_svg(lost_marker, 6)
    assert re.findall(r"https?://[^\s\"']*", text) == ["http://www.w3.org/2000/svg"]
    assert "url(" not in text and "href" not in text and "<script" not in text


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
            expected = [p["title"], p["tag"], p["time"], p["clock"], f"{listing['name']} · {listing['count']}"]
            for it in listing["items"]:
                expected += [it["label"], *(m["text"] for m in it.get("markers", []))]
                expected += [it["unseen"]] if it.get("unseen") else []
                expected += [it["gone"]] if it.get("ghost") else []
            expected += [f"{lane['icon']} {lane['label']}" for lane in p["lanes"]]
            expected += [c["pod"] for lane in p["lanes"] for c in lane["chips"]]
            expected += [c["timer"]["text"] for lane in p["lanes"] for c in lane["chips"] if c["timer"]]
            expected += [] if listing["items"] else [listing["empty"]]
            expected += [p["invariants"]["summary"]]
            if p["hint"]:
                expected += [f"{p['hint']['pod']}: {p['hint']['walked']}{p['hint']['decision']}"]
            assert set(expected) <= set(drawn), set(expected) - set(drawn)
            assert captions(pane(root, variant)) == [p["caption"]]
            titles = [t.text for t in pane(root, variant).iter(f"{SVG}title")]
            marker_titles = [m["title"] for it in listing["items"] for m in it.get("markers", [])]
            assert set(marker_titles) <= set(titles)


def test_an_empty_list_reads_as_the_scene_says(lost_marker):
    root = parse(export_svg(lost_marker, 0))
    assert "(empty)" in texts(pane(root, "v1.28.1"))


def test_chips_show_the_scene_detail(lost_marker):
    root = parse(export_svg(lost_marker, 6))
    [chip] = [g for g in pane(root, "v1.28.2").iter(f"{SVG}g")
              if g.get("data-pod") == "B" and g.get("data-pointer") is None]
    assert texts(chip) == ["B", "1 s left"]  # the timer's words stand for the detail


def test_the_readmes_picture_is_what_the_export_draws_today():
    """README.md opens with the decisive frame as the SVG export draws it; a change to the drawing must update it
    (python -c "from webapp.export.svg import export_svg; from webapp.scenario.resolve import resolve;
    open('docs/lost-marker.svg', 'w').write(export_svg(resolve('lost-marker')[0], 6))")."""

    from webapp.scenario.resolve import resolve

    picture = Path(__file__).resolve().parents[2] / "docs" / "lost-marker.svg"
    assert picture.read_text(encoding="utf-8") == export_svg(resolve("lost-marker")[0], 6), (
        "regenerate docs/lost-marker.svg")


def test_a_long_walk_wraps_inside_the_list_and_reads_as_one_line():
    """three-pod-cascade position 8, v1.28.2: B walked two entries, a line longer than the pane; as the page, it
    wraps, the decision's badge on a line of its own, every line inside the list's frame."""
    from webapp.export.draw import BOLD_WIDTH, CHAR_WIDTH
    from webapp.scenario.resolve import resolve

    scenario = resolve("three-pod-cascade")[0]
    sim = Simulation(scenario)
    sim.seek(8)
    hint = state_message(sim.frame())["scene"]["panes"]["v1.28.2"]["hint"]
    group = pane(parse(export_svg(scenario, 8)), "v1.28.2")
    [line] = [t for t in group.iter(f"{SVG}text") if t.get("data-hint-pod") == "B"]
    assert "".join(line.itertext()) == f"B: {hint['walked']}{hint['decision']}"
    [frame] = [r for r in group.iter(f"{SVG}rect") if r.get("stroke-dasharray") == "4 3"]
    right = float(frame.get("x")) + float(frame.get("width"))
    x, baselines, ends = float(line.get("x")), [float(line.get("y"))], []
    for span in line.iter(f"{SVG}tspan"):
        if span.get("dy"):
            baselines.append(baselines[-1] + float(span.get("dy")))
        x = float(span.get("x") or x)
        x += len(span.text) * (BOLD_WIDTH if span.get("font-weight") == "bold" else CHAR_WIDTH)
        ends.append(x)
    assert len(baselines) >= 2 and max(ends) <= right  # wrapped, and nothing runs past the frame
    [badge] = [r for r in group.iter(f"{SVG}rect") if float(r.get("y")) == baselines[-1] - 13]
    assert float(badge.get("x")) + float(badge.get("width")) <= right


def test_each_pane_alone_is_the_pictures_pane(lost_marker):
    """The first frame's panes (render_panes): each the same pane the whole picture draws, standalone and escaped,
    in the theme asked for, naming no namespace (no URL in the page: its HTML parser gives an inline svg SVG's)."""
    sim = Simulation(lost_marker)
    sim.seek(6)
    scene = state_message(sim.frame())["scene"]
    whole = parse(render("The lost marker", scene))
    alone = render_panes(scene, "dark")
    assert [variant for variant, _ in alone] == list(scene["panes"])
    for variant, text in alone:
        assert "xmlns" not in text and "http" not in text
        root = parse(text.replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))
        assert not text.startswith("<?xml") and "<script" not in text and "href" not in text
        assert root.get("viewBox") and root.get("aria-label") == f"{scene['panes'][variant]['title']} pane"
        assert lanes(pane(root, variant)) == lanes(pane(whole, variant))
        assert entries(pane(root, variant)) == entries(pane(whole, variant))
        assert texts(pane(root, variant)) == texts(pane(whole, variant))
        assert f'fill="{DARK["panel"]}"' in text and f'fill="{LIGHT["panel"]}"' not in text
