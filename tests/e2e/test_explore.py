"""Exploring in a real browser: clicking activeQ's head forks the scenario and pops it, the timeline marks the
fork, undo and redo move between the original and the fork (keys and buttons), the keyboard forks on to the lost
marker, the fork keeps the original as its other branch (s switches), the fork's permalink reopens it and the
editor gets it, and "Find a divergence" opens what the server's
search found with its explanation. One page serves the module's tests, in order (the suite's time goes to what
they check)."""

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.shown import POSITION, shown
from tests.e2e.test_browser import at

V1, V2 = '[data-variant="v1.28.1"]', '[data-variant="v1.28.2"]'
BASICS = "In flight: the basics"
# The search stops at its time budget: a seed whose first generated scenario diverges is found however busy the
# machine (the page's own first seed, 1, needs some 400 tries).
FIRST_TRY_SEED = 202


def in_lane(page, pane, queue, pod):
    return page.locator(f'{pane} [data-queue="{queue}"] [data-pod="{pod}"]')


def forks(page):
    """The steps the timeline marks as forks."""
    return [int(t.get_attribute("data-step")) for t in page.locator("#ticks .tick[data-fork]").all()]


@pytest.fixture
def page(desk_page):  # one page for the module (conftest.desk)
    return desk_page


def test_clicking_the_head_of_active_q_forks_the_scenario_and_pops_it(page):
    page.goto("/?scenario=in-flight-basics&position=2")  # A in flight, NodeAdd recorded; B heads activeQ
    at(page, 2, 16)
    expect(page.locator("#explore-events [data-event]").first).to_be_visible()  # the palette is there
    in_lane(page, V1, "activeQ", "B").click()
    at(page, 3, 3)  # the two steps before the fork, then the pop
    for pane in (V1, V2):
        expect(in_lane(page, pane, "inFlight", "B")).to_have_count(1)
        expect(in_lane(page, pane, "activeQ", "B")).to_have_count(0)
    expect(page.locator("#scenario-name")).to_have_text(f"{BASICS} (fork)")
    expect(page.get_by_test_id("explore-status")).to_contain_text("Forked after step 2")
    assert forks(page) == [3]  # the timeline marks the fork
    expect(page.locator("#explore-undo")).to_be_enabled()
    expect(page.locator("#explore-redo")).to_be_disabled()


def test_undo_returns_to_the_original_where_it_was_forked_and_redo_to_the_fork(page):
    page.keyboard.press("Control+z")
    at(page, 2, 16)
    expect(page.locator("#scenario-name")).to_have_text(BASICS)
    expect(in_lane(page, V1, "activeQ", "B")).to_have_count(1)
    assert forks(page) == []
    page.locator("#explore-redo").click()
    at(page, 3, 3)
    expect(in_lane(page, V2, "inFlight", "B")).to_have_count(1)
    page.locator("#explore-undo").click()
    at(page, 2, 16)
    page.keyboard.press("Control+Shift+Z")
    at(page, 3, 3)
    assert forks(page) == [3]
    page.locator("#explore-undo").click()
    at(page, 2, 16)
    page.keyboard.press("Control+Shift+z")  # Shift held, the letter lower case (as with Caps Lock): redo still
    at(page, 3, 3)


def test_the_keyboard_forks_on_to_the_lost_marker(page):
    page.keyboard.press("x")  # Done for the selected in-flight pod: A, the first
    at(page, 4, 4)
    b_marker = page.locator(f'{V1} [data-marker="B"]')
    expect(b_marker).to_have_attribute("data-detached", "true")  # v1.28.1 lost B's marker
    expect(page.locator(f"{V1} [data-invariant=in_flight_boundary]")).to_have_count(1)
    expect(page.locator(f"{V2} [data-testid=invariants].ok")).to_have_count(1)
    first = page.locator("#explore-events [data-event]").first.get_attribute("data-event")
    page.keyboard.press("1")  # the palette's first event
    at(page, 5, 5)
    expect(page.get_by_test_id("step-note")).to_contain_text(first)
    assert forks(page) == [3, 4, 5]
    page.keyboard.press("?")  # the help lists the explore keys (drawn from keys.js's one table)
    expect(page.locator("#help-keys tr[data-action=fail] th")).to_have_text("f")
    expect(page.locator("#help-keys tr[data-action=update] th")).to_have_text("u")
    expect(page.locator("#help-keys tr[data-action=undo] th")).to_have_text("Ctrl+Z")
    page.keyboard.press("Escape")


def test_the_fork_keeps_the_original_as_its_other_branch(page):
    """A fork dropped the rest of the original (only the page's undo history held it, lost on a reload): it is
    the fork's other branch now; s switches to it at the same position and back, each keeping the other."""
    branch = page.locator("#explore-branch")
    expect(branch).to_be_visible()
    parts = page.locator("#ticks .tick[data-branch]")
    expect(parts).to_have_count(1)
    expect(parts).to_have_attribute("data-step", "3")  # the first step after the fork point
    expect(parts).to_have_attribute("data-branch", "14")  # the original's 14 steps after step 2
    page.keyboard.press("s")
    at(page, 5, 16)
    expect(page.locator("#scenario-name")).to_have_text(BASICS)
    expect(page.get_by_test_id("explore-status")).to_contain_text(f"On the other branch, “{BASICS}”, at step 5")
    expect(parts).to_have_attribute("data-branch", "3")  # the fork's three steps
    assert forks(page) == []
    branch.click()
    at(page, 5, 5)
    expect(page.locator("#scenario-name")).to_have_text(f"{BASICS} (fork)")
    assert forks(page) == [3, 4, 5]


