"""What changed since 1.31, in a real browser: a pod Pop takes from backoffQ flies from backoffQ and is marked so
(v1.36.2, not v1.31.13), a ForceActivate entry is drawn with its pod, a discarded duplicate is drawn where Pop
took it, and each lesson about these changes steps through to its end with the arrow key, every pane drawing
what the scene asks at every position; a gated pod waits with its gate until it is ungated, a pod group's member
backs off beside an ordinary pod that is parked, and PopSpecificPod takes a pod out of unschedulablePods straight
into flight. The expected marks come from the scene (webapp/presenter/scene.py, built
in-process)."""

from __future__ import annotations

import functools
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import MOTION
from tests.e2e.test_browser import settle
from tests.e2e.test_stage import at, present_mode
from webapp.engine.simulation import Simulation
from webapp.presenter.scene import present
from webapp.scenario import builtin
from webapp.scenario.resolve import resolve

LESSONS = builtin.ids()[builtin.ids().index("in-flight-update") + 1:]
PANES = "#panes > [data-variant]"

# every chip's lane, pod and marks, per pane, as the page draws them
CHIPS_JS = """() => Object.fromEntries([...document.querySelectorAll('#panes > [data-variant]')].map((pane) =>
  [pane.dataset.variant, [...pane.querySelectorAll('[data-queue] .chip')].map((c) =>
    [c.closest('[data-queue]').dataset.queue, c.dataset.pod, [...c.querySelectorAll('[data-mark]')]
      .map((m) => m.dataset.mark), c.dataset.ghost === 'true'])]))"""


@functools.cache
def scene(scenario_id: str, position: int) -> dict:
    scenario = resolve(scenario_id)[0]
    sim = Simulation(scenario, list(scenario.versions))
    sim.seek(position)
    return present(sim.frame(), sim.preview())


def expected_chips(scenario_id: str, position: int) -> dict:
    return {v: [[lane["queue"], c["pod"], [m["kind"] for m in c.get("marks", ())], bool(c.get("ghost"))]
                for lane in pane["lanes"] for c in lane["chips"]]
            for v, pane in scene(scenario_id, position)["panes"].items()}


def opened(page, scenario_id: str, position: int) -> None:
    page.goto(f"/?scenario={scenario_id}&position={position}")
    expect(page.locator(PANES)).to_have_count(len(resolve(scenario_id)[0].versions))
    at(page, position)
    settle(page)


def chip_box(page, variant: str, queue: str, pod: str) -> dict:
    return page.locator(f'[data-variant="{variant}"] [data-queue="{queue}"] .chip[data-pod="{pod}"]').bounding_box()


def test_a_pod_popped_from_backoffq_leaves_backoffq_and_is_marked_early(make_page):
    page = make_page(width=1280, height=720)
    opened(page, "pop-from-backoffq", 5)
    # before the pop: v1.36.2 holds A in backoffQ in its window, v1.31.13 has flushed it to activeQ
    assert chip_box(page, "v1.36.2", "backoffQ", "A") and chip_box(page, "v1.31.13", "activeQ", "A")
    window = page.locator('[data-variant="v1.36.2"] [data-queue="backoffQ"] .window-rule')
    expect(window).to_have_text("window 1–2 s")
    expect(page.locator('[data-variant="v1.31.13"] .window-rule')).to_have_count(0)
    page.keyboard.press("ArrowRight")
    at(page, 6)
    settle(page)
    early = page.locator('[data-variant="v1.36.2"] [data-queue="inFlight"] .chip[data-pod="A"] [data-mark="early"]')
    expect(early).to_have_text("from backoffQ")
    expect(page.locator('[data-variant="v1.36.2"] [data-queue="backoffQ"] .chip')).to_have_count(0)
    expect(page.locator('[data-variant="v1.31.13"] [data-mark="early"]')).to_have_count(0)
    expect(page.locator('[data-variant="v1.36.2"] .narration-title')).to_have_text("Pop → A from backoffQ")
    assert page.evaluate(CHIPS_JS) == expected_chips("pop-from-backoffq", 6)


