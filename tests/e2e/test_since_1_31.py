"""What changed since 1.31, in a real browser: each lesson about these changes is walked from its start to its end
with the arrow key on one page, and at every position every pane draws what the scene asks (each chip's lane, marks
and their words, backoffQ's windows, the entries and whom they are for, the narration's title); on the way a pod Pop
takes from backoffQ flies from backoffQ (v1.36.2) while v1.31.13's flies from activeQ, a discarded duplicate stays
where Pop took it, a ForceActivate entry's tag sits over its box, a gate's name wraps between its words when
presenting, PopSpecificPod's arrows cross neither in-flight chip, and each lesson's key step is kept as pictures
(light and dark, presenting, a phone's whole page). The expected drawing comes from the scene
(webapp/presenter/scene.py, built in-process); what the scene says at each lesson's key step (which version marks
what, in which words) is tested in tests/presenter/test_since_1_31.py."""

from __future__ import annotations

import functools

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import MOTION
from tests.e2e.shown import counted
from tests.e2e.test_browser import settle
from tests.e2e.test_stage import READABLE_JS, at, present_mode, refitted
from webapp.engine.simulation import Simulation
from webapp.presenter.scene import present
from webapp.scenario import builtin
from webapp.scenario.resolve import resolve

LESSONS = builtin.ids()[builtin.ids().index("in-flight-update") + 1:]
PANES = "#panes > [data-variant]"

# Once the page shows position n of total and has settled (nothing leaving, no animation running): the versions
# of its panes, whether its error shows, and per pane what it draws (as `drawn_by_scene` builds from the scene)
# and where each chip is.
DRAWN_JS = """([n, total]) => {
  const position = document.querySelector('[data-testid=position]');
  if (!position || !new RegExp(`^${n} / ${total}(\\\\D|$)`).test(position.textContent)) return false;
  if (document.querySelector('#panes .leaving') || document.getAnimations().length) return false;
  const panes = [...document.querySelectorAll('#panes > [data-variant]')];
  const text = (el) => (el ? el.textContent : null);
  return {
    versions: panes.map((p) => p.dataset.variant),
    error: document.getElementById('error').checkVisibility(),
    panes: Object.fromEntries(panes.map((p) => [p.dataset.variant, {
      chips: [...p.querySelectorAll('[data-queue] .chip')].map((c) => [c.closest('[data-queue]').dataset.queue,
        c.dataset.pod, [...c.querySelectorAll('[data-mark]')].map((m) => [m.dataset.mark, m.textContent]),
        c.dataset.ghost === 'true']),
      windows: [...p.querySelectorAll('[data-queue] .window-rule')].map((w) => w.textContent),
      entries: [...p.querySelectorAll('.inflight-list [data-entry]')].map((e) => [e.dataset.entry, e.dataset.id,
        text(e.querySelector('.box > :first-child')), e.querySelector('.for-tag')?.dataset.forPod ?? null,
        text(e.querySelector('.for-tag'))]),
      title: text(p.querySelector('.narration-title')),
    }])),
    boxes: Object.fromEntries(panes.map((p) => [p.dataset.variant, Object.fromEntries(
      [...p.querySelectorAll('[data-queue] .chip')].map((c) => {
        const r = c.getBoundingClientRect();
        return [`${c.closest('[data-queue]').dataset.queue} ${c.dataset.pod}`, [r.x, r.y]];
      }))])),
  };
}"""


@functools.cache
def scene(scenario_id: str, position: int) -> dict:
    scenario = resolve(scenario_id)[0]
    sim = Simulation(scenario, list(scenario.versions))
    sim.seek(position)
    return present(sim.frame(), sim.preview())


def drawn_by_scene(scenario_id: str, position: int) -> dict:
    """What DRAWN_JS reads from each pane, as the scene asks it drawn."""
    return {v: {"chips": [[lane["queue"], c["pod"], [[m["kind"], m["text"]] for m in c.get("marks", ())],
                           bool(c.get("ghost"))] for lane in pane["lanes"] for c in lane["chips"]],
                "windows": [c["window"]["text"] for lane in pane["lanes"] for c in lane["chips"] if "window" in c],
                "entries": [[item["kind"], item["id"], item["label"], item.get("forPod"), item.get("forText")]
                            for item in pane["list"]["items"]],
                "title": pane["narration"]["title"] if pane["narration"] else None}
            for v, pane in scene(scenario_id, position)["panes"].items()}


