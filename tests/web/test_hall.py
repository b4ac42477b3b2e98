"""An audience is not an attacker: a hall's 500 phones on one public address (and 500 behind one X-Forwarded-For
with PROXY_COUNT=1) each open the room's page, join and answer its poll, and all 500 answers count; a follower
identity copied to many connections is one vote, and a forged one counts as no follower. Real servers, both async
modes; the phones are lean (tests/web/hall.py), AT_ONCE at a time, and the test waits on the server's tally."""

from __future__ import annotations

import pytest

from tests.web.hall import hall, hang_up, phone_in_hall
from tests.web.liveserver import LiveServer
from tests.web.rawsocket import RawSocket
from tests.web.test_connections import LOGS, MODES
from tests.web.test_room_bounds import presenter_at_a_poll

PHONES = 500
ANSWER = {"v1.28.1": "backoffQ"}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("proxied", [False, True], ids=["one-address", "behind-a-proxy"])
def test_a_hall_of_500_phones_on_one_address_joins_and_every_vote_counts(mode, proxied):
    env = {"INFLIGHT_SCOPE_PROXY_COUNT": "1"} if proxied else {}
    with LiveServer(mode, LOGS, env=env) as server:
        presenter, drive = presenter_at_a_poll(server.url)
        # direct: every phone from 127.0.0.2; behind the proxy (127.0.0.1, trusted): every one named 203.0.113.50
        source, forwarded = ("127.0.0.1", "203.0.113.50") if proxied else ("127.0.0.2", None)
        phones, _seconds = hall(server.url, server.port, drive["room"], PHONES, source, forwarded, ANSWER)
        try:
            problems = [phone.problem for phone in phones if phone.problem]
            assert problems == [], (len(problems), problems[:3])
            assert all(phone.joined for phone in phones)
            assert len({phone.cookie for phone in phones}) == PHONES  # a follower identity each
            tally = presenter.wait_for("poll_tally", lambda t: t["answered"] == PHONES)
            assert tally["counts"]["v1.28.1"]["backoffQ"] == PHONES
        finally:
            hang_up(phones)
            presenter.close()
        assert server.proc.poll() is None


@pytest.mark.parametrize("mode", MODES)
def test_a_copied_identity_is_one_vote_and_a_forged_one_is_bounded_by_its_address(mode):
    with LiveServer(mode, LOGS, env={"INFLIGHT_SCOPE_MAX_ANSWERS_PER_ADDRESS": "2"}) as server:
        presenter, drive = presenter_at_a_poll(server.url)
        first = phone_in_hall(server.url, server.port, drive["room"], 0, "127.0.0.2", answers=ANSWER)
        assert first.joined, first.problem
        presenter.wait_for("poll_tally", lambda t: t["answered"] == 1)
        # the same cookie on five more connections, each naming a voter of its own: the same follower each time
        copies = [RawSocket(server.url, header=[f"Cookie: {first.cookie}"], source="127.0.0.2") for _ in range(5)]
        for i, copy in enumerate(copies):
            copy.emit("join_room", {"room": drive["room"], "voter": f"copy-{i:08d}"})
            copy.until("poll")
            copy.emit("poll_answer", {"room": drive["room"], "voter": f"copy-{i:08d}",
                                      "answers": {"v1.28.1": "activeQ"}})
        tallies = [presenter.wait_for("poll_tally") for _ in copies]
        assert [t["answered"] for t in tallies] == [1] * 5 and tallies[-1]["counts"]["v1.28.1"]["activeQ"] == 1
        # a made-up identity (its id changed, the signature kept) is no follower: its address's bound applies
        name, value = first.cookie.split("=", 1)
        forged_id = f"{name}={'A' * 22}.{value.split('.')[1]}"
        refusals = []
        for i in range(3):
            forged = RawSocket(server.url, header=[f"Cookie: {forged_id}"], source="127.0.0.3")
            forged.emit("join_room", {"room": drive["room"], "voter": f"forged-{i:08d}"})
            forged.until("poll")
            forged.emit("poll_answer", {"room": drive["room"], "voter": f"forged-{i:08d}", "answers": ANSWER})
            forged.emit("echo", "done")  # answered after the answer's refusal, if any
            refusals += [data for name, data in forged.until("echo") if name == "error"]
            forged.close()
        assert [r["event"] for r in refusals] == ["poll_answer"], refusals
        assert "(MAX_ANSWERS_PER_ADDRESS)" in refusals[0]["message"]
        assert presenter.wait_for("poll_tally", lambda t: t["answered"] == 3)
        for copy in copies:
            copy.close()
        hang_up([first])
        presenter.close()
        assert server.proc.poll() is None
