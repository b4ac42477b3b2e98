"""Abuse limits on the Socket.IO side. Every key is in ``webapp.DEFAULTS``; ``read_environment`` takes
``INFLIGHT_SCOPE_<KEY>`` overrides for ``serve`` and gunicorn.

* ``RATE_LIMIT_PER_SECOND`` / ``RATE_LIMIT_BURST``: a token bucket per connection over every event it sends
  (unknown event names included). A message over the limit is dropped; the connection is told with one
  ``error`` {message: "rate limit: …", event} at most once a second, the other drops are silent. 0 turns the
  limit off.
* ``MAX_MESSAGE_BYTES``: Engine.IO's ``max_http_buffer_size``: a larger message closes the connection.
* ``MAX_SESSION_BYTES``: the checkpoint bytes one simulation (a connection's or a room's) may hold; a scenario
  whose checkpoints outgrow it is refused at ``load`` with an ``error``, as an invalid one is. The scenario
  Limits alone would let one 1 MiB message pin ~270 MiB (``bench/session_memory.py``). sockets.py gives it
  to every Session it makes.
* ``MAX_ROOMS_PER_CONNECTION``: ``create_room`` (and a ``claim_room`` that re-creates a room) beyond this
  many on one connection is refused: every room can hold a simulation, so rooms are bounded like sessions.
* ``ALLOWED_ORIGINS``: the browser Origins allowed to open a Socket.IO connection. None (the default) means
  the page's own origin only; a list (or a comma-separated string) allows those as well; "*" allows any.
  A connection whose Origin header is not allowed is refused (HTTP 400) before it has a session; clients
  that send no Origin (not browsers) are not affected.
* ``SESSION_IDLE_SECONDS``: a background sweeper drops the simulation of a connection nobody has driven for
  that long (it then answers "no scenario loaded" until it loads again); ``ROOM_IDLE_SECONDS``: the same for a
  room (this process's copy, and its record in the in-memory store). ``SWEEP_SECONDS``: how often it looks.

``Guard`` ties these to the app: ``guard.check(sid, event)`` is the one call the namespace makes before a
handler (a Refusal: drop the message). Connection event names, names that are not strings and extra
arguments are answered with an ``error`` before any handler (``screen_packets``). The sweeper starts
with the first admitted message and stops once no connection and no room is left (so idle test apps leave no
thread behind).
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from dataclasses import dataclass

from socketio.packet import ACK, BINARY_ACK, BINARY_EVENT, CONNECT, DISCONNECT, EVENT, Packet

from ..errors import UserError
from ..scenario.document import DocumentError, parse_json, too_deep
from .packets import Malformed, MalformedPackets, describe, screen_engineio, screen_polling

ENV_PREFIX = "INFLIGHT_SCOPE_"
NUMBER_KEYS = ("RATE_LIMIT_PER_SECOND", "RATE_LIMIT_BURST", "MAX_ROOMS_PER_CONNECTION", "MAX_MESSAGE_BYTES",
               "MAX_SESSION_BYTES", "MAX_TRACE_ENTRIES", "MAX_LOADS_AT_ONCE", "MAX_LOADS_WAITING",
               "MAX_SEARCHES_AT_ONCE", "MAX_SEARCHES_WAITING", "SESSION_IDLE_SECONDS", "ROOM_IDLE_SECONDS",
               "SWEEP_SECONDS", "MAX_ROOMS", "MAX_ROOMS_PER_ADDRESS", "ROOM_EMPTY_GRACE_SECONDS")


# --- configuration ----------------------------------------------------------------------------------------
def read_environment(config: dict, environ=os.environ) -> None:
    """``INFLIGHT_SCOPE_ALLOWED_ORIGINS`` (comma-separated, or *) and the numeric keys, when set."""
    origins = environ.get(ENV_PREFIX + "ALLOWED_ORIGINS")
    if origins:
        config["ALLOWED_ORIGINS"] = parse_origins(origins)
    for key in NUMBER_KEYS:
        value = environ.get(ENV_PREFIX + key)
        if value:
            config[key] = float(value) if "." in value else int(value)


def session_bytes(config) -> int | None:
    """The checkpoint bytes one simulation may hold (MAX_SESSION_BYTES; 0 means no bound): a connection's, a
    room's, or the one an export builds."""
    return int(config["MAX_SESSION_BYTES"]) or None


