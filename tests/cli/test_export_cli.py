"""``inflight-scope export``: the files it writes decoded (Pillow for the GIF and APNG), and every bad input
refused in one line with status 2, no file written. Run in this process (tests/cli/run.py) but for
test_stdout_and_stdin: a real ``python -m webapp.cli export``, the scenario read from a pipe and the GIF written
to one in binary, the entry point end to end."""

import io
import json
import re
import xml.etree.ElementTree as ET

import av
import pytest
from PIL import Image, ImageColor

from tests.cli.run import cli
from webapp.export.animation import frames
from webapp.export.preset import SLIDE
from webapp.export.raster import height_at
from webapp.export.request import MAX_STEPS
from webapp.export.svg import picture_width
from webapp.export.tokens import THEMES
from webapp.scenario import builtin
from webapp.scenario.load import load_scenario

WIDTH = 480  # small pictures: the suite's time


def run(*args, stdin=None, process=False):
    return cli("export", *args, stdin=stdin, process=process)


@pytest.fixture(scope="module")
def lost_marker():
    return load_scenario(builtin.get("lost-marker"))


def expected(scenario, start, end, theme="light", width=WIDTH):
    """The frames' count, the canvas's height at ``width`` and each frame's time, as animation.py plans them."""
    pictures = frames(scenario, start, end, theme)
    return len(pictures), max(height_at(svg, width) for svg, _ in pictures), [ms for _, ms in pictures]


def played(image):
    """Each frame of an animation: its time in ms and its size, read back by Pillow."""
    out = []
    for i in range(image.n_frames):
        image.seek(i)
        out.append((image.info["duration"], image.size))
    return out


def test_a_gif_of_the_lost_marker_holds_each_step_and_the_climax_beats(tmp_path, lost_marker):
    out = tmp_path / "lost.gif"
    result = run("lost-marker", "--from", 0, "--to", 6, "--width", WIDTH, "-o", out)
    assert result.returncode == 0, result.stderr
    assert result.stdout == b""
    count, height, times = expected(lost_marker, 0, 6)
    with Image.open(out) as gif:
        assert gif.format == "GIF" and gif.is_animated
        assert gif.info["loop"] == 0
        frames_read = played(gif)
    assert count == len(frames_read) == 11  # 7 positions, step 5's solid ghosts, step 6's flash and sweep and hold
    assert {size for _, size in frames_read} == {(WIDTH, height)}
    assert [ms for ms, _ in frames_read] == times
    assert times[-1] == 5000 and times.count(2500) == 6  # a hold on every position, the last the longest
    bar = round(70 * WIDTH / picture_width(2, SLIDE))  # v1.28.1's bar: 68 to 73 in the SVG's units
    with Image.open(out) as gif:  # one palette holding the tokens: v1.28.1's bar in the bug colour, exactly
        assert gif.convert("RGB").getpixel((100, bar)) == ImageColor.getrgb(THEMES["light"]["bug"])


def test_an_apng_is_lossless_and_as_long(tmp_path, lost_marker):
    out = tmp_path / "lost.png"
    result = run("lost-marker", "--from", 4, "--to", 6, "--format", "apng", "--theme", "dark", "--width", WIDTH,
                 "-o", out)
    assert result.returncode == 0, result.stderr
    count, height, times = expected(lost_marker, 4, 6, "dark")
    with Image.open(out) as apng:
        assert apng.format == "PNG" and apng.is_animated
        assert apng.info["loop"] == 0
        frames_read = played(apng)
        apng.seek(0)
        assert apng.convert("RGB").getpixel((2, 2)) == (0x0F, 0x13, 0x18)  # the dark theme's background, exactly
    assert len(frames_read) == count
    assert {size for _, size in frames_read} == {(WIDTH, height)}
    assert [ms for ms, _ in frames_read] == times


