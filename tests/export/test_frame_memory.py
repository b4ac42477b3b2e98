"""An animated export's pixels are bounded by the memory they take (issue 39, item 5): a frame too large is refused
before any is drawn, naming the width and the widest that fits; the largest frame allowed keeps a process's peak
RSS under WORKER_RSS_MOST (measured in a fresh process: the bound's model holds); the server and the CLI refuse
alike."""

from __future__ import annotations

import functools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from webapp import ROOT, create_app
from webapp.errors import TooLarge
from webapp.export import animation
from webapp.export.animation import PIXEL_BYTES_MOST, WORKER_RSS_MOST, check_pixels, export_animation
from webapp.export.preset import PRESETS
from webapp.export.request import KINDS, Request
from webapp.scenario.generate import generate
from webapp.scenario.resolve import resolve

TALL_PODS = 1000  # a single frame 1,800 px wide is about 40,600 px tall (1,800 x 41,065 in issue 39)
FULL = "full"  # the page's layout, whose frame those figures are (a slide's is four times as tall)


@functools.cache
def tall() -> dict:
    return generate(random.Random(2).choice, 40, pods=TALL_PODS)


def widest_in(message: str) -> int:
    return int(message.split("at most ")[1].split(" pixels wide")[0])


def test_a_frame_too_large_is_refused_naming_the_width_and_what_fits():
    scenario = resolve(tall())[0]
    end = len(scenario.steps)
    with pytest.raises(TooLarge) as refused:
        export_animation(scenario, Request(end, end, "gif", width=1800, preset=FULL))
    message = str(refused.value)
    assert message.startswith("width: 1 frames of 1800 x ")
    assert f"over the {PIXEL_BYTES_MOST // 2**20:,} MiB" in message and "expected at most" in message
    widest = widest_in(message)
    assert 320 <= widest < 1800
    height = animation.height_at(animation.frames(scenario, end, end, preset=PRESETS[FULL])[0][0], widest)
    check_pixels(1, widest, height, "gif")  # the width it names fits


def test_every_kind_is_bounded_by_the_same_model():
    for kind in KINDS:
        with pytest.raises(TooLarge, match="expected at most"):
            check_pixels(36, 1280, 1500, kind)
        check_pixels(36, 640, 542, kind)
    with pytest.raises(TooLarge, match="no width fits this range"):
        check_pixels(1, 320, 200_000, "apng")


PEAK = """
import json, random, sys
from pathlib import Path
from webapp.export.animation import export_animation
from webapp.export.request import Request
from webapp.export.preset import PRESETS
from webapp.scenario.generate import generate
from webapp.scenario.resolve import resolve
scenario = resolve(generate(random.Random(2).choice, 40, pods=int(sys.argv[1])))[0]
end = len(scenario.steps)
data = export_animation(scenario, Request(end, end, sys.argv[2], width=int(sys.argv[3]), preset="full"))
peak = next(int(line.split()[1]) for line in Path("/proc/self/status").read_text().splitlines()
            if line.startswith("VmHWM:"))
print(json.dumps({"peak": peak * 1024, "bytes": len(data)}))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("kind", KINDS)
def test_the_largest_frame_allowed_keeps_the_process_under_its_ceiling(kind):
    """The tall scenario at the widest width the bound allows: drawn and encoded in a fresh process, whose peak RSS
    (VmHWM) stays under WORKER_RSS_MOST."""
    with pytest.raises(TooLarge) as refused:
        check_pixels(1, 1800, 40_600, kind)
    widest = widest_in(str(refused.value))
    out = subprocess.run([sys.executable, "-c", PEAK, str(TALL_PODS), kind, str(widest)], cwd=ROOT, check=True,
                         capture_output=True, text=True, timeout=600)
    answer = json.loads(out.stdout)
    assert answer["bytes"] > 0
    assert answer["peak"] < WORKER_RSS_MOST, f"peak RSS {answer['peak']:,} at {widest} px"


def test_the_server_refuses_it_in_words():
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True})
    try:
        scenario = tall()
        end = len(resolve(scenario)[0].steps)
        answer = app.test_client().post(f"/export/gif?from={end}&to={end}&width=1800&preset={FULL}", json=scenario)
        assert answer.status_code == 400 and answer.get_json()["kind"] == "TooLarge"
        assert answer.get_json()["message"].startswith("width: ")
    finally:
        app.extensions["inflight_guard"].sweeper.stop()


def test_the_cli_refuses_it_in_one_line(tmp_path):
    source = tmp_path / "tall.json"
    source.write_text(json.dumps(tall()))
    end = len(resolve(tall())[0].steps)
    out = tmp_path / "tall.gif"
    run = subprocess.run([sys.executable, "-m", "webapp.cli", "export", str(source), "--from", str(end), "--to",
                          str(end), "--width", "1800", "--preset", FULL, "-o", str(out)], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 2 and not out.exists()
    [line] = run.stderr.strip().splitlines()
    assert "width: 1 frames of 1800 x" in line and "expected at most" in line
