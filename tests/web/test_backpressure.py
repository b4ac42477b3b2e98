"""Every connection's outgoing queue is bounded in bytes (MAX_OUTGOING_BYTES): a client that asks for large answers
and never reads them is dropped, told why should it ever read again, and the server goes on serving the others.
On real servers, both async modes."""

import pytest
import requests
import socketio as socketio_client

from tests.web.liveserver import LiveServer
from tests.web.rawsocket import TIMEOUT, RawSocket, wait_for_log
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
    wait_for_log(server, "(MAX_OUTGOING_BYTES)")

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
