"""The embed's story mode and the example article over HTTP (webapp/web/story.py)."""

import re


def steps(html: str) -> list[str]:
    return re.findall(r'<section class="story-step[^"]*" data-step="(\d+)"', html)


def test_story_mode_holds_a_section_per_position_of_the_range(client):
    html = client.get("/embed?scenario=lost-marker&from=2&to=5&story=1").get_data(as_text=True)
    assert steps(html) == ["2", "3", "4", "5"]
    assert 'data-testid="story-page"' in html and "js/scrolly.js" in html
    assert re.search(r'src="[^"]*/(js|bundle)/story\.js"', html)  # the module, or its bundle while that is fresh


def test_without_story_or_for_a_scenario_that_is_no_builtin_the_embed_is_as_it_was(client):
    assert steps(client.get("/embed?scenario=lost-marker").get_data(as_text=True)) == []
    assert steps(client.get("/embed?scenario=lost-marker&story=yes").get_data(as_text=True)) == []
    inline = client.get("/embed?scenario=__inline__&inline=abc&story=1")
    assert inline.status_code == 200 and steps(inline.get_data(as_text=True)) == []


def test_the_example_article_is_served_under_the_page_policy(client):
    answer = client.get("/scrollytelling")
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
    assert '<script src="/static/js/scrolly.js">' in answer.get_data(as_text=True)
    assert client.get("/static/js/scrolly.js").status_code == 200