def parse_origins(value):
    """None (the page's own origin only), "*" (any), or a list of origins like "https://slides.example"
    (a comma-separated string is split)."""
    if value is None or value == "*":
        return value
    if isinstance(value, str):
        value = value.split(",")
    origins = [origin.strip().rstrip("/") for origin in value if origin and origin.strip()]
    return "*" if "*" in origins else origins or None


class OriginCheck:
    """Engine.IO's ``cors_allowed_origins`` as a callable: the listed origins (none by default) *and* the page's
    own. Given even when nothing is listed, so that Engine.IO's own same-origin rule, which believes any
    X-Forwarded-Host and X-Forwarded-Proto a client sends, is never used."""

    def __init__(self, origins=()):
        self.origins = frozenset(origins)

    def __call__(self, origin, environ) -> bool:
        return origin in self.origins or origin in own_origins(environ)

    def __repr__(self) -> str:
        return f"OriginCheck({sorted(self.origins)})"


def own_origins(environ) -> set[str]:
    """The page's own origin: the scheme and Host the request arrived with. Behind a proxy trusted by
    PROXY_COUNT, ProxyFix has already put the forwarded ones there (``hosts.py``); forwarded headers are never
    read here (a client could send any)."""
    if "wsgi.url_scheme" not in environ or "HTTP_HOST" not in environ:
        return set()
    return {f"{environ['wsgi.url_scheme']}://{environ['HTTP_HOST']}"}


def socketio_options(config) -> dict:
    """Keyword arguments for ``SocketIO(...)``: the message size cap and the allowed origins."""
    origins = parse_origins(config["ALLOWED_ORIGINS"])
    return {"max_http_buffer_size": int(config["MAX_MESSAGE_BYTES"]),
            "cors_allowed_origins": origins if origins == "*" else OriginCheck(origins or ()),
            "serializer": JsonPacket}


class Encoded(str):
    """A message already encoded as compact JSON (``encoded``): JsonPacket puts it in its packet as it is."""


ENCODE_PIECE = 500  # list items encoded in one call (about 1 ms for a scenario's steps)


def encoded(message) -> Encoded:
    """``json.dumps(message, separators=(",", ":"))`` made a piece at a time: dicts key by key, a list over
    ENCODE_PIECE items in slices. Made on a native thread (Offload), the hub gets the GIL between two pieces
    instead of waiting out one C call (a long scenario's 1.4 MB ``scenario`` message: 40-200 ms on the hub)."""
    pieces: list[str] = []
    _encode(message, pieces)
    return Encoded("".join(pieces))


def _encode(value, pieces: list) -> None:
    if isinstance(value, dict) and all(type(key) is str for key in value):  # other keys: as json converts them
        pieces.append("{")
        for i, (key, item) in enumerate(value.items()):
            pieces.append(("," if i else "") + json.dumps(key) + ":")
            _encode(item, pieces)
        pieces.append("}")
    elif isinstance(value, (list, tuple)) and len(value) > ENCODE_PIECE:
        pieces.append("[")
        for start in range(0, len(value), ENCODE_PIECE):
            pieces.append(("," if start else "") + _dumps(value[start:start + ENCODE_PIECE])[1:-1])
        pieces.append("]")
    else:
        pieces.append(_dumps(value))


def _dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


class QueueJson:
    """The message queue's ``json`` (``manager.json``: the manager takes the packets' own, BoundaryJson, when the
    server is made, so it is set after): an emit relayed to the other processes crosses Redis as JSON, where an
    ``Encoded`` message would become a plain string, sent on as a JSON string (followers on the other process got a
    room's new scenario as text). It crosses as {MARK: text} and is ``Encoded`` again on the other side."""

    MARK = "$encoded"

    @staticmethod
    def dumps(message, **kwargs):
        if isinstance(message, dict) and isinstance(message.get("data"), list):
            message = {**message, "data": [{QueueJson.MARK: str(v)} if isinstance(v, Encoded) else v
                                           for v in message["data"]]}
        return json.dumps(message, **kwargs)

    @staticmethod
    def loads(text, **kwargs):
        message = json.loads(text, **kwargs)
        if isinstance(message, dict) and isinstance(message.get("data"), list):
            message["data"] = [Encoded(v[QueueJson.MARK]) if isinstance(v, dict) and list(v) == [QueueJson.MARK]
                               and isinstance(v[QueueJson.MARK], str) else v for v in message["data"]]
        return message


