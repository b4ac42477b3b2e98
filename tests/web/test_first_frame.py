"""The first frame (webapp/web/firstframe.py): the viewer ``/``, the embed and a room's ``/r/CODE`` carry the
current picture's panes in their HTML, with the stylesheet inline and allowed by its hash alone; a room's at its
presenter's step, with nothing a follower is not sent (no token, no notes, no answer). Real servers, both modes;
the pods are read from the HTML as a page without its script has them."""

from html.parser import HTMLParser

import pytest
import requests

from tests.web.sockclient import Client
from tests.web.test_room_bounds import presenter_at, presenter_at_a_poll, serve
from tests.web.test_room_privacy import OUTCOMES
from tests.web.test_security import BRIEF_POLICY, Tags, directives, sha256_source
from webapp.engine.simulation import Simulation
from webapp.presenter import state_message
from webapp.scenario.resolve import resolve

TIMEOUT_S = 30  # against a hang only


@pytest.fixture(params=["eventlet", "threading"])
def mode(request):
    return request.param


class FirstPanes(HTMLParser):
    """What the first frame draws: {theme: {variant: {queue: [pod, ...]}}}, read from ``#first-frame``."""

    def __init__(self, html: str):
        super().__init__()
        self.pods: dict[str, dict[str, dict[str, list[str]]]] = {}
        self.stack: list[dict] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        top = dict(self.stack[-1]) if self.stack else {}
        if tag == "div" and "first-pane" in attrs.get("class", ""):
            top["theme"] = attrs["data-theme-frame"]
        for name in ("data-variant", "data-queue"):
            if name in attrs:
                top[name] = attrs[name]
        if "data-pod" in attrs and "data-queue" in top:
            pane = self.pods.setdefault(top["theme"], {}).setdefault(top["data-variant"], {})
            pane.setdefault(top["data-queue"], []).append(attrs["data-pod"])
        self.stack.append(top)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if self.stack:
            self.stack.pop()


def scene_pods(scenario_id: str, position: int) -> dict[str, dict[str, list[str]]]:
    """{variant: {queue: [pod, ...]}} of the built-in's scene at ``position`` (queues with a pod)."""
    scenario, _ = resolve(scenario_id)
    sim = Simulation(scenario, scenario.versions)
    sim.seek(position)
    scene = state_message(sim.frame())["scene"]
    return {variant: {lane["queue"]: [chip["pod"] for chip in lane["chips"]] for lane in pane["lanes"]
                      if lane["chips"]} for variant, pane in scene["panes"].items()}


def page(url: str) -> requests.Response:
    response = requests.get(url, timeout=TIMEOUT_S)
    assert response.status_code == 200, (url, response.status_code)
    return response


def assert_style_allowed_by_hash_alone(response: requests.Response, framed: bool = False) -> None:
    """One inline <style>, the page's stylesheet, allowed by its hash; no other inline style or script."""
    tags = Tags(response.text)
    styles = [text for attrs, text in tags.script_text if attrs["tag"] == "style"]
    assert len(styles) == 1 and ".first-pane" in styles[0]
    assert all(attrs.get("src") and not text.strip() for attrs, text in tags.script_text if attrs["tag"] == "script")
    assert not [attrs for _, attrs in tags.tags if "style" in attrs]
    expected = BRIEF_POLICY.replace("style-src 'self'", f"style-src 'self' {sha256_source(styles[0])}")
    if framed:
        expected = expected.replace("; frame-ancestors 'self'", "")
    assert response.headers["Content-Security-Policy"] == expected
    assert directives(expected)["style-src"] == f"'self' {sha256_source(styles[0])}"


def test_the_viewer_and_the_embed_draw_their_position_in_both_themes(mode):
    with serve(mode) as server:
        expected = scene_pods("lost-marker", 5)
        for path, framed in (("/?scenario=lost-marker&position=5", False),
                             ("/embed?scenario=lost-marker&position=5", True)):
            response = page(server.url + path)
            drawn = FirstPanes(response.text).pods
            assert drawn == {"light": expected, "dark": expected}, path
            assert_style_allowed_by_hash_alone(response, framed)
        dark = FirstPanes(page(server.url + "/?scenario=lost-marker&position=5&theme=dark").text).pods
        assert dark == {"dark": expected}  # a page in one theme carries its picture in that one alone
        start = FirstPanes(page(server.url + "/embed?scenario=lost-marker").text).pods
        assert start["light"] == scene_pods("lost-marker", 0)
        assert server.proc.poll() is None


def test_a_rooms_page_draws_its_presenters_step_and_nothing_of_the_presenters(mode):
    with serve(mode) as server:
        presenter, drive = presenter_at_a_poll(server.url)  # at 5, B's failure next, its poll open
        response = page(f"{server.url}/r/{drive['room']}")
        assert FirstPanes(response.text).pods == {"light": scene_pods("lost-marker", 5),
                                                  "dark": scene_pods("lost-marker", 5)}
        assert drive["token"] not in response.text
        assert not [outcome for outcome in OUTCOMES if outcome in response.text]  # the answer, the notes, the intro
        assert_style_allowed_by_hash_alone(response)
        presenter.call("poll_close", drive)
        presenter.call("step", drive)  # the room moves on: its page draws the new step
        moved = FirstPanes(page(f"{server.url}/?room={drive['room']}").text).pods
        assert moved["light"] == scene_pods("lost-marker", 6)
        presenter.close()
        assert server.proc.poll() is None


def test_a_room_with_nothing_to_show_and_a_handed_over_scenario_have_no_first_frame(mode):
    with serve(mode) as server:
        empty = Client(server.url)
        room = empty.call("create_room")["room"]  # no scenario loaded yet
        presenter, drive = presenter_at(server.url, 2)
        presenter.call("blank", {"on": True, **drive})  # the presenter blanked the followers' screens
        for path in (f"/r/{room}", f"/r/{drive['room']}", "/?scenario=__inline__", "/?inline=abc&position=2",
                     "/r/NOSUCH"):
            response = page(server.url + path)
            assert FirstPanes(response.text).pods == {}, path
            assert 'id="first-frame"' not in response.text and "<style" not in response.text, path
            assert response.headers["Content-Security-Policy"] == BRIEF_POLICY, path
        for client in (empty, presenter):
            client.close()
        assert server.proc.poll() is None


def test_a_picture_past_the_memory_bound_leaves_the_page_without_it():
    """Drawn as an export is, within the sessions' memory bound: past it, the page opens as it did before."""
    with serve("threading", MAX_SESSION_BYTES=4096) as server:
        response = page(server.url + "/?scenario=lost-marker&position=3")
        assert FirstPanes(response.text).pods == {}
        assert 'id="panes"' in response.text and response.headers["Content-Security-Policy"] == BRIEF_POLICY
        assert server.proc.poll() is None
