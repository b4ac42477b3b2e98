"""presenter/story.py: a scenario's steps as an article's sections, one per position of the range."""

from webapp.presenter.story import story
from webapp.scenario import builtin

RAW = builtin.get("lost-marker")


def test_the_whole_scenario_the_description_then_each_step_and_its_note():
    told = story(RAW["name"], RAW["description"], RAW["steps"])
    assert told["start"] == 0 and told["name"] == "The lost marker"
    assert [p["position"] for p in told["paragraphs"]] == [1, 2, 3, 4, 5, 6]
    assert told["paragraphs"][0]["label"] == "pop — expect A"
    assert told["paragraphs"][5]["note"].startswith("B fails, rejected by plugin P")


def test_a_range_starts_at_its_first_position_and_a_step_without_a_note_has_none():
    steps = [{"op": "pop", "expect": "A"}, {"op": "done", "pod": "A", "note": "A is bound."}]
    told = story("two", "", steps, (1, 2))
    assert told["start"] == 1
    assert told["paragraphs"] == [{"position": 2, "label": "done A", "note": "A is bound."}]
    assert story("two", "", steps, (0, 1))["paragraphs"] == [{"position": 1, "label": "pop — expect A", "note": ""}]
