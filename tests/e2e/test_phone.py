"""Phones keep the comparison (issue 29, item 4), in a real browser at 390x844: in a room the other version's state
is in the viewport without scrolling, in a strip whose words are the other pane's; the poll sheet docks so that at
least half of the diagram is in sight and on top; after the reveal the diagram (the climax) stays in sight. And the
viewer: the strip where the panes stack (a phone, a tablet), none where they stand side by side. Layout facts,
measured with bounding boxes and elementFromPoint; nothing timed."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_browser import at, open_lost_marker
from tests.e2e.test_flow import presenter_and_phone

PHONE = {"width": 390, "height": 844}

# What a pane shows, read from its DOM: its caption, and its lanes in order, each [label, [pod, ...]].
PANE_JS = """(variant) => {
  const pane = document.querySelector(`#panes > [data-variant="${variant}"]`);
  const lanes = [...pane.querySelectorAll('[data-queue]')].map((lane) => [
    lane.querySelector('.lane-name').textContent.replace(/^\\S+\\s/, ''),
    [...lane.querySelectorAll('[data-pod]')].map((chip) => chip.dataset.pod)]);
  return { caption: pane.querySelector('[data-testid=caption]').textContent, lanes };
}"""

# How much of a box is in the viewport and on top (what elementFromPoint finds there is inside it), sampled on a
# 12x12 grid: {seen: the share of the samples, box: [left, top, right, bottom]}.
ON_TOP_JS = """(el) => {
  const r = el.getBoundingClientRect();
  let seen = 0, all = 0;
  for (let i = 0; i < 12; i++) for (let j = 0; j < 12; j++) {
    const x = r.left + (i + 0.5) * r.width / 12, y = r.top + (j + 0.5) * r.height / 12;
    all += 1;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
    const hit = document.elementFromPoint(x, y);
    if (hit && el.contains(hit)) seen += 1;
  }
  return { seen: seen / all, box: [r.left, r.top, r.right, r.bottom].map(Math.round) };
}"""

# The pane whose diagram shows the most (what the audience is looking at), by the same sampling.
DIAGRAM_IN_VIEW_JS = """(onTop) => {
  const shares = [...document.querySelectorAll('#panes > [data-variant] [data-testid=diagram]')]
    .map((d) => [d.closest('[data-variant]').dataset.variant, onTop(d)]);
  shares.sort((a, b) => b[1].seen - a[1].seen);
  return shares[0];
}"""


def diagram_in_view(page):
    """(variant, {seen, box}) of the diagram most in sight."""
    return page.evaluate(f"() => ({DIAGRAM_IN_VIEW_JS})({ON_TOP_JS})")


def strip_rows(page):
    """The strip's rows: [{variant, where, text, seen}] (seen: the share of the row on top and in the viewport)."""
    return page.locator("[data-testid=glance-row]").evaluate_all(f"""(rows) => rows.map((row) => ({{
      variant: row.dataset.of,
      where: row.querySelector('[data-testid=glance-where]')?.textContent ?? '',
      text: row.querySelector('[data-testid=glance-text]')?.textContent ?? '',
      seen: ({ON_TOP_JS})(row).seen,
    }}))""")


def assert_strip_matches(page, variant, pods=("B",)):
    """The strip has one row, for ``variant``, wholly in sight, and says what that pane shows: the lanes holding
    ``pods`` (None: every pod) and its caption."""
    expect(page.locator("[data-testid=glance-row]")).to_have_count(1)
    expect(page.locator("[data-testid=glance-row]")).to_have_attribute("data-of", variant)
    pane = page.evaluate(PANE_JS, variant)
    [row] = strip_rows(page)
    assert row["seen"] == 1, f"the strip's row for {variant} is not wholly in sight: {row}"
    where = [(label, [p for p in lane if pods is None or p in pods]) for label, lane in pane["lanes"]]
    assert row["where"] == " · ".join(f"{label}: {' '.join(here)}" for label, here in where if here), (row, pane)
    assert row["text"] == pane["caption"], (row, pane)