def test_the_format_follows_the_file_name_unless_given(tmp_path):
    for name, opened in (("a.png", "PNG"), ("a.gif", "GIF"), ("a.APNG", "PNG")):
        assert run("lost-marker", "--from", 6, "--width", 320, "-o", tmp_path / name).returncode == 0
        with Image.open(tmp_path / name) as image:
            assert image.format == opened
    assert run("lost-marker", "--to", 6, "-o", tmp_path / "a.svg").returncode == 0
    assert (tmp_path / "a.svg").read_text().startswith("<?xml")
    assert run("lost-marker", "--from", 6, "--width", 320, "--format", "gif", "-o", tmp_path / "b.png").returncode == 0
    with Image.open(tmp_path / "b.png") as image:
        assert image.format == "GIF"


def test_stdout_and_stdin(lost_marker):
    raw = json.dumps(builtin.get("lost-marker"))
    result = run("-", "--from", 5, "--to", 6, "--width", 320, "-o", "-", stdin=raw.encode(), process=True)
    assert result.returncode == 0, result.stderr
    with Image.open(io.BytesIO(result.stdout)) as gif:
        assert gif.format == "GIF" and gif.n_frames == expected(lost_marker, 5, 6)[0]
        assert gif.width == 320


def test_a_width_whose_text_is_too_small_to_read_is_warned_of(tmp_path):
    result = run("lost-marker", "--from", 6, "--width", 640, "--preset", "full", "-o", tmp_path / "small.gif")
    assert result.returncode == 0
    assert result.stderr.decode().splitlines()[0] == ("inflight-scope export: warning: at 640 px wide the picture's "
                                                      "text is 5.7 px high; 1006 px or more reads well")
    result = run("lost-marker", "--from", 6, "--width", 1006, "--preset", "full", "-o", tmp_path / "large.gif")
    assert "warning" not in result.stderr.decode()
    # a slide's text is twice as large: 12 px at 640, under 9 px only under 480
    assert "warning" not in run("lost-marker", "--from", 6, "--width", 640, "-o", tmp_path / "s.gif").stderr.decode()
    result = run("lost-marker", "--from", 6, "--width", 400, "-o", tmp_path / "narrow.gif")
    assert result.stderr.decode().splitlines()[0] == ("inflight-scope export: warning: at 400 px wide the picture's "
                                                      "text is 7.5 px high; 480 px or more reads well")


def test_the_default_is_the_slide_preset_and_mp4_is_a_video(tmp_path, lost_marker):
    """The GIF's frames are the slide's pictures (taller than the page's: the panes stacked); an .mp4 is a video of
    the same frames."""
    assert run("lost-marker", "--from", 5, "--width", 320, "-o", tmp_path / "a.gif").returncode == 0
    assert run("lost-marker", "--from", 5, "--width", 320, "--preset", "full", "-o", tmp_path / "b.gif").returncode == 0
    assert run("lost-marker", "--from", 5, "--width", 320, "-o", tmp_path / "a.mp4").returncode == 0
    count, height, _ = expected(lost_marker, 5, 6, width=320)
    with Image.open(tmp_path / "a.gif") as slide, Image.open(tmp_path / "b.gif") as full:
        assert (slide.n_frames, slide.size) == (count, (320, height))
        assert full.height < height * 0.6
    with av.open(str(tmp_path / "a.mp4")) as container:
        pictures = list(container.decode(video=0))
    assert (len(pictures), pictures[0].width, pictures[0].height) == (count, 320, height + height % 2)


def test_html_opens_at_to_locked_to_the_range_when_both_are_given(tmp_path):
    locked, opened = tmp_path / "locked.html", tmp_path / "opened.html"
    assert run("lost-marker", "--from", "2", "--to", "6", "--format", "html", "-o", locked).returncode == 0
    assert run("lost-marker", "--to", "5", "-o", opened).returncode == 0
    assert re.search(r'id="app"[^>]*?\sdata-position="6"[^>]*?\sdata-range-from="2"[^>]*?\sdata-range-to="6"',
                     locked.read_text(), re.DOTALL)
    text = opened.read_text()
    assert re.search(r'id="app"[^>]*?\sdata-position="5"', text, re.DOTALL) and "data-range-from" not in text


