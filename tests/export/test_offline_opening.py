"""The offline file opens where it was exported (position and range), says which version of the app made it, and
in story mode holds the step notes as the article's sections; the export's route checks what it is asked."""

import re
import tomllib

import pytest

from webapp import ROOT, __version__
from webapp.errors import Invalid
from webapp.export.offline import export_html

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def attribute(html: str, name: str) -> str | None:
    found = re.search(rf'id="app"[^>]*?\s{name}="([^"]*)"', html, re.DOTALL)
    return found.group(1) if found else None


def test_the_version_is_pyprojects():
    assert __version__ == VERSION


def test_it_opens_at_its_position_and_range_and_names_the_version(lost_marker):
    html = export_html(lost_marker, "lost-marker", position=5, range_=(2, 6))
    assert attribute(html, "data-position") == "5"
    assert (attribute(html, "data-range-from"), attribute(html, "data-range-to")) == ("2", "6")
    assert f'<meta name="generator" content="Inflight Scope {VERSION}">' in html
    assert re.search(rf'data-testid="made-by"[^>]*>Made with Inflight Scope {re.escape(VERSION)}:\s+opens at step 5, '
                     r"steps 2 to 6\.</p>", html)


def test_by_default_it_opens_at_the_start_of_its_range_or_at_0_unlocked(lost_marker):
    assert attribute(export_html(lost_marker, "lost-marker", range_=(3, 6)), "data-position") == "3"
    whole = export_html(lost_marker, "lost-marker")
    assert attribute(whole, "data-position") == "0" and attribute(whole, "data-range-from") is None


@pytest.mark.parametrize("position, range_, message", [
    (7, None, "position must be an integer in 0..6, got 7"),
    (1, (2, 6), "position must be an integer in 2..6, got 1"),
    (None, (4, 2), "range must be [from, to] with 0 <= from <= to <= 6, got [4, 2]"),
    (None, (2, 9), "range must be [from, to] with 0 <= from <= to <= 6, got [2, 9]"),
])
def test_an_opening_out_of_bounds_is_refused(lost_marker, position, range_, message):
    with pytest.raises(Invalid) as refused:
        export_html(lost_marker, "lost-marker", position=position, range_=range_)
    assert str(refused.value) == message


def test_story_mode_holds_a_section_per_position_of_its_range_and_no_report(lost_marker):
    html = export_html(lost_marker, "lost-marker", range_=(2, 6), story=True)
    assert re.findall(r'data-step="(\d+)"', html) == ["2", "3", "4", "5", "6"]
    assert 'class="mode-embed' in html and 'data-mode="embed"' in html
    assert "Step 6</span> fail B" in html
    assert "B fails, rejected by plugin P" in html  # the step's own note
    assert 'data-testid="report"' not in html  # a story is its own article
    assert 'data-testid="report"' in export_html(lost_marker, "lost-marker")  # (the file without one has it)
    assert html.count("<script>") == 1  # scrolly.js rides in the one hashed script


def test_the_route_passes_the_opening_on(client):
    answer = client.get("/export/lost-marker.html?position=4&from=2&to=5")
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    assert attribute(html, "data-position") == "4" and attribute(html, "data-range-to") == "5"


@pytest.mark.parametrize("query, message", [
    ("position=9", "position must be an integer in 0..6, got 9"),
    ("position=x", "position must be a step number (0 or more), not 'x'"),
    ("from=2", "a range needs both from and to"),
    ("from=5&to=2", "range must be [from, to] with 0 <= from <= to <= 6, got [5, 2]"),
    ("story=yes", "story must be 1 or 0, not 'yes'"),
])
def test_the_route_refuses_a_bad_opening_in_words(client, query, message):
    answer = client.get(f"/export/lost-marker.html?{query}")
    assert answer.status_code == 400
    assert answer.get_json()["message"] == message
