"""Accessibility: axe-core (vendored under tests/vendor) finds no serious or critical violation; every
control can be reached and used with the keyboard, with a visible focus ring."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.test_browser import at

AXE = Path(__file__).resolve().parents[1] / "vendor" / "axe-core" / "axe.min.js"


# The rules whose outcome depends on the colours: all a second theme can change.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def serious_violations(page, rules=None):
    """axe-core's serious and critical violations on the page as it is; ``rules``: only those rules."""
    # Evaluated through the DevTools protocol: the page's CSP (script-src 'self') refuses an inline <script>.
    if not page.evaluate("typeof axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    only = {"runOnly": {"type": "rule", "values": rules}} if rules else {}
    result = page.evaluate("(only) => axe.run(document, {resultTypes: ['violations'], ...only})", only)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:5]}"
        for v in result["violations"] if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("url,position", [
    ("/?scenario=lost-marker&position=5", 5),
    ("/present?scenario=lost-marker&position=5", 5),
    ("/embed?scenario=lost-marker&from=0&to=6&position=5", 5),
])
def test_no_serious_or_critical_axe_violations_in_either_theme(page, url, position):
    """Every rule in the light theme; then the same page turned dark, the rules that depend on colour."""
    page.goto(url)
    at(page, position)
    page.wait_for_function("() => document.getAnimations().length === 0")  # a function: CSP forbids eval
    assert serious_violations(page) == []
    page.emulate_media(color_scheme="dark")
    expect(page.locator("body")).to_have_css("background-color", "rgb(15, 19, 24)")  # the dark theme's page
    assert serious_violations(page, COLOUR_RULES) == []


def test_help_and_table_view_pass_axe_too(page):
    page.goto("/?scenario=lost-marker&position=5")
    at(page, 5)
    page.keyboard.press("v")
    expect(page.locator("#tables")).to_be_visible()
    assert serious_violations(page) == []


def test_every_control_is_reachable_by_tab_with_a_visible_focus_ring(page):
    page.goto("/?scenario=lost-marker")
    at(page, 0)
    seen = set()
    for _ in range(60):
        page.keyboard.press("Tab")
        info = page.evaluate("""() => {
            const el = document.activeElement;
            const style = getComputedStyle(el);
            return {id: el.id || el.textContent.trim().slice(0, 20), tag: el.tagName,
                    ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2};
        }""")
        if info["tag"] == "BODY":
            continue
        assert info["ring"], f"no visible focus ring on {info}"
        seen.add(info["id"])
    for control in ("scenario-picker", "versions-summary", "theme-toggle", "btn-copy-link", "btn-start", "btn-back",
                    "btn-play", "btn-step", "btn-end", "btn-divergence", "btn-reset", "speed", "predict", "scrubber"):
        assert control in seen, f"{control} is not reachable with Tab"


def test_buttons_work_from_the_keyboard(page):
    page.goto("/?scenario=lost-marker")
    at(page, 0)
    page.focus("#btn-step")
    page.keyboard.press("Enter")
    at(page, 1)
    page.keyboard.press(" ")  # Space on a focused button clicks it (and does not also toggle play)
    at(page, 2)
    page.focus("#scrubber")
    page.keyboard.press("ArrowRight")
    at(page, 3)


def test_narration_is_announced_politely(page):
    page.goto("/?scenario=lost-marker&position=1")
    at(page, 1)
    for narration in page.get_by_test_id("narration").all():
        assert narration.get_attribute("aria-live") == "polite"
