"""Predict never gives the answer away: before the learner answers a prompt, no text on the page (shown or not,
in attributes read to screen readers or shown as tooltips) names where the pod it asks about goes; the
introduction, which tells how the lost marker ends, comes back once the last prompt is answered. Predict is there
in presentation mode too."""

import re

from playwright.sync_api import expect

from tests.e2e.test_browser import at, open_lost_marker
from tests.e2e.test_talks import start_presenter

# Every text on the page as the sentences a reader meets: text nodes joined within their block, blocks apart,
# and the attributes that are read or shown (title, aria-label, alt...) each a line.
PAGE_TEXT_JS = """() => {
  const BLOCK = 'p,li,div,section,summary,details,h1,h2,h3,h4,dt,dd,td,th,label,button,legend,option,aside,nav,'
    + 'header,footer,main,ul,ol,table,tr,fieldset';
  const lines = [];
  let block = null, line = '';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.nodeType === Node.TEXT_NODE) {
      if (node.parentElement.closest('script,style')) continue;
      const at = node.parentElement.closest(BLOCK);
      if (at !== block) { lines.push(line); line = ''; block = at; }
      line += node.textContent;
    } else {
      for (const name of ['title', 'aria-label', 'aria-description', 'alt', 'placeholder', 'data-tip']) {
        const value = node.getAttribute(name);
        if (value) lines.push(value);
      }
    }
  }
  lines.push(line);
  return lines.join('\\n');
}"""

# What says where a pod went: the queue's name or the words for going there.
OUTCOME_WORDS = {
    "unschedulablePods": r"unschedulablePods|parked|parks",
    "backoffQ": r"backoffQ|backs off|backed off",
    "activeQ": r"activeQ",
}


def spoilers(page, pod: str, outcomes: set[str]) -> list[str]:
    """The sentences on ``page`` that name ``pod`` with one of ``outcomes``."""
    text = page.evaluate(PAGE_TEXT_JS)
    sentences = [s for line in text.split("\n") for s in re.split(r"(?<=[.!?])\s+", line)]
    words = re.compile("|".join(OUTCOME_WORDS[o] for o in outcomes))
    return [s.strip() for s in sentences if re.search(rf"\b{pod}\b", s) and words.search(s)]


LOST_MARKER_OUTCOMES = {"unschedulablePods", "backoffQ"}  # where B goes on v1.28.1 and on v1.28.2


def test_no_text_names_where_b_goes_before_the_answer(page):
    open_lost_marker(page, "&predict=1")
    at(page, 0)
    expect(page.locator("#intro")).to_have_attribute("open", "")
    assert spoilers(page, "B", LOST_MARKER_OUTCOMES) == []
    expect(page.locator("#scenario-description")).to_contain_text("Predict is on")
    for position in range(1, 6):
        page.locator("#btn-step").click()
        at(page, position)
        assert spoilers(page, "B", LOST_MARKER_OUTCOMES) == [], position
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the strip of the other version above the panes
    expect(page.get_by_test_id("glance-row")).to_have_count(1)
    assert spoilers(page, "B", LOST_MARKER_OUTCOMES) == [], "phone"
    page.set_viewport_size({"width": 1280, "height": 720})
    expect(page.get_by_test_id("glance")).to_be_hidden()
    page.locator("#btn-step").click()
    expect(page.locator("#predict-dialog")).to_be_visible()
    assert spoilers(page, "B", LOST_MARKER_OUTCOMES) == []
    for row in page.locator("#predict-dialog fieldset").all():
        row.locator("input").first.check()
    page.get_by_role("button", name="Step and reveal").click()
    at(page, 6)
    # answered: the story's end may be told again
    expect(page.locator("#scenario-description")).to_contain_text("B is parked in unschedulablePods")


def test_unticking_predict_brings_the_introduction_back(page):
    open_lost_marker(page, "&predict=1")
    at(page, 0)
    expect(page.locator("#scenario-description")).not_to_contain_text("B is parked")
    page.uncheck("#predict")
    expect(page.locator("#scenario-description")).to_contain_text("B is parked in unschedulablePods")
    page.check("#predict")
    expect(page.locator("#scenario-description")).not_to_contain_text("B is parked")


def test_the_presenters_screen_does_not_tell_the_next_outcome(make_page):
    presenter, _, _ = start_presenter(make_page)
    presenter.check("#predict")
    for position in range(1, 6):
        presenter.keyboard.press("ArrowRight")
        at(presenter, position)
    expect(presenter.locator("#presenter-notes [data-notes=next]")).to_contain_text("Predict is on")
    assert spoilers(presenter, "B", LOST_MARKER_OUTCOMES) == []
    presenter.uncheck("#predict")
    expect(presenter.locator("#presenter-notes [data-notes=next]")).to_contain_text("B parked in unschedulablePods")


def test_predict_can_be_ticked_in_presentation_mode(page):
    open_lost_marker(page)
    at(page, 0)
    page.locator("#btn-presenting").click()
    expect(page.locator("#app")).to_have_class(re.compile(r"\bpresenting\b"))
    predict = page.get_by_role("checkbox", name="Predict")
    expect(predict).to_be_visible()
    predict.check()
    for position in range(1, 6):
        page.keyboard.press("ArrowRight")
        at(page, position)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#predict-dialog")).to_be_visible()
    assert spoilers(page, "B", LOST_MARKER_OUTCOMES) == []
    page.keyboard.press("Escape")
