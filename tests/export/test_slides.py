"""The slide preset (the animated exports' default): its text measured in the SVG the export draws, at least the
tokens' type.slide pixels in a frame 1280 px wide, and no legend; the MP4 written and read back with PyAV; without
PyAV a video is refused naming the install (the CLI and the web route, in a process that cannot import it)."""

import io
import json
import subprocess
import sys
from pathlib import Path

import av
import pytest

from webapp.engine.simulation import Simulation
from webapp.errors import TooLarge
from webapp.export.animation import check_pixels, export_animation, frames
from webapp.export.preset import FULL, SLIDE, WIDTH
from webapp.export.raster import height_at
from webapp.export.request import INSTALL, Request
from webapp.export.svg import render
from webapp.export.tokens import TYPE
from webapp.presenter import state_message
from webapp.scenario import builtin
from webapp.scenario.load import load_scenario

from .drawn import font_sizes, legend_share

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lost_marker():
    return load_scenario(builtin.get("lost-marker"))


def test_the_default_animations_least_text_is_a_slides(lost_marker):
    """Every frame of the lost marker's steps 1-6 (the beats' too), as the animated exports draw them by default."""
    assert Request(0, 6, "gif").preset == SLIDE.name
    pictures = frames(lost_marker, 0, 6)
    least = min(min(font_sizes(svg)) for svg, _ in pictures)
    assert least[0] >= TYPE["slide"], f"{least[1]!r} at {least[0]:.1f} px"
    assert max(legend_share(svg) for svg, _ in pictures) <= 0.1


@pytest.mark.parametrize("scenario_id", builtin.ids())
def test_every_builtins_last_picture_reads_on_a_slide(scenario_id):
    scenario = load_scenario(builtin.get(scenario_id))
    sim = Simulation(scenario, scenario.versions)
    sim.seek(len(scenario.steps))
    svg = render(scenario.name, state_message(sim.frame())["scene"], preset=SLIDE)
    size, words = min(font_sizes(svg))
    assert size >= TYPE["slide"], f"{words!r} at {size:.1f} px"
    assert legend_share(svg) == 0


def test_the_full_preset_is_the_pages_picture(lost_marker):
    """The page's layout stays as it was: its small print and its legend (what a slide leaves out)."""
    svg = frames(lost_marker, 6, 6, preset=FULL)[0][0]
    assert min(font_sizes(svg))[0] < TYPE["slide"] / 2
    assert legend_share(svg) > 0.3


def test_an_mp4_is_written_and_read_back(lost_marker):
    """One video frame per picture, each shown its time; 1280 px wide, the frames' height made even."""
    pictures = frames(lost_marker, 4, 6)
    data = export_animation(lost_marker, Request(4, 6, "mp4"))
    height = max(height_at(svg, WIDTH) for svg, _ in pictures)
    with av.open(io.BytesIO(data)) as container:
        decoded = list(container.decode(video=0))
        seconds = container.duration / av.time_base
    assert len(decoded) == len(pictures)
    assert {(f.width, f.height) for f in decoded} == {(WIDTH, height + height % 2)}
    shown = [round(float(f.time) * 1000) for f in decoded]
    assert shown == [sum(ms for _, ms in pictures[:i]) for i in range(len(pictures))]
    assert seconds == pytest.approx(sum(ms for _, ms in pictures) / 1000, abs=0.05)


BLOCKED = "import sys; sys.modules['av'] = None  # PyAV cannot be imported in this process\n"


def blocked(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCKED + code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_without_pyav_the_cli_refuses_a_video_in_one_line(tmp_path):
    out = tmp_path / "lost.mp4"
    done = blocked(f"from webapp.cli import main; sys.exit(main(['export', 'lost-marker', '-o', {str(out)!r}]))")
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"inflight-scope export: --format mp4 needs PyAV, which is not installed here: {INSTALL}"]
    assert not out.exists()


def test_without_pyav_the_route_answers_501_naming_the_install():
    code = """
import json
from webapp import create_app
client = create_app({"ASYNC_MODE": "threading", "TESTING": True}).test_client()
answers = [client.get("/export/lost-marker.mp4?from=0&to=1"), client.get("/export/lost-marker.gif?from=0&to=1")]
print(json.dumps([[a.status_code, a.get_json(silent=True)] for a in answers]))
"""
    done = blocked(code)
    assert done.returncode == 0, done.stderr
    (status, body), (gif_status, _) = json.loads(done.stdout.splitlines()[-1])
    assert status == 501
    assert body["message"] == f"format mp4 needs PyAV, which is not installed here: {INSTALL}"
    assert gif_status == 200  # the other formats need no PyAV


def test_an_mp4_taller_than_the_encoder_takes_is_refused_naming_a_width_that_fits():
    with pytest.raises(TooLarge, match="taller than the 16,384 pixels an MP4's frame may be") as refused:
        check_pixels(1, 1280, 20_000, "mp4")
    assert "expected at most 1048 pixels wide" in str(refused.value)
    check_pixels(1, 1280, 20_000, "gif")  # a GIF as tall is drawn