def test_a_phone_in_a_room_sees_both_versions_without_scrolling(make_page):
    """On /r/CODE at 390x844 the page opens on v1.28.1's diagram with v1.28.2's state in the strip above it; scrolled
    down to v1.28.2, the strip carries v1.28.1's. Each time the strip's words are the other pane's own."""
    presenter, phone = presenter_and_phone(make_page, 4)
    variant, share = diagram_in_view(phone)
    assert variant == "v1.28.1" and share["seen"] >= 0.5, (variant, share)
    assert_strip_matches(phone, "v1.28.2", pods=None)  # no failure yet, no prediction: every pod's lane
    expect(phone.locator("[data-testid=glance-where]")).to_have_text("in flight: A B")
    presenter.keyboard.press("ArrowRight")  # 5: the room will be asked where B goes
    at(phone, 5)
    expect(phone.locator("[data-testid=glance-where]")).to_have_text("in flight: B")
    assert_strip_matches(phone, "v1.28.2")
    phone.locator('#panes > [data-variant="v1.28.2"] [data-testid=diagram]').evaluate(
        "(d) => scrollTo(0, scrollY + d.getBoundingClientRect().top - 120)")
    expect(phone.locator("[data-testid=glance-row]")).to_have_attribute("data-of", "v1.28.1")
    assert diagram_in_view(phone)[0] == "v1.28.2"
    assert_strip_matches(phone, "v1.28.1")
    # a tap brings its pane back (a tap where the row is: Playwright's click first scrolls the pinned row "into
    # view", and the page moved under it, the row redrawn for the other pane, before the click)
    row = phone.locator("[data-testid=glance-row]").bounding_box()
    phone.mouse.click(row["x"] + row["width"] / 2, row["y"] + row["height"] / 2)
    expect(phone.locator("[data-testid=glance-row]")).to_have_attribute("data-of", "v1.28.2")
    assert diagram_in_view(phone)[0] == "v1.28.1"


def diagrams_on_top(page):
    """{variant: the share of its diagram in the viewport and on top}."""
    return page.evaluate(f"""() => Object.fromEntries([...document.querySelectorAll(
      '#panes > [data-variant] [data-testid=diagram]')].map((d) => [d.closest('[data-variant]').dataset.variant,
      ({ON_TOP_JS})(d).seen]))""")


def test_the_poll_sheet_docks_and_the_reveal_keeps_the_climax_in_sight(make_page):
    """During the room's poll at least half of the diagram the phone shows is in the viewport and not under the sheet
    (which takes at most 45% of the screen), the strip still in sight; revealed, the diagram stays in sight beside
    the answers, and the strip says where B went on v1.28.2."""
    presenter, phone = presenter_and_phone(make_page, 5)
    presenter.check("#predict")
    presenter.keyboard.press("ArrowRight")
    sheet = phone.get_by_test_id("poll-follower")
    expect(sheet).to_be_visible()
    sheet.locator('[data-variant="v1.28.1"] button[data-choice="backoffQ"]').click()
    expect(sheet.get_by_test_id("poll-status")).to_have_text(re.compile("^Answer sent"))
    assert sheet.bounding_box()["height"] <= 0.45 * PHONE["height"] + 1
    variant, share = diagram_in_view(phone)
    assert share["seen"] >= 0.5, f"during the poll only {share['seen']:.0%} of {variant}'s diagram is in sight"
    assert_strip_matches(phone, "v1.28.2" if variant == "v1.28.1" else "v1.28.1")

    presenter.get_by_test_id("poll-reveal").click()
    at(phone, 6)
    expect(sheet.get_by_test_id("poll-verdict")).to_contain_text("v1.28.1: you said backoffQ")
    expect(sheet.get_by_role("button", name="Close")).to_be_visible()
    assert sheet.bounding_box()["height"] <= 0.45 * PHONE["height"] + 1
    variant, share = diagram_in_view(phone)
    assert share["seen"] >= 0.5, f"after the reveal only {share['seen']:.0%} of {variant}'s diagram is in sight"
    assert variant == "v1.28.1"
    expect(phone.locator('[data-variant="v1.28.1"] [data-queue="unschedulablePods"] [data-pod="B"]')).to_be_visible()
    assert_strip_matches(phone, "v1.28.2")
    expect(phone.locator("[data-testid=glance-where]")).to_have_text("backoffQ: B")
    sheet.get_by_role("button", name="Close").click()
    expect(sheet).to_have_count(0)
    assert phone.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--sheet-h')") == ""