class BoundaryJson:
    """The ``json`` of JsonPacket: every incoming packet is parsed at the boundary (``parse_json``: nesting,
    long integers, lone surrogates), never by a recursive parser left to raise RecursionError. An outgoing
    ``[event, message]`` whose message is ``Encoded`` is spliced, not encoded again."""

    @staticmethod
    def dumps(data, **kwargs):
        if isinstance(data, list) and any(isinstance(item, Encoded) for item in data):
            return "[" + ",".join(item if isinstance(item, Encoded) else json.dumps(item, **kwargs)
                                  for item in data) + "]"
        return json.dumps(data, **kwargs)

    @staticmethod
    def loads(text, **_):
        return parse_json(text, "the message")


class Undecodable:
    """The data of an event packet refused at the boundary: ``screen_packets`` answers it with an ``error``."""

    def __init__(self, event: str, err: DocumentError):
        self.event = event
        field = re.sub(r"^\[1\]\.?", "", err.field) if err.field != "document" else ""  # [event, payload]
        where = (f"the '{event}' message" if event else "the message") + (f", field '{field}'" if field else "")
        self.problem = f"{where}: {err.reason}"


@dataclass(frozen=True)
class JsonText:
    """A large value of an incoming packet kept as its JSON text (``KEPT_AS_TEXT``): a load waiting for its turn
    holds one string instead of a parsed scenario, which every full garbage collection walked (twenty waiting
    loads: 60-100 ms collections, on whichever thread made them, holding the GIL). ``value()`` parses it again
    (where it is used: in a worker process)."""

    text: str

    def value(self):
        return json.loads(self.text)


KEPT_AS_TEXT = {"load": "scenario"}  # event -> the field of its object payload a large packet keeps as JsonText


@dataclass(frozen=True)
class Unread:
    """The payload of a large packet refused before it was parsed (``JsonPacket.refuse_large``): the handler
    answers ``refusal`` as it would have after parsing it."""

    refusal: Exception


