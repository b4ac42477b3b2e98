"""The animated exports over HTTP: /export/<id>.gif, .apng and .mp4, POST /export/gif, /export/apng, /export/mp4."""

import io

import av
import pytest
from PIL import Image

from tests.web.test_offload import Occupied
from webapp import create_app
from webapp.export.animation import frames
from webapp.export.request import MAX_STEPS


def decoded(response):
    image = Image.open(io.BytesIO(response.data))
    return image.format, image.n_frames, image.size


def test_a_built_in_range_as_gif_and_apng(client, lost_marker):
    response = client.get("/export/lost-marker.gif?from=4&to=6&width=400")
    assert response.status_code == 200
    assert response.mimetype == "image/gif"
    assert response.headers["Content-Disposition"] == 'attachment; filename="lost-marker-4-6.gif"'
    kind, count, (width, _) = decoded(response)
    assert (kind, count, width) == ("GIF", len(frames(lost_marker, 4, 6)), 400)
    response = client.get("/export/lost-marker.apng?to=1&theme=dark&width=320")
    assert response.status_code == 200
    assert response.mimetype == "image/apng"
    assert response.headers["Content-Disposition"] == 'attachment; filename="lost-marker-0-1.png"'
    assert decoded(response)[:2] == ("PNG", len(frames(lost_marker, 0, 1, "dark")))


def test_a_range_as_mp4_and_the_presets(client, lost_marker_raw, lost_marker):
    """An MP4 is the same frames as a video; the slide preset is the default, ?preset=full the page's picture."""
    response = client.post("/export/mp4?from=5&width=320", json=lost_marker_raw)
    assert response.status_code == 200
    assert response.mimetype == "video/mp4"
    assert response.headers["Content-Disposition"] == 'attachment; filename="the-lost-marker-5-6.mp4"'
    with av.open(io.BytesIO(response.data)) as container:
        assert len(list(container.decode(video=0))) == len(frames(lost_marker, 5, 6))
    slide = decoded(client.get("/export/lost-marker.gif?from=6&width=320"))[2]
    full = decoded(client.get("/export/lost-marker.gif?from=6&width=320&preset=full"))[2]
    assert slide[1] > 2 * full[1]  # the panes stacked, drawn twice as large


def test_a_posted_scenario(client, lost_marker_raw, lost_marker):
    response = client.post("/export/gif?from=5&width=320", json=lost_marker_raw)
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == 'attachment; filename="the-lost-marker-5-6.gif"'
    assert decoded(response)[1] == len(frames(lost_marker, 5, 6))


@pytest.mark.parametrize("query, said", [
    ("from=2&to=9", "the range must lie within positions 0..6 of this scenario, got 2..9"),
    ("from=4&to=3", "the range's start comes after its end: 4..3"),
    ("from=x", "from must be a whole number, got 'x'"),
    ("to=-2", "to must be a whole number, got '-2'"),
    ("width=2000", "width must be 320 to 1920 pixels, got 2000"),
    ("theme=blue", "theme must be one of light, dark, not 'blue'"),
    ("preset=poster", "preset must be one of slide, full, not 'poster'"),
    ("versions=v9", "versions: "),
])
def test_bad_queries_are_400_with_the_reason(client, query, said):
    response = client.get(f"/export/lost-marker.gif?{query}")
    assert response.status_code == 400
    assert response.get_json()["message"].startswith(said)


def test_unknown_scenarios_and_bodies(client):
    assert client.get("/export/no-such.gif").status_code == 404
    response = client.post("/export/apng", data="[1, 2]", content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["message"] == "expected a scenario object as JSON in the request body"
    response = client.post("/export/gif", json={"schema": 1, "name": "x", "pods": [], "steps": "no"})
    assert response.status_code == 400


def test_a_long_range_is_refused_before_it_is_drawn(client, lost_marker_raw):
    raw = {**lost_marker_raw, "steps": [{"op": "event", "event": "NodeAdd"}] * (MAX_STEPS + 2)}
    response = client.post("/export/gif?from=0", json=raw)
    assert response.status_code == 400
    assert response.get_json()["kind"] == "TooLarge"
    assert response.get_json()["message"] == (f"an animation holds at most {MAX_STEPS} steps, not {MAX_STEPS + 2}: "
                                              "export a shorter range")


GROWING = {"schema": 1, "name": "growing", "pods": [{"name": "A"}], "initial_active": ["A"],
           "steps": [{"op": "pop"}] + [{"op": "event", "event": "PvAdd"}] * 1_500}


@pytest.fixture
def bounded_app():
    app = create_app({"ASYNC_MODE": "threading", "TESTING": True, "MAX_SESSION_BYTES": 256 * 1024,
                      "MAX_LOADS_AT_ONCE": 1, "MAX_LOADS_WAITING": 0})
    yield app
    app.extensions["inflight_guard"].sweeper.stop()


def test_a_posted_animation_builds_its_simulation_under_the_session_bound(bounded_app):
    response = bounded_app.test_client().post("/export/gif?from=1490&to=1500&width=320", json=GROWING)
    assert response.status_code == 400
    assert response.json["message"].startswith("this scenario is too large to step through here: by step ")


def test_an_animation_is_heavy_work_even_of_a_built_in(bounded_app):
    """Seconds of drawing however small the request: it takes a heavy-work place, and is refused Busy without one."""
    client = bounded_app.test_client()
    with Occupied(bounded_app.extensions["inflight_offload"], 1):
        response = client.get("/export/lost-marker.gif?from=5&width=320")
        assert response.status_code == 503
        assert response.json["kind"] == "Busy"
        assert client.get("/export/lost-marker.svg?position=5").status_code == 200  # an SVG is small work
    assert client.get("/export/lost-marker.gif?from=5&width=320").status_code == 200