def test_a_forceactivate_entry_is_drawn_with_the_pod_it_is_for(make_page):
    page = make_page(width=1280, height=720)
    opened(page, "force-activate", 3)
    entry = page.locator('[data-variant="v1.32.0"] .inflight-list [data-entry="event"]')
    expect(entry).to_have_count(1)
    expect(entry.locator(".ename")).to_have_text("ForceActivate")
    expect(entry.locator('.for-tag[data-for-pod="A"]')).to_have_text("for A")
    expect(page.locator('[data-variant="v1.31.13"] .for-tag')).to_have_count(0)
    # its tag sits over its box, inside the list, in the same column
    tag, box = entry.locator(".for-tag").bounding_box(), entry.locator(".box").bounding_box()
    centre = tag["x"] + tag["width"] / 2
    assert tag["y"] + tag["height"] <= box["y"] + 1 and box["x"] <= centre <= box["x"] + box["width"]
    # and A's failure, which its walk reads, sends A to backoffQ on v1.32.0 only
    page.keyboard.press("ArrowRight")
    at(page, 4)
    settle(page)
    assert chip_box(page, "v1.32.0", "backoffQ", "A") and chip_box(page, "v1.31.13", "unschedulablePods", "A")


def test_a_discarded_duplicate_is_drawn_where_pop_took_it(make_page):
    page = make_page(width=1280, height=720)
    opened(page, "pop-discards-duplicate", 4)
    ghost = page.locator('[data-variant="v1.32.0"] [data-queue="activeQ"] .chip[data-ghost="true"]')
    expect(ghost).to_have_attribute("data-pod", "A")
    expect(ghost.locator('[data-mark="discarded"]')).to_have_text("discarded")
    assert page.evaluate(CHIPS_JS) == expected_chips("pop-discards-duplicate", 4)


@pytest.mark.parametrize("scenario_id", LESSONS)
def test_each_lesson_since_1_31_steps_through_to_its_end(make_page, scenario_id):
    page = make_page(width=1280, height=720)
    opened(page, scenario_id, 0)
    versions = list(resolve(scenario_id)[0].versions)
    expect(page.locator(PANES)).to_have_count(len(versions))
    assert [p.get_attribute("data-variant") for p in page.locator(PANES).all()] == versions
    total = builtin.step_count(scenario_id)
    for position in range(1, total + 1):
        page.keyboard.press("ArrowRight")
        at(page, position)
    settle(page)
    expect(page.get_by_test_id("position")).to_have_text(re.compile(rf"^{total} / {total}"))
    expect(page.locator("#error")).to_be_hidden()
    assert page.evaluate(CHIPS_JS) == expected_chips(scenario_id, total)


# each lesson's key step: where the change shows (the pop, the entry, the window, the heap, the failure counted)
KEY_STEP = {"pop-discards-duplicate": 4, "force-activate": 3, "pop-from-backoffq": 6, "backoff-windows": 6,
            "error-backoffq": 8, "backoff-counts-failures": 13, "gated-pods": 1, "pod-group-backoff": 4,
            "pop-specific": 4}


def test_every_lesson_since_1_31_has_a_key_step():
    assert set(KEY_STEP) == set(LESSONS)


@pytest.mark.parametrize("width,height,theme", [(1280, 720, "light"), (1280, 720, "dark"), (390, 844, "light"),
                                                (390, 844, "dark")])