def test_svg_draws_the_range_end_and_html_is_the_offline_file(tmp_path):
    svg, html = tmp_path / "six.svg", tmp_path / "lost.html"
    assert run("lost-marker", "--to", 6, "--format", "svg", "-o", svg).returncode == 0
    root = ET.parse(svg).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "position 6 of 6" in svg.read_text()
    assert run("lost-marker", "--format", "html", "-o", html).returncode == 0
    assert 'id="inflight-bundle"' in html.read_text()


BAD = {
    "past the end": (["--from", 2, "--to", 9], "the range must lie within positions 0..6 of this scenario, got 2..9"),
    "start after end": (["--from", 5, "--to", 3], "the range's start comes after its end: 5..3"),
    "not a number": (["--from", "two"], "--from must be a whole number, not 'two'"),
    "negative": (["--to", "-1"], "--to must be a whole number, not '-1'"),
    "unknown format": (["--format", "webm"], "--format must be one of gif, apng, mp4, svg, html, not 'webm'"),
    "unknown preset": (["--preset", "poster"], "--preset must be one of slide, full, not 'poster'"),
    "unknown theme": (["--theme", "sepia"], "--theme must be one of light, dark, not 'sepia'"),
    "too narrow": (["--width", 100], "--width must be 320 to 1920 pixels, got 100"),
    "too wide": (["--width", 5000], "--width must be 320 to 1920 pixels, got 5000"),
}


@pytest.mark.parametrize("args, said", BAD.values(), ids=BAD.keys())
def test_a_bad_option_is_one_line_status_2_and_no_file(tmp_path, args, said):
    out = tmp_path / "out.gif"
    result = run("lost-marker", *args, "-o", out)
    assert result.returncode == 2
    assert result.stderr.decode() == f"inflight-scope export: {said}\n"
    assert not out.exists()


def test_a_bad_scenario_is_one_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema: 1\nname: broken\npods: [A]\nsteps:\n  - op: pop\n    pod: Z\n  - op: nonsense\n")
    out = tmp_path / "out.gif"
    for name, said in ((bad, f"{bad}: "), (tmp_path / "missing.yaml", "No such file or directory"),
                       ("no-such-built-in", "no-such-built-in: ")):
        result = run(name, "-o", out)
        assert result.returncode == 2
        lines = result.stderr.decode().splitlines()
        assert len(lines) == 1 and said in lines[0], lines
        assert not out.exists()


def test_an_unwritable_output_is_refused_before_any_work(tmp_path):
    result = run("lost-marker", "-o", tmp_path / "no" / "such" / "dir.gif")
    assert result.returncode == 2
    assert result.stderr.decode().startswith("inflight-scope export: -o ")
    assert "no such directory" in result.stderr.decode()


def test_a_range_over_the_bound_is_refused(tmp_path):
    steps = [{"op": "event", "event": "NodeAdd"}] * (MAX_STEPS + 1)
    long = tmp_path / "long.json"
    long.write_text(json.dumps({"schema": 1, "name": "long", "pods": [{"name": "A"}], "steps": steps}))
    out = tmp_path / "out.gif"
    result = run(long, "--from", 0, "-o", out)
    assert result.returncode == 2
    assert result.stderr.decode() == (f"inflight-scope export: an animation holds at most {MAX_STEPS} steps, "
                                      f"not {MAX_STEPS + 1}: export a shorter range\n")
    assert not out.exists()


def test_a_range_named_by_its_end_starts_as_far_back_as_the_bound(tmp_path):
    steps = [{"op": "event", "event": "NodeAdd"}] * (MAX_STEPS + 1)
    long = tmp_path / "long.json"
    long.write_text(json.dumps({"schema": 1, "name": "long", "pods": [{"name": "A"}], "steps": steps}))
    out = tmp_path / "out.gif"
    result = run(long, "--width", 320, "-o", out)
    assert result.returncode == 0, result.stderr
    with Image.open(out) as gif:
        assert gif.n_frames == len(frames(load_scenario(json.loads(long.read_text())), 1, MAX_STEPS + 1))