def drawn(page, position: int, total: int) -> dict:
    return page.wait_for_function(DRAWN_JS, arg=[position, total]).json_value()


# each lesson's key step: where the change shows (the pop, the entry, the window, the heap, the failure counted)
KEY_STEP = {"pop-discards-duplicate": 4, "force-activate": 3, "pop-from-backoffq": 6, "backoff-windows": 6,
            "error-backoffq": 8, "backoff-counts-failures": 13, "gated-pods": 1, "pod-group-backoff": 4,
            "pop-specific": 4}
# the steps walked with the full motion, each chip's flight recorded (SPY_JS)
FLOWN = {("pop-from-backoffq", 6), ("pop-discards-duplicate", 4)}


def test_every_lesson_since_1_31_has_a_key_step():
    assert set(KEY_STEP) == set(LESSONS)


@pytest.mark.parametrize("scenario_id", LESSONS)
def test_each_lesson_since_1_31_walked_to_its_end_draws_what_the_scene_asks(make_page, artifacts_dir, scenario_id):
    page = make_page(width=1280, height=720)
    page.goto(f"/?scenario={scenario_id}")
    versions = list(resolve(scenario_id)[0].versions)
    total = builtin.step_count(scenario_id)
    before = None
    for position in range(total + 1):
        if position:
            if (scenario_id, position) in FLOWN:
                page.emulate_media(reduced_motion=MOTION)
                page.evaluate(SPY_JS)
            page.keyboard.press("ArrowRight")
        now = drawn(page, position, total)
        assert now["versions"] == versions and not now["error"], (position, now["versions"], now["error"])
        assert now["panes"] == drawn_by_scene(scenario_id, position), position
        if (scenario_id, position) in FLOWN:
            page.emulate_media(reduced_motion="reduce")
            CHECKS[scenario_id](page, before, now, page.evaluate("window.flights"))
        elif (scenario_id, position) in AT:
            AT[scenario_id, position](page, now)
        if position == KEY_STEP[scenario_id]:
            pictures(page, artifacts_dir, scenario_id, position)
        before = now
    if scenario_id == "pop-from-backoffq":
        the_picker_offers_the_new_versions_and_shows_three_side_by_side(page)


def pictures(page, artifacts_dir, scenario_id: str, position: int) -> None:
    """test-artifacts/screens/<id>/<position>-<width>x<height>-<theme>.png, for people to look at, light and dark: on
    the projector's size (and as a speaker shows it, -presenting.png) the lists are readable and nothing spills
    (test_screens' rule); a phone's is the whole page."""
    from tests.e2e.test_screens import png_size

    out = artifacts_dir / "screens" / scenario_id
    out.mkdir(parents=True, exist_ok=True)

    def shot(width, height, theme, suffix=""):
        path = out / f"{position}-{width}x{height}-{theme}{suffix}.png"
        path.unlink(missing_ok=True)
        page.screenshot(path=str(path), full_page=width < 600)
        w, h = png_size(path.read_bytes())
        assert w == width and (h >= height if width < 600 else h == height), f"{path.name}: {w}x{h}"

    def readable(theme):
        got = page.evaluate(READABLE_JS)
        assert got["font"] >= 11 and got["spills"] == [], f"{scenario_id} {position} {theme}: {got}"

    shot(1280, 720, "light")
    readable("light")
    present_mode(page)  # as a speaker shows it, light then dark
    shot(1280, 720, "light", "-presenting")
    page.emulate_media(color_scheme="dark")
    settle(page)
    refitted(page)
    shot(1280, 720, "dark", "-presenting")
    page.keyboard.press("p")
    expect(page.locator("#app.presenting")).to_have_count(0)
    settle(page)
    refitted(page)
    shot(1280, 720, "dark")
    readable("dark")
    page.set_viewport_size({"width": 390, "height": 844})
    for theme in ("dark", "light"):
        page.emulate_media(color_scheme=theme)
        settle(page)
        refitted(page)
        shot(390, 844, theme)
    page.set_viewport_size({"width": 1280, "height": 720})
    settle(page)
    refitted(page)


