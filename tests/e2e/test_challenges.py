"""Challenges in a real browser, on one shared page: pick "lose B's marker with two pods", check the lesson it
starts from (not yet, with what is missing), solve it by acting on the diagram (pop B while A is in flight, then
finish A) and check again: solved, with the step, pod and invariant that make it count. Then "grow v1.28.2's list
without bound", on the diagram alone: update A while it is in flight, pop its copy, deliver events; one event short
it does not count yet, the last one makes it."""


import pytest
from playwright.sync_api import expect

from tests.e2e.test_browser import at


@pytest.fixture
def page(desk_page):  # one page for the module (conftest.desk)
    return desk_page


def test_pick_the_first_challenge_and_check_its_starting_lesson(page):
    page.goto("/?scenario=in-flight-basics&position=2")  # A in flight, NodeAdd recorded; B heads activeQ
    at(page, 2, 16)
    page.get_by_test_id("challenges-toggle").click()  # unfold the section
    picker = page.get_by_test_id("challenge-picker")
    expect(picker.locator("option")).to_have_count(4)
    picker.select_option("lose-marker")
    expect(page.locator("#challenge-goal")).to_contain_text("in_flight_boundary")
    expect(page.locator("#challenge-start")).to_contain_text("In flight: the basics")
    page.get_by_test_id("challenge-check").click()
    verdict = page.get_by_test_id("challenge-verdict")
    expect(verdict).to_have_attribute("data-solved", "false")
    expect(verdict).to_contain_text("Not yet")
    expect(verdict).to_contain_text("kept its marker")


def test_solve_it_on_the_diagram_and_see_why_it_counts(page):
    page.locator('[data-variant="v1.28.1"] [data-queue="activeQ"] [data-pod="B"]').click()  # fork: pop B
    at(page, 3, 3)
    page.locator("#explore-pod").select_option("A")
    page.locator("#explore-done").click()  # fork: Done(A) removes e1, B's marker
    at(page, 4, 4)
    page.get_by_test_id("challenge-check").click()
    verdict = page.get_by_test_id("challenge-verdict")
    expect(verdict).to_have_attribute("data-solved", "true")
    expect(verdict).to_contain_text("Solved")
    expect(verdict).to_contain_text("step 4 (done A)")
    expect(verdict).to_contain_text("B's marker e1")
    expect(verdict).to_contain_text("in_flight_boundary")
    expect(page.get_by_test_id("challenge-picker").locator("option[value=lose-marker]")).to_contain_text("✓")


def test_grow_the_list_without_bound_on_the_diagram_alone(page):
    picker = page.get_by_test_id("challenge-picker")
    picker.select_option("unbounded-list")
    page.locator("#challenge-start").click()  # "Cleaning up", from its start
    at(page, 0, 13)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at(page, 2, 13)  # A in flight, NodeAdd (e1) recorded behind A's entry
    page.keyboard.press("u")  # fork: update A, the selected in-flight pod; its copy enters activeQ
    at(page, 3, 3)
    v2 = '[data-variant="v1.28.2"]'
    # fork: pop the copy, A's first entry is orphaned
    page.locator(f'{v2} [data-queue="activeQ"] [data-pod="A"]').click()
    at(page, 4, 4)
    expect(page.locator(f"{v2} .inflight-list .entry.pod.orphaned")).to_have_count(1)
    for position in (5, 6, 7):
        page.keyboard.press("1")  # fork: the palette's first event, recorded behind the orphan
        at(page, position, position)
    check = page.get_by_test_id("challenge-check")
    verdict = page.get_by_test_id("challenge-verdict")
    check.click()  # four events behind it: the cause, not yet the growth
    expect(verdict).to_have_attribute("data-solved", "false")
    expect(verdict).to_contain_text("only 4 events sit behind it")
    page.keyboard.press("1")
    at(page, 8, 8)
    check.click()
    expect(verdict).to_have_attribute("data-solved", "true")
    expect(verdict).to_contain_text("Solved")
    expect(verdict).to_contain_text("step 4 (pop")
    expect(verdict).to_contain_text("its first entry A@1 became an orphan")
    expect(verdict).to_contain_text("pod_entries_in_flight")
    expect(verdict).to_contain_text("5 events sit behind it")
    expect(picker.locator("option[value=unbounded-list]")).to_contain_text("✓")
