"""Every connection's outgoing queue is bounded in bytes (MAX_OUTGOING_BYTES): a client that asks for large answers
and never reads them is dropped, told why should it ever read again, and the server goes on serving the others.
The connections of a process and those of one address are bounded together (PROCESS_QUEUES, ADDRESS_QUEUES), a
message held by many counted once. On real servers, both async modes, and on a real Engine.IO server's queues."""

import pytest
import requests
import socketio as socketio_client

from tests.waiting import logged
from tests.web.liveserver import LiveServer
from tests.web.rawsocket import TIMEOUT, RawSocket
from tests.web.test_live_server import LOGS

BOUND = 2 * 1024 * 1024
ANSWER = "x" * 200_000  # an echo answers with the same: 200 kB each
ENV = {"INFLIGHT_SCOPE_MAX_OUTGOING_BYTES": str(BOUND),
       "INFLIGHT_SCOPE_MAX_MESSAGE_BYTES": str(4 * 1024 * 1024)}  # read 4 MiB a second: the test asks quickly


@pytest.fixture(scope="module", params=["eventlet", "threading"])
def server(request):
    with LiveServer(request.param, LOGS, env=ENV) as live:
        yield live
        assert live.proc.poll() is None, f"the server died during the tests:\n{live.log()}"


def test_a_client_that_does_not_read_is_dropped_and_told_why_when_it_reads(server):
    slow = RawSocket(server.url, receive_buffer=4096)
    for _ in range(40):  # 8 MB of answers asked for; a few hundred kB can be on their way, at most
        slow.emit("echo", {"x": ANSWER})
    logged(server, "(MAX_OUTGOING_BYTES)")

    honest = socketio_client.Client(reconnection=False)
    try:
        honest.connect(server.url, transports=["websocket"], wait_timeout=TIMEOUT)
        honest.call("load", {"scenario": "lost-marker"}, timeout=TIMEOUT)  # answered: the server serves others
        assert requests.get(server.url + "/healthz", timeout=TIMEOUT).status_code == 200
    finally:
        honest.disconnect()

    events = list(slow.events())  # it reads at last: what was on its way, then why it was dropped, then the close
    errors = [data for name, data in events if name == "error"]
    assert errors and errors[-1]["kind"] == "TooLarge", [name for name, _ in events]
    assert f"{BOUND:,} bytes" in errors[-1]["message"] and "MAX_OUTGOING_BYTES" in errors[-1]["message"]
    echoes = sum(1 for name, _ in events if name == "echo")
    assert echoes < 40  # the rest was let go, never sent
    assert server.proc.poll() is None


def test_a_client_that_reads_gets_every_answer(server):
    reader = RawSocket(server.url)
    try:
        for _ in range(20):  # 4 MB in all, each answer read before the next is asked for
            reader.emit("echo", {"x": ANSWER})
            assert reader.until("echo")[-1][1] == {"x": ANSWER}
    finally:
        reader.close()


def test_a_sync_asked_while_earlier_answers_are_unread_is_refused(server):
    from tests.web.rawsocket import generated_scenario

    slow = RawSocket(server.url, receive_buffer=4096)
    slow.emit("load", {"scenario": generated_scenario(8_000)})  # its scenario message: about 650 kB
    slow.until("state")
    slow.emit("sync", {"scenario": True})  # asked for again: kept from now on, sent at once
    slow.until("state")
    for _ in range(12):
        slow.emit("sync", {"scenario": True})
    seen, answered = [], 0
    for name, data in slow.events():  # until each sync is answered or refused, whatever their order
        seen.append((name, data))
        answered += name == "state" or name == "error"
        if answered == 12:
            break
    refused = [data for name, data in seen if name == "error"]
    assert refused and all(r["kind"] == "Busy" and r["event"] == "sync" for r in refused), [n for n, _ in seen]
    assert any("have not been read yet" in r["message"] for r in refused), refused
    assert sum(1 for name, _ in seen if name == "scenario") >= 1
    slow.close()


