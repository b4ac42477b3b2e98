"""A real redis-server on loopback (Debian's package, installed by `make test`) and servers sharing it."""

import shutil
import subprocess

import pytest
import redis

from tests.waiting import until
from tests.web.liveserver import ROOT, LiveServer, free_port
from webapp.engine.roomstore import MemoryRoomStore, RedisRoomStore

LOGS = ROOT / "test-artifacts" / "server-logs"


class RedisServer:
    def __init__(self, port: int | None = None):
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is missing: `make test` installs Debian's redis-server (make system-deps)",
                        pytrace=False)
        self.binary = binary
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.start()

    def start(self):
        self.proc = subprocess.Popen([self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=self.port)
        until(client.ping, f"redis-server on port {self.port} never answered a PING", passing=(redis.ConnectionError,))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)

    def client(self) -> redis.Redis:
        """A client on one connection of its own (MONITOR names a client by its connection's address)."""
        return redis.Redis(port=self.port, single_connection_client=True, socket_timeout=60)

    def monitor(self) -> redis.client.Monitor:
        """``with redis_server.monitor() as commands:`` every command Redis runs from then on, in its order."""
        return redis.Redis(port=self.port, socket_timeout=60).monitor()

    def ensure_running(self):
        """Up again on the same port if a test stopped it (the servers' clients reconnect)."""
        if self.proc.poll() is not None:
            self.start()


# One Redis and one pair of servers per async mode for the whole module (starting them is most of this
# module's time); the tests that stop Redis come last in the module, and Redis is up again before each test.
@pytest.fixture(scope="module")
def redis_server():
    server = RedisServer()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def redis_up(redis_server):
    redis_server.ensure_running()


@pytest.fixture(scope="module", params=["eventlet", "threading"])
def two_servers(request, redis_server):
    redis_server.ensure_running()  # before the servers start: their queue listeners connect at once
    args = ("--message-queue", redis_server.url)
    with LiveServer(request.param, LOGS, args) as one, LiveServer(request.param, LOGS, args) as two:
        yield one, two


@pytest.fixture(params=["memory", "redis"])
def store(request, redis_server):
    """A room store of each kind: the process's own, and a shared one on the real redis-server, emptied."""
    if request.param == "memory":
        return MemoryRoomStore()
    shared = RedisRoomStore(redis_server.url, idle_seconds=60)
    shared._redis.flushdb()
    return shared
