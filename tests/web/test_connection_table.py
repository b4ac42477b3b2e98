"""The connection table's rules alone (webapp/server/connections.py), with sockets of its own and a clock given:
the bounds, closed connections forgotten, idle ones found once, busy ones never; the file limit's share."""

import socket

from webapp.server.connections import Connections, FileLimit, address_key, connection_bound


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def pair():
    a, b = socket.socketpair()
    b.close()
    return a


def test_followers_vouched_for_leave_their_addresss_bound_up_to_their_own_and_the_proxy_is_exempt():
    """A hall's phones: a websocket vouched for as a room's follower no longer counts against its address's bound,
    but against the address's followers (``followers``), which the process's bound still caps; a trusted proxy's
    connections are under no per-address bound."""
    table = Connections(most=7, per_address=2, idle_seconds=0, followers=3, exempt=lambda key: key == "10.0.0.9")
    socks = [pair() for _ in range(9)]
    try:
        for port in (1, 2):
            assert table.admit(socks[port], ("10.0.0.1", port)) is None
        assert table.admit(socks[3], ("10.0.0.1", 3)) == table.too_many_here
        assert table.vouch(("10.0.0.1", 1)) and table.vouch(("10.0.0.1", 2))
        assert not table.vouch(("10.0.0.1", 2))  # once
        assert not table.vouch(("10.0.0.1", 99))  # no such connection
        for port in (3, 4):  # two more, counted per address again
            assert table.admit(socks[port], ("10.0.0.1", port)) is None
        assert table.vouch(("10.0.0.1", 3)) and not table.vouch(("10.0.0.1", 4))  # its followers are 3 at most
        assert table.admit(socks[5], ("10.0.0.1", 5)) is None  # 4 and 5: its bound of 2
        assert table.admit(socks[6], ("10.0.0.1", 6)) == table.too_many_here
        assert table.per_address_now() == {"10.0.0.1": 2}
        socks[1].close()  # a follower that went leaves its place
        assert table.vouch(("10.0.0.1", 4))
        for port in (6, 7):  # the proxy's: no bound per address, the process's still
            assert table.admit(socks[port], ("10.0.0.9", port)) is None
        assert len(table) == 6 and table.admit(socks[8], ("10.0.0.9", 8)) is None
        assert table.admit(socks[0], ("10.0.0.9", 9)) == table.too_many
    finally:
        for s in socks:
            s.close()


def test_bounds_per_process_and_per_address_and_closed_ones_forgotten():
    table = Connections(most=3, per_address=2, idle_seconds=0)
    socks = [pair() for _ in range(4)]
    try:
        assert table.admit(socks[0], ("10.0.0.1", 1)) is None
        assert table.admit(socks[1], ("10.0.0.1", 2)) is None
        assert table.admit(socks[2], ("10.0.0.1", 3)) == table.too_many_here  # its address holds 2
        assert table.admit(socks[2], ("10.0.0.2", 1)) is None
        assert table.admit(socks[3], ("10.0.0.3", 1)) == table.too_many  # the process holds 3
        socks[0].close()  # a closed connection is forgotten when a bound is reached
        assert table.admit(socks[3], ("10.0.0.3", 1)) is None
        assert table.refused == {"process": 1, "address": 1}
        assert table.per_address_now() == {"10.0.0.1": 1, "10.0.0.2": 1, "10.0.0.3": 1}
    finally:
        for s in socks:
            s.close()


def test_idle_connections_are_found_once_and_busy_ones_never():
    clock = Clock()
    table = Connections(most=10, per_address=0, idle_seconds=15, clock=clock)
    idle, busy, done = pair(), pair(), pair()
    try:
        for sock, port in ((idle, 1), (busy, 2), (done, 3)):
            table.admit(sock, ("127.0.0.2", port))
        assert table.busy(("127.0.0.2", 2)) and table.busy(("127.0.0.2", 3))
        clock.now = 10
        table.done(("127.0.0.2", 3))  # its answer ended at 10: idle from then
        clock.now = 20
        assert table.expired() == [idle]
        assert table.expired() == []  # found once
        assert not table.busy(("127.0.0.2", 1))  # a head cut short by the shutdown is not run
        table.done(("127.0.0.2", 1))
        clock.now = 25
        assert table.expired() == [done]
        clock.now = 1000
        assert table.expired(most=5) == []  # the busy one is never timed out
    finally:
        for s in (idle, busy, done):
            s.close()


def test_the_share_of_the_file_limit_and_mapped_addresses():
    assert connection_bound(FileLimit(1024, 1024, 1024, 40), 10_000) == 738
    assert connection_bound(FileLimit(1024, 1 << 20, 1 << 20, 40), 10_000) == 10_000
    assert connection_bound(FileLimit(0, 0, 0, 0), 500) == 500  # no limit known
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_key("2001:db8::1") == "2001:db8::1"
    assert address_key("not an address") == "not an address"