def unpolled_session(server, source: str, echoes: int) -> None:
    """A long-polling session from ``source`` that asks ``echoes`` echoes of ANSWER and never polls for them: they
    stay in its queue (no socket buffer takes any), each request on a connection of its own."""
    import http.client
    import json
    from urllib.parse import urlsplit

    address = urlsplit(server.url)

    def ask(method: str, path: str, body: str | None = None) -> str:
        conn = http.client.HTTPConnection(address.hostname, address.port, timeout=TIMEOUT, source_address=(source, 0))
        try:
            conn.request(method, path, body=body)
            answer = conn.getresponse()
            assert answer.status == 200, (answer.status, answer.read()[:200])
            return answer.read().decode()
        finally:
            conn.close()

    base = "/socket.io/?EIO=4&transport=polling"
    sid = json.loads(ask("GET", base)[1:])["sid"]
    ask("POST", f"{base}&sid={sid}", "40")
    echo = "42" + json.dumps(["echo", {"x": ANSWER}])
    ask("POST", f"{base}&sid={sid}", "\x1e".join([echo] * echoes))


def test_one_address_that_does_not_read_is_held_to_its_share_while_another_is_served(server):
    """20 sessions from 127.0.0.2 each hold 1.8 MB unread (under their own bound of 2 MB): past their address's
    share (ADDRESS_QUEUES x the bound: 16 MB) the one with the most unread is dropped, while a client from
    127.0.0.1 is answered; the address keeps all but one of the sessions its share holds."""
    from webapp.server.backpressure import ADDRESS_QUEUES

    for _ in range(20):
        unpolled_session(server, "127.0.0.2", echoes=9)
    logged(server, "(ADDRESS_QUEUES x MAX_OUTGOING_BYTES)")
    reader = RawSocket(server.url)
    try:
        reader.emit("echo", {"x": ANSWER})
        assert reader.until("echo")[-1][1] == {"x": ANSWER}
    finally:
        reader.close()
    log = server.log_path.read_text(errors="replace")
    dropped = log.count("from your address had not read")
    # a drop takes back at most one session's 1.8 MB: the address keeps all but one of the sessions its share holds
    held = ADDRESS_QUEUES * BOUND // (9 * len(ANSWER))
    assert 1 <= dropped <= 20 - (held - 1), log


def test_engineio_makes_each_connections_queue_where_the_bound_wraps_it():
    """What privates.bound_outgoing relies on: Engine.IO makes a connection's queue with its server's
    create_queue, and its websocket class sits in the driver table screen_engineio also wraps."""
    import engineio
    from engineio.base_socket import BaseSocket

    from webapp.server import privates
    from webapp.server.backpressure import OutgoingQueue

    server = engineio.Server(async_mode="threading")
    bound = privates.bound_outgoing(server, 1000)
    assert bound is not None and "create_queue" in BaseSocket.__init__.__code__.co_names
    socket = BaseSocket(server, "sid")
    assert isinstance(socket.queue, OutgoingQueue) and socket.queue.most == 1000


def test_past_the_process_bound_the_connection_with_the_most_unread_is_dropped():
    """Each connection under its own bound, all of them past PROCESS_QUEUES x the bound: the message that passes it
    drops the connection holding the most unread (told why), and the others keep what they were sent."""
    import engineio
    from engineio import packet
    from engineio.base_socket import BaseSocket

    from webapp.server import backpressure, privates

    server = engineio.Server(async_mode="threading")
    bound = privates.bound_outgoing(server, 1000)
    count = backpressure.PROCESS_QUEUES * 10 // 8  # 800 bytes each pass 1000 x PROCESS_QUEUES
    queues = [BaseSocket(server, f"sid{n}").queue for n in range(count)]
    for n, queue in enumerate(queues[:-1]):
        queue.put(packet.Packet(packet.MESSAGE, data="x" * (900 if n == 5 else 800)))
    assert bound.total <= bound.process_most and bound.drops == 0
    queues[-1].put(packet.Packet(packet.MESSAGE, data="y" * 800))  # past the process's bound: n° 5 has the most
    assert bound.drops == 1 and queues[5].dropped and not any(q.dropped for q in queues if q is not queues[5])
    farewell = queues[5].get(block=False)
    assert "had the most unread" in farewell.data and "PROCESS_QUEUES" in farewell.data
    assert bound.total == sum(q.bytes for q in queues) == (count - 1) * 800
    assert queues[0].get(block=False).data == "x" * 800  # the others keep what they were sent
    assert bound.total == (count - 2) * 800