class JsonPacket(Packet):
    """The server speaks JSON only (python-socketio's documented ``serializer`` option). Outgoing packets are
    never scanned for bytes: the default Packet walks every value of every message in Python to look for
    them, which cost more than the whole step (bench/round_trip.py). An incoming packet that carries binary
    attachments is refused by ``screen_packets``; no handler sends bytes. An incoming packet whose JSON is
    refused at the boundary becomes an event whose data is ``Undecodable`` (answered with an ``error``); any
    other packet type then carries no data.

    Decoding never raises: a packet that cannot be decoded at all, or of a type a client may not send
    (CONNECT_ERROR, unknown), becomes an event whose data is ``packets.Malformed`` (``screen_packets`` counts
    it against the rate limit, logs its kind once per connection and closes repeat offenders), where
    python-socketio would log a traceback. A packet over ``LARGE_PACKET`` characters keeps the field
    ``KEPT_AS_TEXT`` names as ``JsonText`` (checked at the boundary, then encoded again); ``parse_apart`` (set by
    the eventlet server, ``wsframes.install``): how such a packet is decoded off the event loop (eventlet's
    tpool); also how a smaller packet whose JSON nests too deep is decoded (``too_deep`` tells in one linear scan;
    where it goes too deep is a walk over the tokens before it: up to 20 ms for 64 kB made to be slow to walk, on
    the event loop). ``refuse_large`` (set by the eventlet server, ``offload.init_offload``): () -> the refusal (Busy) a
    large ``KEPT_AS_TEXT`` event would get now, or None; such a packet is then not parsed at all (clients that
    retried a refused load at once kept native threads parsing 0.3 MB packets, each holding the GIL for 10-40 ms,
    only to be refused)."""

    uses_binary_events = False
    json = BoundaryJson
    LARGE_PACKET = 64 * 1024
    MAX_ATTACHMENTS = 16  # binary attachments are refused anyway (screen_packets); more are not even awaited
    parse_apart = None
    refuse_large = None

    def decode(self, encoded_packet):
        if len(encoded_packet) <= self.LARGE_PACKET:
            run = JsonPacket.parse_apart
            if run is not None and _too_deep_text(encoded_packet):  # to be refused: where, off the event loop
                return run(self._decode, encoded_packet)
            return self._decode(encoded_packet)
        refuse = JsonPacket.refuse_large
        refusal = refuse and (named := _KEPT_EVENT.match(encoded_packet)) and refuse()
        if refusal:
            self.packet_type, self.data, self.namespace, self.id = EVENT, [named[1], Unread(refusal)], None, None
            return 0
        run = JsonPacket.parse_apart
        return self._decode_large(encoded_packet) if run is None else run(self._decode_large, encoded_packet)

    def _decode_large(self, encoded_packet):
        count = self._decode(encoded_packet)
        data = self.data
        if self.packet_type == EVENT and isinstance(data, list) and len(data) == 2 and isinstance(data[0], str):
            field = KEPT_AS_TEXT.get(data[0])
            if isinstance(data[1], dict) and isinstance(data[1].get(field), dict):
                data[1][field] = JsonText(json.dumps(data[1][field], separators=(",", ":")))
        return count

    def _decode(self, encoded_packet):
        try:
            count = super().decode(encoded_packet)
        except DocumentError as err:
            if self.packet_type in (EVENT, BINARY_EVENT):
                named = _EVENT_NAME.search(encoded_packet[:80])  # '42["load",{...': the name, if it is there
                self.packet_type, self.data = EVENT, Undecodable(named[1] if named else "", err)
            else:
                self.data = None
            return 0
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as err:
            self._malformed(f"an undecodable Socket.IO packet ({describe(err)})")
            return 0
        if self.packet_type not in (CONNECT, DISCONNECT, EVENT, ACK, BINARY_EVENT, BINARY_ACK):
            self._malformed(f"Socket.IO packet type {self.packet_type!r:.20}")
            return 0
        if count > self.MAX_ATTACHMENTS:  # each would be kept until the last one came
            self._malformed(f"a Socket.IO packet announcing {count} binary attachments")
            return 0
        return count

    def _malformed(self, kind: str) -> None:
        self.packet_type, self.data, self.namespace, self.id = EVENT, Malformed(kind), None, None

    @classmethod
    def reconstruct_binary(cls, data, attachments):
        """A packet's data with its binary attachments put back: marked ``Attached``, the only data in which
        bytes can occur (JSON text holds none), so ``packet_problem`` walks no other payload."""
        data = super().reconstruct_binary(data, attachments)
        return Attached(data) if isinstance(data, list) else data


def _too_deep_text(encoded_packet: str) -> bool:
    """Whether a packet's JSON nests too deep (``too_deep``, one linear scan: about 1 ms for 64 kB of brackets)."""
    return too_deep(encoded_packet.encode("utf-8", "surrogatepass"))


class Attached(list):
    """An event's ``[name, *args]`` rebuilt with binary attachments (``JsonPacket.reconstruct_binary``)."""


_EVENT_NAME = re.compile(r'^[^\[]*\[\s*"([^"\\]{1,60})"')
_KEPT_EVENT = re.compile(r'^2\[\s*"(' + "|".join(KEPT_AS_TEXT) + r')"\s*,')  # 2["load",{...: no namespace, no id


# --- rate limit -------------------------------------------------------------------------------------------
ADMIT, REFUSE_AND_TELL, REFUSE = "admit", "refuse-and-tell", "refuse"


class RateLimiter:
    """One token bucket per key: ``rate`` tokens per second, at most ``burst`` saved up; a message costs one.
    A refused message is to be answered at most once per ``tell_every`` seconds per key (events of one
    connection are handled on several threads, so "once per run of refusals" would still be many)."""

    def __init__(self, rate: float, burst: float, clock=time.monotonic, tell_every: float = 1.0):
        if rate <= 0 or burst < 1:
            raise ValueError(f"a rate limit needs rate > 0 and burst >= 1, got {rate!r}, {burst!r}")
        self.rate, self.burst, self.clock, self.tell_every = float(rate), float(burst), clock, tell_every
        self._buckets: dict[object, list] = {}  # key -> [tokens, last refill, last time a refusal was told]
        self._lock = threading.Lock()  # events of one connection may be handled on several threads

    def check(self, key, spend: bool = True) -> str:
        """ADMIT (and spend a token), REFUSE_AND_TELL (not told within ``tell_every``) or REFUSE. ``spend`` False:
        ADMIT without spending (what a message would get now: asked before decoding it, whose handler spends)."""
        now = self.clock()
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                bucket = self._buckets[key] = [self.burst, now, -float("inf")]
            bucket[0] = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
            bucket[1] = now
            if bucket[0] >= 1:
                bucket[0] -= spend
                return ADMIT
            if now - bucket[2] < self.tell_every:
                return REFUSE
            bucket[2] = now
            return REFUSE_AND_TELL

    def keep_only(self, keys) -> None:
        """Forget the buckets of every key not in ``keys`` (connections that went away)."""
        with self._lock:
            for key in [k for k in self._buckets if k not in keys]:
                del self._buckets[key]

    def __len__(self) -> int:
        return len(self._buckets)