def test_the_fork_has_a_permalink_and_opens_in_the_editor(page):
    page.wait_for_function("() => new URLSearchParams(location.search).get('position') === '5'")
    link = page.url
    query = parse_qs(urlsplit(link).query)
    assert "inline" in query and "scenario" not in query
    page.goto("/healthz")  # away, then the link opens the fork afresh
    page.goto(link)
    at(page, 5, 5)
    expect(page.locator("#scenario-name")).to_have_text(f"{BASICS} (fork)")
    expect(page.locator(f'{V1} [data-marker="B"]')).to_have_attribute("data-detached", "true")
    assert forks(page) == [3, 4, 5]
    expect(page.locator("#explore-branch")).to_be_visible()  # the other branch travels with it
    page.locator("#btn-editor").click()
    page.wait_for_url(re.compile(r"/editor\?draft=1"))
    expect(page.locator("#source")).to_have_value(re.compile(r"\(fork\)[\s\S]*Forked from[\s\S]*\"branch\""))
    expect(page.get_by_test_id("summary")).to_contain_text("Valid: “In flight: the basics (fork)”, 5 steps")


def test_find_a_divergence_opens_what_the_search_found_with_its_explanation(page):
    page.goto("/?scenario=lost-marker")
    at(page, 0, 6)
    asked = []

    def first_try_seed(route):
        asked.append(route.request.post_data_json)
        route.continue_(post_data=json.dumps({**asked[-1], "seed": FIRST_TRY_SEED}))

    page.route("**/api/find", first_try_seed)
    try:
        page.locator("#explore-find").click()
        status = page.get_by_test_id("explore-status")
        expect(status).to_have_class(re.compile(r"\bfound\b"))
    finally:
        page.unroute("**/api/find", first_try_seed)
    assert asked == [{"target": "divergence", "seed": 1, "versions": ["v1.28.1", "v1.28.2"]}]
    expect(status).to_contain_text("Found and shrunk to")
    expect(status).to_contain_text("place a pod differently")
    expect(page.locator("#scenario-name")).to_have_text(re.compile(r"^Found: divergence"))
    shown(page, POSITION, "variants differ here")  # opened where they differ
    opens_the_case_it_describes(page, status.text_content())
    page.keyboard.press("Control+z")  # and undo goes back to the lesson
    at(page, 0, 6)
    expect(page.locator("#scenario-name")).to_have_text("The lost marker")


def opens_the_case_it_describes(page, said: str):
    """Each place the explanation names ("B is in backoffQ on v1.28.1 but in unschedulablePods on v1.28.2") is
    where that version's pane shows the pod (seed 1 opened the opposite case from the one it described)."""
    pod, places = re.search(r"differently at step \d+ \([^)]*\): (\S+) is (.*)\.$", said).groups()
    where = re.findall(r"in (\w+) on (v[\d.]+)", places)
    assert len(where) == 2, said
    for queue, version in where:
        expect(in_lane(page, f'[data-variant="{version}"]', queue, pod)).to_have_count(1)


def test_activeq_lists_its_pods_in_pop_order_and_only_a_head_pops(page):
    """At duplicate-pop-growth 3 activeQ read W1 W2 ... W6 X (by name) while X was the head: clicking W1, the chip
    that looked first, was refused ('expected W1 at the head of activeQ, but the head is X'). The lane lists pods in
    pop order, the head marked; a pod behind it is no button, and clicking it forks nothing."""
    page.goto("/?scenario=duplicate-pop-growth&position=3")
    at(page, 3, 29)
    chips = page.locator(f'{V1} [data-queue="activeQ"] .chip')
    expect(chips.first).to_have_attribute("data-pod", "X")
    expect(chips.first).to_have_attribute("data-head", "true")
    expect(chips.first).to_have_attribute("role", "button")
    behind = in_lane(page, V1, "activeQ", "W1")
    assert behind.get_attribute("data-head") is None and behind.get_attribute("role") is None
    behind.click()
    expect(page.get_by_test_id("explore-status")).to_be_hidden()
    chips.first.click()
    expect(page.get_by_test_id("explore-status")).to_contain_text("Forked after step 3")
    expect(in_lane(page, V1, "inFlight", "X")).to_have_count(1)


def test_the_event_palette_and_its_keys_stay_as_they_were_after_a_fork(page):
    """The palette was built from the fork's own steps: after a pop, in-flight-basics' 2 (NodeAdd, the event the
    lesson uses) became CSIDriverAdd and NodeAdd left the palette; pressing 2 delivered another event."""
    page.goto("/?scenario=in-flight-basics&position=1")
    at(page, 1, 16)
    # the palette comes with /api/operations, which a busy server may answer after the step is drawn
    expect(page.locator("#explore-events [data-event]").nth(1)).to_have_attribute("data-event", "NodeAdd")
    before = page.locator("#explore-events [data-event]").evaluate_all("els => els.map((e) => e.dataset.event)")
    page.keyboard.press("o")  # fork: pop
    expect(page.get_by_test_id("explore-status")).to_contain_text("Forked after step 1")
    after = page.locator("#explore-events [data-event]").evaluate_all("els => els.map((e) => e.dataset.event)")
    assert after == before
    page.keyboard.press("2")
    expect(page.get_by_test_id("explore-status")).to_contain_text("event NodeAdd")