def test_on_a_laptop_the_sheet_leaves_both_diagrams_whole(make_page):
    """An audience on a laptop (1280x720, the panes side by side): the sheet docks over the page's top, so during
    the poll and after the reveal nearly all of both diagrams is in sight and on top; no strip."""
    presenter, follower = presenter_and_phone(make_page, 5)
    follower.set_viewport_size({"width": 1280, "height": 720})
    presenter.check("#predict")
    presenter.keyboard.press("ArrowRight")
    sheet = follower.get_by_test_id("poll-follower")
    expect(sheet).to_be_visible()
    expect(follower.get_by_test_id("glance")).to_be_hidden()
    for state in ("open", "revealed"):
        seen = diagrams_on_top(follower)
        assert all(share >= 0.9 for share in seen.values()), f"{state}: {seen}"
        assert sheet.bounding_box()["height"] <= 0.45 * 720 + 1
        if state == "open":
            presenter.get_by_test_id("poll-reveal").click()
            at(follower, 6)
            expect(sheet.get_by_role("button", name="Close")).to_be_visible()


@pytest.mark.parametrize("width,height,strip", [(390, 844, True), (760, 520, True), (1280, 720, False)])
def test_the_viewer_has_the_strip_where_the_panes_stack(make_page, width, height, strip):
    """The viewer too: where the panes stack the strip carries the other pane; side by side there is none."""
    page = make_page(width=width, height=height)
    open_lost_marker(page, "&position=6")
    at(page, 6)
    if not strip:
        expect(page.get_by_test_id("glance")).to_be_hidden()
        return
    expect(page.get_by_test_id("glance")).to_be_visible()
    assert_strip_matches(page, "v1.28.2")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width


# Each control button on screen whose words do not fit it (cut at its edge) or that runs past the viewport.
CUT_BUTTONS_JS = """() => [...document.querySelectorAll('.controls .btn')].filter((b) => b.getClientRects().length)
  .filter((b) => { const r = b.getBoundingClientRect();
    return b.scrollWidth > b.clientWidth + 1 || r.left < 0 || r.right > innerWidth; })
  .map((b) => `${b.id} ${b.textContent.trim()} ${b.scrollWidth} > ${b.clientWidth}`)"""


@pytest.mark.parametrize("color_scheme", ["light", "dark"])
def test_at_a_lessons_end_the_phones_bar_cuts_no_button(make_page, artifacts_dir, color_scheme):
    """At the lost marker's last step the next-lesson button joined Back, Step and Play in the bar's one row, and
    Back and Play were cut ("◀ Bac", "▶ Pla"): it takes a row of its own, and the page still ends above the bar."""
    page = make_page(**PHONE, color_scheme=color_scheme)
    page.goto("/?scenario=lost-marker&position=6")
    at(page, 6)
    expect(page.locator("#btn-next-lesson")).to_be_visible()
    assert page.evaluate(CUT_BUTTONS_JS) == []
    bar = page.locator(".controls").bounding_box()
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    last = page.locator("#panes > [data-variant]").last.bounding_box()
    assert last["y"] + last["height"] <= bar["y"] + 1, (last, bar)  # the last pane's foot above the bar
    page.screenshot(path=str(artifacts_dir / "screenshots" / f"phone-lesson-end-390x844-{color_scheme}.png"))