def test_screens_of_the_lessons_since_1_31(make_page, artifacts_dir, width, height, theme):
    """test-artifacts/screens/<id>/<position>-<width>x<height>-<theme>.png, for people to look at (a phone's: the
    whole page); on the projector's size the lists are readable and nothing spills (test_screens' rule)."""
    from tests.e2e.test_screens import png_size
    from tests.e2e.test_stage import READABLE_JS, present_mode

    page = make_page(width=width, height=height, color_scheme=theme)
    phone = width < 600
    for scenario_id, position in KEY_STEP.items():
        opened(page, scenario_id, position)
        out = artifacts_dir / "screens" / scenario_id
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{position}-{width}x{height}-{theme}.png"
        path.unlink(missing_ok=True)
        page.screenshot(path=str(path), full_page=phone)
        w, h = png_size(path.read_bytes())
        assert w == width and (h >= height if phone else h == height), f"{path.name}: {w}x{h}"
        if not phone:
            got = page.evaluate(READABLE_JS)
            assert got["font"] >= 11 and got["spills"] == [], f"{path.name}: {got}"
            present_mode(page)  # and as a speaker shows it (-presenting.png)
            page.screenshot(path=str(out / f"{position}-{width}x{height}-{theme}-presenting.png"))
            page.keyboard.press("p")
            expect(page.locator("#app.presenting")).to_have_count(0)


def test_the_picker_offers_the_new_versions_and_shows_three_side_by_side(make_page):
    from webapp.model.versions import VERSIONS

    page = make_page(width=1280, height=720)
    opened(page, "pop-from-backoffq", 6)
    page.click("#versions-summary")
    options = page.locator("#versions-options input")
    expect(options).to_have_count(len(VERSIONS))
    assert [o.get_attribute("value") for o in options.all()] == list(VERSIONS)
    page.locator('#versions-options input[value="v1.32.0"]').check()
    expect(page.locator(PANES)).to_have_count(3)
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


def test_the_pod_popped_from_backoffq_flies_from_backoffq_into_flight(make_page):
    page = make_page(width=1280, height=720, reduced_motion=MOTION)
    opened(page, "pop-from-backoffq", 5)
    was = {v: chip_box(page, v, q, "A") for v, q in (("v1.36.2", "backoffQ"), ("v1.31.13", "activeQ"))}
    page.evaluate(SPY_JS)
    page.keyboard.press("ArrowRight")
    at(page, 6)
    settle(page)
    now = {v: chip_box(page, v, "inFlight", "A") for v in was}
    flights = {(v, q, pod): (dx, dy) for v, q, pod, dx, dy in page.evaluate("window.flights")}
    for variant in was:  # each flew from where it was: v1.36.2's from backoffQ, v1.31.13's from activeQ
        dx, dy = flights[variant, "inFlight", "A"]
        assert abs(dx - (was[variant]["x"] - now[variant]["x"])) <= 1.5, (variant, dx, was, now)
        assert abs(dy - (was[variant]["y"] - now[variant]["y"])) <= 1.5, (variant, dy, was, now)
    assert was["v1.36.2"]["x"] != was["v1.31.13"]["x"]  # from two different lanes


def test_a_discarded_record_stays_where_pop_took_it_and_the_popped_pod_flies(make_page):
    page = make_page(width=1280, height=720, reduced_motion=MOTION)
    opened(page, "pop-discards-duplicate", 3)
    page.evaluate(SPY_JS)
    page.keyboard.press("ArrowRight")
    at(page, 4)
    settle(page)
    flown = {(v, q, pod) for v, q, pod, *_ in page.evaluate("window.flights")}
    assert ("v1.32.0", "inFlight", "B") in flown  # B flew from activeQ into flight
    assert ("v1.32.0", "activeQ", "A") not in flown  # the faint record did not fly anywhere


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
    page.goto("/healthz")
    page.goto(f"/?inline={inline_value(page, GATED)}&position=2")
    expect(page.locator(PANES)).to_have_count(1)
    at(page, 2)
    settle(page)
    gated = page.locator('[data-variant="v1.36.2"] [data-queue="unschedulablePods"] .chip[data-pod="G"]')
    expect(gated.locator('[data-mark="gated"]')).to_have_text("gated: SchedulingGates")
    expect(page.locator('[data-variant="v1.36.2"] [data-mark="group"]')).to_have_text(["group g", "group g"])
    expect(page.locator('[data-variant="v1.36.2"] [data-queue="inFlight"] .chip[data-pod="A"] [data-mark="group"]')
           ).to_have_count(1)


