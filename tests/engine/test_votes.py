"""The vote on the next action as plain rules: what is offered, what is proposed, what counts, what is forked."""

import itertools

import pytest

from webapp.engine import votes
from webapp.engine.roomstore import MemoryRoomStore
from webapp.engine.simulation import Simulation
from webapp.errors import Invalid
from webapp.phrases import FORK_MARK
from webapp.scenario import builtin
from webapp.scenario.load import load_scenario
from webapp.scenario.resolve import resolve


def states_at(scenario_id, position):
    scenario, _ = resolve(scenario_id)
    sim = Simulation(scenario, scenario.versions)
    sim.seek(position)
    return [v["state"] for v in sim.frame()["variants"].values()], list(sim.variants)


def test_what_is_offered_is_what_the_fork_menu_offers_there():
    raw = builtin.get("lost-marker")
    states, _ = states_at("lost-marker", 2)  # A in flight, B in activeQ
    assert votes.offered(states, raw) == [
        {"op": "pop"}, {"op": "fail", "pod": "A", "unschedulable_plugins": ["P"]}, {"op": "done", "pod": "A"},
        {"op": "event", "event": "PvAdd"}, {"op": "event", "event": "NodeAdd"},
        {"op": "advance_clock", "seconds": 1}, {"op": "advance_clock", "seconds": 60}]
    states, _ = states_at("lost-marker", 6)  # nothing in flight, nothing to pop
    assert [s["op"] for s in votes.offered(states, raw)] == ["event", "event", "advance_clock", "advance_clock"]


def test_the_action_that_parts_the_versions_at_once_is_proposed_first():
    """After Done(A), failing B is where v1.28.1 loses B's event: it parts the versions at that very step."""
    raw = builtin.get("lost-marker")
    states, variants = states_at("lost-marker", 5)
    offered = votes.offered(states, raw)
    ranking = votes.ranked(raw, 5, variants, offered, budget=60.0)
    assert ranking[0] == ({"op": "fail", "pod": "B", "unschedulable_plugins": ["P"]}, 0)
    later = [2 if soon is None else soon for _, soon in ranking]
    assert later == sorted(later) and later[-1] == 2  # soonest first; some part them not within two steps
    assert all(soon != 0 for _, soon in ranking[1:])  # only failing B parts them at once
    assert sorted(map(str, (step for step, _ in ranking))) == sorted(map(str, offered))
    proposed = votes.proposed(ranking)
    assert proposed[0] == ranking[0][0] and votes.MIN_ACTIONS <= len(proposed) <= votes.MAX_ACTIONS


def test_the_proposal_is_bounded_in_time():
    """With its budget spent before it starts, nothing is looked at: the actions come in the order offered, none
    said to part the versions."""
    raw = builtin.get("lost-marker")
    states, variants = states_at("lost-marker", 5)
    offered = votes.offered(states, raw)
    ticks = itertools.count(0, 10.0)  # every look at the clock is ten seconds later
    assert votes.ranked(raw, 5, variants, offered, budget=1.0, clock=lambda: next(ticks)) == \
        [(step, None) for step in offered]


@pytest.mark.parametrize("steps,message", [
    ([{"op": "pop"}], "2 to 4 actions"),
    ([{"op": "pop"}] * 5, "2 to 4 actions"),
    ([{"op": "pop"}, {"op": "pop"}], "offered once"),
])
def test_a_vote_offers_two_to_four_distinct_actions(steps, message):
    with pytest.raises(Invalid, match=message):
        votes.open_vote(3, "k", steps, ["x"] * len(steps))


def test_ballots_count_one_per_voter_and_the_first_offered_wins_a_tie():
    vote = votes.open_vote(3, "k", [{"op": "pop"}, {"op": "done", "pod": "A"}, {"op": "event", "event": "X"}],
                           ["pop", "done A", "event X"])
    store = MemoryRoomStore()
    box = votes.box("ROOM22")
    for voter, action in [("v1", 1), ("v2", 2), ("v3", 2), ("v3", 1), ("v4", 0)]:  # v3 changes its mind
        store.answer(box, voter, votes.checked_ballot(vote, action), 100)
    tally = votes.counts(vote, store.answers(box))
    assert tally == [1, 2, 1] and votes.winner(tally) == 1
    assert votes.winner([2, 2, 0]) == 0
    with pytest.raises(Invalid, match="nobody has voted"):
        votes.winner([0, 0, 0])
    for bad in (3, -1, True, "1", None):
        with pytest.raises(Invalid, match="action: expected the number of an offered action, 0 to 2"):
            votes.checked_ballot(vote, bad)
    with pytest.raises(Invalid, match="no vote is open"):
        votes.checked_ballot({**vote, "open": False}, 0)