def the_picker_offers_the_new_versions_and_shows_three_side_by_side(page):
    from webapp.model.versions import VERSIONS

    page.click("#versions-summary")
    options = page.locator("#versions-options input")
    expect(options).to_have_count(len(VERSIONS))
    assert [o.get_attribute("value") for o in options.all()] == list(VERSIONS)
    page.locator('#versions-options input[value="v1.32.0"]').check()
    counted(page, PANES, 3)
    at(page, 6)
    settle(page)
    assert [p.get_attribute("data-variant") for p in page.locator(PANES).all()] == ["v1.31.13", "v1.32.0", "v1.36.2"]
    # v1.32.0 has no Pop from backoffQ: like v1.31.13 it popped A from activeQ after the flush
    expect(page.locator('[data-variant="v1.32.0"] [data-mark="early"]')).to_have_count(0)
    expect(page.locator('[data-variant="v1.36.2"] [data-mark="early"]')).to_have_count(1)


# A spy on the page's Web Animations (it records each chip's flight and lets it run): the first keyframe's
# translate of every animation started on a chip, by pane, lane and pod.
SPY_JS = """() => {
  window.flights = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (keyframes, options) {
    if (this.matches('.chip') && Array.isArray(keyframes) && /translate/.test(keyframes[0].transform || '')) {
      const [, dx, dy] = keyframes[0].transform.match(/translate\\((\\S+)px, (\\S+)px\\)/).map(Number);
      window.flights.push([this.closest('[data-variant]').dataset.variant, this.closest('[data-queue]').dataset.queue,
        this.dataset.pod, dx, dy]);
    }
    return animate.call(this, keyframes, options);
  };
}"""


def a_pod_popped_from_backoffq_flies_from_backoffq_into_flight(page, before, now, flights):
    was = {"v1.36.2": before["boxes"]["v1.36.2"]["backoffQ A"], "v1.31.13": before["boxes"]["v1.31.13"]["activeQ A"]}
    flown = {(v, q, pod): (dx, dy) for v, q, pod, dx, dy in flights}
    for variant, (x, y) in was.items():  # each flew from where it was: v1.36.2's from backoffQ, v1.31.13's activeQ
        nx, ny = now["boxes"][variant]["inFlight A"]
        dx, dy = flown[variant, "inFlight", "A"]
        assert abs(dx - (x - nx)) <= 1.5 and abs(dy - (y - ny)) <= 1.5, (variant, dx, dy, was, nx, ny)
    assert was["v1.36.2"][0] != was["v1.31.13"][0]  # from two different lanes


def a_discarded_record_stays_where_pop_took_it_and_the_popped_pod_flies(page, before, now, flights):
    flown = {(v, q, pod) for v, q, pod, *_ in flights}
    assert ("v1.32.0", "inFlight", "B") in flown  # B flew from activeQ into flight
    assert ("v1.32.0", "activeQ", "A") not in flown  # the faint record did not fly anywhere


CHECKS = {"pop-from-backoffq": a_pod_popped_from_backoffq_flies_from_backoffq_into_flight,
          "pop-discards-duplicate": a_discarded_record_stays_where_pop_took_it_and_the_popped_pod_flies}

# a ForceActivate entry's tag and box
TAG_JS = """() => ['.for-tag', '.box'].map((s) => document.querySelector(
  `[data-variant="v1.32.0"] .inflight-list [data-entry="event"] ${s}`).getBoundingClientRect().toJSON())"""


def a_forceactivate_tag_sits_over_its_box(page, now):
    tag, box = page.evaluate(TAG_JS)  # over its box, inside the list, in the same column
    centre = tag["x"] + tag["width"] / 2
    assert tag["y"] + tag["height"] <= box["y"] + 1 and box["x"] <= centre <= box["x"] + box["width"], (tag, box)


