"""The poll's rules as plain functions: what may be asked, what counts as an answer, how answers are counted."""

import pytest

from webapp.engine import polls
from webapp.errors import Invalid

PROMPT = {"pod": "B", "choices": ["activeQ", "backoffQ", "unschedulablePods"]}


def test_a_poll_asks_what_the_scene_asks():
    poll = polls.open_poll(5, "load1", PROMPT, ["v1.28.1", "v1.28.2"])
    assert poll == {"position": 5, "key": "load1", "pod": "B", "choices": PROMPT["choices"],
                    "variants": ["v1.28.1", "v1.28.2"], "open": True}
    with pytest.raises(Invalid, match="nothing to predict"):
        polls.open_poll(4, "load1", None, ["v1.28.1"])


@pytest.mark.parametrize("key,position,ended", [
    ("load1", 5, None),  # still where it asks: open
    ("load1", 6, "reveal"),  # the step it asks about shows the truth
    ("load1", 4, "withdraw"), ("load1", 7, "withdraw"), ("load1", 0, "withdraw"),  # back, past it, to the start
    ("load2", 6, "withdraw"), ("load2", 5, "withdraw"),  # another load, even at the same place
    (None, None, "withdraw"),
])
def test_a_move_ends_the_open_poll_it_leaves(key, position, ended):
    """A poll left open when the room moved on stayed open on every phone, and could never be revealed."""
    poll = polls.open_poll(5, "load1", PROMPT, ["v1.28.1"])
    assert polls.ended_by_move(poll, key, position) == ended
    assert polls.ended_by_move({**poll, "open": False}, key, position) is None  # revealed already
    assert polls.ended_by_move(None, key, position) is None


def test_a_poll_stored_without_its_load_is_withdrawn():
    poll = polls.open_poll(5, "load1", PROMPT, ["v1.28.1"])
    del poll["key"]
    assert [polls.ended_by_move(poll, "load1", p) for p in (5, 6, 4)] == ["withdraw"] * 3


@pytest.mark.parametrize("answer,message", [
    (None, "answers must be an object"), ({}, "answers must be an object"), ("backoffQ", "answers must be an object"),
    ({"v9": "backoffQ"}, "'v9' is not a variant of this poll"),
    ({"v1.28.1": "nowhere"}, r"answers.v1.28.1: expected one of"),
    ({"v1.28.1": ["backoffQ"]}, r"answers.v1.28.1: expected one of"),
])
def test_what_is_not_an_answer_is_refused(answer, message):
    poll = polls.open_poll(5, "load1", PROMPT, ["v1.28.1", "v1.28.2"])
    with pytest.raises(Invalid, match=message):
        polls.checked_answer(poll, answer)


def test_a_closed_poll_takes_no_answer():
    poll = {**polls.open_poll(5, "load1", PROMPT, ["v1.28.1"]), "open": False}
    with pytest.raises(Invalid, match="no poll is open"):
        polls.checked_answer(poll, {"v1.28.1": "backoffQ"})
    with pytest.raises(Invalid, match="no poll is open"):
        polls.checked_answer(None, {"v1.28.1": "backoffQ"})


def test_tally_is_a_histogram_per_variant():
    poll = polls.open_poll(5, "load1", PROMPT, ["v1.28.1", "v1.28.2"])
    answers = [{"v1.28.1": "backoffQ", "v1.28.2": "backoffQ"}, {"v1.28.1": "unschedulablePods"},
               {"v1.28.2": "backoffQ"}]
    assert polls.tally(poll, answers) == {"answered": 3, "counts": {
        "v1.28.1": {"activeQ": 0, "backoffQ": 1, "unschedulablePods": 1},
        "v1.28.2": {"activeQ": 0, "backoffQ": 2, "unschedulablePods": 0}}}