def rate_limit_message(rate: float, burst: float) -> str:
    return (f"rate limit: more than {rate:g} messages per second (bursts of {burst:g}); this message was dropped, "
            "and so are the next ones over the limit")


# --- idle eviction ----------------------------------------------------------------------------------------
class Sweeper:
    """Drops the simulation of sessions idle for ``session_idle`` seconds, forgets rooms idle for ``room_idle``
    and rooms nobody has been in for their grace (``Rooms.evict_empty``, ROOM_EMPTY_GRACE_SECONDS); runs as a
    Socket.IO background task while there is a connection or a room. ``sweep(now)`` takes the clock of the
    Rooms it sweeps (time.monotonic unless a test gives both another)."""

    TICK = 1.0  # the longest a stop() or the last disconnection waits for the task to notice

    def __init__(self, socketio, sessions: dict, rooms, session_idle: float, room_idle: float, interval: float,
                 on_sweep=None, clock=time.monotonic):
        self.socketio, self.sessions, self.rooms = socketio, sessions, rooms
        self.session_idle, self.room_idle, self.interval = float(session_idle), float(room_idle), float(interval)
        self.on_sweep = on_sweep  # called after each sweep (the rate limiter forgets closed connections)
        self.clock = clock
        self._lock = threading.Lock()
        self._running = False
        self._stopped = False

    @property
    def running(self) -> bool:
        return self._running

    def sweep(self, now: float | None = None) -> dict:
        """One pass; returns {"sessions": n evicted, "rooms": [codes]}."""
        now = self.clock() if now is None else now
        evicted = 0
        for session in list(self.sessions.values()):
            if session.sim is None or now - session.touched < self.session_idle:
                continue
            with session.lock:  # not in the middle of a handler; a playing session touches itself every step
                if session.sim is not None and not session.playing and now - session.touched >= self.session_idle:
                    session.pause()
                    session.sim = None
                    evicted += 1
        rooms = self.rooms.evict_idle(now - self.room_idle) + self.rooms.evict_empty(now)
        if self.on_sweep is not None:
            self.on_sweep()
        return {"sessions": evicted, "rooms": rooms}

    def ensure_running(self) -> None:
        with self._lock:
            if self._running or self._stopped:
                return
            self._running = True
        self.socketio.start_background_task(self._run)

    def stop(self) -> None:
        """The task ends within TICK seconds and is not started again."""
        self._stopped = True

    def _idle(self) -> bool:
        return not self.sessions and not self.rooms.local_codes()

    def _run(self) -> None:
        last = self.clock()
        try:
            while True:
                self.socketio.sleep(min(self.TICK, self.interval))
                if self._stopped:
                    return
                if self.clock() - last >= self.interval:
                    last = self.clock()
                    self.sweep()
                with self._lock:  # decided under the lock ensure_running takes: no connection slips between
                    if self._idle():
                        self._running = False
                        return
        finally:
            with self._lock:
                self._running = False


# --- packets no handler should see -------------------------------------------------------------------------
RESERVED_EVENTS = ("connect", "disconnect")


