"""A long generated scenario (the editor's hand-off): its many returns are summed up and the panes stay in
view at 1280x720; the scenario picker says it is not a built-in."""

import json
import random
import re

from playwright.sync_api import expect

from tests.e2e.shown import POSITION, shown
from webapp.engine.simulation import Simulation
from webapp.scenario.generate import generate
from webapp.scenario.scenario import from_valid_dict

STEPS = 3_000


def test_a_generated_scenario_keeps_the_panes_in_view(page):
    raw = generate(random.Random(1).choice, STEPS, pods=12)
    sim = Simulation(from_valid_dict(raw))
    summaries = {v: tracker.at(None) for v, tracker in sim.returns.items()}
    pods = {r["pod"] for s in summaries.values() for r in s["returned"] + s["still_waiting"]}
    busiest = max((r["count"], r["pod"]) for r in summaries["v1.28.2"]["returned"])
    assert busiest[0] > 2  # this scenario has pods that came back many times

    page.goto("/editor")
    page.evaluate("text => sessionStorage.setItem('inflight-scope:inline-scenario', text)", json.dumps(raw))
    page.goto("/?scenario=__inline__")
    shown(page, POSITION, re.compile(rf"^0 / {STEPS}"))
    expect(page.locator("#scenario-picker option:checked")).to_have_text("generated (not a built-in)")

    returns = page.get_by_test_id("returns")
    expect(returns.locator("[data-return-pod]")).to_have_count(0)  # no outcome before it happens
    pane = page.locator('#panes > [data-variant="v1.28.1"]').bounding_box()
    assert pane["y"] < 200 and pane["height"] > 300  # the diagram, not the list of returns, fills the page

    # one tick per 8 steps (at most 400 ticks), each the most telling kind of its steps; the cursor's is marked
    expect(page.locator("#ticks .tick")).to_have_count(375)
    expect(page.locator("#ticks .tick").first).to_have_attribute("title", "1–8: 8 steps")
    for _ in range(9):
        page.keyboard.press("ArrowRight")
    shown(page, POSITION, re.compile(rf"^9 / {STEPS}"))
    expect(page.locator("#ticks .tick.current")).to_have_attribute("data-step", "16")
    page.keyboard.press("End")
    expect(page.locator("#ticks .tick.current")).to_have_attribute("data-step", str(STEPS))
    expect(returns.locator("[data-return-pod]")).to_have_count(len(pods))
    expect(returns.locator(f'[data-return-pod="{busiest[1]}"]')).to_contain_text(
        f"v1.28.2: back {busiest[0]} times, longest ")
    assert returns.bounding_box()["height"] < 120
