"""static/js/local.js in node, locked to a range as an exported embed is: it answers as the server's session."""

import pytest

from tests.export.test_local_connection import NODE, bundle, replay  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def positions(got):
    return [g[1] for g in got if g[0] == "state"]


def test_a_range_locks_step_back_reset_and_play(replay):  # noqa: F811
    got = replay([["load", {"scenario": "lost-marker", "range": [2, 5], "position": 4}], ["step", {}], ["step", {}],
                  ["back", {}], ["back", {}], ["back", {}], ["back", {}], ["reset", {}], ["seek", {"position": 5}],
                  ["play", {"speed": 20}], ["wait", 200]])
    assert positions(got) == [4, 5, 5, 4, 3, 2, 2, 2, 5, 5]
    assert [g[3] for g in got if g[0] == "state"][-1] is False  # at the range's end: play stops at once


def test_load_opens_at_the_start_of_its_range(replay):  # noqa: F811
    got = replay([["load", {"scenario": "lost-marker", "range": [3, 6]}]])
    assert positions(got) == [3]


@pytest.mark.parametrize("position", [1, 6])
def test_a_seek_outside_the_range_is_refused_and_changes_nothing(replay, position):  # noqa: F811
    got = replay([["load", {"scenario": "lost-marker", "range": [2, 5]}], ["seek", {"position": position}],
                  ["step", {}]])
    assert got[-2] == ["error", {"message": f"position must be an integer in 2..5, got {position}", "event": "seek"}]
    assert positions(got) == [2, 3]


@pytest.mark.parametrize("bad", [[4, 2], [0, 7], [-1, 3], [1], "2..5", [1.5, 3]])
def test_a_bad_range_is_refused_in_the_servers_words(replay, bad):  # noqa: F811
    import json

    got = replay([["load", {"scenario": "lost-marker", "range": bad}]])
    assert got[-1] == ["error", {"message": f"range must be [from, to] with 0 <= from <= to <= 6, got "
                                            f"{json.dumps(bad, separators=(',', ':'))}", "event": "load"}]