def test_the_fork_keeps_the_rest_as_its_other_branch_and_says_how_the_room_voted():
    raw = builtin.get("lost-marker")
    note = votes.fork_note("done A", [1, 4], raw["name"], 2)
    assert note.startswith(FORK_MARK) and "done A (4 of 5 votes)" in note
    fork = votes.forked(raw, 2, {"op": "done", "pod": "A"}, note)
    assert fork["name"] == raw["name"] + " (fork)"
    assert fork["steps"][:2] == raw["steps"][:2] and fork["steps"][2] == {"op": "done", "pod": "A", "note": note}
    assert fork["branch"] == {"at": 2, "name": raw["name"], "steps": raw["steps"][2:]}
    load_scenario(fork)  # a valid scenario
    again = votes.forked(fork, 3, {"op": "pop"}, "n")  # forked at the end of a fork: its other branch stays
    assert again["name"] == fork["name"] and again["branch"] == fork["branch"]


def test_a_rooms_path_is_dropped_with_it():
    store = MemoryRoomStore()
    store.push_turn("ROOM22", {"at": 1})
    store.push_turn("ROOM22", {"at": 2})
    assert store.turns("ROOM22") == [{"at": 1}, {"at": 2}]
    assert store.pop_turn("ROOM22") == {"at": 2}
    store.set_poll(votes.box("ROOM22"), {"open": True})
    store.drop("ROOM22")
    assert store.turns("ROOM22") == [] and store.poll(votes.box("ROOM22")) is None
    assert store.pop_turn("ROOM22") is None


def test_followers_are_told_the_forks_note_and_no_other():
    """Where a scenario asks predictions, its notes are the presenter's; a fork's note says only where the room
    forked and how it voted: the timeline marks the branch on every phone by it."""
    from webapp.presenter import scenario_message
    from webapp.presenter.messages import for_followers

    raw = builtin.get("lost-marker")
    note = votes.fork_note("fail B — plugin P", [2, 1], raw["name"], 5)
    fork = votes.forked(raw, 5, {"op": "fail", "pod": "B", "unschedulable_plugins": ["P"]}, note)
    sim = Simulation(load_scenario(fork), ["v1.28.1", "v1.28.2"])
    theirs = for_followers(scenario_message(sim.summary(), None, "ROOM22"))
    assert [step.get("note") for step in theirs["steps"]] == [None] * 5 + [note]
    assert [step.get("note") for step in theirs["source"]["steps"]] == [None] * 5 + [note]


def test_a_summary_retells_the_forks_and_the_polls_against_the_truth():
    from webapp.engine.summary import summary, truth

    assert truth("lost-marker", ["v1.28.1", "v1.28.2"], 5, "B") == {"v1.28.1": "unschedulablePods",
                                                                    "v1.28.2": "backoffQ"}
    raw = builtin.get("lost-marker")
    step = {"op": "done", "pod": "A"}
    note = votes.fork_note("done A", [1, 2], raw["name"], 2)
    fork = votes.forked(raw, 2, step, note)
    turn = {"at": 2, "before": "lost-marker", "actions": ["pop", "done A"], "counts": [1, 2], "winner": 1,
            "step": step, "note": note}
    poll = {"position": 5, "pod": "B", "choices": ["activeQ", "backoffQ", "unschedulablePods"],
            "variants": ["v1.28.1", "v1.28.2"], "answered": 2, "open": False,
            "counts": {"v1.28.1": {"activeQ": 0, "backoffQ": 1, "unschedulablePods": 1}}, "source": "lost-marker"}
    page = summary(fork, [turn], [poll])
    assert page["name"] == raw["name"] + " (fork)" and page["total"] == 3
    [told] = page["forks"]
    assert told["at"] == 2 and told["winner"] == 1
    assert told["actions"] == [{"label": "pop", "n": 1}, {"label": "done A", "n": 2}]
    assert told["before"] == {"source": "lost-marker", "position": 2}
    after = told["after"]  # the fork itself, made again from where it was made
    assert after["position"] == 3 and after["source"]["steps"] == fork["steps"]
    assert after["source"]["branch"] == fork["branch"] and after["source"]["name"] == fork["name"]
    assert page["polls"][0]["truth"] == {"v1.28.1": "unschedulablePods", "v1.28.2": "backoffQ"}
    assert page["polls"][0]["open"] == {"source": "lost-marker", "position": 5}