def screen_packets(server, limiter=None, rate_refusal="") -> MalformedPackets:
    """Drop, with an ``error`` reply, the event packets python-socketio (5.18) would mishandle:

    * an event a client *names* "connect" or "disconnect" goes to the connection handlers: "disconnect" would
      drop the connection's session while it stays connected (every later message silently ignored);
    * more than one argument (``emit("step", 1, 2)``) makes a one-payload handler raise TypeError;
    * an event name that is not a string (a list is not even hashable: the handler lookup raises);
    * binary attachments: the server speaks JSON (``JsonPacket``), and ``echo`` would send them back.

    Wraps ``Server._handle_event``, the one place every event packet passes (tests/web/test_limits.py and the
    fuzz test check that it still does). Screened packets count against the rate limit like any other.

    Malformed packets (``packets.py``: frames Engine.IO or Socket.IO cannot decode) get no reply; events whose
    JSON the boundary refuses (``Undecodable``: nesting, long integers, lone surrogates) get an ``error``. Both
    are offences (``MalformedPackets``, where the rule is): each counts against the rate limit, each kind is
    logged once per connection without a traceback, and a connection that keeps sending them is closed. Returns
    the ``MalformedPackets`` that keeps that count.

    The rate limit is asked before an event packet is decoded: one over it is dropped unparsed (told as the guard
    tells: one ``error`` a second at most), so a connection past its limit costs no parsing; an admitted packet
    spends its token where it is handled (the guard, or here)."""
    malformed = MalformedPackets(server, limiter)
    screen_engineio(server, malformed)  # websocket frames that are not Engine.IO packets never reach Engine.IO
    screen_polling(server, malformed)  # nor do such packets in a long-polling POST
    original = server._handle_event

    def handle_event(eio_sid, namespace, id, data):
        if isinstance(data, Malformed):
            if malformed.report(eio_sid, data.kind):
                malformed.close(eio_sid)
            return None
        problem = packet_problem(data)
        if problem is None:
            return original(eio_sid, namespace, id, data)
        sid = server.manager.sid_from_eio_sid(eio_sid, namespace or "/")
        if sid is None:
            return None
        if isinstance(data, Undecodable):  # an offence: spends the rate limit, closes a repeat offender
            if malformed.report(eio_sid, UNDECODABLE):
                malformed.close(eio_sid)
                return None
            verdict = ADMIT
        else:
            verdict = limiter.check(sid) if limiter is not None else ADMIT
        if verdict != REFUSE:
            if isinstance(data, Undecodable):
                event = data.event
            elif isinstance(data, list) and data:
                event = data[0] if isinstance(data[0], str) else repr(data[0])
            else:
                event = repr(data)
            server.emit("error", {"message": problem if verdict == ADMIT else rate_refusal, "event": event[:60],
                                  "kind": "Invalid" if verdict == ADMIT else "Refusal"},
                        to=sid, namespace=namespace or "/", ignore_queue=True)  # the sid is in this process
        return None

    server._handle_event = handle_event
    original_message = server._handle_eio_message

    def handle_message(eio_sid, data):
        """Engine.IO's "message" handler: a text packet where a binary attachment is due, a binary frame where
        none is (it reached the JSON decoder, whose eventlet path logged a traceback for each), or a packet
        ``_handle_eio_message`` itself refuses (a binary one before connecting), is malformed."""
        pending = server._binary_packet.get(eio_sid)
        binary = isinstance(data, (bytes, bytearray))
        if pending is not None and not binary:
            server._binary_packet.pop(eio_sid, None)
            kind = "a text packet where a binary attachment was due"
        elif pending is None and binary:
            kind = "a binary frame where no attachment was due"
        elif over_limit(eio_sid, data):
            return None
        else:
            try:
                return original_message(eio_sid, data)
            except ValueError as err:  # raised by python-socketio's dispatch (handlers run apart from it)
                kind = f"an unexpected Socket.IO packet ({describe(err)})"
        if malformed.report(eio_sid, kind):
            malformed.close(eio_sid)
        return None

    def over_limit(eio_sid, data) -> bool:
        """Whether an event packet (``2["name",...``, default namespace) is over its connection's rate limit, asked
        before it is decoded; if so it is dropped, and the sender told at most once a second."""
        if limiter is None or not isinstance(data, str) or data[:1] != "2" or data[1:2] == "/":
            return False
        sid = server.manager.sid_from_eio_sid(eio_sid, "/")
        verdict = limiter.check(sid, spend=False) if sid is not None else ADMIT
        if verdict == REFUSE_AND_TELL:
            named = _EVENT_NAME.search(data[:80])
            server.emit("error", {"message": rate_refusal, "event": named[1] if named else "", "kind": "Refusal"},
                        to=sid, namespace="/", ignore_queue=True)
        return verdict != ADMIT

    server.eio.on("message", handle_message)  # registered by name when the server was made
    return malformed


UNDECODABLE = "an event whose JSON was refused at the boundary (nesting, a long integer, a lone surrogate)"


