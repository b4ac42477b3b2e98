"""The JSON codec of the Socket.IO server: how packets are decoded at the boundary (``JsonPacket``, python-socketio's
documented ``serializer`` option), how messages are encoded a piece at a time (``encoded``) and how an encoded
message crosses the message queue (``QueueJson``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any, ClassVar

from socketio.packet import ACK, BINARY_ACK, BINARY_EVENT, CONNECT, DISCONNECT, EVENT, Packet

from ..scenario.document import DocumentError, parse_json, too_deep
from .isolated import Runner
from .offences import Malformed, describe


class Encoded(str):
    """A message already encoded as compact JSON (``encoded``): JsonPacket puts it in its packet as it is."""


ENCODE_PIECE = 500  # list items encoded in one call (a short hold of the GIL; bench/abuse.py)


def encoded(message: object) -> Encoded:
    """``json.dumps(message, separators=(",", ":"))`` made a piece at a time: dicts key by key, a list over
    ENCODE_PIECE items in slices. Made on a native thread (Offload), the hub gets the GIL between two pieces
    instead of waiting out one C call over a whole long ``scenario`` message."""
    pieces: list[str] = []
    _encode(message, pieces)
    return Encoded("".join(pieces))


def _encode(value: object, pieces: list[str]) -> None:
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


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


class QueueJson:
    """The message queue's ``json`` (``manager.json``: the manager takes the packets' own, BoundaryJson, when the
    server is made, so it is set after): an emit relayed to the other processes crosses Redis as JSON, where an
    ``Encoded`` message would become a plain string, sent on as a JSON string (followers on the other process got a
    room's new scenario as text). It crosses as {MARK: text} and is ``Encoded`` again on the other side."""

    MARK = "$encoded"

    @staticmethod
    def dumps(message: object, **kwargs: Any) -> str:  # kwargs: json.dumps's own
        if isinstance(message, dict) and isinstance(message.get("data"), list):
            message = {**message, "data": [{QueueJson.MARK: str(v)} if isinstance(v, Encoded) else v
                                           for v in message["data"]]}
        return json.dumps(message, **kwargs)

    @staticmethod
    def loads(text: str | bytes, **kwargs: Any) -> object:  # kwargs: json.loads's own
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
    def dumps(data: object, **kwargs: Any) -> str:  # kwargs: json.dumps's own
        if isinstance(data, list) and any(isinstance(item, Encoded) for item in data):
            return "[" + ",".join(item if isinstance(item, Encoded) else json.dumps(item, **kwargs)
                                  for item in data) + "]"
        return json.dumps(data, **kwargs)

    @staticmethod
    def loads(text: str, **_: object) -> object:
        return parse_json(text, "the message")


class Undecodable:
    """The data of an event packet refused at the boundary: the guard answers it with an ``error``."""

    def __init__(self, event: str, err: DocumentError) -> None:
        self.event = event
        field = re.sub(r"^\[1\]\.?", "", err.field) if err.field != "document" else ""  # [event, payload]
        where = (f"the '{event}' message" if event else "the message") + (f", field '{field}'" if field else "")
        self.problem = f"{where}: {err.reason}"


@dataclass(frozen=True)
class JsonText:
    """A large value of an incoming packet kept as its JSON text (``KEPT_AS_TEXT``): a load waiting for its turn
    holds one string instead of a parsed scenario, which every full garbage collection would walk (on whichever
    thread makes it, holding the GIL). ``value()`` parses it again
    (where it is used: in a worker process)."""

    text: str

    def value(self) -> object:
        parsed: object = json.loads(self.text)
        return parsed


KEPT_AS_TEXT = {"load": "scenario"}  # event -> the field of its object payload a large packet keeps as JsonText


@dataclass(frozen=True)
class Unread:
    """The payload of a large packet refused before it was parsed (``JsonPacket.refuse_large``): the guard
    answers ``refusal`` as the handler would have after parsing it."""

    refusal: Exception


class JsonPacket(Packet):  # type: ignore[misc]  # python-socketio has no types: Packet is Any
    """The server speaks JSON only (python-socketio's documented ``serializer`` option). Outgoing packets are
    never scanned for bytes: the default Packet walks every value of every message in Python to look for
    them, which costs more than the whole step (bench/round_trip.py). An incoming packet that carries binary
    attachments is refused by the guard; no handler sends bytes. An incoming packet whose JSON is
    refused at the boundary becomes an event whose data is ``Undecodable`` (answered with an ``error``); any
    other packet type then carries no data.

    Decoding never raises: a packet that cannot be decoded at all, or of a type a client may not send
    (CONNECT_ERROR, unknown), becomes an event whose data is ``offences.Malformed`` (the guard counts
    it against the rate limit, logs its kind once per connection and closes repeat offenders), where
    python-socketio would log a traceback. A packet over ``LARGE_PACKET`` characters keeps the field
    ``KEPT_AS_TEXT`` names as ``JsonText`` (checked at the boundary, then encoded again); ``parse_apart`` (set by
    the eventlet server, ``offload.init_offload``): how such a packet is decoded off the event loop (eventlet's
    tpool); also how a smaller packet whose JSON nests too deep is decoded (``too_deep`` tells in one linear scan;
    where it goes too deep is a walk over the tokens before it, which a packet can make slow, so it is not done on
    the event loop). ``refuse_large`` (set by the eventlet server, ``offload.init_offload``): () -> the refusal (Busy) a
    large ``KEPT_AS_TEXT`` event would get now, or None; such a packet is then not parsed at all (a client
    retrying a refused load at once would keep native threads parsing large packets, holding the GIL, only to be
    refused)."""

    uses_binary_events = False
    json = BoundaryJson
    LARGE_PACKET = 64 * 1024
    MAX_ATTACHMENTS = 16  # binary attachments are refused anyway (the guard); more are not even awaited
    parse_apart: ClassVar[Runner | None] = None  # read off the class: a function, never bound
    refuse_large: ClassVar[Callable[[], Exception | None] | None] = None
    packet_type: int  # Packet's fields, set by its decode
    data: object
    namespace: str | None
    id: int | None

    def decode(self, encoded_packet: str) -> int:
        if len(encoded_packet) <= self.LARGE_PACKET:
            run = JsonPacket.parse_apart
            if run is not None and _too_deep_text(encoded_packet):  # to be refused: where, off the event loop
                return run(self._decode, encoded_packet)
            return self._decode(encoded_packet)
        refuse = JsonPacket.refuse_large
        named = _KEPT_EVENT.match(encoded_packet) if refuse is not None else None
        refusal = refuse() if refuse is not None and named is not None else None
        if named is not None and refusal is not None:
            self.packet_type, self.data, self.namespace, self.id = EVENT, [named[1], Unread(refusal)], None, None
            return 0
        run = JsonPacket.parse_apart
        return self._decode_large(encoded_packet) if run is None else run(self._decode_large, encoded_packet)

    def _decode_large(self, encoded_packet: str) -> int:
        count = self._decode(encoded_packet)
        data = self.data
        if self.packet_type == EVENT and isinstance(data, list) and len(data) == 2 and isinstance(data[0], str):
            field = KEPT_AS_TEXT.get(data[0])
            if isinstance(data[1], dict) and isinstance(data[1].get(field), dict):
                data[1][field] = JsonText(json.dumps(data[1][field], separators=(",", ":")))
        return count

    def _decode(self, encoded_packet: str) -> int:
        try:
            count: int = super().decode(encoded_packet)
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
    def reconstruct_binary(cls, data: object, attachments: list[bytes]) -> object:
        """A packet's data with its binary attachments put back: marked ``Attached``, the only data in which
        bytes can occur (JSON text holds none), so ``packet_problem`` walks no other payload."""
        data = super().reconstruct_binary(data, attachments)
        return Attached(data) if isinstance(data, list) else data


def _too_deep_text(encoded_packet: str) -> bool:
    """Whether a packet's JSON nests too deep (``too_deep``, one linear scan)."""
    return too_deep(encoded_packet.encode("utf-8", "surrogatepass"))


def event_name(data: object) -> str:
    """An event's name as a reply shows it: of decoded packet data, an ``Undecodable``'s, or read off a packet's
    text (``2["load",{...``: the name, if it is there)."""
    if isinstance(data, str):
        named = _EVENT_NAME.search(data[:80])
        return named[1] if named else ""
    if isinstance(data, Undecodable):
        return data.event
    if isinstance(data, list) and data:
        return data[0] if isinstance(data[0], str) else repr(data[0])
    return repr(data)


class Attached(list[object]):
    """An event's ``[name, *args]`` rebuilt with binary attachments (``JsonPacket.reconstruct_binary``)."""


_EVENT_NAME = re.compile(r'^[^\[]*\[\s*"([^"\\]{1,60})"')
_KEPT_EVENT = re.compile(r'^2\[\s*"(' + "|".join(KEPT_AS_TEXT) + r')"\s*,')  # 2["load",{...: no namespace, no id


def values_in(data: object) -> Iterator[object]:
    """Every value of a decoded payload, ``data`` first, then its items', depth first (iterative: nesting depth
    costs no recursion; a caller that stops early walks no further)."""
    pending: list[object] = [data]
    while pending:
        item = pending.pop()
        yield item
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)


def more_values_than(data: object, most: int) -> bool:
    """Whether ``data`` holds more than ``most`` values (``values_in``), counted no further than that."""
    return next(islice(values_in(data), most, None), _NONE) is not _NONE


_NONE = object()


def carries_binary(data: object) -> bool:
    """Whether bytes occur anywhere in ``data``."""
    return any(isinstance(item, (bytes, bytearray)) for item in values_in(data))