def test_the_lesson_gated_pods_shows_the_gate_until_the_pod_is_ungated(make_page):
    page = make_page(width=1280, height=720)
    opened(page, "gated-pods", 1)  # the wildcard event has passed G by
    for variant in ("v1.32.0", "v1.36.2"):
        gated = page.locator(f'[data-variant="{variant}"] [data-queue="unschedulablePods"] .chip[data-pod="G"]')
        expect(gated.locator('[data-mark="gated"]')).to_have_text("gated: SchedulingGates")
    assert page.evaluate(CHIPS_JS) == expected_chips("gated-pods", 1)
    # presenting, the chip is narrow: the gate's name wraps between its words, never inside one
    present_mode(page)
    assert page.evaluate(WORDS_WRAPPED_JS, '[data-variant="v1.36.2"] [data-mark="gated"]') == [
        ["gated:", 1], ["Scheduling", 1], ["Gates", 1]]
    page.keyboard.press("p")
    expect(page.locator("#app.presenting")).to_have_count(0)
    for position in (2, 3):
        page.keyboard.press("ArrowRight")
        at(page, position)
    settle(page)
    # ungated: G is in activeQ on both, its gate gone
    for variant in ("v1.32.0", "v1.36.2"):
        assert chip_box(page, variant, "activeQ", "G")
    expect(page.locator('[data-mark="gated"]')).to_have_count(0)
    assert page.evaluate(CHIPS_JS) == expected_chips("gated-pods", 3)


def test_the_lesson_pod_group_backoff_backs_off_the_member_and_parks_the_other(make_page):
    page = make_page(width=1280, height=720)
    opened(page, "pod-group-backoff", 4)
    member = page.locator('[data-variant="v1.36.2"] [data-queue="backoffQ"] .chip[data-pod="A"]')
    expect(member.locator('[data-mark="group"]')).to_have_text("group g")
    parked = page.locator('[data-variant="v1.36.2"] [data-queue="unschedulablePods"] .chip[data-pod="B"]')
    expect(parked).to_have_count(1)
    expect(parked.locator('[data-mark="group"]')).to_have_count(0)
    assert page.evaluate(CHIPS_JS) == expected_chips("pod-group-backoff", 4)


def test_the_lesson_pop_specific_pops_the_parked_pod_straight_into_flight(make_page):
    page = make_page(width=1280, height=720)
    opened(page, "pop-specific", 3)
    assert chip_box(page, "v1.36.2", "unschedulablePods", "A") and chip_box(page, "v1.36.2", "activeQ", "B")
    page.keyboard.press("ArrowRight")
    at(page, 4)
    settle(page)
    assert chip_box(page, "v1.36.2", "inFlight", "A") and chip_box(page, "v1.36.2", "inFlight", "C")
    assert chip_box(page, "v1.36.2", "activeQ", "B")  # B, the head, is passed over
    expect(page.locator('[data-variant="v1.36.2"] [data-queue="unschedulablePods"] .chip')).to_have_count(0)
    expect(page.locator('[data-variant="v1.36.2"] .narration-title')).to_have_text(
        "PopSpecificPod(A) → A from unschedulablePods")
    assert page.evaluate(CHIPS_JS) == expected_chips("pop-specific", 4)
    # A and C side by side in the last lane: neither arrow runs over the other's chip (C's leaves by its top)
    assert page.evaluate(CROSSED_JS, ["v1.36.2", "C", "A"]) == 0
    assert page.evaluate(CROSSED_JS, ["v1.36.2", "A", "C"]) == 0


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