def a_gates_name_wraps_between_its_words_when_presenting(page, now):
    present_mode(page)  # the chip is narrow: the gate's name wraps between its words, never inside one
    assert page.evaluate(WORDS_WRAPPED_JS, '[data-variant="v1.36.2"] [data-mark="gated"]') == [
        ["gated:", 1], ["Scheduling", 1], ["Gates", 1]]
    page.keyboard.press("p")
    expect(page.locator("#app.presenting")).to_have_count(0)
    settle(page)


def popspecifics_arrows_cross_neither_in_flight_chip(page, now):
    # A and C side by side in the last lane: neither arrow runs over the other's chip (C's leaves by its top)
    assert page.evaluate(CROSSED_JS, ["v1.36.2", "C", "A"]) == 0
    assert page.evaluate(CROSSED_JS, ["v1.36.2", "A", "C"]) == 0


AT = {("force-activate", 3): a_forceactivate_tag_sits_over_its_box,
      ("gated-pods", 1): a_gates_name_wraps_between_its_words_when_presenting,
      ("pop-specific", 4): popspecifics_arrows_cross_neither_in_flight_chip}


# GenericWorkload (pod groups) is a gate of v1.36.2 only
GATED = {"schema": 1, "name": "Gated and grouped", "versions": ["v1.36.2"], "feature_gates": {"GenericWorkload": True},
         "hints": [{"event": "NodeAdd", "plugin": "P", "hint": "QueueAfterBackoff"}],
         "pods": [{"name": "G", "scheduling_gates": ["example.com/wait"]}, {"name": "A", "pod_group": "g"},
                  {"name": "B", "pod_group": "g"}],
         "initial_active": ["G", "A", "B"],
         "steps": [{"op": "event", "event": "NodeAdd"}, {"op": "pop", "expect": "A"}]}


def test_a_gated_pod_waits_with_its_gate_and_a_groups_members_are_marked(make_page):
    from tests.e2e.test_browser import inline_value

    page = make_page(width=1280, height=720)
    if not page.url.startswith("http"):  # a kept page waits on the origin already (conftest.make_page)
        page.goto("/healthz")
    page.goto(f"/?inline={inline_value(page, GATED)}&position=2")
    counted(page, PANES, 1)
    at(page, 2)
    settle(page)
    gated = page.locator('[data-variant="v1.36.2"] [data-queue="unschedulablePods"] .chip[data-pod="G"]')
    expect(gated.locator('[data-mark="gated"]')).to_have_text("gated: SchedulingGates")
    expect(page.locator('[data-variant="v1.36.2"] [data-mark="group"]')).to_have_text(["group g", "group g"])
    expect(page.locator('[data-variant="v1.36.2"] [data-queue="inFlight"] .chip[data-pod="A"] [data-mark="group"]')
           ).to_have_count(1)


# Each word of an element's text pieces (its wrap points: spaces and <wbr>) with the number of lines it is drawn on
WORDS_WRAPPED_JS = """(selector) => [...document.querySelector(selector).childNodes].filter((n) => n.nodeType === 3)
  .flatMap((n) => [...n.textContent.matchAll(/\\S+/g)].map((m) => {
    const r = document.createRange();
    r.setStart(n, m.index);
    r.setEnd(n, m.index + m[0].length);
    return [m[0], new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size];
  }))"""

# How many points, 2 px apart along pod's arrow, lie inside the in-flight chip of another pod (1 px in from its edges)
CROSSED_JS = """([variant, pod, other]) => {
  const pane = document.querySelector(`#panes > [data-variant="${variant}"]`);
  const origin = pane.querySelector('[data-testid=diagram]').getBoundingClientRect();
  const line = pane.querySelector(`svg.pointers g.pointer[data-pod="${pod}"] .pointer-line`);
  const r = pane.querySelector(`[data-queue="inFlight"] .chip[data-pod="${other}"]`).getBoundingClientRect();
  const [l, t, rt, b] = [r.left - origin.left + 1, r.top - origin.top + 1, r.right - origin.left - 1,
    r.bottom - origin.top - 1];
  let inside = 0;
  for (let d = 0; d <= line.getTotalLength(); d += 2) {
    const p = line.getPointAtLength(d);
    if (p.x > l && p.x < rt && p.y > t && p.y < b) inside += 1;
  }
  return inside;
}"""
