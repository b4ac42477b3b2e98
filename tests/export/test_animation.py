"""The animated exports' frames: the climax's beats as the page plays them (animate.js), drawn on the SVG export's
picture, rasterized with legible text, and bounded."""

import xml.etree.ElementTree as ET

import pytest
from PIL import ImageColor

from webapp import ROOT
from webapp.engine.simulation import Simulation
from webapp.errors import Invalid, TooLarge
from webapp.export import animation
from webapp.export.animation import export_animation, frames
from webapp.export.beats import SVG, Beat, beats, drawn
from webapp.export.preset import FULL
from webapp.export.raster import height_at, rasterized
from webapp.export.request import Request
from webapp.export.svg import render
from webapp.export.tokens import BEATS, THEMES
from webapp.presenter import state_message

from .node import run_module

G = f"{{{SVG}}}g"
ANIMATE_JS = (ROOT / "static" / "js" / "animate.js").as_uri()


def scene_at(scenario, position):
    sim = Simulation(scenario, scenario.versions)
    sim.seek(position)
    return state_message(sim.frame())["scene"]


def entry(root, variant, name, value):
    pane = next(g for g in root.iter(G) if g.get("data-variant") == variant)
    return next(g for g in pane.iter(G) if g.get(name) == value)


def test_the_beats_times_are_the_pages():
    """climaxBeats(1) (a step by hand, static/js/animate.js) is what the export plays: the tokens' beats."""
    harness = f'import {{ climaxBeats }} from "{ANIMATE_JS}"; console.log(JSON.stringify(climaxBeats(1)));'
    assert run_module(harness, [], "static/js/animate.js") == BEATS


def test_step_6_sweeps_and_flashes_then_holds(lost_marker):
    """v1.28.2's walk visits e2 (one tick, then the decision's tick); v1.28.1's detached marker flashes its removed
    e1 for two ticks; then the hold before Done's ghosts fade."""
    per, hold = BEATS["per"], BEATS["hold"]
    assert beats(scene_at(lost_marker, 6)) == [
        Beat(per, (("v1.28.2", "e2"),), (("v1.28.1", "e1"),)),
        Beat(per, (), (("v1.28.1", "e1"),)),
        Beat(hold),
    ]


def test_a_step_that_removes_without_walking_holds_its_ghosts_solid(lost_marker):
    assert beats(scene_at(lost_marker, 5)) == [Beat(BEATS["hold"])]
    assert beats(scene_at(lost_marker, 2)) == []  # an event arrives: nothing removed, nothing walked


def test_beat_a_draws_the_ghosts_solid_and_their_tags_hidden(lost_marker):
    scene = scene_at(lost_marker, 6)
    settled = ET.fromstring(render(lost_marker.name, scene))
    first = drawn(settled, beats(scene)[0], "light")
    palette = THEMES["light"]
    # v1.28.2's e2: walked, now visited (a ring in the visit colour under its box, lifted); still solid
    e2 = entry(first, "v1.28.2", "data-id", "e2")
    assert [r.get("fill") for r in e2.findall(f"{{{SVG}}}rect") if r.get("data-beat") == "ring"] == [palette["visit"]]
    assert e2.get("transform") == "translate(0 -4)"
    gone = [r for r in e2.findall(f"{{{SVG}}}rect") if r.get("data-tag") == "gone"]
    assert [r.get("opacity") for r in gone] == ["0"]
    boxes = [r for r in e2.findall(f"{{{SVG}}}rect") if r.get("stroke-width") == "2"]
    assert boxes[0].get("stroke-dasharray") is None
    # in the settled picture the same entry is a ghost: dashed, its tag shown, no ring
    settled_e2 = entry(settled, "v1.28.2", "data-id", "e2")
    assert [r.get("stroke-dasharray") for r in settled_e2.findall(f"{{{SVG}}}rect")
            if r.get("stroke-width") == "2"][0] == "5 3"
    assert not [r for r in settled_e2.iter() if r.get("data-beat") or r.get("opacity") == "0"]
    # v1.28.1's removed e1, which B's detached marker names, flashes in the bug colours
    e1 = entry(first, "v1.28.1", "data-removed-id", "e1")
    assert [r.get("fill") for r in e1.findall(f"{{{SVG}}}rect") if r.get("data-beat") == "ring"] == [palette["bug"]]
    assert palette["bug-bg"] in [r.get("fill") for r in e1.findall(f"{{{SVG}}}rect")]
    # the hold: solid ghosts, nothing visited
    last = drawn(settled, beats(scene)[-1], "light")
    assert not [r for r in last.iter() if r.get("data-beat")]


def test_the_frames_of_steps_1_to_6(lost_marker):
    per, hold = BEATS["per"], BEATS["hold"]
    pictures = frames(lost_marker, 0, 6)
    assert [ms for _, ms in pictures] == [2500] * 5 + [hold, 2500, per, per, hold, 5000]
    assert "position 6 of 6" in pictures[-1][0] and "position 0 of 6" in pictures[0][0]


def test_frames_are_rasterized_with_legible_text(lost_marker):
    """The title's words are drawn (a font was found): dark pixels in its line, none in the margin above."""
    svg = frames(lost_marker, 6, 6, preset=FULL)[0][0]
    image = rasterized(svg, 640, height_at(svg, 640) + 10, THEMES["light"]["bg"])
    assert image.size == (640, height_at(svg, 640) + 10)
    fg = ImageColor.getrgb(THEMES["light"]["fg"])

    def inked(top, bottom):
        return sum(1 for x in range(10, 300) for y in range(top, bottom)
                   if sum(abs(a - b) for a, b in zip(image.getpixel((x, y)), fg)) < 120)

    assert inked(2, 5) == 0
    assert inked(5, 17) > 40  # "The lost marker", 18 px bold at under half size: no font, no ink
    assert image.getpixel((639, image.height - 1)) == ImageColor.getrgb(THEMES["light"]["bg"])  # the canvas


@pytest.mark.parametrize("request_, message", [
    (Request(0, 7, "gif"), "the range must lie within positions 0..6"),
    (Request(4, 3, "gif"), "start comes after its end"),
    (Request(0, 6, "webm"), "format must be one of gif, apng"),
    (Request(0, 6, "gif", "sepia"), "theme must be one of light, dark"),
    (Request(0, 6, "gif", width=319), "width must be 320 to 1920 pixels"),
])
def test_bad_requests_are_invalid(lost_marker, request_, message):
    with pytest.raises(Invalid, match=message):
        export_animation(lost_marker, request_)


def test_the_pixels_are_bounded_before_any_frame_is_drawn(lost_marker, monkeypatch):
    monkeypatch.setattr(animation, "MAX_PIXELS", 1_000_000)
    with pytest.raises(TooLarge, match="11 frames of 1920 x"):
        export_animation(lost_marker, Request(0, 6, "gif", width=1920))
