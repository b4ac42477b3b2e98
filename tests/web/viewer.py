"""Clients that see what a page sees: every ``delta`` is applied to the client's copy of the last ``state``
(with ``webapp.presenter.apply``, the twin of static/js/delta.js) and handed on as the whole state it makes,
so a test reads whole states whichever way they travelled. A delta that does not follow the copy held (a
gap in ``seq``, or no state yet) fails the test: the server must never send one to a client in step. A client
that can legitimately fall out of step (a follower whose process missed the room's messages while Redis was
down) is given ``resync``: it then does what static/js/model.js does, asks for the whole state once and drops
deltas until it arrives."""

from __future__ import annotations

import copy

from webapp.presenter import apply
from webapp.presenter.messages import traced


def unnumbered(state: dict) -> dict:
    """A state without its ``seq``: the same position reached twice is the same state."""
    return {k: v for k, v in state.items() if k != "seq"}


class Folder:
    """The client models of one connection: one per channel (its own session, and each room it follows)."""

    def __init__(self, resync=None):
        self.models: dict[str | None, dict] = {}  # room code (None: the connection's own session) -> model
        self.resync = resync  # resync(room): ask for the whole state; None: a delta out of step fails the test
        self.awaiting: set = set()  # channels whose whole state was asked for
        self.resyncs = 0
        self.deltas: list[dict] = []  # every delta received, as sent
        self.early: dict = {}  # (room, seq) -> a delta handled before the one it follows

    @property
    def model(self) -> dict | None:
        return self.models.get(None)

    def receive(self, name: str, payload):
        """(name, payload) as a test reads it: a delta comes out as the ``state`` it makes."""
        if name == "state":
            self.models[payload["room"]] = copy.deepcopy(payload)
            self.awaiting.discard(payload["room"])
        elif name == "delta":
            if self.resync and not self.follows(payload):
                return self.ask_again(payload["room"])
            return "state", self.fold(payload)
        return name, payload

    def follows(self, delta: dict) -> bool:
        model = self.models.get(delta["room"])
        return model is not None and delta["seq"] == model["seq"] + 1 and delta["room"] not in self.awaiting

    def ask_again(self, room) -> None:
        if room not in self.awaiting:
            self.awaiting.add(room)
            self.resyncs += 1
            self.resync(room)

    def arrived(self, name: str, payload) -> list:
        """``receive`` for a client that handles messages on threads of their own (python-socketio's): a delta
        ahead of its channel's model waits for the one before it; the messages that can be read now, in order.
        Call it under one lock."""
        if name == "delta" and (model := self.models.get(payload["room"])) and payload["seq"] > model["seq"] + 1:
            self.early[(payload["room"], payload["seq"])] = payload
            return []
        out = [self.receive(name, payload)]
        room = payload.get("room") if isinstance(payload, dict) else None
        while (model := self.models.get(room)) and (nxt := self.early.pop((room, model["seq"] + 1), None)):
            out.append(self.receive("delta", nxt))
        return [message for message in out if message is not None]  # None: a delta dropped while resyncing

    def fold(self, delta: dict) -> dict:
        model = self.models.get(delta["room"])
        assert model is not None, f"a delta before any state of its channel: {delta}"
        assert delta["seq"] == model["seq"] + 1, (delta["room"], delta["seq"], model["seq"])
        self.deltas.append(delta)
        model = {**model, **apply(traced(model), copy.deepcopy(delta["ops"])), "seq": delta["seq"], "playing": delta["playing"], "speed": delta["speed"]}
        assert model["position"] == delta["position"]
        self.models[delta["room"]] = model
        return copy.deepcopy(model)


class Viewer(Folder):
    """Flask-SocketIO's test client, folding deltas in ``get_received``."""

    def __init__(self, client):
        super().__init__()
        self.client = client

    def __getattr__(self, name):
        return getattr(self.client, name)

    def get_received(self, namespace=None):
        out = []
        for message in self.client.get_received(namespace):
            if message["args"]:
                name, payload = self.receive(message["name"], message["args"][0])
                message = {**message, "name": name, "args": [payload]}
            out.append(message)
        return out