def bound_with_sockets(count: int, most: int = 1000):
    """A real Engine.IO server's Bound and ``count`` of its connections' queues."""
    import engineio
    from engineio.socket import Socket

    from webapp.server import privates

    server = engineio.Server(async_mode="threading")
    bound = privates.bound_outgoing(server, most)
    sockets = [Socket(server, f"sid{n}") for n in range(count)]
    server.sockets.update({s.sid: s for s in sockets})
    return bound, [s.queue for s in sockets]


def message(text: str):
    from engineio import packet

    return packet.Packet(packet.MESSAGE, data=text)


def test_a_message_sent_to_a_whole_hall_counts_once():
    """A room's message is one packet in every follower's queue: 500 phones behind one address holding it unread
    count its bytes once, for the process and for the address, and go back to nothing as they read."""
    from webapp.server import backpressure

    bound, queues = bound_with_sockets(500)
    for n in range(500):
        bound.placed(f"sid{n}", "203.0.113.9")
    shared = message("r" * 900)
    for queue in queues:
        queue.put(shared)
    assert bound.drops == 0 and bound.total == 900 == bound.of_address("203.0.113.9")
    assert backpressure.PROCESS_QUEUES * 1000 < 500 * 900  # counted once per phone, the hall would be shed
    for queue in queues[:499]:
        assert queue.get(block=False) is shared
    assert bound.total == 900 == bound.of_address("203.0.113.9")  # the last phone has not read it yet
    queues[499].get(block=False)
    assert bound.total == 0 == bound.of_address("203.0.113.9")


def test_past_an_addresss_share_its_connection_with_the_most_unread_is_dropped():
    """Each connection under its own bound, one address's together past ADDRESS_QUEUES x the bound: the message
    that passes it drops that address's connection with the most unread, though another address's has more."""
    from webapp.server import backpressure

    count = backpressure.ADDRESS_QUEUES * 10 // 8  # 800 bytes each pass 1000 x ADDRESS_QUEUES
    bound, queues = bound_with_sockets(count + 1)
    for n in range(count):
        bound.placed(f"sid{n}", "198.51.100.1")
    bound.placed(f"sid{count}", "198.51.100.2")
    queues[count].put(message("o" * 950))  # another address's: the most unread of all
    for n, queue in enumerate(queues[:count - 1]):
        queue.put(message(("x" if n == 3 else "y") * (900 if n == 3 else 800)))
    assert bound.drops == 0 and bound.of_address("198.51.100.1") == (count - 2) * 800 + 900
    queues[count - 1].put(message("z" * 800))  # past the address's share: n° 3 has its most
    assert bound.drops == 1 and queues[3].dropped
    assert not any(q.dropped for q in queues if q is not queues[3])
    farewell = queues[3].get(block=False)
    assert "from your address" in farewell.data and "ADDRESS_QUEUES" in farewell.data
    assert bound.of_address("198.51.100.1") == (count - 1) * 800 and bound.of_address("198.51.100.2") == 950
    assert bound.total == (count - 1) * 800 + 950


def test_a_connection_whose_address_is_not_known_counts_for_the_process_only():
    bound, queues = bound_with_sockets(2)
    bound.placed("sid1", "192.0.2.7")
    queues[0].put(message("a" * 100))
    queues[1].put(message("b" * 300))
    assert bound.total == 400 and bound.of_address("192.0.2.7") == 300
    queues[0].get(block=False)
    queues[1].get(block=False)
    assert bound.total == 0 and bound.of_address("192.0.2.7") == 0