def packet_problem(data) -> str | None:
    if isinstance(data, Undecodable):
        return data.problem
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        return "an event needs a name (a string)"
    if data[0] == "*":  # python-socketio would call the catch-all with the payload as the event name
        return "unknown event '*'"
    if data[0] in RESERVED_EVENTS:
        return f"'{data[0]}' is the name of a connection event; a client cannot send it"
    if len(data) > 2:
        return f"'{data[0][:60]}' takes one payload, not {len(data) - 1}"
    if isinstance(data, Attached) and carries_binary(data[1:]):  # a 0.3 MB payload took 30-190 ms to walk
        return f"'{data[0][:60]}' carries binary data; this server takes JSON only"
    return None


def values_in(data):
    """Every value of a decoded payload, ``data`` first, then its items', depth first (iterative: nesting depth
    costs no recursion; a caller that stops early walks no further)."""
    pending = [data]
    while pending:
        item = pending.pop()
        yield item
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)


def carries_binary(data) -> bool:
    """Whether bytes occur anywhere in ``data``."""
    return any(isinstance(item, (bytes, bytearray)) for item in values_in(data))


# --- the app's guard ----------------------------------------------------------------------------------------
ROOM_CREATING_EVENTS = frozenset({"create_room", "claim_room"})  # claim_room re-creates a room that is gone


class Refusal(UserError):
    """A message dropped by the guard; ``tell``: whether the sender is to be told this time."""

    def __init__(self, message: str, tell: bool = True):
        super().__init__(message)
        self.tell = tell


class Guard:
    """What the namespace asks before handling a message: ``check(sid, event)``."""

    def __init__(self, app, socketio, sessions: dict, rooms, on_sweep=None):
        config = app.config
        rate, burst = float(config["RATE_LIMIT_PER_SECOND"]), float(config["RATE_LIMIT_BURST"])
        self.limiter = RateLimiter(rate, max(burst, 1)) if rate > 0 else None
        self.rate_refusal = rate_limit_message(rate, burst)
        self.max_rooms = int(config["MAX_ROOMS_PER_CONNECTION"])
        self.rooms_refusal = (f"room limit: one connection may create at most {self.max_rooms} rooms; "
                              "reload the page to start again")
        self.sessions = sessions
        self.on_sweep = on_sweep  # what else to forget after a sweep (what was sent to closed connections)
        self._rooms_made: dict[str, int] = {}
        self._lock = threading.Lock()
        self.sweeper = Sweeper(socketio, sessions, rooms, config["SESSION_IDLE_SECONDS"],
                               config["ROOM_IDLE_SECONDS"], config["SWEEP_SECONDS"], on_sweep=self._forget_closed)
        screen_packets(socketio.server, self.limiter, self.rate_refusal)

    def check(self, sid: str, event: str) -> Refusal | None:
        """None: handle the message. Otherwise why it is dropped, and whether to tell the sender (the rate
        limit tells at most once a second)."""
        self.sweeper.ensure_running()
        if self.limiter is not None:
            verdict = self.limiter.check(sid)
            if verdict != ADMIT:
                return Refusal(self.rate_refusal, tell=verdict == REFUSE_AND_TELL)
        if event in ROOM_CREATING_EVENTS:
            with self._lock:
                made = self._rooms_made.get(sid, 0)
                if made < self.max_rooms:
                    self._rooms_made[sid] = made + 1
                    return None
            return Refusal(self.rooms_refusal)
        return None

    def refused(self, sid: str, event: str) -> None:
        """An event ``check`` let through was refused by its handler: a room-creating one created no room, so it
        does not count (ten failed claims used up a connection's rooms)."""
        if event in ROOM_CREATING_EVENTS:
            with self._lock:
                if self._rooms_made.get(sid, 0) > 0:
                    self._rooms_made[sid] -= 1

    def _forget_closed(self) -> None:
        open_now = set(self.sessions)
        if self.limiter is not None:
            self.limiter.keep_only(open_now)
        with self._lock:
            for sid in [s for s in self._rooms_made if s not in open_now]:
                del self._rooms_made[sid]
        if self.on_sweep is not None:
            self.on_sweep()


def init_limits(app, socketio, sessions: dict, rooms, on_sweep=None) -> Guard:
    guard = app.extensions["inflight_guard"] = Guard(app, socketio, sessions, rooms, on_sweep)
    return guard

